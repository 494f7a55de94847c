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
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
)

// A request's path through an endpoint, in stages. A binding's handler
// reads what is its own: the JSON-RPC binding (rpc.go: serveRPC) the
// body, the envelope and the method; the HTTP+JSON binding (rest.go:
// serveREST) the route and the body or query. Both then run answerMethod,
// the stages they share: the version (negotiate.go), the tenant
// (endpoint.go), the params (decodeParams), authentication, the faults'
// call hooks and the operation (internal/ops: ops.Run, one implementation
// of each operation over ops.Request and ops.Result). A stage or operation
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
	answer(q *request, res ops.Result) []byte
	// frame encodes one stream event: the data of its server-sent event.
	frame(q *request, item any) []byte
	// errorAnswer encodes the A2A error rpcErr, status being the HTTP
	// status wireError gave it: the HTTP status to answer with, the body,
	// and whether the body goes as a stream's one event instead.
	errorAnswer(q *request, rpcErr *RPCError, status int) (httpStatus int, body []byte, asEvent bool)
}

// request is one request as the stages read it: the binding that
// answers it, what the binding read of its envelope (envelope) and what
// the operation works with (ops.Request).
type request struct {
	host    *host
	binding binding
	envelope
	// info is the method's operation and dialect (methods.go); known is
	// false for a method the fleet does not know.
	info  methodInfo
	known bool
	// lenient is whether a lenient-version fault lets the method's dialect
	// win over the version (negotiate.go).
	lenient bool
	ops.Request
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

// answerMethod runs the stages after the method is known, which the
// bindings share: the version, the tenant, the params, authentication,
// the fault hooks and the operation.
func (h *host) answerMethod(q *request, ev *Event) (ops.Result, error) {
	if err := q.negotiate(); err != nil {
		return ops.Result{}, err
	}
	if err := h.checkTenant(q, ev); err != nil {
		return ops.Result{}, err
	}
	if err := q.decodeParams(ev); err != nil {
		return ops.Result{}, err
	}
	if err := h.vendor.authenticate(ev); err != nil {
		return ops.Result{}, err
	}
	if e := h.vendor.runCallHooks(h.sanName(), q.Call); e != nil {
		return ops.Result{}, e
	}
	if !q.known {
		return ops.Result{}, a2a.MethodNotFound(q.Method)
	}
	q.Op, q.Now = q.info.op, time.Now()
	return ops.Run((*opsVendor)(h.vendor), &q.Request)
}

// decodeParams checks that the params are an object, makes the Call the
// faults see, and decodes the params of a send or stream (the message) or
// of a get or cancel (the task id, which the trace records, probes marked).
func (q *request) decodeParams(ev *Event) error {
	if len(q.Params) > 0 && (bytes.TrimSpace(q.Params)[0] != '{') {
		return a2a.InvalidParams("params must be an object")
	}
	h := q.host
	c := &Call{Vendor: h.vendor.view(), Host: h.name, Region: h.cfg.Region, Method: q.Method, Op: ev.Op, Dialect: q.Dialect, A2AVersion: q.Version}
	q.Call = c
	switch q.info.op {
	case OpSend, OpStream:
		msg, err := decodeSend(q.Params, q.scanned, q.Dialect, q.fast, &q.Send)
		if err != nil {
			return err
		}
		if q.Dialect == Dialect01 && q.Send.ID == "" {
			return a2a.InvalidParams("params.id is required: a 0.1 client names its task")
		}
		c.Message = msg
		c.Skill = ops.SkillOf(q.Send.Metadata.SkillID, msg.Metadata)
		c.Probe = ops.IsProbe(q.Send.Metadata, msg)
		ev.Skill, ev.Probe = c.Skill, c.Probe
	case OpGet, OpCancel, OpSubscribe:
		// A get for a synthetic id marked as a probe checks that the
		// endpoint implements the task lifecycle (-32001 expected) [card
		// as claim, not contract: Condition of Validity]; it is recorded as
		// a probe, whatever a fault answers.
		if id := q.Task.TaskID(); q.TaskErr == nil && id != "" {
			ev.TaskID = id
			ev.Probe = q.Task.Metadata["a2a_probe"] == true || strings.HasPrefix(id, ProbeText)
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

// a2aVersionKey is "A2A-Version" in canonical form, so that reading and
// setting it does not canonicalize (and allocate) on every request.
var a2aVersionKey = http.CanonicalHeaderKey("A2A-Version")
