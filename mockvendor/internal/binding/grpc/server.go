package grpc

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	gogrpc "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // calls compressed with gzip are read (and answered so)
	"google.golang.org/grpc/status"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Server is the fleet's gRPC server: one *grpc.Server with A2AService
// registered, shared by every host that declares the binding, serving
// the connections handed to it on grpc-go's own transport (transport.go;
// a call finds its host through its connection).
type Server struct {
	srv  *gogrpc.Server
	fast bool
	ln   *connListener
}

// registerService registers A2AService with srv.
func registerService(srv *gogrpc.Server) { a2apb.RegisterA2AServiceServer(srv, service{}) }

// Stop ends the calls in progress and the connections (the fleet is
// closing).
func (s *Server) Stop() {
	_ = s.ln.Close()
	s.srv.Stop()
}

// callKey is the context key of a call's *call.
type callKey struct{}

// call is one gRPC call as the service sees it: the host it came to, its
// trace event, its metadata (as a request's header) and method, and its
// connection (transportStats opens it).
type call struct {
	host   binding.Host
	ev     *trace.Event
	header http.Header
	method method
	known  bool
	fast   bool // the fast path is on (fast.go)

	mu      sync.Mutex
	started bool // the call has a trace event (false: the fleet is closing)
	// reset is set when the call's stream is to be reset (reset.go).
	reset atomic.Bool
	// conn is the call's connection; finishTrace completes its trace
	// event.
	conn        *conn
	finishTrace func()
	readTimer   *time.Timer // Limits.ReadTimeout
	// handled is set by the method's handler: it answers the call and
	// records its outcome (else transportStats records an error grpc-go
	// answered before the handler ran).
	handled bool
}

// callOf is the call of ctx (nil: none).
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// enter is the call of ctx for its method's handler; false when it has
// no trace event (the fleet is closing).
func enter(ctx context.Context) (*call, bool) {
	c := callOf(ctx)
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handled = c.started
	return c, c.started
}

// traceUnread records in ev the error of a request message grpc-go
// refused before the handler ran: over the size limit, -32600 with HTTP
// 413 as the other bindings record an over-limit body (its gRPC status
// RESOURCE_EXHAUSTED); otherwise not a message of the method, -32700.
func traceUnread(ev *trace.Event, err error) {
	st := status.Convert(err)
	e := a2a.ParseError(st.Message())
	ev.Status = http.StatusOK
	if st.Code() == codes.ResourceExhausted {
		e, ev.Status = a2a.InvalidRequest(st.Message()), http.StatusRequestEntityTooLarge
	}
	ev.ErrorCode, ev.ErrorMessage = e.Code, e.Message
	ev.ContentType = contentType
	ev.Note = "the request message was not read: " + st.Message() // trace.Clip bounds it
}
