package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// A request's path through an endpoint, in stages. A binding's handler
// reads what is its own: the JSON-RPC binding (rpc.go: serveRPC) the
// body, the envelope and the method; the HTTP+JSON binding (rest.go:
// serveREST) the route and the body or query. Both then run answerMethod,
// the stages they share: the version (negotiate.go), the tenant
// (card_iface.go), the params (decodeParams), authentication, the faults'
// call hooks and the operation (ops.go: doSend, doStream, doGet, doCancel,
// doList, doSubscribe, doPushConfig, doUnsupported). A stage or operation
// that fails returns an error value; wireError maps it to the A2A error
// and HTTP status, and respond (answer.go) has the request's binding
// render either outcome (rpc_write.go, rest.go) and completes the trace
// event.

// binding is one protocol binding of the fleet's endpoints (A2A 1.0 §5.3:
// JSON-RPC, HTTP+JSON): everything about a request and its answer that
// differs between bindings; jsonrpcBinding (rpc_write.go) and restBinding
// (rest.go) implement it. A binding encodes its answers, stream events
// and errors; respond (answer.go) writes them, with what every binding
// shares (headers, trace, the server-sent events both bindings stream
// with), so that no *Event passes through the interface (escape analysis
// would then move every request's Event to the heap).
type binding interface {
	// name is the protocolBinding a card names the binding by.
	name() string
	// path is host h's endpoint path for the binding ("" for none).
	path(h *host) string
	// offers reports whether the binding offers A2A version (Major.Minor).
	offers(version string) bool
	// tenant is the tenant the request names ("" for none).
	tenant(q *request) string
	// answers reports whether the request gets an answer (false: a
	// JSON-RPC notification).
	answers(q *request) bool
	// answer encodes a successful answer that is not a stream.
	answer(q *request, res result) []byte
	// frame encodes one stream event: the data of its server-sent event.
	frame(q *request, item any) []byte
	// errorAnswer encodes the A2A error rpcErr, status being the HTTP
	// status wireError gave it: the HTTP status to answer with, the body,
	// and whether the body goes as a stream's one event instead.
	errorAnswer(q *request, rpcErr *RPCError, status int) (httpStatus int, body []byte, asEvent bool)
}

// request is one request as the stages read it: the binding that
// answers it, what the binding read of its envelope (envelope) and what
// the operation works with (opRequest).
type request struct {
	host    *host
	binding binding
	envelope
	opRequest
}

// envelope is what a binding reads of a request around its operation and
// needs to answer it.
type envelope struct {
	// id is the JSON-RPC id the answer carries (nil: null).
	id json.RawMessage
	// scanned are the send params the JSON-RPC fast path read with the
	// envelope (scanRequest; nil: none).
	scanned *sendParamsMsg
	// tenant is the /{tenant} segment of the HTTP+JSON route ("" for none;
	// a JSON-RPC request names its tenant in its params).
	tenant string
	// notification is a JSON-RPC request without an id member: it gets no
	// answer.
	notification bool
	// fast is whether the JSON fast path is on (Config.PlainJSON false).
	fast bool
}

// opRequest is the operation part of a request: what an operation reads,
// whatever the binding.
type opRequest struct {
	// version is the A2A-Version header (else query parameter).
	version string
	// method is the operation's method name: the JSON-RPC method as sent,
	// or the 1.0 method name of the HTTP+JSON route.
	method string
	info   methodInfo
	known  bool
	// lenient is whether a lenient-version fault lets the method's dialect
	// win over the version (negotiate.go).
	lenient bool
	// dialect is the dialect the answer speaks: the method's, else guessed
	// from the header (dialectFromHeader) until the method is known.
	dialect Dialect
	params  json.RawMessage
	// send holds the params of a send or stream; task those of a get or
	// cancel, with taskErr the error decoding them gave (reported by the
	// operation, after the fault hooks).
	send    sendParams
	task    taskParams
	taskErr error
	call    *Call
	now     time.Time
}

// result is an operation's successful answer, with what the trace records
// of it. Exactly one of value, sent and stream is set.
type result struct {
	// value is the answer's result object in the request's dialect, which
	// the binding wraps (JSON-RPC) or sends bare (HTTP+JSON).
	value any
	// sent is a send's task, rendered by the binding (sent.task nil: none).
	sent sentTask
	// stream are the events of a stream answered as server-sent events,
	// the same events in every dialect: an event the dialect does not send
	// is nil (a 0.1 stream starts with the working status, not the task).
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

// sentTask is the task a send (or a stream answered as plain JSON)
// answers with, before a binding renders it: task in the result's state
// at now, in dialect, its history capped at history (nil: all of it).
type sentTask struct {
	task    *task
	dialect Dialect
	now     time.Time
	history *int
}

// operation answers one operation; an error is answered by wireError.
type operation func(h *host, q *opRequest) (result, error)

// operations answer the operations the fleet implements, one each;
// operationOf picks the answer for the methods it knows but does not offer.
var operations = map[Op]operation{
	OpSend:         (*host).doSend,
	OpStream:       (*host).doStream,
	OpGet:          (*host).doGet,
	OpCancel:       (*host).doCancel,
	OpList:         (*host).doList,
	OpSubscribe:    (*host).doSubscribe,
	OpPushConfig:   (*host).doPushConfig,
	OpExtendedCard: (*host).doExtendedCard,
}

// operationOf returns the operation of a known method.
func operationOf(info methodInfo) operation {
	if op, ok := operations[info.op]; ok {
		return op
	}
	return (*host).doUnsupported
}

// answerMethod runs the stages after the method is known, which the
// bindings share: the version, the tenant, the params, authentication,
// the fault hooks and the operation.
func (h *host) answerMethod(q *request, ev *Event) (result, error) {
	if err := q.negotiate(); err != nil {
		return result{}, err
	}
	if err := h.checkTenant(q, ev); err != nil {
		return result{}, err
	}
	if err := q.decodeParams(ev); err != nil {
		return result{}, err
	}
	if err := h.vendor.authenticate(ev); err != nil {
		return result{}, err
	}
	if e := h.vendor.runCallHooks(h.sanName(), q.call); e != nil {
		return result{}, e
	}
	if !q.known {
		return result{}, a2a.MethodNotFound(q.method)
	}
	q.now = time.Now()
	return operationOf(q.info)(h, &q.opRequest)
}

// decodeParams checks that the params are an object, makes the Call the
// faults see, and decodes the params of a send or stream (the message) or
// of a get or cancel (the task id, which the trace records, probes marked).
func (q *request) decodeParams(ev *Event) error {
	if len(q.params) > 0 && (bytes.TrimSpace(q.params)[0] != '{') {
		return a2a.InvalidParams("params must be an object")
	}
	h := q.host
	c := &Call{Vendor: h.vendor.view(), Host: h.name, Region: h.cfg.Region, Method: q.method, Op: ev.Op, Dialect: q.dialect, A2AVersion: q.version}
	q.call = c
	switch q.info.op {
	case OpSend, OpStream:
		msg, err := decodeSend(q.params, q.scanned, q.dialect, q.fast, &q.send)
		if err != nil {
			return err
		}
		if q.dialect == Dialect01 && q.send.ID == "" {
			return a2a.InvalidParams("params.id is required: a 0.1 client names its task")
		}
		c.Message = msg
		c.Skill = skillOf(q.send.Metadata.SkillID, msg.Metadata)
		c.Probe = isProbe(q.send.Metadata, msg)
		ev.Skill, ev.Probe = c.Skill, c.Probe
	case OpGet, OpCancel, OpSubscribe:
		// A get for a synthetic id marked as a probe checks that the
		// endpoint implements the task lifecycle (-32001 expected) [card
		// as claim, not contract: Condition of Validity]; it is recorded as
		// a probe, whatever a fault answers.
		if id := q.task.taskID(); q.taskErr == nil && id != "" {
			ev.TaskID = id
			ev.Probe = q.task.Metadata["a2a_probe"] == true || strings.HasPrefix(id, ProbeText)
		}
	}
	return nil
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
	r := a2a.InvalidRequest(e.Error())
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
	r := a2a.ParseError(e.Error())
	r.Data = map[string]any{"bytesRead": e.read}
	return r
}

// wireError maps the error of a stage or operation to the A2A error and
// the HTTP status that answer it (200: the binding's own for the error).
// It is the one place where errors become wire errors.
func wireError(err error) (*RPCError, int) {
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
		return a2a.MethodNotFound(noRoute.method + " " + noRoute.path), http.StatusOK
	case errors.As(err, &badType):
		return badType.rpc(), http.StatusUnsupportedMediaType
	case errors.As(err, &rpcErr):
		return rpcErr, http.StatusOK
	}
	return a2a.Internal(err.Error()), http.StatusOK
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

// requestVersion is the A2A-Version the request names: the header, else
// the query parameter (A2A 1.0 §3.6.1).
func requestVersion(r *http.Request) string {
	version := headerGet(r.Header, a2aVersionKey)
	if version == "" && r.URL.RawQuery != "" {
		version = r.URL.Query().Get("A2A-Version")
	}
	return version
}
