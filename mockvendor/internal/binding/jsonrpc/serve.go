package jsonrpc

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The JSON-RPC binding's read side (A2A 1.0 §9): Serve reads the body,
// the envelope (readEnvelope) and the method with its dialect
// (resolveMethod), then joins the stages every binding shares
// (binding.Handle); render.go renders the answer.

// envelope is the members of a JSON-RPC request object.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	ID      json.RawMessage `json:"id"`
	Params  json.RawMessage `json:"params"`
	// send is the send params scanRequest read with the envelope (nil:
	// not read; decodeSend reads them).
	send *sendParamsMsg
}

// request is one JSON-RPC request: the shared binding.Request and what
// the binding read of its envelope and needs to answer it. It is the
// request's binding.Binding (render.go).
type request struct {
	binding.Request
	// id is the JSON-RPC id the answer carries (nil: null).
	id json.RawMessage
	// scanned are the send params the fast path read with the envelope
	// (scanRequest; nil: none).
	scanned *sendParamsMsg
	// notification is a request without an id member: it gets no answer.
	notification bool
	// fast is whether the JSON fast path is on (Config.PlainJSON false).
	fast bool
}

// Serve answers one JSON-RPC request to host h; fast turns on the JSON
// fast path (wirejson.go, wirescan.go).
func Serve(w http.ResponseWriter, r *http.Request, h binding.Host, fast bool, ev *trace.Event) {
	version := binding.RequestVersion(r)
	q := &request{fast: fast}
	q.Host, q.Binding, q.Header, q.Context = h, q, r.Header, r.Context()
	q.Version, q.Dialect = version, dialectFromHeader(version)
	q.Lenient = h.Lenient()
	res, err := q.read(w, r, ev)
	binding.Respond(w, r, &q.Request, res, err, ev)
}

// read runs the stages of a JSON-RPC request in order; the first error
// answers it.
func (q *request) read(w http.ResponseWriter, r *http.Request, ev *trace.Event) (ops.Result, error) {
	body, err := binding.ReadBody(w, r, q.Host.MaxBody(), ev)
	if err != nil {
		return ops.Result{}, err
	}
	if err := binding.CheckContentType(r); err != nil {
		return ops.Result{}, err // A2A 1.0 §9.1: application/json
	}
	env, err := readEnvelope(body, q.fast, ev)
	if err != nil {
		return ops.Result{}, err
	}
	if err := q.resolveMethod(env, ev); err != nil {
		return ops.Result{}, err
	}
	return binding.Handle(&q.Request, ev)
}

// readEnvelope checks that body is one JSON-RPC request object and reads
// its members; the trace keeps the body when it is JSON and small enough.
// The fast path reads and checks the body in one pass; what it declines is
// checked and read by encoding/json, as with Config.PlainJSON.
func readEnvelope(body []byte, fast bool, ev *trace.Event) (envelope, error) {
	if fast {
		if env, p, ok := scanRequest(body); ok {
			if len(body) <= trace.MaxTracedBody {
				ev.Request = body
			}
			env.send = p
			return env, nil
		}
		if env, ok := readEnvelopeFast(body); ok {
			if len(body) <= trace.MaxTracedBody {
				ev.Request = body
			}
			return env, nil
		}
	}
	trimmed := bytes.TrimSpace(body)
	valid := json.Valid(trimmed)
	// body is valid JSON exactly when trimmed is and nothing but JSON
	// whitespace was trimmed; scan body again only when something was.
	if len(body) <= trace.MaxTracedBody && (len(trimmed) == len(body) && valid || len(trimmed) != len(body) && json.Valid(body)) {
		ev.Request = body
	}
	if !valid {
		return envelope{}, binding.NotJSON(body)
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return envelope{}, a2a.InvalidRequest("batch requests are not supported by A2A")
	}
	var env envelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return envelope{}, a2a.InvalidRequest("the body is not a JSON-RPC request object")
	}
	return env, nil
}

// resolveMethod checks the envelope's jsonrpc, method and id, and settles
// the operation and the dialect: the method's own, else (tasks/get,
// tasks/cancel, unknown names) the dialect of the task the params name,
// then the A2A-Version header's.
func (q *request) resolveMethod(env envelope, ev *trace.Event) error {
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
	q.Method, q.Params, q.scanned = method, env.Params, env.send
	q.Info, q.Known = methods[method]
	if q.Info.Dialect == a2a.Dialect10 && q.Info.Op != trace.OpSend && q.Info.Op != trace.OpStream {
		q.Params = a2a.ProtoNamesToJSON(q.Params) // a send renames only what its fast path declines
	}
	if q.Info.Op == trace.OpGet || q.Info.Op == trace.OpCancel || q.Info.Op == trace.OpSubscribe {
		q.Task, q.TaskErr = ops.DecodeTaskParams(q.Params)
	}
	if d := q.methodDialect(); d != "" {
		q.Dialect = d
	}
	ev.Method, ev.Dialect, ev.Op = method, string(q.Dialect), q.Info.Op
	if !q.Known {
		ev.Op = trace.OpOther
	}
	return nil
}

// methodDialect is the dialect the method settles: its own, else for
// tasks/get and tasks/cancel the named task's (0.3 when there is none and
// the header does not ask for 1.x); "" leaves the header's guess.
func (q *request) methodDialect() a2a.Dialect {
	if d := q.Info.Dialect; d != "" || q.Info.Op != trace.OpGet && q.Info.Op != trace.OpCancel && q.Info.Op != trace.OpSubscribe {
		return d
	}
	v := q.Host.Vendor()
	t := v.Tasks().Get(v.ID(), q.Task.TaskID())
	switch {
	case !q.Lenient && t != nil && t.Dialect == a2a.Dialect01:
		return a2a.Dialect01
	case !q.Lenient:
		// A 0.x name is answered in 0.x shapes, whatever dialect made the
		// task (negotiate refuses it under a 1.x version).
		return a2a.Dialect03
	case t != nil:
		return t.Dialect
	case !strings.HasPrefix(q.Version, "1."):
		return a2a.Dialect03
	}
	return ""
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
