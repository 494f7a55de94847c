package mockvendor

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
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

// serveRPC answers one JSON-RPC request on host h.
func (h *host) serveRPC(w http.ResponseWriter, r *http.Request, ev *Event) {
	version := requestVersion(r)
	q := &request{host: h, binding: jsonrpcBinding{}}
	q.fast, q.Version, q.Dialect = !h.vendor.fleet.cfg.PlainJSON, version, dialectFromHeader(version)
	q.lenient = h.vendor.lenient(h.sanName())
	res, err := h.readRPC(w, r, q, ev)
	h.respond(w, r, q, res, err, ev)
}

// readRPC runs the stages of a JSON-RPC request in order; the first error
// answers it.
func (h *host) readRPC(w http.ResponseWriter, r *http.Request, q *request, ev *Event) (ops.Result, error) {
	body, err := h.readBody(w, r, ev)
	if err != nil {
		return ops.Result{}, err
	}
	if ct := r.Header.Get("Content-Type"); !jsonContentType(ct) {
		return ops.Result{}, &contentTypeError{ct} // A2A 1.0 §9.1: application/json
	}
	env, err := readEnvelope(body, q.fast, ev)
	if err != nil {
		return ops.Result{}, err
	}
	if err := q.resolveMethod(env, ev); err != nil {
		return ops.Result{}, err
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
	q.Method, q.Params, q.scanned = method, env.Params, env.send
	q.info, q.known = methods[method]
	if q.info.dialect == Dialect10 && q.info.op != OpSend && q.info.op != OpStream {
		q.Params = a2a.ProtoNamesToJSON(q.Params) // a send renames only what its fast path declines
	}
	if q.info.op == OpGet || q.info.op == OpCancel || q.info.op == OpSubscribe {
		q.Task, q.TaskErr = ops.DecodeTaskParams(q.Params)
	}
	if d := q.methodDialect(); d != "" {
		q.Dialect = d
	}
	ev.Method, ev.Dialect, ev.Op = method, string(q.Dialect), q.info.op
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
	t := q.host.vendor.fleet.tasks.Get(q.host.vendor.cfg.ID, q.Task.TaskID())
	switch {
	case !q.lenient && t != nil && t.Dialect == Dialect01:
		return Dialect01
	case !q.lenient:
		// A 0.x name is answered in 0.x shapes, whatever dialect made the
		// task (negotiate refuses it under a 1.x version).
		return Dialect03
	case t != nil:
		return t.Dialect
	case !strings.HasPrefix(q.Version, "1."):
		return Dialect03
	}
	return ""
}

// decodeSend decodes the params of a send or stream and their message;
// scanned are the params as scanRequest read them, if it did.
func decodeSend(params json.RawMessage, scanned *sendParamsMsg, d Dialect, fast bool, sp *ops.SendParams) (*Message, error) {
	if fast {
		if msg, ok := decodeSendFast(params, scanned, d, sp); ok {
			return msg, nil
		}
	}
	if d == Dialect10 {
		params = a2a.ProtoNamesToJSON(params)
	}
	*sp = ops.SendParams{}
	if err := json.Unmarshal(ops.NonNull(params), sp); err != nil {
		return nil, a2a.InvalidParams(err.Error())
	}
	msg, err := a2a.DecodeMessage(sp.Message, d)
	if err != nil {
		return nil, a2a.InvalidParams(err.Error())
	}
	return msg, nil
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
