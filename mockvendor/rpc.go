package mockvendor

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// The JSON-RPC binding's read side (A2A 1.0 §9): serveRPC reads the body,
// the envelope (readEnvelope) and the method with its dialect
// (resolveMethod), then joins the stages both bindings share
// (request.go: answerMethod); jsonrpcBinding (rpc_write.go) renders the
// answer.

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

// serveRPC answers one JSON-RPC request on host h.
func (h *host) serveRPC(w http.ResponseWriter, r *http.Request, ev *Event) {
	version := requestVersion(r)
	q := &request{host: h, binding: jsonrpcBinding{}}
	q.fast, q.version, q.dialect = !h.vendor.fleet.cfg.PlainJSON, version, dialectFromHeader(version)
	q.lenient = h.vendor.lenient(h.sanName())
	res, err := h.readRPC(w, r, q, ev)
	h.respond(w, r, q, res, err, ev)
}

// readRPC runs the stages of a JSON-RPC request in order; the first error
// answers it.
func (h *host) readRPC(w http.ResponseWriter, r *http.Request, q *request, ev *Event) (result, error) {
	body, err := h.readBody(w, r, ev)
	if err != nil {
		return result{}, err
	}
	if ct := r.Header.Get("Content-Type"); !jsonContentType(ct) {
		return result{}, &contentTypeError{ct} // A2A 1.0 §9.1: application/json
	}
	env, err := readEnvelope(body, q.fast, ev)
	if err != nil {
		return result{}, err
	}
	if err := q.resolveMethod(env, ev); err != nil {
		return result{}, err
	}
	return h.answerMethod(q, ev)
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
		return rpcEnvelope{}, a2a.InvalidRequest("batch requests are not supported by A2A")
	}
	var env rpcEnvelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return rpcEnvelope{}, a2a.InvalidRequest("the body is not a JSON-RPC request object")
	}
	return env, nil
}

// resolveMethod checks the envelope's jsonrpc, method and id, and settles
// the operation and the dialect: the method's own, else (tasks/get,
// tasks/cancel, unknown names) the dialect of the task the params name,
// then the A2A-Version header's.
func (q *request) resolveMethod(env rpcEnvelope, ev *Event) error {
	q.id = validID(env.ID)
	ev.RPCID = q.id
	if string(env.JSONRPC) != `"2.0"` {
		return a2a.InvalidRequest(`jsonrpc must be "2.0"`)
	}
	method, ok := "", false
	if q.fast {
		method, ok = readMethodFast(env.Method)
	}
	if !ok {
		method = jsonString(env.Method)
	}
	if method == "" {
		return a2a.InvalidRequest("method must be a non-empty string")
	}
	if env.ID != nil && q.id == nil {
		return a2a.InvalidRequest("id must be a string, a number or null")
	}
	q.notification = env.ID == nil
	q.method, q.params, q.scanned = method, env.Params, env.send
	q.info, q.known = methods[method]
	if q.info.dialect == Dialect10 && q.info.op != OpSend && q.info.op != OpStream {
		q.params = a2a.ProtoNamesToJSON(q.params) // a send renames only what its fast path declines
	}
	if q.info.op == OpGet || q.info.op == OpCancel || q.info.op == OpSubscribe {
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
func (q *request) methodDialect() Dialect {
	if d := q.info.dialect; d != "" || q.info.op != OpGet && q.info.op != OpCancel && q.info.op != OpSubscribe {
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
		return nil, a2a.InvalidParams(err.Error())
	}
	msg, err := a2a.DecodeMessage(sp.Message, d)
	if err != nil {
		return nil, a2a.InvalidParams(err.Error())
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

// ProbeText is the text of a probe part [card as claim, not contract: Decision Boundary].
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
