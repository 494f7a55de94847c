package jsonrpc

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The JSON-RPC binding's write side (A2A 1.0 §9): answers and errors are
// JSON-RPC response objects carrying the request's id, a notification
// gets none, a stream is server-sent events of response objects. request
// implements binding.Binding.

// Name is the protocolBinding a card names the binding by (A2A 1.0
// §4.4.6; mockvendor.BindingJSONRPC).
const Name = "JSONRPC"

var _ binding.Binding = (*request)(nil)

// Name is the binding's protocolBinding.
func (*request) Name() string { return Name }

// Offers: the binding serves every version the vendor does.
func (*request) Offers(string) bool { return true }

// Tenant is the request's params.tenant.
func (q *request) Tenant() string {
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

// Answers: a notification (no id member) gets no answer, not even an
// error.
func (q *request) Answers() bool { return !q.notification }

// DecodeSend decodes the params of a send or stream and their message:
// on the fast path from what scanRequest read, if it did, else with
// encoding/json (binding.DecodeSend).
func (q *request) DecodeSend() (*a2a.Message, error) {
	if q.fast {
		if msg, ok := decodeSendFast(q.Params, q.scanned, q.Dialect, &q.Send); ok {
			return msg, nil
		}
	}
	return binding.DecodeSend(q.Params, q.Dialect, &q.Send)
}

// Answer is the JSON-RPC response object carrying the result: a send's
// task through the fast encoder where it applies.
func (q *request) Answer(res ops.Result) []byte {
	if s := &res.Sent; s.Task != nil && q.fast && s.History == nil && s.Task.OnlyInput() && s.Task.Asks == 0 {
		if body, ok := encodeSendAnswerFast(q.id, s.Task, s.Dialect, res.State, s.Now); ok {
			return body
		}
	}
	v := res.ResultValue()
	return encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": v}, q.fast)
}

// Frame is one stream event as a JSON-RPC response object.
func (q *request) Frame(item any) []byte {
	return encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": item}, q.fast)
}

// ErrorAnswer is the JSON-RPC error response, with the HTTP status
// binding.WireError gave it; a 0.3 or 1.0 stream's goes as the stream's
// one event.
func (q *request) ErrorAnswer(e *a2a.Error, status int) (int, []byte, bool) {
	body := encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "error": errorObject(e, q.Dialect, q.Host.ErrorDomain())}, q.fast)
	// A 0.3 or 1.0 stream's answer is an SSE stream of JSON-RPC responses,
	// which includes the error response: a2a-go v0.3.3 reads only "data: "
	// lines and sees an application/json error body as an empty stream,
	// and @a2a-js/sdk refuses any stream answer that is not
	// text/event-stream before it looks at the error; so the error
	// travels as the stream's one event (as a2a-go's own server sends it).
	// So does a 0.3 tasks/resubscribe error (a2a-go's ResubscribeToTask
	// would see none otherwise); a 1.0 SubscribeToTask error stays plain
	// JSON, which the official TCK reads (STREAM-SUB-004). A vendor whose
	// card says streaming false opens no stream at all: its refusal of a
	// stream method (-32004, A2A 1.0 §3.3.4) is plain JSON, which the
	// official TCK reads (CORE-CAP-002); the SDK clients never see it, as
	// they send plainly to such a card (a2a-go, @a2a-js/sdk).
	c := q.Call
	streams := q.Host.Vendor().Streaming()
	asEvent := status == http.StatusOK && c != nil && streams && (q.Dialect != a2a.Dialect01 && c.Op == trace.OpStream && !c.StreamAsJSON || q.Dialect == a2a.Dialect03 && q.Info.Op == trace.OpSubscribe)
	return status, body, asEvent
}

// errorObject renders e as the JSON-RPC error object of dialect d; domain
// is the vendor's ErrorInfo domain ("agent-b.example"), used for a reason
// the spec does not define. The 0.x dialects send the vendor data as the
// data object; 1.0 sends an array of typed objects (A2A 1.0.1 §9.5): one
// google.rpc.ErrorInfo, then the vendor data with an @type. @a2a-js/sdk
// keeps that array as the error's data (JsonRpc*Error.data).
func errorObject(e *a2a.Error, d a2a.Dialect, domain string) map[string]any {
	out := map[string]any{"code": e.Code, "message": e.Message}
	if d != a2a.Dialect10 {
		if e.Data != nil {
			out["data"] = e.Data
		}
		return out
	}
	out["data"] = e.Details(e.Reason, e.Domain(domain))
	return out
}
