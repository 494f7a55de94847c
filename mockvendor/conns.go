package mockvendor

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// maxHeaderBytes caps a request's header on the proxy and the hosts
// (net/http answers 431 past it): with Limits.MaxConns connections each
// reading a header, the fleet holds at most 1,024 x 64 KiB = 64 MiB of
// header buffers (net/http's default, 1 MiB, would allow 1 GiB).
const maxHeaderBytes = 64 << 10

// MaxOverCapAnswers is how many connections past Limits.MaxConns the fleet
// answers at once (HTTP 503 with Retry-After, after the TLS handshake on a
// host); a connection past the cap while that many are being answered is
// closed unanswered. Each lives at most OverCapLife.
const MaxOverCapAnswers = 64

// OverCapLife bounds the life of a connection answered past
// Limits.MaxConns: its TLS handshake, its request head and the answer must
// fit in it (net/http's lingering close may add 0.5 s).
const OverCapLife = time.Second

// ConnCap bounds the connections open at once across the listeners it
// wraps: past Max, a new connection reads the listener's refusal (when set)
// and is closed at once, before it costs more than the moment of its
// descriptor. The fleet keeps one for its proxy and hosts
// (Limits.MaxConns), which first reclaims an idle connection and answers
// a refusal over HTTP (see Fleet.ConnsReclaimed); the admin server one of
// its own. The zero value refuses every connection: set Max.
type ConnCap struct {
	// Max is the number of connections that may be open at once.
	Max int64

	open, refused, reclaimed, answering atomic.Int64
	// reclaim is set by the fleet, whose servers report what their
	// connections do (connState): a connection past Max then closes the
	// open one that has waited longest for its next request.
	reclaim bool
	mu      sync.Mutex
	conns   map[*countedConn]struct{} // open and reclaimable in principle
}

// Listen wraps ln under the cap; refusal, when not nil, is written to a
// connection refused past it.
func (cc *ConnCap) Listen(ln net.Listener, refusal []byte) net.Listener {
	return &capListener{Listener: ln, cc: cc, refusal: refusal}
}

// listen is Listen for the fleet: with answer set, a connection refused
// past the cap is handed to the server marked (overCap) so that it answers
// 503, when fewer than MaxOverCapAnswers are being answered.
func (cc *ConnCap) listen(ln net.Listener, refusal []byte, answer bool) net.Listener {
	return &capListener{Listener: ln, cc: cc, refusal: refusal, answer: answer}
}

// Counts returns how many connections are open now and how many were
// refused past the cap.
func (cc *ConnCap) Counts() (open, refused int64) { return cc.open.Load(), cc.refused.Load() }

type capListener struct {
	net.Listener
	cc      *ConnCap
	refusal []byte
	answer  bool
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if k := l.cc.admit(c); k != nil {
			return k, nil
		}
		l.cc.refused.Add(1)
		if l.answer {
			if l.cc.answering.Add(1) <= MaxOverCapAnswers {
				k := &countedConn{Conn: c, cc: l.cc, overCap: true, until: time.Now().Add(OverCapLife)}
				_ = c.SetDeadline(k.until)
				return k, nil
			}
			l.cc.answering.Add(-1)
		}
		if l.refusal != nil {
			_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, _ = c.Write(l.refusal)
		}
		_ = c.Close()
	}
}

// admit counts c under the cap, making room by reclaiming an idle
// connection when the cap is reached (a few times over, should another
// listener take the place first); nil when there is no room. The count
// never passes Max: a reclaimed connection is closed before its place is
// taken.
func (cc *ConnCap) admit(c net.Conn) *countedConn {
	for tries := 0; cc.open.Add(1) > cc.Max; tries++ {
		cc.open.Add(-1)
		if tries == 4 || !cc.reclaimOne() {
			return nil
		}
	}
	k := &countedConn{Conn: c, cc: cc}
	k.since.Store(time.Now().UnixNano())
	if cc.reclaim {
		cc.mu.Lock()
		if cc.conns == nil {
			cc.conns = map[*countedConn]struct{}{}
		}
		cc.conns[k] = struct{}{}
		cc.mu.Unlock()
	}
	return k
}

// reclaimOne closes the open connection that has waited longest for its
// next request (since it was accepted, answered its last request, or
// last received a byte), never one inside a request or hijacked (a
// tunnel's client end: its host end is reclaimed instead, which ends the
// tunnel). Once it returns true, the place is free.
//
// Who the client is cannot be told apart on loopback: every peer is
// 127.0.0.1 (the hosts see the proxy for tunnelled connections), a port
// names one connection, and finding the process that owns a socket would
// mean scanning /proc per accept, on Linux only. So the fleet goes by what
// a connection does, the policy of a cache: the connection idle the
// longest goes first. A client holding many idle connections holds the
// oldest ones and loses them first; one that has just made a request is
// reclaimed last. As any server may, the fleet closes only connections
// between requests (RFC 9112 §9.3.1); a client that sends on a connection
// at the very moment it is closed retries as after an idle timeout.
func (cc *ConnCap) reclaimOne() bool {
	if !cc.reclaim {
		return false
	}
	cc.mu.Lock()
	var victim *countedConn
	oldest := int64(0)
	for k := range cc.conns {
		if s := k.since.Load(); !k.busy.Load() && (victim == nil || s < oldest) {
			victim, oldest = k, s
		}
	}
	if victim != nil {
		delete(cc.conns, victim) // its Close gives the place back, once
		victim.reclaimed.Store(true)
	}
	cc.mu.Unlock()
	if victim == nil {
		return false
	}
	cc.reclaimed.Add(1)
	_ = victim.Close()
	return true
}

// connState records what a server says connection c does
// (http.Server.ConnState): inside a request or hijacked it cannot be
// reclaimed; idle again, it waits from now.
func (cc *ConnCap) connState(c net.Conn, s http.ConnState) {
	k := countedOf(c)
	if k == nil || k.overCap {
		return
	}
	switch s {
	case http.StateActive, http.StateHijacked:
		k.busy.Store(true)
	case http.StateIdle:
		k.since.Store(time.Now().UnixNano())
		k.busy.Store(false)
	}
}

// countedConn gives its place under the cap back when closed.
type countedConn struct {
	net.Conn
	cc   *ConnCap
	once sync.Once
	// since is when the connection last began to wait (accepted, done
	// with a request, or a byte received), in Unix nanoseconds; busy is
	// set while it is inside a request or hijacked.
	since           atomic.Int64
	busy, reclaimed atomic.Bool
	// overCap marks a connection past the cap handed to the server to be
	// answered 503, until at the latest (no deadline reaches past it).
	overCap bool
	until   time.Time
}

func (c *countedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.cc.reclaim && !c.busy.Load() {
		c.since.Store(time.Now().UnixNano())
	}
	return n, err
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		if c.overCap {
			c.cc.answering.Add(-1)
			return
		}
		c.cc.open.Add(-1)
		if c.cc.reclaim {
			c.cc.mu.Lock()
			delete(c.cc.conns, c)
			c.cc.mu.Unlock()
		}
	})
	return c.Conn.Close()
}

// clamp keeps an over-cap connection's deadlines within its life (the
// server sets its own read deadlines per request).
func (c *countedConn) clamp(t time.Time) time.Time {
	if c.overCap && (t.IsZero() || t.After(c.until)) {
		return c.until
	}
	return t
}

func (c *countedConn) SetDeadline(t time.Time) error { return c.Conn.SetDeadline(c.clamp(t)) }

func (c *countedConn) SetReadDeadline(t time.Time) error {
	return c.Conn.SetReadDeadline(c.clamp(t))
}

func (c *countedConn) SetWriteDeadline(t time.Time) error {
	return c.Conn.SetWriteDeadline(c.clamp(t))
}

// countedOf finds the countedConn under a server's view of a connection:
// itself (the proxy), or under the TLS and host layers (a host).
func countedOf(c net.Conn) *countedConn {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if hc, ok := c.(*hostConn); ok {
		c = hc.Conn
	}
	k, _ := c.(*countedConn)
	return k
}

// overCapKey marks, in a request's context, a connection past
// Limits.MaxConns: its request is answered 503 (refuseOverCap).
type overCapKey struct{}

// markOverCap is a server's ConnContext step: it marks the context of an
// over-cap connection.
func markOverCap(ctx context.Context, c net.Conn) context.Context {
	if k := countedOf(c); k != nil && k.overCap {
		return context.WithValue(ctx, overCapKey{}, true)
	}
	return ctx
}

// overCap reports whether r arrived on a connection past Limits.MaxConns.
func overCap(r *http.Request) bool { return r.Context().Value(overCapKey{}) != nil }

// refuseOverCap answers a request that arrived on a connection past
// Limits.MaxConns, none idle to reclaim: 503 with Retry-After: 1 and a
// body naming the limit, the connection closed after it (as the proxy
// refuses a tunnel past Limits.MaxTunnels), and ev (the host or target it
// was for) is traced so that a person sees why.
func (f *Fleet) refuseOverCap(w http.ResponseWriter, r *http.Request, ev Event) {
	// Read a little of the body first: closing with the client's bytes
	// unread resets the connection, which can destroy the answer before
	// the client reads it.
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
	msg := fmt.Sprintf("a2a-conform fleet: %d connections are open, each inside a request (Limits.MaxConns); retry after 1 s", f.limits.MaxConns)
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	http.Error(w, msg, http.StatusServiceUnavailable)
	ev.HTTPMethod, ev.Path, ev.Op, ev.Status = r.Method, r.URL.Path, OpConnLimit, http.StatusServiceUnavailable
	ev.Note = fmt.Sprintf("refused past Limits.MaxConns (%d connections open, none idle): answered 503, Retry-After: 1", f.limits.MaxConns)
	trace.Clip(&ev)
	trace.CheckText(&ev)
	f.trace.Add(ev)
}

// Conns returns how many connections the fleet's listeners hold open now
// (at most Limits.MaxConns) and how many they refused past the cap.
func (f *Fleet) Conns() (open, refused int64) { return f.conns.Counts() }

// ConnsReclaimed returns how many idle connections the fleet closed to let
// a new one in at Limits.MaxConns (the one waiting longest for its next
// request goes first). A reclaimed connection costs its client a new
// connection, as an idle timeout does: it is not a limit hit.
func (f *Fleet) ConnsReclaimed() int64 { return f.conns.reclaimed.Load() }
