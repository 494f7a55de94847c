package mockvendor

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
)

// jsonrpcBinding is the JSON-RPC binding (A2A 1.0 §9): answers and
// errors are JSON-RPC response objects carrying the request's id, a
// notification gets none, a stream is server-sent events of response
// objects.
type jsonrpcBinding struct{}

func (jsonrpcBinding) name() string        { return BindingJSONRPC }
func (jsonrpcBinding) path(h *host) string { return h.cfg.RPCPath }
func (jsonrpcBinding) offers(string) bool  { return true }

// tenant is the request's params.tenant.
func (jsonrpcBinding) tenant(q *request) string {
	// Most requests name no tenant: a byte search rules that out before a
	// decode (an escaped member name could spell "tenant", hence \u).
	if !bytes.Contains(q.Params, []byte("tenant")) && !bytes.Contains(q.Params, []byte(`\u`)) {
		return ""
	}
	var p struct {
		Tenant string `json:"tenant"`
	}
	if len(q.Params) > 0 && json.Unmarshal(q.Params, &p) == nil {
		return p.Tenant
	}
	return ""
}

// answers: a notification (no id member) gets no answer, not even an
// error.
func (jsonrpcBinding) answers(q *request) bool { return !q.notification }

// answer is the JSON-RPC response object carrying the result: a send's
// task through the fast encoder where it applies.
func (jsonrpcBinding) answer(q *request, res ops.Result) []byte {
	if s := &res.Sent; s.Task != nil && q.fast && s.History == nil && s.Task.OnlyInput() {
		if body, ok := encodeSendAnswerFast(q.id, s.Task, s.Dialect, res.State, s.Now); ok {
			return body
		}
	}
	v := res.ResultValue()
	return encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": v}, q.fast)
}

// frame is one stream event as a JSON-RPC response object.
func (jsonrpcBinding) frame(q *request, item any) []byte {
	return encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": item}, q.fast)
}

// errorAnswer is the JSON-RPC error response, with the HTTP status
// wireError gave it; a 0.3 or 1.0 stream's goes as the stream's one event.
func (jsonrpcBinding) errorAnswer(q *request, rpcErr *RPCError, status int) (int, []byte, bool) {
	body := encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "error": rpcErrorObject(rpcErr, q.Dialect, q.host.vendor.errorDomain())}, q.fast)
	// A 0.3 or 1.0 stream's answer is an SSE stream of JSON-RPC responses,
	// which includes the error response: a2a-go v0.3.3 reads only "data: "
	// lines and sees an application/json error body as an empty stream,
	// and @a2a-js/sdk refuses any stream answer that is not
	// text/event-stream before it looks at the error; so the error
	// travels as the stream's one event (as a2a-go's own server sends it).
	// So does a 0.3 tasks/resubscribe error (a2a-go's ResubscribeToTask
	// would see none otherwise); a 1.0 SubscribeToTask error stays plain
	// JSON, which the official TCK reads (STREAM-SUB-004).
	c := q.Call
	asEvent := status == http.StatusOK && c != nil && (q.Dialect != Dialect01 && c.Op == OpStream && !c.StreamAsJSON || q.Dialect == Dialect03 && q.info.op == OpSubscribe)
	return status, body, asEvent
}

// rpcErrorObject renders e as the JSON-RPC error object of dialect d; domain is the vendor's ErrorInfo domain
// (Vendor.errorDomain: "agent-b.example"), used for a reason the spec does
// not define. The 0.x dialects send the vendor data as the data object;
// 1.0 sends an array of typed objects (A2A 1.0.1 §9.5): one
// google.rpc.ErrorInfo, then the vendor data with an @type. @a2a-js/sdk
// keeps that array as the error's data (JsonRpc*Error.data).
func rpcErrorObject(e *RPCError, d Dialect, domain string) map[string]any {
	out := map[string]any{"code": e.Code, "message": e.Message}
	if d != Dialect10 {
		if e.Data != nil {
			out["data"] = e.Data
		}
		return out
	}
	out["data"] = e.Details(e.Reason, e.Domain(domain))
	return out
}
