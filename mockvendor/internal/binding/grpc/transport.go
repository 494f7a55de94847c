package grpc

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"

	gogrpc "google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/stats"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The transport mode: a gRPC host's HTTP/2 connections served on
// grpc-go's own transport ((*grpc.Server).Serve) rather than through
// net/http's HTTP/2 server and ServeHTTP, which costs about three times
// the CPU per call and 2.8 write syscalls where grpc-go's transport
// batches a connection's calls into 0.32 (grpc/grpc-go#586). The fleet's
// server does the TLS handshake and hands each connection that
// negotiated h2 to ServeConn; the host it came to rides on the
// connection (the peer's AuthInfo), and the stats handler (transportStats)
// opens each call's trace event before its message is read and completes
// it once its status is out, as the host's HTTP handler does for a
// request.

// TransportHost is a host as the transport mode sees it: the binding's
// host, and the trace event of each call.
type TransportHost interface {
	binding.Host
	// OpenCall begins the trace of the gRPC call r (its method as the
	// URL's path, its metadata as the header, the connection's TLS
	// state): its event and the function that completes it once the
	// call is over; false when the fleet is closing.
	OpenCall(r *http.Request) (*trace.Event, func(), bool)
}

// TransportConfig bounds the connections of the transport mode.
type TransportConfig struct {
	MaxBody     int64         // Limits.MaxBody: a request message's size
	Fast        bool          // the fast path of the common send (fast.go)
	IdleTimeout time.Duration // a connection with no call is closed after it
	// ReadTimeout bounds the wait for a call's request message: past it
	// the connection is closed, as net/http closes an HTTP/1.1 one whose
	// request is not in by Limits.ReadTimeout (0: no bound).
	ReadTimeout    time.Duration
	MaxHeaderBytes int // a call's metadata
}

// maxStreams is how many calls a connection has open at once, as
// net/http's HTTP/2 server allows (250).
const maxStreams = 250

// NewTransportServer returns a Server that serves connections handed to
// ServeConn on grpc-go's transport; Stop ends them.
func NewTransportServer(cfg TransportConfig) *Server {
	ln := &connListener{ch: make(chan net.Conn), done: make(chan struct{})}
	srv := gogrpc.NewServer(
		gogrpc.Creds(handshaken{}),
		gogrpc.MaxRecvMsgSize(int(min(cfg.MaxBody, 1<<30))),
		gogrpc.MaxConcurrentStreams(maxStreams),
		gogrpc.MaxHeaderListSize(uint32(cfg.MaxHeaderBytes)),
		gogrpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: cfg.IdleTimeout}),
		// net/http's HTTP/2 server let clients ping as often as they
		// liked; grpc-go's default (5 minutes) would send a client with
		// keepalive on GOAWAY "too_many_pings".
		gogrpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		// Calls run on goroutines kept for them, whose stacks have grown
		// already: a new goroutine per call grew its stack each time
		// (runtime.newstack, 14% of the fleet's CPU per SendMessage in
		// fleetbench's profile). A call finding them all busy gets a new
		// one, as without.
		gogrpc.NumStreamWorkers(uint32(max(4, runtime.GOMAXPROCS(0)))),
		gogrpc.UnknownServiceHandler(unknownMethod),
		gogrpc.StatsHandler(transportStats{fast: cfg.Fast, readTimeout: cfg.ReadTimeout}),
	)
	registerService(srv)
	s := &Server{srv: srv, fast: cfg.Fast, ln: ln}
	go func() { _ = srv.Serve(ln) }()
	return s
}

// ServeConn serves the calls of tc, a TLS connection to host h that
// negotiated h2, on grpc-go's transport, and returns once it is closed
// (by either side, an idle timeout or Stop).
func (s *Server) ServeConn(tc *tls.Conn, h TransportHost) {
	c := &conn{Conn: tc, host: h, closed: make(chan struct{})}
	select {
	case s.ln.ch <- c:
	case <-s.ln.done:
		_ = tc.Close()
		return
	}
	select {
	case <-c.closed:
	case <-s.ln.done:
		_ = c.Close()
	}
}

// connListener is the listener grpc-go's Serve accepts the handed
// connections from.
type connListener struct {
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *connListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// conn is a handed connection: its host, and the HTTP/2 frames grpc-go
// writes to it read as they go, so that a call's stream can be reset
// (resetStream).
type conn struct {
	*tls.Conn
	host   TransportHost
	state  tls.ConnectionState // after the handshake (ServerHandshake)
	closed chan struct{}
	once   sync.Once
	w      frameWriter
}

func (c *conn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

func (c *conn) Write(b []byte) (int, error) { return c.w.write(c.Conn, b) }

// handshaken are the credentials of connections whose TLS handshake the
// fleet's server did: ServerHandshake hands the connection on as it is,
// with its TLS state as the peer's AuthInfo (so that grpc-go and the
// calls see a TLS connection).
type handshaken struct{}

// authInfo is a handed connection's AuthInfo: credentials.TLSInfo, and
// the connection with its host.
type authInfo struct {
	credentials.TLSInfo
	conn *conn
}

func (handshaken) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	c := raw.(*conn)
	info := &authInfo{conn: c}
	c.state = c.ConnectionState()
	info.State = c.state
	info.SecurityLevel = credentials.PrivacyAndIntegrity
	return c, info, nil
}

func (handshaken) ClientHandshake(context.Context, string, net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return nil, nil, net.ErrClosed // a server's credentials only
}

func (handshaken) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: "tls", SecurityVersion: "1.2"}
}

func (h handshaken) Clone() credentials.TransportCredentials { return h }

func (handshaken) OverrideServerName(string) error { return nil }

// transportStats is the transport mode's stats.Handler: TagRPC opens a
// call's trace event (the host from its connection) before its message
// is read, End records an error grpc-go answered before the handler ran
// and completes the event.
type transportStats struct {
	fast        bool
	readTimeout time.Duration
}

func (t transportStats) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	p, _ := peer.FromContext(ctx)
	if p == nil {
		return ctx
	}
	ai, _ := p.AuthInfo.(*authInfo)
	if ai == nil {
		return ctx
	}
	c := &call{host: ai.conn.host, fast: t.fast, conn: ai.conn, started: true}
	c.method, c.known = methods[info.FullMethodName]
	if t.readTimeout > 0 {
		c.readTimer = time.AfterFunc(t.readTimeout, func() { _ = ai.conn.Close() })
	}
	return context.WithValue(ctx, callKey{}, c)
}

// open opens the trace event of c, a call in the transport mode, from
// its InHeader (grpc-go reports it right after TagRPC, before the call
// runs); false when the fleet is closing (the call has no event and its
// handler answers errGone).
func (c *call) open(in *stats.InHeader) bool {
	r := callRequest(in.FullMethod, in.Header, &c.conn.state)
	ev, finish, ok := c.conn.host.OpenCall(r)
	if !ok {
		c.started = false
		return false
	}
	c.ev, c.header, c.finishTrace = ev, r.Header, finish
	ev.Binding, ev.Dialect, ev.Method, ev.Op = Name, string(a2a.Dialect10), c.method.name, c.method.op
	if !c.known {
		ev.Method, ev.Op = in.FullMethod, trace.OpOther
	}
	return true
}

func (transportStats) HandleRPC(ctx context.Context, s stats.RPCStats) {
	c := callOf(ctx)
	if c == nil {
		return
	}
	switch s := s.(type) {
	case *stats.InHeader:
		c.open(s)
	case *stats.InPayload:
		c.stopReadTimer()
	case *stats.End:
		c.stopReadTimer()
		if c.finishTrace == nil {
			return // never opened: the fleet is closing
		}
		if !c.handled && s.Error != nil {
			traceUnread(c.ev, s.Error)
		}
		c.finishTrace()
	}
}

func (transportStats) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (transportStats) HandleConn(context.Context, stats.ConnStats) {}

// callRequest is the gRPC call as the host's HTTP handler would have
// seen it: POST to the method's path, the metadata as the header
// (canonical keys; :authority as Host) and the connection's TLS state.
func callRequest(method string, md metadata.MD, state *tls.ConnectionState) *http.Request {
	hdr := make(http.Header, len(md))
	r := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: method}, RequestURI: method, Proto: "HTTP/2.0", ProtoMajor: 2, Header: hdr, TLS: state}
	for k, vs := range md {
		if strings.HasPrefix(k, ":") {
			if k == ":authority" && len(vs) > 0 {
				r.Host = vs[0]
			}
			continue
		}
		hdr[canonicalKey(k)] = vs
	}
	return r
}

// knownKeys are the canonical forms of the metadata keys calls carry
// most, so that a call's header costs no allocation per key.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"content-type", "user-agent", "te", "authorization", "a2a-version", "a2a-extensions", "grpc-accept-encoding", "x-api-key", "grpc-timeout", "grpc-encoding"} {
		m[k] = http.CanonicalHeaderKey(k)
	}
	return m
}()

// canonicalKey is the header key of the metadata key k.
func canonicalKey(k string) string {
	if c, ok := knownKeys[k]; ok {
		return c
	}
	return http.CanonicalHeaderKey(k)
}

// streamID is the HTTP/2 stream id of the call of ctx (0 when unknown).
// grpc-go does not export it: it is read from its ServerStream
// (internal/transport: an embedded Stream's id field), which
// TestGRPCFaults (lost-answer, stream-cut: RST_STREAM) checks on each
// grpc-go upgrade.
func streamID(ctx context.Context) uint32 {
	v := reflect.ValueOf(gogrpc.ServerTransportStreamFromContext(ctx))
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	s := v.Elem().FieldByName("Stream")
	if !s.IsValid() || s.Kind() != reflect.Struct {
		return 0
	}
	id := s.FieldByName("id")
	if !id.IsValid() || id.Kind() != reflect.Uint32 {
		return 0
	}
	return uint32(id.Uint())
}

// stopReadTimer stops the bound on the wait for the call's request
// message (transportStats): it is in, or the call is over.
func (c *call) stopReadTimer() {
	if c.readTimer != nil {
		c.readTimer.Stop()
	}
}
