package mockvendor

import (
	"crypto"
	"crypto/tls"
	"fmt"
	"net/http"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The fleet's network layer (the CA, the connection caps, the proxy) is in
// internal/netx; the names below keep this package's API, and fleetNet
// connects the proxy and the caps to the fleet's hosts and trace.

// CA is the certificate authority the fleet issues host certificates from.
// Its private key stays in memory unless TestKeyPEM is called on purpose.
type CA = netx.CA

// NewCA returns a fresh ECDSA P-256 CA valid for 24 hours (a run, not a
// deployment).
func NewCA() (*CA, error) { return netx.NewCA() }

// LoadCA reads a CA certificate and its private key from PEM (the form
// fixtures/certs ships). The key may be PKCS#8 or SEC 1 ("EC PRIVATE KEY").
func LoadCA(certPEM, keyPEM []byte) (*CA, error) { return netx.LoadCA(certPEM, keyPEM) }

// NewCAValidFor returns a fresh ECDSA P-256 CA valid for d from now (with
// the hour of back-dating NewCA has). The certs command uses it for the
// long-lived CA in fixtures/certs; a fleet run keeps NewCA's 24 hours.
func NewCAValidFor(d time.Duration) (*CA, error) { return netx.NewCAValidFor(d) }

// SelfSigned returns a leaf certificate for the SANs that no CA signed: a
// client that verifies certificates must refuse it.
func SelfSigned(sans ...string) (tls.Certificate, error) { return netx.SelfSigned(sans...) }

// SelfSignedValidFor is SelfSigned with a validity of d from now.
func SelfSignedValidFor(d time.Duration, sans ...string) (tls.Certificate, error) {
	return netx.SelfSignedValidFor(d, sans...)
}

// TestKeyNotice is the line every private key file the project writes
// starts with (see TestKeyPEM).
const TestKeyNotice = netx.TestKeyNotice

// TestKeyPEM returns a private key in PKCS#8 PEM form, preceded by the
// TestKeyNotice line: the form of the keys in fixtures/ (explanatory text
// before the BEGIN line, RFC 7468 section 2, which Go and OpenSSL skip).
func TestKeyPEM(key crypto.PrivateKey) ([]byte, error) { return netx.TestKeyPEM(key) }

// HostSANs returns the certificate names a host of the configuration gets
// from the fleet CA: its SANs, else its name, else 127.0.0.1 (bare-IP host).
func HostSANs(h HostConfig) []string {
	if len(h.SANs) > 0 {
		return append([]string(nil), h.SANs...)
	}
	if h.Name == "" {
		return []string{"127.0.0.1"}
	}
	return []string{h.Name}
}

// ConnCap bounds the connections open at once across the listeners it
// wraps: past Max, a new connection reads the listener's refusal (when set)
// and is closed at once. The zero value refuses every connection: set Max.
type ConnCap = netx.ConnCap

// MaxOverCapAnswers is how many connections past Limits.MaxConns the fleet
// answers at once (HTTP 503 with Retry-After, after the TLS handshake on a
// host); a connection past the cap while that many are being answered is
// closed unanswered. Each lives at most OverCapLife.
const MaxOverCapAnswers = netx.MaxOverCapAnswers

// OverCapLife bounds the life of a connection answered past
// Limits.MaxConns: its TLS handshake, its request head and the answer must
// fit in it (net/http's lingering close may add 0.5 s).
const OverCapLife = netx.OverCapLife

// Conns returns how many connections the fleet's listeners hold open now
// (at most Limits.MaxConns) and how many they refused past the cap.
func (f *Fleet) Conns() (open, refused int64) { return f.conns.Counts() }

// ConnsReclaimed returns how many idle connections the fleet closed to let
// a new one in at Limits.MaxConns (the one waiting longest for its next
// request goes first). A reclaimed connection costs its client a new
// connection, as an idle timeout does: it is not a limit hit.
func (f *Fleet) ConnsReclaimed() int64 { return f.conns.Reclaimed() }

// newProxy starts the fleet's proxy, under the fleet's connection cap and
// limits, serving until Fleet.Close.
func newProxy(f *Fleet) (*netx.Proxy, error) {
	p, err := netx.ListenProxy(netx.ProxyConfig{
		Router:      fleetNet{f},
		Reporter:    fleetNet{f},
		Conns:       f.conns,
		ReadTimeout: f.limits.ReadTimeout,
		IdleTimeout: f.limits.IdleTimeout,
		MaxTunnels:  f.limits.MaxTunnels,
		Enter:       f.enter,
		Leave:       f.active.Done,
		Addr:        f.cfg.ProxyAddr,
	})
	if err != nil {
		return nil, err
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		_ = p.Serve()
	}()
	return p, nil
}

// fleetNet is the fleet as the network layer sees it: the Router of its
// proxy and the Reporter of its refusals.
type fleetNet struct{ f *Fleet }

// Lookup returns the fleet host an authority names ("agent-b.example:443"
// or "127.0.0.1:PORT"), or nil.
func (n fleetNet) Lookup(authority string) netx.Host {
	if h := n.f.byAddr[authority]; h != nil {
		return h
	}
	return nil
}

// Refused traces a refusal: a proxy target outside the fleet (OpRefused),
// or a request past Limits.MaxConns (OpConnLimit).
func (n fleetNet) Refused(r netx.Refusal) {
	ev := Event{Vendor: r.Vendor, Host: r.Host, HTTPMethod: r.Method, Path: r.Path, Status: r.Status}
	switch r.Why {
	case netx.OutsideFleet:
		ev.Op, ev.Note = OpRefused, "proxy target outside the fleet"
	case netx.PastCap:
		ev.Op = OpConnLimit
		ev.Note = fmt.Sprintf("refused past Limits.MaxConns (%d connections open, none idle): answered 503, Retry-After: 1", r.Max)
		trace.Clip(&ev)
		trace.CheckText(&ev)
	}
	n.f.trace.Add(ev)
}

// Addr returns the address of the host's listener (netx.Host).
func (h *host) Addr() string { return h.addr }

// Names returns the host's vendor id and name, as the trace names them
// (netx.Host).
func (h *host) Names() (vendor, host string) { return h.vendor.cfg.ID, h.name }

// ServeHTTP answers a plain HTTP request the proxy passes on (netx.Host).
func (h *host) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve(w, r) }
