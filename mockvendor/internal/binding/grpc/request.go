package grpc

import (
	"bytes"
	"encoding/json"
	"net/http"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// request is one gRPC call: the shared binding.Request and its request
// message. It is the call's binding.Binding.
type request struct {
	binding.Request
	msg    proto.Message
	fastOn bool      // the fast path is on (fast.go)
	fast   *fastSend // the common send, read without JSON (fast.go)
}

var _ binding.Binding = (*request)(nil)

// newRequest is the request of call c with message in: A2A 1.0, its
// version from the a2a-version metadata ("" when absent: 0.3, A2A 1.0.1
// §3.6.2, §10.2), its metadata as the header the extensions stage reads.
func newRequest(c *call, in proto.Message) *request {
	q := &request{msg: in, fastOn: c.fast}
	q.Host, q.Binding, q.Header = c.host, q, c.header
	q.Version, q.Dialect = binding.HeaderGet(c.header, binding.A2AVersionKey), a2a.Dialect10
	q.Method, q.Info, q.Known = c.method.name, binding.MethodInfo{Op: c.method.op, Dialect: a2a.Dialect10}, true
	return q
}

// read turns the request message into its protojson form, the params
// the 1.0 JSON-RPC method takes (kept in the trace), and runs the stages
// every binding shares.
func (q *request) read(ev *trace.Event) (ops.Result, error) {
	params, fast, err := paramsJSON(q.msg, q.fastOn)
	q.fast = fast
	if err != nil {
		return ops.Result{}, a2a.InvalidParams(err.Error())
	}
	if len(params) <= trace.MaxTracedBody {
		ev.Request = params
	}
	q.Params = params
	if op := q.Info.Op; op == trace.OpGet || op == trace.OpCancel || op == trace.OpSubscribe {
		q.Task, q.TaskErr = ops.DecodeTaskParams(q.Params)
	}
	return binding.Handle(&q.Request, ev)
}

// toJSON is m in protojson's JSON form (JSON names), compact.
func toJSON(m proto.Message) ([]byte, error) {
	b, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Name is the binding's protocolBinding.
func (*request) Name() string { return Name }

// Offers: the binding serves 1.0 only.
func (*request) Offers(version string) bool { return version == "1.0" }

// Tenant is the request message's tenant field ("" for none).
func (q *request) Tenant() string {
	if t, ok := q.msg.(interface{ GetTenant() string }); ok {
		return t.GetTenant()
	}
	return ""
}

// Answers: every gRPC call gets an answer.
func (*request) Answers() bool { return true }

// DecodeSend decodes the params of a send or stream with encoding/json,
// or takes what the fast path read of the common send (fast.go).
func (q *request) DecodeSend() (*a2a.Message, error) {
	if q.fast != nil {
		q.Send = q.fast.send
		return q.fast.msg, nil
	}
	return binding.DecodeSend(q.Params, q.Dialect, &q.Send)
}

// Answer is the result as JSON, which the binding turns into the
// method's response message (write.go).
func (*request) Answer(res ops.Result) []byte { return encode(res.ResultValue()) }

// Frame is one stream event as JSON (a StreamResponse).
func (*request) Frame(item any) []byte { return encode(item) }

// ErrorAnswer is the gRPC status of e as its protojson JSON (the trace's
// form of it; the binding sends the status itself, write.go).
func (q *request) ErrorAnswer(e *a2a.Error, status int) (int, []byte, bool) {
	b, _ := protojson.Marshal(Status(e, status, q.Host.ErrorDomain()).Proto())
	return http.StatusOK, b, false
}

// encode is v as json.Marshal encodes it (nil on error).
func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
