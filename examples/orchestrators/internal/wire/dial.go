package wire

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Dialer opens a TCP connection to addr ("host:port") the way an
// *http.Transport reaches that host: through its CONNECT proxy when its
// Proxy function names one for an https request to addr, else through its
// DialContext (a resolve map), else directly. A client that does not speak
// HTTP/1.1 itself (gRPC over HTTP/2) reaches the fleet's hosts through it
// exactly as the HTTP client does.
type Dialer struct {
	// Transport is the HTTP transport whose routes are followed. Nil
	// means a direct dial.
	Transport *http.Transport
}

// DialContext dials addr; its signature is grpc.WithContextDialer's.
func (d Dialer) DialContext(ctx context.Context, addr string) (net.Conn, error) {
	t := d.Transport
	if t != nil && t.Proxy != nil {
		pu, err := t.Proxy(&http.Request{Method: http.MethodConnect, URL: &url.URL{Scheme: "https", Host: addr}, Header: http.Header{}})
		if err != nil {
			return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
		}
		if pu != nil {
			return connectThrough(ctx, t, pu, addr)
		}
	}
	if t != nil && t.DialContext != nil {
		return t.DialContext(ctx, "tcp", addr)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, "tcp", addr)
}

// connectThrough opens a tunnel to addr through the HTTP proxy at pu (an
// http:// proxy; its userinfo, when set, goes as Proxy-Authorization
// Basic).
func connectThrough(ctx context.Context, t *http.Transport, pu *url.URL, addr string) (net.Conn, error) {
	if pu.Scheme != "http" {
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: fmt.Errorf("proxy scheme %q: only http:// proxies are dialled", pu.Scheme)}
	}
	proxyAddr := pu.Host
	if pu.Port() == "" {
		proxyAddr = net.JoinHostPort(pu.Hostname(), "80")
	}
	var c net.Conn
	var err error
	if t.DialContext != nil {
		c, err = t.DialContext(ctx, "tcp", proxyAddr)
	} else {
		var nd net.Dialer
		c, err = nd.DialContext(ctx, "tcp", proxyAddr)
	}
	if err != nil {
		return nil, err
	}
	// The handshake with the proxy is bounded by ctx.
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if u := pu.User; u != nil {
		pw, _ := u.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+pw)))
	}
	if err := req.Write(c); err != nil {
		c.Close()
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		c.Close()
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.Close()
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: fmt.Errorf("proxy refused CONNECT %s: %s", addr, strings.TrimSpace(resp.Status))}
	}
	if !stop() {
		// ctx ended as the answer came: the connection is closed.
		return nil, ctx.Err()
	}
	if br.Buffered() > 0 {
		return &bufferedConn{Conn: c, r: br}, nil
	}
	return c, nil
}

// bufferedConn is a connection whose first bytes were read ahead into r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }
