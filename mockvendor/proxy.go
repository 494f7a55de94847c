package mockvendor

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// proxy is the fleet's HTTP proxy. CONNECT host:port reaches the listener
// of that fleet host; an absolute-form plain HTTP request is answered by the
// host's handler directly. Every other target is refused (403) and recorded
// in the trace.
type proxy struct {
	f     *Fleet
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

func newProxy(f *Fleet) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{f: f, ln: ln, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: f.limits.ReadTimeout,
		IdleTimeout:       f.limits.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          quietLog(),
		ConnState:         f.conns.connState,
		ConnContext:       markOverCap,
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		_ = p.srv.Serve(f.conns.listen(ln, proxyBusy, true))
	}()
	return p, nil
}

// route finds the fleet host for a proxy target ("agent-b.example:443",
// "agent-b.example" for plain HTTP, or a bare-IP host's "127.0.0.1:PORT").
func (p *proxy) route(target string, defaultPort string) *host {
	if _, _, err := net.SplitHostPort(target); err != nil {
		target = net.JoinHostPort(target, defaultPort)
	}
	if h := p.f.byAddr[target]; h != nil {
		return h
	}
	// A named host reached by plain HTTP on port 80 is the same host.
	if name, port, _ := net.SplitHostPort(target); port == "80" {
		return p.f.byAddr[net.JoinHostPort(name, "443")]
	}
	return nil
}

func (p *proxy) refuse(w http.ResponseWriter, r *http.Request, target string) {
	p.f.trace.Add(Event{Host: target, HTTPMethod: r.Method, Op: OpRefused, Status: http.StatusForbidden, Note: "proxy target outside the fleet"})
	http.Error(w, "a2a-conform proxy: "+target+" is not a host of the fleet", http.StatusForbidden)
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.f.enter() {
		http.Error(w, "fleet closing", http.StatusServiceUnavailable)
		return
	}
	defer p.f.active.Done()
	if overCap(r) {
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
	if rc.SetReadDeadline(time.Now().Add(p.f.limits.ReadTimeout)) == nil {
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
	}
	h.serve(w, r)
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
// (Fleet.refuseOverCap), traced with its target and the target's vendor.
func (p *proxy) refuseOverCap(w http.ResponseWriter, r *http.Request) {
	target, port := r.Host, "443"
	if r.Method != http.MethodConnect && r.URL.IsAbs() {
		target, port = r.URL.Host, "80"
	}
	ev := Event{Host: target}
	if h := p.route(target, port); h != nil {
		ev.Vendor, ev.Host = h.vendor.cfg.ID, h.name
	}
	p.f.refuseOverCap(w, r, ev)
}

// proxyBusy is what a connection past Limits.MaxConns reads before the
// proxy closes it, when MaxOverCapAnswers others are being answered.
var proxyBusy = []byte("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

func (p *proxy) connect(w http.ResponseWriter, r *http.Request) {
	h := p.route(r.Host, "443")
	if h == nil {
		p.refuse(w, r, r.Host)
		return
	}
	if n := p.tunnels.Add(1); n > int64(p.f.limits.MaxTunnels) {
		p.tunnels.Add(-1)
		p.tunnelsRefused.Add(1)
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Connection", "close")
		http.Error(w, "a2a-conform proxy: "+strconv.Itoa(p.f.limits.MaxTunnels)+" tunnels are open (Limits.MaxTunnels)", http.StatusServiceUnavailable)
		return
	}
	defer p.tunnels.Add(-1)
	up, err := net.DialTimeout("tcp", h.addr, 5*time.Second)
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
func (p *proxy) track(cs ...net.Conn) bool {
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

func (p *proxy) untrack(cs ...net.Conn) {
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
func (p *proxy) splice(down, up net.Conn, src io.Reader) {
	var last atomic.Int64 // unix nanoseconds of the last byte either way
	last.Store(time.Now().UnixNano())
	idle := p.f.limits.IdleTimeout
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

func (p *proxy) close() {
	p.mu.Lock()
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for c := range conns {
		c.Close()
	}
	_ = p.srv.Close()
}
