package grpc

import (
	"context"
	"net/http"

	gogrpc "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// service is A2AService: one handler per operation, each the shared
// path of a unary call (unary) or a server stream (serverStream) with
// its request and response messages.
type service struct {
	a2apb.UnimplementedA2AServiceServer
}

func (service) SendMessage(ctx context.Context, in *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	return unary(ctx, in, new(a2apb.SendMessageResponse))
}

func (service) SendStreamingMessage(in *a2apb.SendMessageRequest, st gogrpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	return serverStream(in, st)
}

func (service) GetTask(ctx context.Context, in *a2apb.GetTaskRequest) (*a2apb.Task, error) {
	return unary(ctx, in, new(a2apb.Task))
}

func (service) ListTasks(ctx context.Context, in *a2apb.ListTasksRequest) (*a2apb.ListTasksResponse, error) {
	return unary(ctx, in, new(a2apb.ListTasksResponse))
}

func (service) CancelTask(ctx context.Context, in *a2apb.CancelTaskRequest) (*a2apb.Task, error) {
	return unary(ctx, in, new(a2apb.Task))
}

func (service) SubscribeToTask(in *a2apb.SubscribeToTaskRequest, st gogrpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	return serverStream(in, st)
}

func (service) CreateTaskPushNotificationConfig(ctx context.Context, in *a2apb.TaskPushNotificationConfig) (*a2apb.TaskPushNotificationConfig, error) {
	return unary(ctx, in, new(a2apb.TaskPushNotificationConfig))
}

func (service) GetTaskPushNotificationConfig(ctx context.Context, in *a2apb.GetTaskPushNotificationConfigRequest) (*a2apb.TaskPushNotificationConfig, error) {
	return unary(ctx, in, new(a2apb.TaskPushNotificationConfig))
}

func (service) ListTaskPushNotificationConfigs(ctx context.Context, in *a2apb.ListTaskPushNotificationConfigsRequest) (*a2apb.ListTaskPushNotificationConfigsResponse, error) {
	return unary(ctx, in, new(a2apb.ListTaskPushNotificationConfigsResponse))
}

func (service) GetExtendedAgentCard(ctx context.Context, in *a2apb.GetExtendedAgentCardRequest) (*a2apb.AgentCard, error) {
	return unary(ctx, in, new(a2apb.AgentCard))
}

func (service) DeleteTaskPushNotificationConfig(ctx context.Context, in *a2apb.DeleteTaskPushNotificationConfigRequest) (*emptypb.Empty, error) {
	return unary(ctx, in, new(emptypb.Empty))
}

// errGone answers a call whose client left before its handler ran.
var errGone = status.Error(codes.Canceled, "the call ended before it was served")

// unary answers a unary call with request in and response out.
func unary[T proto.Message](ctx context.Context, in proto.Message, out T) (T, error) {
	var zero T
	c, ok := enter(ctx)
	if !ok {
		return zero, errGone
	}
	q := newRequest(c, in)
	q.Context = ctx
	res, err := q.read(c.ev)
	if err := answer(ctx, c, q, res, err, out); err != nil {
		return zero, err
	}
	return out, nil
}

// serverStream answers a server-streaming call with request in: the
// events of the stream (binding.StreamEvents), or the one answer of a
// stream answered plainly (stream-lie: the task as the one event), then
// the status that ends it.
func serverStream(in proto.Message, st gogrpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	ctx := st.Context()
	c, ok := enter(ctx)
	if !ok {
		return errGone
	}
	q := newRequest(c, in)
	q.Context = ctx
	res, err := q.read(c.ev)
	prelude(ctx, q, err, c.ev)
	if err != nil {
		return fail(q, err, c.ev)
	}
	if err := settle(ctx, c, q, &res); err != nil {
		return err
	}
	_ = st.SendHeader(nil) // the stream is open, as the HTTP bindings' 200 says, before any event
	sink := &streamSink{st: st, c: c}
	if res.Stream == nil && res.Live == nil {
		return plainStream(q, res, sink, c.ev)
	}
	c.ev.State = ""
	binding.StreamEvents(ctx, &q.Request, res, c.ev, sink)
	return streamEnd(q, sink, c)
}

// plainStream sends a stream's plain answer as its one event.
func plainStream(q *request, res ops.Result, sink *streamSink, ev *trace.Event) error {
	if !sink.Frame(q.Answer(res)) && sink.badErr != nil {
		return unrenderable(sink.badErr, ev)
	}
	trace.KeepResults(ev, res.Results)
	return nil
}

// streamEnd is the status that ends a stream whose events are out: the
// error the stream ends with (stream-error-event), an event the proto
// cannot carry, or OK; a stream broken off is reset instead.
func streamEnd(q *request, sink *streamSink, c *call) error {
	switch {
	case c.reset.Load():
		return errAborted
	case sink.badErr != nil:
		return unrenderable(sink.badErr, c.ev)
	case sink.end != nil:
		return Status(sink.end, http.StatusOK, q.Host.ErrorDomain()).Err()
	}
	return nil
}

// unknownMethod answers a method A2AService does not have:
// UNIMPLEMENTED (-32601), traced as an operation of no kind.
func unknownMethod(_ any, st gogrpc.ServerStream) error {
	c, ok := enter(st.Context())
	if !ok {
		return errGone
	}
	name, _ := gogrpc.Method(st.Context())
	e := a2a.MethodNotFound(name)
	binding.TraceError(e, c.ev)
	c.ev.Status, c.ev.ContentType = http.StatusOK, contentType
	return Status(e, http.StatusOK, c.host.ErrorDomain()).Err()
}
