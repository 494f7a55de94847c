package reference

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/a2a-conform/a2a-conform/contract"
)

// Mutual TLS [A2A 1.0 §4.5.6; a2a-cli A2ACLI_AUTH_009]. The caller's
// client certificates (trust.clientCertificates) are keyed by the origin
// each was issued for, and the reference presents one only in TLS
// handshakes with exactly that origin: requests there go through a
// transport of their own (a clone of the delegation's, holding the
// certificate); every other request goes through the delegation's
// transport, which holds none, so a host that asks for a certificate of
// any issuer gets none. TLS sends a certificate only when the server asks,
// so the card host of a vendor that does not ask sees none either. A card
// that demands mutual TLS is usable when the caller holds a certificate
// for the endpoint's origin (credentialFor); else the candidate is
// skipped with no-credential.

// schemeMTLS is the kind of a mutual TLS scheme (scheme.kind).
const schemeMTLS = "mtls"

// isMTLS reports whether a securitySchemes entry is a mutual TLS scheme:
// {"mtlsSecurityScheme": {...}} in 1.0, {"type": "mutualTLS"} in 0.3.
func isMTLS(raw json.RawMessage) bool {
	var s struct {
		Type string          `json:"type"`
		MTLS json.RawMessage `json:"mtlsSecurityScheme"`
	}
	return json.Unmarshal(raw, &s) == nil && (s.Type == "mutualTLS" || len(s.MTLS) > 0 && string(s.MTLS) != "null")
}

// holdsClientCert reports whether the caller holds a client certificate
// for origin (and, under the CertOnlyIfDeclared alternative, notes that
// the origin's card asks for it).
func (r *run) holdsClientCert(origin string) bool {
	_, ok := r.req.Trust.ClientCertificates[origin]
	if r.br.AnyClientCert {
		ok = len(r.req.Trust.ClientCertificates) > 0
	}
	if ok {
		r.certs.declare(origin)
	}
	return ok
}

// certRouter sends each request to an origin the caller holds a client
// certificate for through a transport that presents it, and every other
// request through base.
type certRouter struct {
	base  *http.Transport
	certs map[string]contract.ClientCertificate
	br    Breaks
	alt   Alternatives
	notef func(format string, args ...any)

	mu       sync.Mutex
	byOrigin map[string]*http.Transport // nil entry: the files did not load
	declared map[string]bool            // origins whose card asks (CertOnlyIfDeclared)
	all      *http.Transport            // ClientCertEverywhere's one transport
}

// newCertRouter wraps rt when the request holds client certificates and
// rt is an *http.Transport it can clone; else it returns rt and nil.
func newCertRouter(r *run, rt http.RoundTripper) (http.RoundTripper, *certRouter) {
	t, ok := rt.(*http.Transport)
	if !ok || len(r.req.Trust.ClientCertificates) == 0 || r.br.NoClientCert {
		return rt, nil
	}
	c := &certRouter{base: t, certs: r.req.Trust.ClientCertificates, br: r.br, alt: r.alt, notef: r.notef,
		byOrigin: map[string]*http.Transport{}, declared: map[string]bool{}}
	return c, c
}

// RoundTrip picks the transport of the request's origin.
func (c *certRouter) RoundTrip(req *http.Request) (*http.Response, error) {
	return c.transportFor(contract.OriginOf(req.URL.String())).RoundTrip(req)
}

// transportFor is the transport that carries requests to origin.
func (c *certRouter) transportFor(origin string) *http.Transport {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.br.ClientCertEverywhere || c.br.AnyClientCert {
		return c.everywhere()
	}
	cc, held := c.certs[origin]
	if !held || c.alt.CertOnlyIfDeclared && !c.declared[origin] {
		return c.base
	}
	t, made := c.byOrigin[origin]
	if !made {
		t = c.withCert(origin, cc)
		c.byOrigin[origin] = t
	}
	if t == nil {
		return c.base
	}
	return t
}

// withCert clones base with the certificate loaded (nil when its files
// do not load: the origin's calls then go without one, and get its 401).
func (c *certRouter) withCert(origin string, cc contract.ClientCertificate) *http.Transport {
	pair, err := tls.LoadX509KeyPair(cc.CertFile, cc.KeyFile)
	if err != nil {
		c.notef("the client certificate for %s does not load: %v", origin, err)
		return nil
	}
	t := c.base.Clone()
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{}
	}
	t.TLSClientConfig.Certificates = []tls.Certificate{pair}
	t.DisableKeepAlives = c.alt.CertConnPerCall
	return t
}

// everywhere is the one transport of the ClientCertEverywhere and
// AnyClientCert breaks: every certificate held, on every connection the
// delegation opens (Go's TLS then offers the first whose issuer the
// server names, or the first of all when it names none).
func (c *certRouter) everywhere() *http.Transport {
	if c.all != nil {
		return c.all
	}
	c.all = c.base
	var pairs []tls.Certificate
	for origin, cc := range c.certs {
		if t := c.withCert(origin, cc); t != nil {
			pairs = append(pairs, t.TLSClientConfig.Certificates...)
			t.CloseIdleConnections()
		}
	}
	if len(pairs) > 0 {
		c.all = c.base.Clone()
		if c.all.TLSClientConfig == nil {
			c.all.TLSClientConfig = &tls.Config{}
		}
		c.all.TLSClientConfig.Certificates = pairs
	}
	return c.all
}

// declare notes that origin's card asks for mutual TLS.
func (c *certRouter) declare(origin string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.declared[origin] = true
	c.mu.Unlock()
}

// close closes the idle connections of the transports the router made.
func (c *certRouter) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.byOrigin {
		if t != nil {
			t.CloseIdleConnections()
		}
	}
	if c.all != nil && c.all != c.base {
		c.all.CloseIdleConnections()
	}
}
