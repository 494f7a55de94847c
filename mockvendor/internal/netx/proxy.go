package netx

import (
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Host is a host of the fleet as the proxy sees it.
type Host interface {
	// Addr is the address of the host's own listener (127.0.0.1:PORT),
	// which a CONNECT tunnel reaches.
	Addr() string
	// Names returns the id of the host's vendor and the host's name, as
	// a Refusal names them.
	Names() (vendor, host string)
	// ServeHTTP answers an absolute-form plain HTTP request for the host.
	http.Handler
}

// Router finds the fleet hosts a proxy reaches.
type Router interface {
	// Lookup returns the host an authority names exactly
	// ("agent-b.example:443", a bare-IP host's "127.0.0.1:PORT"), or nil
	// (an untyped nil) when it names none.
	Lookup(authority string) Host
}

// Why says what the network layer refused.
type Why int

const (
	// OutsideFleet is a proxy target that is no host of the fleet,
	// answered 403.
	OutsideFleet Why = iota + 1
	// PastCap is a request on a connection past a FleetCap's cap, none
	// idle to reclaim, answered 503 (FleetCap.RefuseOverCap).
	PastCap
)

// Refusal is one request the network layer refused, in plain fields.
type Refusal struct {
	Why Why
	// Vendor and Host name the fleet host the request was for, as
	// Host.Names does; with no fleet host, Vendor is empty and Host is
	// the target the client named.
	Vendor, Host string
	// Method is the request's method; Path its path, for PastCap only.
	Method, Path string
	// Status is the HTTP status the refusal answered.
	Status int
	// Max is the cap reached, for PastCap.
	Max int64
}

// Reporter is told of every refusal, before or after its answer (the
// fleet traces it).
type Reporter interface {
	Refused(Refusal)
}

// ProxyConfig is what a Proxy needs of the fleet it fronts. Every field
// is required.
type ProxyConfig struct {
	Router   Router
	Reporter Reporter
	// Conns is the cap the proxy's listener is under.
	Conns *FleetCap
	// ReadTimeout bounds reading a request's head, and the body of one
	// answered by a host's handler; IdleTimeout closes an idle
	// keep-alive connection and a tunnel no byte crossed for as long.
	ReadTimeout, IdleTimeout time.Duration
	// MaxTunnels caps the CONNECT tunnels open at once.
	MaxTunnels int
	// Enter is called as a request arrives: false (the fleet is closing)
	// answers 503; true is matched by one call of Leave when the request,
	// its tunnel included, is done.
	Enter func() bool
	Leave func()
	// Addr is the address the proxy listens on; "" means a free loopback
	// port (127.0.0.1:0).
	Addr string
}

// Proxy is the fleet's HTTP proxy. CONNECT host:port reaches the listener
// of that fleet host; an absolute-form plain HTTP request is answered by the
// host's handler directly. Every other target is refused (403) and
// reported.
type Proxy struct {
	cfg   ProxyConfig
	ln    net.Listener
	addr  string
	srv   *http.Server
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	// tunnels counts the open CONNECT tunnels (Limits.MaxTunnels).
	tunnels atomic.Int64
	// tunnelsRefused counts the CONNECTs refused past Limits.MaxTunnels.
	tunnelsRefused atomic.Int64
}

// ListenProxy listens for a proxy on cfg.Addr (a loopback port by
// default); Serve serves it.
func ListenProxy(cfg ProxyConfig) (*Proxy, error) {
	addr := cfg.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &Proxy{cfg: cfg, ln: ln, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: cfg.ReadTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0),
		ConnState:         cfg.Conns.ConnState,
		ConnContext:       MarkOverCap,
	}
	return p, nil
}

// Serve accepts connections under the cap until Close.
func (p *Proxy) Serve() error { return p.srv.Serve(p.cfg.Conns.Listen(p.ln, proxyBusy)) }

// Addr returns the proxy's address, 127.0.0.1:PORT.
func (p *Proxy) Addr() string { return p.addr }

// TunnelsRefused returns how many CONNECTs were refused past MaxTunnels.
func (p *Proxy) TunnelsRefused() int64 { return p.tunnelsRefused.Load() }

// route finds the fleet host for a proxy target ("agent-b.example:443",
// "agent-b.example" for plain HTTP, or a bare-IP host's "127.0.0.1:PORT").
func (p *Proxy) route(target string, defaultPort string) Host {
	if _, _, err := net.SplitHostPort(target); err != nil {
		target = net.JoinHostPort(target, defaultPort)
	}
	if h := p.cfg.Router.Lookup(target); h != nil {
		return h
	}
	// A named host reached by plain HTTP on port 80 is the same host.
	if name, port, _ := net.SplitHostPort(target); port == "80" {
		return p.cfg.Router.Lookup(net.JoinHostPort(name, "443"))
	}
	return nil
}

func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, target string) {
	p.cfg.Reporter.Refused(Refusal{Why: OutsideFleet, Host: target, Method: r.Method, Status: http.StatusForbidden})
	http.Error(w, "a2a-conform proxy: "+target+" is not a host of the fleet", http.StatusForbidden)
}

// ServeHTTP answers one request to the proxy.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.cfg.Enter() {
		http.Error(w, "fleet closing", http.StatusServiceUnavailable)
		return
	}
	defer p.cfg.Leave()
	if OverCap(r) {
		p.refuseOverCap(w, r)
		return
	}
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "a2a-conform proxy: send CONNECT or an absolute-form request", http.StatusBadRequest)
		return
	}
	h := p.route(r.URL.Host, "80")
	if h == nil || r.URL.Scheme != "http" && r.URL.Scheme != "https" {
		p.refuse(w, r, r.URL.Host)
		return
	}
	// Plain HTTP to a fleet host: answer with the host's handler, reading
	// the body within Limits.ReadTimeout (as a host's own server does).
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(p.cfg.ReadTimeout)) == nil {
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
	}
	h.ServeHTTP(w, r)
}

// deadlineBody clears the connection's read deadline once the body has
// been read whole, so that a long answer (a stream) is not cut; a body cut
// by the deadline keeps it, and the connection closes after the answer.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// refuseOverCap answers a request on a connection past Limits.MaxConns
// (FleetCap.RefuseOverCap), reported with its target and the target's
// vendor.
func (p *Proxy) refuseOverCap(w http.ResponseWriter, r *http.Request) {
	target, port := r.Host, "443"
	if r.Method != http.MethodConnect && r.URL.IsAbs() {
		target, port = r.URL.Host, "80"
	}
	vendor, host := "", target
	if h := p.route(target, port); h != nil {
		vendor, host = h.Names()
	}
	p.cfg.Conns.RefuseOverCap(w, r, p.cfg.Reporter, vendor, host)
}

// proxyBusy is what a connection past Limits.MaxConns reads before the
// proxy closes it, when MaxOverCapAnswers others are being answered.
var proxyBusy = []byte("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	h := p.route(r.Host, "443")
	if h == nil {
		p.refuse(w, r, r.Host)
		return
	}
	if n := p.tunnels.Add(1); n > int64(p.cfg.MaxTunnels) {
		p.tunnels.Add(-1)
		p.tunnelsRefused.Add(1)
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Connection", "close")
		http.Error(w, "a2a-conform proxy: "+strconv.Itoa(p.cfg.MaxTunnels)+" tunnels are open (Limits.MaxTunnels)", http.StatusServiceUnavailable)
		return
	}
	defer p.tunnels.Add(-1)
	up, err := net.DialTimeout("tcp", h.Addr(), 5*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return
	}
	down, rw, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(down, up) {
		return
	}
	// The server's deadlines stay on a hijacked connection; the tunnel
	// keeps its own (Limits.IdleTimeout).
	_ = down.SetDeadline(time.Time{})
	_, _ = down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	// Bytes the client sent after the CONNECT head (early TLS hello) are
	// still in the hijacked reader.
	var src io.Reader = down
	if n := rw.Reader.Buffered(); n > 0 {
		src = io.MultiReader(io.LimitReader(rw.Reader, int64(n)), down)
	}
	p.splice(down, up, src)
}

// track registers a spliced pair so close can end it; it refuses once the
// proxy is closing.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns == nil {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

// splice copies both ways until either side ends, or until no byte has
// crossed either way for Limits.IdleTimeout. It copies through buffers of
// its own: io.Copy between TCP connections would splice(2) through a pipe
// pair per direction (4 more descriptors per tunnel, released only when
// the pool lets them go).
func (p *Proxy) splice(down, up net.Conn, src io.Reader) {
	var last atomic.Int64 // unix nanoseconds of the last byte either way
	last.Store(time.Now().UnixNano())
	idle := p.cfg.IdleTimeout
	done := make(chan struct{}, 2)
	go func() {
		copyIdle(up, src, down, idle, &last)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	copyIdle(down, up, up, idle, &last)
	p.untrack(down, up)
	<-done
}

var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyIdle copies src (read from conn rc) to dst until an error, or until
// a read has waited idle with no byte crossing the tunnel either way.
func copyIdle(dst io.Writer, src io.Reader, rc net.Conn, idle time.Duration, last *atomic.Int64) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	buf := *bp
	for {
		_ = rc.SetReadDeadline(time.Unix(0, last.Load()).Add(idle))
		n, err := src.Read(buf)
		if n > 0 {
			last.Store(time.Now().UnixNano())
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) && time.Since(time.Unix(0, last.Load())) < idle {
			continue // the other way was busy
		}
		if err != nil {
			return
		}
	}
}

// Close ends every tunnel and closes the proxy's listener and
// connections.
func (p *Proxy) Close() {
	p.mu.Lock()
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for c := range conns {
		c.Close()
	}
	_ = p.srv.Close()
}
