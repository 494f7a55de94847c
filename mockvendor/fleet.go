package mockvendor

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	grpcbinding "github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/grpc"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/credentials"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Fleet is a set of mock vendors on loopback TLS listeners, a CONNECT proxy
// that reaches them by name, and the trace of every request they saw. It
// follows net/http/httptest: NewFleet starts it, NewUnstartedFleet lets the
// caller change things first, Close stops everything it started.
type Fleet struct {
	cfg    Config
	limits Limits
	ca     *CA
	trace  *trace.Trace
	// view is the trace as Fleet.Trace gives it to the fleet's users.
	view *Trace
	// pending holds the connections to fleet hosts still in StateNew (keys
	// *hostConn), for Settle.
	pending sync.Map
	tasks   *taskStore

	vendors  []*Vendor
	byVendor map[string]*Vendor
	hosts    []*host
	byAddr   map[string]*host // "agent-b.example:443" and "127.0.0.1:PORT"

	srv   *http.Server
	proxy *netx.Proxy
	// grpc serves the calls of the hosts with HostConfig.GRPC (nil when
	// no host has it): one server for the fleet, each call finding its
	// host in its context.
	grpc    *grpcbinding.Server
	closing chan struct{}
	wg      sync.WaitGroup // listener and proxy goroutines
	// active counts running handlers and proxy splices; Close waits for it.
	activeMu sync.Mutex
	active   sync.WaitGroup
	ended    bool
	started  atomic.Bool
	closed   atomic.Bool
	tmpDir   string
	// conns bounds the connections open on the fleet's listeners
	// (Limits.MaxConns).
	conns *netx.FleetCap
	// issued holds the credentials the vendors issued, in vendor order
	// (auth.go).
	issued credentials.Issued
	// mtls is the client CA and the client certificates issued (mtls.go).
	mtls fleetMTLS
}

// host is one TLS host of a vendor with its own listener.
type host struct {
	vendor *Vendor
	cfg    HostConfig
	name   string // DNS name, or "127.0.0.1" for a bare-IP host
	ln     net.Listener
	addr   string // 127.0.0.1:PORT
	cert   atomic.Pointer[tls.Certificate]
}

// NewFleet builds and starts a fleet.
func NewFleet(cfg Config) (*Fleet, error) {
	f, err := NewUnstartedFleet(cfg)
	if err != nil {
		return nil, err
	}
	if err := f.Start(); err != nil {
		return nil, err
	}
	return f, nil
}

// NewUnstartedFleet checks cfg and builds a fleet without listening.
func NewUnstartedFleet(cfg Config) (*Fleet, error) {
	f := &Fleet{
		cfg:      cfg,
		limits:   cfg.Limits.withDefaults(),
		byVendor: map[string]*Vendor{},
		byAddr:   map[string]*host{},
		closing:  make(chan struct{}),
	}
	if l := cfg.Limits; l.MaxBody < 0 || l.MaxTraceEvents < 0 || l.MaxTraceBodyBytes < 0 || l.MaxTasks < 0 || l.MaxTaskBytes < 0 || l.MaxVendorTaskBytes < 0 || l.ReadTimeout < 0 || l.WorkTime < 0 ||
		l.MaxConns < 0 || l.MaxTunnels < 0 || l.IdleTimeout < 0 {
		return nil, &ConfigError{Field: "limits", Msg: "limits must not be negative (zero means the default)"}
	}
	f.trace = trace.New(f.limits.MaxTraceEvents, f.limits.MaxTraceBodyBytes)
	f.view = &Trace{f.trace}
	f.conns = netx.NewFleetCap(int64(f.limits.MaxConns))
	f.tasks = newTaskStore(f.limits)
	names := map[string]bool{}
	for i, vc := range cfg.Vendors {
		if vc.ID == "" {
			return nil, &ConfigError{Field: fmt.Sprintf("vendors[%d].id", i), Msg: "is required"}
		}
		if f.byVendor[vc.ID] != nil {
			return nil, &ConfigError{Field: fmt.Sprintf("vendors[%d].id", i), Msg: fmt.Sprintf("duplicate vendor id %q", vc.ID)}
		}
		if len(vc.Hosts) == 0 {
			return nil, &ConfigError{Field: fmt.Sprintf("vendors[%d].hosts", i), Msg: "a vendor needs at least one host"}
		}
		if err := checkUpstream(vc.Upstream); err != nil {
			err.Field = fmt.Sprintf("vendors[%d].upstream.%s", i, err.Field)
			return nil, err
		}
		v := &Vendor{cfg: vc, fleet: f}
		for j, hc := range vc.Hosts {
			if hc.Name != "" {
				if names[hc.Name] {
					return nil, &ConfigError{Field: fmt.Sprintf("vendors[%d].hosts[%d].name", i, j), Msg: fmt.Sprintf("host %q is used twice", hc.Name)}
				}
				names[hc.Name] = true
			}
			if hc.CardPath != "" && (!hc.Card || !strings.HasPrefix(hc.CardPath, "/")) {
				return nil, &ConfigError{Field: fmt.Sprintf("vendors[%d].hosts[%d].cardPath", i, j), Msg: "needs card: true and must start with /"}
			}
			h := &host{vendor: v, cfg: hc, name: hc.Name}
			if h.name == "" {
				h.name = "127.0.0.1"
			}
			v.hosts = append(v.hosts, h)
			f.hosts = append(f.hosts, h)
		}
		for j, spec := range vc.Faults {
			if _, err := v.attach(spec, false); err != nil {
				var ce *ConfigError
				if errors.As(err, &ce) {
					ce.Field = fmt.Sprintf("vendors[%d].faults[%d].%s", i, j, ce.Field)
				}
				return nil, err
			}
		}
		f.vendors = append(f.vendors, v)
		f.byVendor[vc.ID] = v
	}
	return f, nil
}

// Start issues the certificates and starts the listeners and the proxy.
func (f *Fleet) Start() error {
	if !f.started.CompareAndSwap(false, true) {
		return errors.New("fleet already started")
	}
	f.ca = f.cfg.CA
	if f.ca == nil {
		ca, err := NewCA()
		if err != nil {
			return err
		}
		f.ca = ca
	}
	f.srv = &http.Server{
		Handler:           http.HandlerFunc(f.serveHTTP),
		Protocols:         serverProtocols(),
		ReadHeaderTimeout: f.limits.ReadTimeout,
		ReadTimeout:       f.limits.ReadTimeout,
		IdleTimeout:       f.limits.IdleTimeout,
		MaxHeaderBytes:    netx.MaxHeaderBytes,
		ErrorLog:          quietLog(),
		ConnState: func(c net.Conn, s http.ConnState) {
			f.conns.ConnState(c, s)
			f.recordFailedHandshake(c, s)
		},
		// h2 (offered by gRPC hosts only: host.alpn) is served on
		// grpc-go's transport (serveH2).
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){"h2": f.serveH2},
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			ctx = netx.MarkOverCap(ctx, c)
			if tc, ok := c.(*tls.Conn); ok {
				if h, ok := tc.NetConn().(*hostConn); ok {
					return context.WithValue(ctx, hostKey{}, h.host)
				}
			}
			return ctx
		},
	}
	for _, h := range f.hosts {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			f.Close()
			return err
		}
		h.ln, h.addr = ln, ln.Addr().String()
		if h.cfg.Name == "" {
			h.name = h.addr
		}
	}
	for _, h := range f.hosts {
		f.byAddr[h.authority()] = h
		f.byAddr[h.addr] = h
		if err := h.refreshCert(); err != nil {
			f.Close()
			return err
		}
	}
	f.grpc = f.newGRPCServer()
	for _, v := range f.vendors {
		if err := v.init(); err != nil {
			f.Close()
			return err
		}
	}
	for _, h := range f.hosts {
		tcfg := &tls.Config{
			NextProtos:     h.alpn(),
			MinVersion:     tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return h.cert.Load(), nil },
		}
		h.clientAuth(tcfg)
		ln := tls.NewListener(&hostListener{Listener: f.conns.Listen(h.ln, nil), host: h}, tcfg)
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			_ = f.srv.Serve(ln)
		}()
	}
	p, err := newProxy(f)
	if err != nil {
		f.Close()
		return err
	}
	f.proxy = p
	return nil
}

// newGRPCServer is the fleet's gRPC server when a host serves the gRPC
// binding (nil when none does).
func (f *Fleet) newGRPCServer() *grpcbinding.Server {
	for _, h := range f.hosts {
		if h.cfg.GRPC {
			return grpcbinding.NewTransportServer(grpcbinding.TransportConfig{
				MaxBody:        f.limits.MaxBody,
				Fast:           !f.cfg.PlainJSON,
				IdleTimeout:    f.limits.IdleTimeout,
				ReadTimeout:    f.limits.ReadTimeout,
				MaxHeaderBytes: netx.MaxHeaderBytes,
			})
		}
	}
	return nil
}

// serverProtocols are the protocols the fleet's server speaks: HTTP/1.1,
// and HTTP/2 on the connections whose ALPN chose h2 (only a host with
// HostConfig.GRPC offers it: host.alpn).
func serverProtocols() *http.Protocols {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	return p
}

// alpn are the protocols the host's TLS offers (RFC 7301), in the
// server's order of preference: "http/1.1", then "h2" on a host with
// the gRPC binding (a gRPC client offers only h2 and gets it; a client
// that offers both keeps HTTP/1.1, as on every other host).
func (h *host) alpn() []string {
	if h.cfg.GRPC {
		return []string{"http/1.1", "h2"}
	}
	return []string{"http/1.1"}
}

// Close stops the proxy and every listener, ends open connections and
// streams, and waits until no goroutine of the fleet is left.
func (f *Fleet) Close() {
	if !f.closed.CompareAndSwap(false, true) {
		return
	}
	f.activeMu.Lock()
	f.ended = true
	f.activeMu.Unlock()
	close(f.closing)
	for _, v := range f.vendors {
		v.push.Stop(pushVendor{v}) // internal/push: timers, queue and webhook requests
	}
	if f.proxy != nil {
		f.proxy.Close()
	}
	if f.grpc != nil {
		f.grpc.Stop()
	}
	if f.srv != nil {
		_ = f.srv.Close()
	}
	for _, h := range f.hosts {
		if h.ln != nil {
			_ = h.ln.Close()
		}
	}
	f.wg.Wait()
	f.active.Wait()
	for _, v := range f.vendors {
		if v.upstream != nil {
			_ = v.upstream.Close() // its idle connections to the agent and their goroutines; its recording written as it is
		}
	}
	if f.tmpDir != "" {
		_ = os.RemoveAll(f.tmpDir)
	}
}

// enter registers a running handler unless the fleet is closing.
func (f *Fleet) enter() bool {
	f.activeMu.Lock()
	defer f.activeMu.Unlock()
	if f.ended {
		return false
	}
	f.active.Add(1)
	return true
}

// authority is the host:port a client names: "agent-b.example:443", or
// "127.0.0.1:PORT" for a bare-IP host.
func (h *host) authority() string {
	if h.cfg.Name == "" {
		return h.addr
	}
	return net.JoinHostPort(h.cfg.Name, "443")
}

// URL returns the https URL of a fleet host ("https://agent-b.example", or
// "https://127.0.0.1:PORT" for a bare-IP host).
func (h *host) url() string {
	if h.cfg.Name == "" {
		return "https://" + h.addr
	}
	return "https://" + h.cfg.Name
}

// refreshCert picks the host's certificate: a fault's, or one from the CA
// for exactly the configured SANs.
func (h *host) refreshCert() error {
	if h.addr == "" { // not started yet
		return nil
	}
	for _, af := range h.vendor.faultsSnapshot() {
		if ch, ok := af.impl.(fault.CertHook); ok && af.appliesTo(h.sanName()) {
			c, err := ch.Certificate(h.sanName(), h.vendor.fleet.ca)
			if err != nil {
				return err
			}
			h.cert.Store(&c)
			return nil
		}
	}
	sans := h.cfg.SANs
	if len(sans) == 0 {
		sans = []string{h.sanName()}
	}
	c, err := h.vendor.fleet.ca.Issue(sans...)
	if err != nil {
		return err
	}
	h.cert.Store(&c)
	return nil
}

// refuseConn closes c and traces it when a refuse-connections fault
// applies to the host; it reports whether it did.
func (h *host) refuseConn(c net.Conn) bool {
	for _, af := range h.vendor.faultsSnapshot() {
		if r, ok := af.impl.(fault.ConnRefuser); ok && af.appliesTo(h.sanName()) && r.RefusesConnections() {
			h.vendor.fleet.trace.Add(Event{Vendor: h.vendor.cfg.ID, Host: h.name, Op: OpConnRefused, Faults: []string{af.spec.Type}, Note: "the endpoint refused the connection"})
			_ = c.Close()
			return true
		}
	}
	return false
}

func (h *host) sanName() string {
	if h.cfg.Name == "" {
		return "127.0.0.1"
	}
	return h.cfg.Name
}

type hostKey struct{}

// hostListener tags accepted connections with their host.
type hostListener struct {
	net.Listener
	host *host
}

type hostConn struct {
	net.Conn
	host *host
	read atomic.Bool // the client sent something (a ClientHello, at least)
	// pending is whether the connection is in Fleet.pending, so that the
	// state changes of every request on it do not each delete it again.
	pending atomic.Bool
}

// NetConn returns the connection the host's tag wraps (as tls.Conn's does):
// netx finds its place under the connection cap through it.
func (c *hostConn) NetConn() net.Conn { return c.Conn }

// connOf returns the host connection under a TLS connection, or nil.
func connOf(c net.Conn) *hostConn {
	if tc, ok := c.(*tls.Conn); ok {
		hc, _ := tc.NetConn().(*hostConn)
		return hc
	}
	return nil
}

// Settle waits, at most max, until no connection to a fleet host is still
// in its TLS handshake and no request is still being answered, so that a
// handshake a client has just broken off, and a stream it has just left,
// are in the trace, complete, before the trace is read. It returns at once
// when nothing is under way.
func (f *Fleet) Settle(max time.Duration) {
	deadline := time.Now().Add(max)
	for (f.trace.Open() > 0 || f.handshaking()) && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
}

// handshaking reports whether a connection that has spoken is still in
// StateNew without a completed TLS handshake: one whose handshake is under
// way, or failed and is about to be traced. ConnectionState waits for a
// handshake under way, so each is asked in a goroutine of its own; Settle's
// deadline bounds the wait.
func (f *Fleet) handshaking() bool {
	var wg sync.WaitGroup
	var busy atomic.Bool
	f.pending.Range(func(k, v any) bool {
		if !k.(*hostConn).read.Load() {
			return true
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !v.(*tls.Conn).ConnectionState().HandshakeComplete {
				busy.Store(true)
			}
		}()
		return true
	})
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return busy.Load()
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

func (c *hostConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.read.Store(true)
	}
	return n, err
}

// recordFailedHandshake traces a connection that closed after the client
// spoke but before the TLS handshake completed: a client that did not
// accept the certificate (G-TLS-VERIFIED sees the refusal it made).
func (f *Fleet) recordFailedHandshake(c net.Conn, state http.ConnState) {
	hc := connOf(c)
	if hc == nil {
		return
	}
	if state == http.StateNew {
		hc.pending.Store(true)
		f.pending.Store(hc, c)
		return
	}
	if !hc.pending.CompareAndSwap(true, false) {
		return // out of pending since its first request: nothing to record
	}
	defer f.pending.Delete(hc) // after the event, so Settle sees it
	if state != http.StateClosed || !hc.read.Load() || c.(*tls.Conn).ConnectionState().HandshakeComplete {
		return
	}
	if netx.Reclaimed(c) {
		return // the fleet closed it to make room (netx.FleetCap), not the client
	}
	f.trace.Add(Event{Vendor: hc.host.vendor.cfg.ID, Host: hc.host.name, Op: OpTLSFailed, Note: "the client broke off the TLS handshake"})
}

func (l *hostListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.host.refuseConn(c) {
			continue
		}
		return &hostConn{Conn: c, host: l.host}, nil
	}
}

// serveHTTP routes a request to the card, JWKS or JSON-RPC handler of its host.
func (f *Fleet) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !f.enter() {
		http.Error(w, "fleet closing", http.StatusServiceUnavailable)
		return
	}
	defer f.active.Done()
	h, _ := r.Context().Value(hostKey{}).(*host)
	if h == nil {
		http.Error(w, "no such host", http.StatusMisdirectedRequest)
		return
	}
	if netx.OverCap(r) {
		f.conns.RefuseOverCap(w, r, fleetNet{f}, h.vendor.cfg.ID, h.name)
		return
	}
	h.serve(w, r)
}

// isCardPath reports whether the host serves the vendor's card at path p:
// its CardPath exactly, else the root well-known paths.
func (h *host) isCardPath(p string) bool {
	if !h.cfg.Card {
		return false
	}
	if h.cfg.CardPath != "" {
		return p == h.cfg.CardPath
	}
	return card.IsPath(p)
}

// serve answers a request that reached host h (over TLS or through the
// proxy's plain-HTTP path) and records it.
func (h *host) serve(w http.ResponseWriter, r *http.Request) {
	ev := h.newEvent(r)
	tr := h.vendor.fleet.trace
	seq := tr.Begin(ev)
	sw := &statusWriter{ResponseWriter: w}
	switch {
	case r.Method == http.MethodGet && h.isCardPath(r.URL.Path):
		ev.Op = OpCardFetch
		h.vendor.serveCard(sw, r, &ev)
	case r.Method == http.MethodGet && r.URL.Path == JWKSPath && h.vendor.servesJWKS(h):
		ev.Op = OpJWKSFetch
		h.vendor.serveJWKS(sw, r, &ev)
	case r.Method == http.MethodPost && h.cfg.TokenPath != "" && r.URL.Path == h.cfg.TokenPath:
		ev.Op = OpToken
		h.vendor.serveToken(sw, r, &ev)
	case h.serveBinding(sw, r, &ev):
	case h.cfg.RPCPath != "" && r.URL.Path == h.cfg.RPCPath:
		sw.Header().Set("Allow", "POST")
		http.Error(sw, "the JSON-RPC endpoint takes POST", http.StatusMethodNotAllowed)
	default:
		http.NotFound(sw, r)
	}
	if ev.Status == 0 {
		ev.Status = sw.status
		ev.ContentType = sw.Header().Get("Content-Type")
	}
	h.finishEvent(seq, &ev)
}

// finishEvent completes the trace event begun as seq with ev, its
// credentials redacted and its text bounded.
func (h *host) finishEvent(seq int64, ev *Event) {
	h.vendor.fleet.redact(ev)
	trace.Clip(ev)
	trace.CheckText(ev)
	h.vendor.fleet.trace.Finish(seq, func(e *Event) { *e = withSeq(*ev, e) })
}

// newEvent is the trace event of r as it arrives: its host, method,
// path and the headers the checks read.
func (h *host) newEvent(r *http.Request) Event {
	ev := Event{
		Vendor:        h.vendor.cfg.ID,
		Host:          h.name,
		HTTPMethod:    r.Method,
		Path:          r.URL.Path,
		Op:            OpOther,
		A2AVersion:    r.Header.Get("A2A-Version"),
		CacheControl:  r.Header.Get("Cache-Control"),
		Pragma:        r.Header.Get("Pragma"),
		IfNoneMatch:   r.Header.Get("If-None-Match"),
		Authorization: r.Header.Get("Authorization") != "",
	}
	_, ev.HasA2AVersion = r.Header["A2a-Version"]
	ev.A2AExtensions = strings.Join(r.Header["A2a-Extensions"], ", ")    // canonical keys: no allocation
	ev.XA2AExtensions = strings.Join(r.Header["X-A2a-Extensions"], ", ") // the 0.3 name
	ev.Credentials = h.vendor.fleet.presented(r)
	ev.Credentials = h.vendor.fleet.withClientCert(ev.Credentials, r)
	if r.URL.RawQuery != "" {
		ev.A2AVersionQuery = r.URL.Query().Get("A2A-Version")
	}
	if r.TLS != nil {
		ev.ServerName = r.TLS.ServerName
	}
	return ev
}

func withSeq(ev Event, old *Event) Event {
	ev.Seq, ev.Time = old.Seq, old.Time
	return ev
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Done is closed when the fleet closes, so servers that ride on it (the
// admin API) can stop with it.
func (f *Fleet) Done() <-chan struct{} { return f.closing }

// CA returns the fleet's certificate authority.
func (f *Fleet) CA() *CA { return f.ca }

// Trace returns the fleet's trace.
func (f *Fleet) Trace() *Trace { return f.view }

// ProxyURL returns the CONNECT proxy's URL ("http://127.0.0.1:PORT").
func (f *Fleet) ProxyURL() string {
	if f.proxy == nil {
		return ""
	}
	return "http://" + f.proxy.Addr()
}

// Resolve returns the routes of the fleet: "agent-b.example:443" ->
// "127.0.0.1:PORT" for every named host, and each bare-IP host's address to
// itself.
func (f *Fleet) Resolve() map[string]string {
	out := map[string]string{}
	for _, h := range f.hosts {
		out[h.authority()] = h.addr
	}
	return out
}

// HostURL returns the https origin of the named host ("https://agent-b.example"),
// or of a vendor's bare-IP host when name is "vendor:<id>".
func (f *Fleet) HostURL(name string) (string, bool) {
	for _, h := range f.hosts {
		if h.cfg.Name == name || (h.cfg.Name == "" && name == "vendor:"+h.vendor.cfg.ID) {
			return h.url(), true
		}
	}
	return "", false
}

// Hosts returns the fleet's host names in configuration order (bare-IP
// hosts as 127.0.0.1:PORT).
func (f *Fleet) Hosts() []string {
	var out []string
	for _, h := range f.hosts {
		out = append(out, h.name)
	}
	return out
}

// Vendor returns the vendor with that id, or nil.
func (f *Fleet) Vendor(id string) *Vendor { return f.byVendor[id] }

// Vendors returns the vendors in configuration order.
func (f *Fleet) Vendors() []*Vendor { return append([]*Vendor(nil), f.vendors...) }

// TLSConfig returns a client TLS configuration that trusts the fleet CA.
func (f *Fleet) TLSConfig() *tls.Config {
	return &tls.Config{RootCAs: f.ca.Pool(), MinVersion: tls.VersionTLS12}
}

// Transport returns an HTTP transport that trusts the fleet CA and reaches
// every host through the fleet's proxy.
func (f *Fleet) Transport() *http.Transport {
	pu, _ := url.Parse(f.ProxyURL())
	return &http.Transport{
		Proxy:               http.ProxyURL(pu),
		TLSClientConfig:     f.TLSConfig(),
		ForceAttemptHTTP2:   false,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     30 * time.Second,
	}
}

// Client returns an HTTP client that trusts the fleet CA and routes through
// the fleet's proxy, like httptest.Server.Client.
func (f *Fleet) Client() *http.Client {
	return &http.Client{Transport: f.Transport(), Timeout: 30 * time.Second}
}

// DialContext dials a fleet host by its name through the resolve map, for
// clients that do not use a proxy. Other addresses are refused and recorded.
func (f *Fleet) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	h := f.byAddr[addr]
	if h == nil {
		f.trace.Add(Event{Host: addr, Op: OpRefused, Note: "direct dial outside the fleet"})
		return nil, fmt.Errorf("%s is not a host of the fleet", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", h.addr)
}

// WriteCAFile writes the CA certificate to a file in a temporary directory
// that Close removes, and returns its absolute path.
func (f *Fleet) WriteCAFile() (string, error) {
	if f.tmpDir == "" {
		d, err := os.MkdirTemp("", "a2a-conform-fleet-")
		if err != nil {
			return "", err
		}
		f.tmpDir = d
	}
	p := filepath.Join(f.tmpDir, "ca.pem")
	return p, os.WriteFile(p, f.ca.CertPEM(), 0o644)
}

// AddFault attaches a fault to a vendor at run time; it acts from the next
// request on. It returns the fault's id.
func (f *Fleet) AddFault(vendorID string, spec FaultSpec) (string, error) {
	v := f.byVendor[vendorID]
	if v == nil {
		return "", &NotFoundError{What: "vendor", Name: vendorID}
	}
	return v.attach(spec, true)
}

// RemoveFault detaches a fault from a vendor.
func (f *Fleet) RemoveFault(vendorID, faultID string) error {
	v := f.byVendor[vendorID]
	if v == nil {
		return &NotFoundError{What: "vendor", Name: vendorID}
	}
	return v.detach(faultID)
}

// Faults lists the faults attached to a vendor.
func (f *Fleet) Faults(vendorID string) ([]AttachedFault, error) {
	v := f.byVendor[vendorID]
	if v == nil {
		return nil, &NotFoundError{What: "vendor", Name: vendorID}
	}
	var out []AttachedFault
	for _, af := range v.faultsSnapshot() {
		out = append(out, AttachedFault{ID: af.id, FaultSpec: af.spec})
	}
	return out, nil
}

// Reset puts every vendor back to its start-up faults and forgets all
// tasks. The trace is kept.
func (f *Fleet) Reset() error {
	for _, v := range f.vendors {
		if err := v.resetFaults(); err != nil {
			return err
		}
		if v.auth != nil {
			v.auth.ResetTokens() // oauth.go: the next token is the first again
		}
	}
	f.tasks.Reset()
	return nil
}

// NotFoundError names an unknown vendor, host or fault.
type NotFoundError struct {
	What, Name string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("no %s %q", e.What, e.Name) }

// UntrustedHosts lists the hosts (as trace events name them) whose current
// certificate does not verify for the host's name against the fleet CA: the
// endpoints a verifying client must refuse.
func (f *Fleet) UntrustedHosts() []string {
	var out []string
	pool := f.ca.Pool()
	for _, h := range f.hosts {
		c := h.cert.Load()
		if c == nil || c.Leaf == nil {
			continue
		}
		if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: h.sanName(), Roots: pool}); err != nil {
			out = append(out, h.name)
		}
	}
	return out
}
