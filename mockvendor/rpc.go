package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// The JSON-RPC request path, in stages: serveRPC runs answer, which reads
// the body (readBody), the envelope (readEnvelope), the method and its
// dialect (resolveMethod), then answerMethod: the version (negotiate.go),
// the params (decodeParams), the faults' call hooks and the operation's
// handler (rpc_ops.go: serveSend, serveStream, serveGet, serveCancel,
// serveList, serveSubscribe, servePushConfig, serveUnsupported). The
// HTTP+JSON binding (rest.go) reads its route and params in place of the
// envelope and joins at answerMethod.
// A stage or handler that fails returns an error value; rpcFailure maps it
// to the JSON-RPC error and HTTP status, and writeAnswer (rpc_write.go)
// renders either outcome and completes the trace event.

// Call is one JSON-RPC call as the faults see it. Faults may change the
// fields below "fault outputs".
type Call struct {
	Vendor *Vendor
	// Host is the host the call reached (bare-IP hosts as 127.0.0.1:PORT).
	Host    string
	hostKey string // configured name; "127.0.0.1" for bare-IP hosts
	Region  string
	Method  string
	Op      Op
	Dialect Dialect
	// A2AVersion is the request's A2A-Version header ("" when absent).
	A2AVersion string
	// Skill is the skill id the message names ("" = the default skill).
	Skill string
	// Probe is true for a probe send.
	Probe bool
	// Message is the decoded message of a send or stream (nil otherwise).
	Message *Message

	// Fault outputs.

	// AnySkill makes the endpoint run any skill (a reseller gateway's runtime).
	AnySkill bool
	// Hold keeps the task the call creates open (working) until cancelled.
	Hold bool
	// StreamAsJSON answers a stream method with a plain JSON response.
	StreamAsJSON bool
	// FirstFrameDelay holds a stream open this long before its first event.
	FirstFrameDelay time.Duration
	// EndState is the state (0.3 spelling) the task the call creates
	// reaches in place of completed ("": completed), and WorkFor how long
	// it stays working first (0: it is there when the send is answered).
	EndState string
	WorkFor  time.Duration
	// Artifacts are the artifacts the task the call creates holds once
	// completed, in place of its one text artifact (nil: that one; the
	// artifacts fault).
	Artifacts []ArtifactSpec
	// MessageReply answers a send or stream with a Message and creates no
	// task (0.3 and 1.0; a 0.1 send always answers a task).
	MessageReply bool
	// StreamCut ends a stream after its first StreamCut events, the task
	// still running (0: no cut); StreamAbort breaks the connection off
	// there instead of ending the stream cleanly.
	StreamCut   int
	StreamAbort bool
	// Coercions are the parts a fault changed.
	Coercions []Coercion
	// Faults names the faults that acted on the call.
	Faults []string
}

type rpcEnvelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	ID      json.RawMessage `json:"id"`
	Params  json.RawMessage `json:"params"`
	// send is the send params scanRequest read with the envelope (nil:
	// not read; decodeSend reads them).
	send *sendParamsMsg
}

type sendParams struct {
	ID            string          `json:"id"` // 0.1: the client names the task
	SessionID     string          `json:"sessionId"`
	Message       json.RawMessage `json:"message"`
	Configuration sendConfig      `json:"configuration"`
	Metadata      sendMetadata    `json:"metadata"`
}

// sendMetadata is what the fleet reads of a send's params.metadata: the
// skill it names (skillId, when a string) and whether it marks a probe
// (a2a_probe: true). The rest of the object is the client's own.
type sendMetadata struct {
	SkillID string
	Probe   bool
}

// UnmarshalJSON reads the metadata object as encoding/json reads it into
// a map (a key given twice: the last one) and keeps what the fleet uses.
func (m *sendMetadata) UnmarshalJSON(b []byte) error {
	var mm map[string]any
	if err := json.Unmarshal(b, &mm); err != nil {
		return err
	}
	m.SkillID, _ = mm["skillId"].(string)
	m.Probe = mm["a2a_probe"] == true
	return nil
}

// sendConfig is the configuration of a send.
type sendConfig struct {
	Blocking          *bool `json:"blocking"`
	ReturnImmediately bool  `json:"returnImmediately"`
	// HistoryLength caps the history the answer carries (nil: all of it).
	HistoryLength *int `json:"historyLength"`
}

type taskParams struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"` // "tasks/{id}", an early 1.0 spelling
	Metadata map[string]any `json:"metadata"`
	// HistoryLength caps the history a get answers with (nil: all of it).
	HistoryLength *int `json:"historyLength"`
}

// rpcRequest is one JSON-RPC request as the stages of serveRPC read it:
// readBody, readEnvelope, resolveMethod (the dialect), decodeParams, the
// fault hooks and the operation's handler.
type rpcRequest struct {
	host    *host
	version string // the A2A-Version header (else query parameter)
	// lenient is whether a lenient-version fault lets the method's dialect
	// win over the version (negotiate.go).
	lenient bool
	// notification is a request without an id member: it gets no answer.
	notification bool
	// rest is a request to the HTTP+JSON binding (rest.go): 1.0 only, its
	// answers and errors in that binding's form.
	rest bool
	// fast is whether the JSON fast path is on (Config.PlainJSON false).
	fast bool
	// id is the id the answer carries (nil: null).
	id     json.RawMessage
	method string
	info   methodInfo
	known  bool
	// dialect is the dialect the answer speaks: the method's, else guessed
	// from the header (dialectFromHeader) until the method is known.
	dialect Dialect
	params  json.RawMessage
	// scanned are the send params scanRequest read (nil: none).
	scanned *sendParamsMsg
	// send holds the params of a send or stream; task those of a get or
	// cancel, with taskErr the error decoding them gave (reported by the
	// handler, after the fault hooks).
	send    sendParams
	task    taskParams
	taskErr error
	call    *Call
	now     time.Time
}

// rpcResult is an operation's successful answer, with what the trace
// records of it. Exactly one of value, body and stream is set.
type rpcResult struct {
	// value is the JSON-RPC result, encoded by encodeAnswer.
	value any
	// body is the whole response object, already encoded (the fast path).
	body []byte
	// stream are the results of a stream answered as server-sent events.
	stream []any
	// taskID and state (0.3 spelling) are the task the answer carries.
	taskID, state string
	// restAfter delays the stream's events from restFrom on (0: from the
	// second); task is the task the stream follows (nil for a Message), whose
	// cancel ends that wait with its canceled status.
	restAfter time.Duration
	restFrom  int
	task      *task
	// message is true when the answer is a Message and no task.
	message bool
	// abort breaks the connection off after the stream's events instead
	// of ending the stream (stream-cut).
	abort bool
}

// rpcHandler answers one operation; an error is answered by rpcFailure.
type rpcHandler func(h *host, q *rpcRequest) (rpcResult, error)

// opHandlers answer the operations the fleet implements; handlerOf picks
// the answer for the rest.
var opHandlers = map[Op]rpcHandler{
	OpSend:   (*host).serveSend,
	OpStream: (*host).serveStream,
	OpGet:    (*host).serveGet,
	OpCancel: (*host).serveCancel,
}

// taskHandlers answer the task operations the trace records as OpOther.
var taskHandlers = map[taskOp]rpcHandler{
	taskList:      (*host).serveList,
	taskSubscribe: (*host).serveSubscribe,
}

// handlerOf returns the handler of a known method.
func handlerOf(info methodInfo) rpcHandler {
	if hd, ok := opHandlers[info.op]; ok {
		return hd
	}
	if hd, ok := taskHandlers[info.task]; ok {
		return hd
	}
	if info.push {
		return (*host).servePushConfig
	}
	return (*host).serveUnsupported
}

// serveRPC answers one JSON-RPC request on host h.
func (h *host) serveRPC(w http.ResponseWriter, r *http.Request, ev *Event) {
	version := headerGet(r.Header, a2aVersionKey)
	if version == "" && r.URL.RawQuery != "" {
		version = r.URL.Query().Get("A2A-Version") // §3.6.1: a query parameter instead
	}
	q := &rpcRequest{host: h, version: version, dialect: dialectFromHeader(version), fast: !h.vendor.fleet.cfg.PlainJSON}
	q.lenient = h.vendor.lenient(h.sanName())
	res, err := h.answer(w, r, q, ev)
	h.writeAnswer(w, r, q, res, err, ev)
}

// answer runs the stages of a request in order; the first error answers it.
func (h *host) answer(w http.ResponseWriter, r *http.Request, q *rpcRequest, ev *Event) (rpcResult, error) {
	body, err := h.readBody(w, r, ev)
	if err != nil {
		return rpcResult{}, err
	}
	if ct := r.Header.Get("Content-Type"); !jsonContentType(ct) {
		return rpcResult{}, &contentTypeError{ct} // A2A 1.0 §9.1: application/json
	}
	env, err := readEnvelope(body, q.fast, ev)
	if err != nil {
		return rpcResult{}, err
	}
	if err := q.resolveMethod(env, ev); err != nil {
		return rpcResult{}, err
	}
	return h.answerMethod(q, ev)
}

// answerMethod runs the stages after the method is known, which both
// bindings share: the version, the params, the fault hooks and the
// operation's handler.
func (h *host) answerMethod(q *rpcRequest, ev *Event) (rpcResult, error) {
	if err := q.negotiate(); err != nil {
		return rpcResult{}, err
	}
	if err := h.checkTenant(q, ev); err != nil {
		return rpcResult{}, err
	}
	if err := q.decodeParams(ev); err != nil {
		return rpcResult{}, err
	}
	if err := h.vendor.authenticate(ev); err != nil {
		return rpcResult{}, err
	}
	if e := h.vendor.runCallHooks(q.call); e != nil {
		return rpcResult{}, e
	}
	if !q.known {
		return rpcResult{}, errMethodNotFound(q.method)
	}
	q.now = time.Now()
	return handlerOf(q.info)(h, q)
}

// bodyTooLargeError is a request body over Limits.MaxBody; size is the
// announced Content-Length (0: the limit was hit while reading).
type bodyTooLargeError struct{ size, limit int64 }

func (e *bodyTooLargeError) Error() string {
	if e.size > 0 {
		return fmt.Sprintf("body of %d bytes is over the %d byte limit", e.size, e.limit)
	}
	return fmt.Sprintf("body is over the %d byte limit", e.limit)
}

// rpc is the JSON-RPC error of the body: -32600 with the limit (and the
// announced size) as data.
func (e *bodyTooLargeError) rpc() *RPCError {
	r := errInvalidRequest(e.Error())
	r.Data = map[string]any{"maxBodyBytes": e.limit}
	if e.size > 0 {
		r.Data["bodyBytes"] = e.size
	}
	return r
}

// bodyReadError is a body that could not be read whole; read is how many
// bytes arrived.
type bodyReadError struct {
	err  error
	read int
}

func (e *bodyReadError) Error() string { return "reading body: " + e.err.Error() }

// rpc is the JSON-RPC error of the body: -32700 with the bytes read as
// data.
func (e *bodyReadError) rpc() *RPCError {
	r := errParse(e.Error())
	r.Data = map[string]any{"bytesRead": e.read}
	return r
}

// rpcFailure maps the error of a stage or handler to the JSON-RPC error
// and HTTP status that answer it. It is the one place where errors become
// wire errors.
func rpcFailure(err error) (*RPCError, int) {
	var tooBig *bodyTooLargeError
	var unread *bodyReadError
	var noRoute *routeError
	var badType *contentTypeError
	var rpcErr *RPCError
	var unauth *authError
	switch {
	case errors.As(err, &unauth):
		return unauth.rpc, http.StatusUnauthorized
	case errors.As(err, &tooBig):
		return tooBig.rpc(), http.StatusRequestEntityTooLarge
	case errors.As(err, &unread):
		return unread.rpc(), http.StatusOK
	case errors.As(err, &noRoute):
		return errMethodNotFound(noRoute.method + " " + noRoute.path), http.StatusOK
	case errors.As(err, &badType):
		return badType.rpc(), http.StatusUnsupportedMediaType
	case errors.As(err, &rpcErr):
		return rpcErr, http.StatusOK
	}
	return errInternal(err.Error()), http.StatusOK
}

// readBody reads the request body within the fleet's body limit.
func (h *host) readBody(w http.ResponseWriter, r *http.Request, ev *Event) ([]byte, error) {
	limit := h.vendor.fleet.limits.MaxBody
	if r.ContentLength > limit {
		return nil, &bodyTooLargeError{size: r.ContentLength, limit: limit}
	}
	body, err := readAllSized(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		ev.Note = "body not read whole"
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &bodyTooLargeError{limit: limit}
		}
		return nil, &bodyReadError{err: err, read: len(body)}
	}
	return body, nil
}

// readEnvelope checks that body is one JSON-RPC request object and reads
// its members; the trace keeps the body when it is JSON and small enough.
// The fast path reads and checks the body in one pass; what it declines is
// checked and read by encoding/json, as with Config.PlainJSON.
func readEnvelope(body []byte, fast bool, ev *Event) (rpcEnvelope, error) {
	if fast {
		if env, p, ok := scanRequest(body); ok {
			if len(body) <= MaxTracedBody {
				ev.Request = body
			}
			env.send = p
			return env, nil
		}
		if env, ok := readEnvelopeFast(body); ok {
			if len(body) <= MaxTracedBody {
				ev.Request = body
			}
			return env, nil
		}
	}
	trimmed := bytes.TrimSpace(body)
	valid := json.Valid(trimmed)
	// body is valid JSON exactly when trimmed is and nothing but JSON
	// whitespace was trimmed; scan body again only when something was.
	if len(body) <= MaxTracedBody && (len(trimmed) == len(body) && valid || len(trimmed) != len(body) && json.Valid(body)) {
		ev.Request = body
	}
	if !valid {
		return rpcEnvelope{}, notJSON(body)
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return rpcEnvelope{}, errInvalidRequest("batch requests are not supported by A2A")
	}
	var env rpcEnvelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return rpcEnvelope{}, errInvalidRequest("the body is not a JSON-RPC request object")
	}
	return env, nil
}

// resolveMethod checks the envelope's jsonrpc, method and id, and settles
// the operation and the dialect: the method's own, else (tasks/get,
// tasks/cancel, unknown names) the dialect of the task the params name,
// then the A2A-Version header's.
func (q *rpcRequest) resolveMethod(env rpcEnvelope, ev *Event) error {
	q.id = validID(env.ID)
	ev.RPCID = q.id
	if string(env.JSONRPC) != `"2.0"` {
		return errInvalidRequest(`jsonrpc must be "2.0"`)
	}
	method, ok := "", false
	if q.fast {
		method, ok = readMethodFast(env.Method)
	}
	if !ok {
		method = jsonString(env.Method)
	}
	if method == "" {
		return errInvalidRequest("method must be a non-empty string")
	}
	if env.ID != nil && q.id == nil {
		return errInvalidRequest("id must be a string, a number or null")
	}
	q.notification = env.ID == nil
	q.method, q.params, q.scanned = method, env.Params, env.send
	q.info, q.known = methods[method]
	if q.info.dialect == Dialect10 && q.info.op != OpSend && q.info.op != OpStream {
		q.params = a2a.ProtoNamesToJSON(q.params) // a send renames only what its fast path declines
	}
	if q.info.op == OpGet || q.info.op == OpCancel || q.info.task == taskSubscribe {
		q.task, q.taskErr = decodeTaskParams(q.params)
	}
	if d := q.methodDialect(); d != "" {
		q.dialect = d
	}
	ev.Method, ev.Dialect, ev.Op = method, string(q.dialect), q.info.op
	if !q.known {
		ev.Op = OpOther
	}
	return nil
}

// methodDialect is the dialect the method settles: its own, else for
// tasks/get and tasks/cancel the named task's (0.3 when there is none and
// the header does not ask for 1.x); "" leaves the header's guess.
func (q *rpcRequest) methodDialect() Dialect {
	if d := q.info.dialect; d != "" || q.info.op != OpGet && q.info.op != OpCancel && q.info.task != taskSubscribe {
		return d
	}
	t := q.host.vendor.fleet.tasks.Get(q.host.vendor.cfg.ID, q.task.taskID())
	switch {
	case !q.lenient && t != nil && t.Dialect == Dialect01:
		return Dialect01
	case !q.lenient:
		// A 0.x name is answered in 0.x shapes, whatever dialect made the
		// task (negotiate refuses it under a 1.x version).
		return Dialect03
	case t != nil:
		return t.Dialect
	case !strings.HasPrefix(q.version, "1."):
		return Dialect03
	}
	return ""
}

// decodeParams checks that the params are an object, makes the Call the
// faults see, and decodes the params of a send or stream (the message) or
// of a get or cancel (the task id, which the trace records, probes marked).
func (q *rpcRequest) decodeParams(ev *Event) error {
	if len(q.params) > 0 && (bytes.TrimSpace(q.params)[0] != '{') {
		return errInvalidParams("params must be an object")
	}
	h := q.host
	c := &Call{Vendor: h.vendor, Host: h.name, hostKey: h.sanName(), Region: h.cfg.Region, Method: q.method, Op: ev.Op, Dialect: q.dialect, A2AVersion: q.version}
	q.call = c
	switch q.info.op {
	case OpSend, OpStream:
		msg, err := decodeSend(q.params, q.scanned, q.dialect, q.fast, &q.send)
		if err != nil {
			return err
		}
		if q.dialect == Dialect01 && q.send.ID == "" {
			return errInvalidParams("params.id is required: a 0.1 client names its task")
		}
		c.Message = msg
		c.Skill = skillOf(q.send.Metadata.SkillID, msg.Metadata)
		c.Probe = isProbe(q.send.Metadata, msg)
		ev.Skill, ev.Probe = c.Skill, c.Probe
	case OpGet, OpCancel, OpOther:
		// A get for a synthetic id marked as a probe checks that the
		// endpoint implements the task lifecycle (-32001 expected) [seed
		// 000, Condition of Validity]; it is recorded as a probe, whatever
		// a fault answers.
		if id := q.task.taskID(); q.taskErr == nil && id != "" {
			ev.TaskID = id
			ev.Probe = q.task.Metadata["a2a_probe"] == true || strings.HasPrefix(id, ProbeText)
		}
	}
	return nil
}

// decodeSend decodes the params of a send or stream and their message;
// scanned are the params as scanRequest read them, if it did.
func decodeSend(params json.RawMessage, scanned *sendParamsMsg, d Dialect, fast bool, sp *sendParams) (*Message, error) {
	if fast {
		if msg, ok := decodeSendFast(params, scanned, d, sp); ok {
			return msg, nil
		}
	}
	if d == Dialect10 {
		params = a2a.ProtoNamesToJSON(params)
	}
	*sp = sendParams{}
	if err := json.Unmarshal(nonNull(params), sp); err != nil {
		return nil, errInvalidParams(err.Error())
	}
	msg, err := a2a.DecodeMessage(sp.Message, d)
	if err != nil {
		return nil, errInvalidParams(err.Error())
	}
	return msg, nil
}

// decodeTaskParams decodes the params of a get or cancel.
func decodeTaskParams(params json.RawMessage) (taskParams, error) {
	var tp taskParams
	err := json.Unmarshal(nonNull(params), &tp)
	return tp, err
}

// taskID is the task the params name: id, else the early 1.0 name.
func (tp *taskParams) taskID() string {
	if tp.ID != "" {
		return tp.ID
	}
	return strings.TrimPrefix(tp.Name, "tasks/")
}

// skillOf reads the skill a message is for: params.metadata.skillId
// (params), then params.message.metadata.skillId.
func skillOf(params string, msg map[string]any) string {
	if params != "" {
		return params
	}
	if s, ok := msg["skillId"].(string); ok {
		return s
	}
	return ""
}

// ProbeText is the text of a probe part [seed 000, Decision Boundary].
const ProbeText = "__probe__"

// isProbe reports whether a send is a probe: its only text part is
// __probe__, or params, message or a part carries a2a_probe: true.
func isProbe(params sendMetadata, m *Message) bool {
	if params.Probe || m.Metadata["a2a_probe"] == true {
		return true
	}
	texts := 0
	probeText := false
	for _, p := range m.Parts {
		if p.Metadata["a2a_probe"] == true {
			return true
		}
		switch p.Kind {
		case "text":
			texts++
			probeText = p.Text == ProbeText
		case "data":
			var d map[string]any
			if json.Unmarshal(p.Data, &d) == nil && d["a2a_probe"] == true {
				return true
			}
		}
	}
	return texts == 1 && probeText
}

// summarize describes a message's parts in one line for the trace
// ("text \"...\", data {...}"), each at most 80 bytes of its content.
func summarize(m *Message) string { return string(appendSummary(nil, m)) }

// appendSummary appends summarize(m) to b.
func appendSummary(b []byte, m *Message) []byte {
	for i, p := range m.Parts {
		if i > 0 {
			b = append(b, ", "...)
		}
		switch p.Kind {
		case "text":
			b = strconv.AppendQuote(append(b, "text "...), clip(p.Text, 80))
		case "data":
			b = append(append(b, "data "...), clip(string(p.Data), 80)...)
		default:
			b = append(b, p.Kind...)
		}
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// jsonString is the string raw holds as json.Unmarshal reads it, "" when
// it holds no string.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// validID returns the id if it is a string, a number or null, else nil.
func validID(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	switch {
	case t[0] == '"', t[0] == '-', t[0] >= '0' && t[0] <= '9', string(t) == "null":
		return t
	}
	return nil
}

func idOrNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

func nonNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// headerGet is h.Get(key) for a key already in canonical form.
func headerGet(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// readAllSized is io.ReadAll with a first buffer of the announced size (so
// a body kept in the trace holds no slack); size <= 0 means unknown.
func readAllSized(rd io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > 1<<20 {
		return io.ReadAll(rd)
	}
	b := make([]byte, 0, size+1) // +1: the read that finds EOF needs room
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
