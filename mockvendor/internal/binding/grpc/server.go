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
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Server is the fleet's gRPC server: one *grpc.Server with A2AService
// registered, shared by every host that declares the binding (a call
// finds its host in its context), serving inside the hosts' HTTP
// handler ((*grpc.Server).ServeHTTP).
type Server struct {
	srv  *gogrpc.Server
	fast bool
	ln   *connListener // the transport mode's (transport.go); nil for ServeHTTP's
}

// NewServer returns a Server whose calls' request messages are at most
// maxBody bytes (the fleet's Limits.MaxBody), with the fast path of the
// common send on (fast.go) unless fast is false (Config.PlainJSON).
func NewServer(maxBody int64, fast bool) *Server {
	srv := gogrpc.NewServer(
		gogrpc.MaxRecvMsgSize(int(min(maxBody, 1<<30))),
		gogrpc.UnknownServiceHandler(unknownMethod),
		gogrpc.StatsHandler(lifecycle{}),
	)
	registerService(srv)
	return &Server{srv: srv, fast: fast}
}

// registerService registers A2AService with srv.
func registerService(srv *gogrpc.Server) { a2apb.RegisterA2AServiceServer(srv, service{}) }

// Stop ends the calls in progress and, in the transport mode, the
// connections (the fleet is closing).
func (s *Server) Stop() {
	if s.ln != nil {
		_ = s.ln.Close()
	}
	s.srv.Stop()
}

// IsGRPC reports whether r is a gRPC call by its Content-Type
// (application/grpc, application/grpc+proto, application/grpc;...).
func IsGRPC(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	const base = "application/grpc"
	return len(ct) >= len(base) && (ct[:len(base)] == base) && (len(ct) == len(base) || ct[len(base)] == '+' || ct[len(base)] == ';')
}

// Serve answers the gRPC call r to host h, recording it in ev, and
// returns only once nothing touches ev any more. A call whose HTTP/2
// stream is to be reset instead of ended (a lost answer, a stream broken
// off) writes nothing more and has w reset it once traced (w is a
// binding.StreamResetter; else Serve panics with http.ErrAbortHandler,
// which net/http answers with RST_STREAM).
func (s *Server) Serve(w http.ResponseWriter, r *http.Request, h binding.Host, ev *trace.Event) {
	c := &call{host: h, ev: ev, header: r.Header, fast: s.fast, done: make(chan struct{}), flushedC: make(chan struct{}, 1)}
	c.method, c.known = methods[r.URL.Path]
	ev.Binding, ev.Dialect, ev.Method, ev.Op = Name, string(a2a.Dialect10), c.method.name, c.method.op
	if !c.known {
		ev.Method, ev.Op = r.URL.Path, trace.OpOther
	}
	ctx := context.WithValue(r.Context(), callKey{}, c)
	s.srv.ServeHTTP(&resetWriter{ResponseWriter: w, c: c}, r.WithContext(ctx))
	if c.finish() {
		if rs, ok := w.(binding.StreamResetter); ok {
			rs.ResetStream()
			return
		}
		panic(http.ErrAbortHandler)
	}
}

// callKey is the context key of a call's *call.
type callKey struct{}

// call is one gRPC call as the service sees it: the host it came to, its
// trace event, its metadata (the request's header) and method, and the
// handshake between Serve and the goroutine grpc-go runs the call on
// (lifecycle brackets it, from before the request message is read to
// after the status is written).
type call struct {
	host   binding.Host
	ev     *trace.Event
	header http.Header
	method method
	known  bool
	fast   bool // the fast path is on (fast.go)

	mu      sync.Mutex
	started bool // the call's goroutine took it (lifecycle's Begin)
	over    bool // Serve returned: the goroutine must not take it
	done    chan struct{}
	// reset and the write counts: reset.go.
	reset    atomic.Bool
	queued   atomic.Int64
	flushed  atomic.Int64
	flushedC chan struct{}
	// conn is the connection of a call in the transport mode
	// (transport.go; nil under ServeHTTP), finishTrace completes its
	// trace event.
	conn        *conn
	finishTrace func()
	readTimer   *time.Timer // the transport mode's Limits.ReadTimeout
	// handled is set by the method's handler: it answers the call and
	// records its outcome (else lifecycle's End records an error grpc-go
	// answered before the handler ran).
	handled bool
}

// callOf is the call of ctx (nil: none).
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// enter is the call of ctx for its method's handler; false when the
// call's goroutine did not take it (Serve had returned: the client left).
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

// begin takes the call for its goroutine unless Serve has returned.
func (c *call) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.started = !c.over
}

// end records an error grpc-go answered before the handler ran (a
// request message it could not read, or over the size limit), and marks
// the goroutine done with the call.
func (c *call) end(err error) {
	if !c.handled && err != nil {
		traceUnread(c.ev, err)
	}
	close(c.done)
}

// finish waits for the call's goroutine, if it took the call, and
// reports whether the stream is to be reset.
func (c *call) finish() bool {
	c.mu.Lock()
	c.over = true
	started := c.started
	c.mu.Unlock()
	if started {
		<-c.done
	}
	return c.reset.Load()
}

// lifecycle is the server's stats.Handler: it brackets each call's life
// on its goroutine (call.begin, call.end), so that Serve returns only
// when nothing touches the call's trace event any more, and a call
// refused before its handler ran is traced.
type lifecycle struct{}

func (lifecycle) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }

func (lifecycle) HandleRPC(ctx context.Context, s stats.RPCStats) {
	c := callOf(ctx)
	if c == nil {
		return
	}
	switch s := s.(type) {
	case *stats.Begin:
		c.begin()
	case *stats.End:
		c.mu.Lock()
		started := c.started
		c.mu.Unlock()
		if started {
			c.end(s.Error)
		}
	}
}

func (lifecycle) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (lifecycle) HandleConn(context.Context, stats.ConnStats) {}

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
