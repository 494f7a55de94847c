package netx

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// MaxHeaderBytes caps a request's header on the proxy and the hosts
// (net/http answers 431 past it): with Limits.MaxConns connections each
// reading a header, the fleet holds at most 1,024 x 64 KiB = 64 MiB of
// header buffers (net/http's default, 1 MiB, would allow 1 GiB).
const MaxHeaderBytes = 64 << 10

// MaxOverCapAnswers is how many connections past the fleet's cap
// (Limits.MaxConns, a FleetCap) the fleet answers at once (HTTP 503 with Retry-After, after the TLS handshake on a
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
// descriptor. The admin server keeps one; the fleet keeps a FleetCap for
// its proxy and hosts (Limits.MaxConns), which first reclaims an idle
// connection and answers a refusal over HTTP. The zero value refuses
// every connection: set Max.
type ConnCap struct {
	// Max is the number of connections that may be open at once.
	Max int64

	open, refused, reclaimed, answering atomic.Int64
	// reclaim is set for a FleetCap, whose servers report what their
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

// listen is Listen for a FleetCap: with answer set, a connection refused
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

// netConner is a connection wrapping another, as *tls.Conn does: a
// server's view of a connection reaches its countedConn through it.
type netConner interface{ NetConn() net.Conn }

// maxWraps bounds how many wrapping layers countedOf looks under (a
// fleet host has two: TLS and the host's tag).
const maxWraps = 4

// countedOf finds the countedConn under a server's view of a connection:
// itself (the proxy), or under the layers wrapping it, each of which
// gives the next by a NetConn method (a host: TLS, then the host's tag).
func countedOf(c net.Conn) *countedConn {
	for i := 0; i <= maxWraps; i++ {
		switch k := c.(type) {
		case *countedConn:
			return k
		case netConner:
			c = k.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// Reclaimed reports whether a FleetCap closed connection c (or the one it
// wraps) to make room for another (it was idle the longest): the fleet,
// not its client, ended it.
func Reclaimed(c net.Conn) bool {
	k := countedOf(c)
	return k != nil && k.reclaimed.Load()
}

// overCapKey marks, in a request's context, a connection past
// Limits.MaxConns: its request is answered 503 (FleetCap.RefuseOverCap).
type overCapKey struct{}

// MarkOverCap is a server's ConnContext step: it marks the context of a
// connection a FleetCap handed over past its cap.
func MarkOverCap(ctx context.Context, c net.Conn) context.Context {
	if k := countedOf(c); k != nil && k.overCap {
		return context.WithValue(ctx, overCapKey{}, true)
	}
	return ctx
}

// OverCap reports whether r arrived on a connection past the cap of a
// FleetCap (marked by MarkOverCap): answer it with RefuseOverCap.
func OverCap(r *http.Request) bool { return r.Context().Value(overCapKey{}) != nil }

// FleetCap is the fleet's cap on the connections open at once across its
// proxy and hosts (Limits.MaxConns). Its servers report what their
// connections do (ConnState) and mark an over-cap connection
// (MarkOverCap), so that, past Max, a new connection first takes the
// place of the open one idle the longest; when none is idle, up to
// MaxOverCapAnswers are handed to the server to be answered 503
// (RefuseOverCap) and one more is closed unanswered.
type FleetCap struct{ cc ConnCap }

// NewFleetCap returns a FleetCap for max connections.
func NewFleetCap(max int64) *FleetCap {
	fc := &FleetCap{}
	fc.cc.Max, fc.cc.reclaim = max, true
	return fc
}

// Listen wraps ln under the cap; refusal, when not nil, is written to a
// connection past it that is not answered over HTTP.
func (fc *FleetCap) Listen(ln net.Listener, refusal []byte) net.Listener {
	return fc.cc.listen(ln, refusal, true)
}

// ConnState records what a server says connection c does: the
// http.Server.ConnState of every server listening under the cap.
func (fc *FleetCap) ConnState(c net.Conn, s http.ConnState) { fc.cc.connState(c, s) }

// Counts returns how many connections are open now (at most the cap) and
// how many were refused past it.
func (fc *FleetCap) Counts() (open, refused int64) { return fc.cc.Counts() }

// Reclaimed returns how many idle connections were closed to let a new
// one in at the cap.
func (fc *FleetCap) Reclaimed() int64 { return fc.cc.reclaimed.Load() }

// Answering returns how many connections past the cap are being answered
// now (at most MaxOverCapAnswers).
func (fc *FleetCap) Answering() int64 { return fc.cc.answering.Load() }

// RefuseOverCap answers a request that arrived on a connection past the
// cap (OverCap), none idle to reclaim: 503 with Retry-After: 1 and a body
// naming the limit, the connection closed after it (as the proxy refuses
// a tunnel past Limits.MaxTunnels); then rep is told, with the vendor and
// host the request was for, so that a person sees why.
func (fc *FleetCap) RefuseOverCap(w http.ResponseWriter, r *http.Request, rep Reporter, vendor, host string) {
	// Read a little of the body first: closing with the client's bytes
	// unread resets the connection, which can destroy the answer before
	// the client reads it.
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
	msg := fmt.Sprintf("a2a-conform fleet: %d connections are open, each inside a request (Limits.MaxConns); retry after 1 s", fc.cc.Max)
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	http.Error(w, msg, http.StatusServiceUnavailable)
	rep.Refused(Refusal{Why: PastCap, Vendor: vendor, Host: host, Method: r.Method, Path: r.URL.Path, Status: http.StatusServiceUnavailable, Max: fc.cc.Max})
}
