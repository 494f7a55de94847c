package grpc

import (
	"context"
	"errors"
	"net/http"
	"strings"

	gogrpc "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The gRPC binding's write side, binding.Respond's counterpart: the
// headers every answer carries (binding.AnswerHeader) go as header
// metadata, an error as the call's status (status.go), an answer or
// each stream event as its proto message, converted from the JSON the
// shared stages answer with (fromJSON).

// contentType is the Content-Type the trace records of a gRPC answer.
const contentType = "application/grpc"

// lenient reads the JSON answers an exact reading refuses: members the
// proto does not know are dropped (unknown-fields' extra members).
var lenient = protojson.UnmarshalOptions{DiscardUnknown: true}

// fromJSON fills out from the JSON b (null: the empty message). An
// honest answer reads exactly; one that does not (a fault's) is read
// again with its enum names outside the proto's enums sent as
// unrecognized values (enums.go) and its unknown members dropped.
func fromJSON(b []byte, out proto.Message) error {
	if len(b) == 0 || string(b) == "null" {
		b = []byte("{}")
	}
	if protojson.Unmarshal(b, out) == nil {
		return nil
	}
	proto.Reset(out)
	return lenient.Unmarshal(unrecognizedEnums(b, out.ProtoReflect().Descriptor()), out)
}

// prelude does what every answer of q does before its body: the trace's
// status and faults, and the header metadata (hdr, with the challenge of
// an authentication error err).
func prelude(ctx context.Context, q *request, err error, ev *trace.Event) {
	hdr := http.Header{}
	binding.AnswerHeader(hdr, &q.Request)
	binding.TraceCall(&q.Request, ev)
	binding.ChallengeHeader(hdr, err)
	ev.Status, ev.ContentType = http.StatusOK, contentType
	_ = gogrpc.SetHeader(ctx, headerMD(hdr))
}

// headerMD is hdr as gRPC metadata: keys lowercased (A2A 1.0.1 §10.2),
// the WWW-Authenticate challenge as www-authenticate.
func headerMD(hdr http.Header) metadata.MD {
	md := make(metadata.MD, len(hdr))
	for k, vs := range hdr {
		md[strings.ToLower(k)] = vs
	}
	return md
}

// fail is the status that answers the error err of q, recorded in ev
// with the HTTP status WireError gave it (401 for an authentication
// refusal, as the other bindings record it).
func fail(q *request, err error, ev *trace.Event) error {
	e, httpStatus := binding.TraceError(err, ev)
	ev.Status = httpStatus
	return Status(e, httpStatus, q.Host.ErrorDomain()).Err()
}

// answer writes the outcome of a unary call of q into out, or returns
// the status that answers it.
func answer(ctx context.Context, c *call, q *request, res ops.Result, err error, out proto.Message) error {
	ev := c.ev
	prelude(ctx, q, err, ev)
	if err != nil {
		return fail(q, err, ev)
	}
	if st := settle(ctx, c, q, &res); st != nil {
		return st
	}
	if !q.fastOn || !answerFast(&res, out) { // the common send's task without JSON (fast.go)
		if err := fromJSON(q.Answer(res), out); err != nil {
			return unrenderable(err, ev)
		}
	}
	trace.KeepResults(ev, res.Results)
	return nil
}

// settle runs binding.Settle: nil when the answer is to be written, else
// the status that ends the call (a lost answer resets the stream).
func settle(ctx context.Context, c *call, q *request, res *ops.Result) error {
	switch binding.Settle(ctx, &q.Request, res, c.ev) {
	case binding.Dropped:
		c.ev.Note = "answer lost: the task was created, then the call's HTTP/2 stream was reset before the answer (lost-answer)"
		c.resetAfterWrites(ctx)
		return errAborted
	case binding.Gone:
		return status.Error(codes.Canceled, "the call ended before its answer")
	}
	return nil
}

// unrenderable is the status of an answer the proto cannot carry.
func unrenderable(err error, ev *trace.Event) error {
	ev.Note = "the answer does not convert to the method's proto message: " + err.Error() // trace.Clip bounds it
	e := a2a.Internal("the answer does not convert to the proto: " + err.Error())
	ev.ErrorCode, ev.ErrorMessage = e.Code, e.Message
	return Status(e, http.StatusOK, "").Err()
}

// streamSink sends a stream's events as StreamResponse messages
// (binding.FrameSink).
type streamSink struct {
	st     gogrpc.ServerStreamingServer[a2apb.StreamResponse]
	c      *call
	end    *a2a.Error // the error that ends the stream (EndError)
	badErr error      // an event the proto cannot carry
}

// Frame converts one event and sends it.
func (s *streamSink) Frame(b []byte) bool {
	m := new(a2apb.StreamResponse)
	if err := fromJSON(b, m); err != nil {
		s.badErr = err
		return false
	}
	return s.st.Send(m) == nil
}

// EndError keeps e: the stream ends with its status after the events.
func (s *streamSink) EndError(e *a2a.Error) bool {
	s.end = e
	return true
}

// Abort resets the call's stream after the events sent: no status ends
// it.
func (s *streamSink) Abort() { s.c.resetAfterWrites(s.st.Context()) }

// errAborted is what the handler of a reset stream returns (never sent).
var errAborted = errors.New("stream reset")
