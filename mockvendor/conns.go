package mockvendor

import (
	"net"
	"sync"
	"time"
)

// maxHeaderBytes caps a request's header on the proxy and the hosts
// (net/http answers 431 past it): with Limits.MaxConns connections each
// reading a header, the fleet holds at most 1,024 x 64 KiB = 64 MiB of
// header buffers (net/http's default, 1 MiB, would allow 1 GiB).
const maxHeaderBytes = 64 << 10

// capListener accepts at most Limits.MaxConns connections open at once
// across the fleet's listeners (the proxy's and every host's). A
// connection past the cap reads refusal (when set) and is closed at once,
// before it costs more than the moment of its descriptor.
type capListener struct {
	net.Listener
	f       *Fleet
	refusal []byte
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.f.conns.Add(1) <= int64(l.f.limits.MaxConns) {
			return &countedConn{Conn: c, f: l.f}, nil
		}
		l.f.conns.Add(-1)
		l.f.refusedConns.Add(1)
		if l.refusal != nil {
			_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, _ = c.Write(l.refusal)
		}
		_ = c.Close()
	}
}

// countedConn gives its place under Limits.MaxConns back when closed.
type countedConn struct {
	net.Conn
	f    *Fleet
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.f.conns.Add(-1) })
	return c.Conn.Close()
}

// Conns returns how many connections the fleet's listeners hold open now
// (at most Limits.MaxConns) and how many they refused past the cap.
func (f *Fleet) Conns() (open, refused int64) {
	return f.conns.Load(), f.refusedConns.Load()
}
