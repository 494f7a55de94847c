package grpc

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"

	gogrpc "google.golang.org/grpc"

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
	srv *gogrpc.Server
}

// NewServer returns a Server whose calls' request messages are at most
// maxBody bytes (the fleet's Limits.MaxBody).
func NewServer(maxBody int64) *Server {
	srv := gogrpc.NewServer(
		gogrpc.MaxRecvMsgSize(int(min(maxBody, 1<<30))),
		gogrpc.UnknownServiceHandler(unknownMethod),
	)
	a2apb.RegisterA2AServiceServer(srv, service{})
	return &Server{srv: srv}
}

// Stop ends the calls in progress (the fleet is closing).
func (s *Server) Stop() { s.srv.Stop() }

// IsGRPC reports whether r is a gRPC call by its Content-Type
// (application/grpc, application/grpc+proto, application/grpc;...).
func IsGRPC(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	const base = "application/grpc"
	return len(ct) >= len(base) && (ct[:len(base)] == base) && (len(ct) == len(base) || ct[len(base)] == '+' || ct[len(base)] == ';')
}

// Serve answers the gRPC call r to host h, recording it in ev, and
// returns only once the call's handler has returned. reset reports that
// the call's HTTP/2 stream must be reset instead of ended (a lost answer,
// a stream broken off): nothing more was written, and the caller, once it
// has completed the trace event, panics with http.ErrAbortHandler, which
// net/http answers with RST_STREAM.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request, h binding.Host, ev *trace.Event) (reset bool) {
	c := &call{host: h, ev: ev, header: r.Header, done: make(chan struct{})}
	c.method, c.known = methods[r.URL.Path]
	ev.Binding, ev.Dialect, ev.Method, ev.Op = Name, string(a2a.Dialect10), c.method.name, c.method.op
	if !c.known {
		ev.Method, ev.Op = r.URL.Path, trace.OpOther
	}
	ctx := context.WithValue(r.Context(), callKey{}, c)
	s.srv.ServeHTTP(&resetWriter{ResponseWriter: w, c: c}, r.WithContext(ctx))
	return c.finish()
}

// callKey is the context key of a call's *call.
type callKey struct{}

// call is one gRPC call as the service sees it: the host it came to, its
// trace event, its metadata (the request's header) and method, and the
// handshake between Serve and the handler goroutine grpc-go runs it on.
type call struct {
	host   binding.Host
	ev     *trace.Event
	header http.Header
	method method
	known  bool

	mu      sync.Mutex
	started bool // the handler took the call
	over    bool // Serve returned: the handler must not take it
	done    chan struct{}
	reset   atomic.Bool
}

// enter is the call of ctx, taken by its handler; false when there is
// none or Serve has already returned (the client left first).
func enter(ctx context.Context) (*call, bool) {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over {
		return nil, false
	}
	c.started = true
	return c, true
}

// leave marks the handler done with the call.
func (c *call) leave() { close(c.done) }

// finish waits for the handler, if it took the call, and reports whether
// the stream is to be reset.
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

// resetWriter is the ResponseWriter grpc-go writes the call to: once the
// call is to be reset it writes nothing more, so that Serve's caller can
// reset the stream.
type resetWriter struct {
	http.ResponseWriter
	c *call
}

func (w *resetWriter) WriteHeader(code int) {
	if !w.c.reset.Load() {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *resetWriter) Write(b []byte) (int, error) {
	if w.c.reset.Load() {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Flush flushes what was written (grpc-go requires an http.Flusher).
func (w *resetWriter) Flush() {
	if !w.c.reset.Load() {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
	}
}

func (w *resetWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
