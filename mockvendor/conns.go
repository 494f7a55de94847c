package mockvendor

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// maxHeaderBytes caps a request's header on the proxy and the hosts
// (net/http answers 431 past it): with Limits.MaxConns connections each
// reading a header, the fleet holds at most 1,024 x 64 KiB = 64 MiB of
// header buffers (net/http's default, 1 MiB, would allow 1 GiB).
const maxHeaderBytes = 64 << 10

// ConnCap bounds the connections open at once across the listeners it
// wraps: past Max, a new connection reads the listener's refusal (when set)
// and is closed at once, before it costs more than the moment of its
// descriptor. The fleet keeps one for its proxy and hosts
// (Limits.MaxConns); the admin server one of its own. The zero value
// refuses every connection: set Max.
type ConnCap struct {
	// Max is the number of connections that may be open at once.
	Max int64

	open, refused atomic.Int64
}

// Listen wraps ln under the cap; refusal, when not nil, is written to a
// connection refused past it.
func (cc *ConnCap) Listen(ln net.Listener, refusal []byte) net.Listener {
	return &capListener{Listener: ln, cc: cc, refusal: refusal}
}

// Counts returns how many connections are open now and how many were
// refused past the cap.
func (cc *ConnCap) Counts() (open, refused int64) { return cc.open.Load(), cc.refused.Load() }

type capListener struct {
	net.Listener
	cc      *ConnCap
	refusal []byte
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.cc.open.Add(1) <= l.cc.Max {
			return &countedConn{Conn: c, cc: l.cc}, nil
		}
		l.cc.open.Add(-1)
		l.cc.refused.Add(1)
		if l.refusal != nil {
			_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, _ = c.Write(l.refusal)
		}
		_ = c.Close()
	}
}

// countedConn gives its place under the cap back when closed.
type countedConn struct {
	net.Conn
	cc   *ConnCap
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.cc.open.Add(-1) })
	return c.Conn.Close()
}

// Conns returns how many connections the fleet's listeners hold open now
// (at most Limits.MaxConns) and how many they refused past the cap.
func (f *Fleet) Conns() (open, refused int64) { return f.conns.Counts() }
