package mockvendor

import (
	"io"
	"net"
	"net/http"
	"sync"
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
		ErrorLog:          quietLog(),
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		_ = p.srv.Serve(ln)
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
	p.f.trace.add(Event{Host: target, HTTPMethod: r.Method, Op: OpRefused, Status: http.StatusForbidden, Note: "proxy target outside the fleet"})
	http.Error(w, "a2a-conform proxy: "+target+" is not a host of the fleet", http.StatusForbidden)
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.f.enter() {
		http.Error(w, "fleet closing", http.StatusServiceUnavailable)
		return
	}
	defer p.f.active.Done()
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
	// Plain HTTP to a fleet host: answer with the host's handler.
	h.serve(w, r)
}

func (p *proxy) connect(w http.ResponseWriter, r *http.Request) {
	h := p.route(r.Host, "443")
	if h == nil {
		p.refuse(w, r, r.Host)
		return
	}
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

// splice copies both ways until either side ends.
func (p *proxy) splice(down, up net.Conn, src io.Reader) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(up, src)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	_, _ = io.Copy(down, up)
	p.untrack(down, up)
	<-done
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
