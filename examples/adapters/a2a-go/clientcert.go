package main

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
)

// byOrigin is the http.RoundTripper of the *http.Client the SDK is given
// when the caller holds client certificates (trust.clientCertificates): a
// request to an origin it holds one for goes through a transport of that
// origin's own, whose TLS configuration presents the certificate, and every
// other request through base, which presents none. Go's tls.Config cannot
// choose a certificate by host (GetClientCertificate is not told the
// server's name), so a transport per origin is how a Go application keeps
// the certificate from every other host that asks for one.
type byOrigin struct {
	// base carries every request to an origin not in origins.
	base *http.Transport
	// origins maps an origin (contract.OriginOf's form) to its transport.
	origins map[string]*http.Transport
}

// RoundTrip sends r through the transport of its URL's origin.
func (b *byOrigin) RoundTrip(r *http.Request) (*http.Response, error) {
	if t, ok := b.origins[contract.OriginOf(r.URL.String())]; ok {
		return t.RoundTrip(r)
	}
	return b.base.RoundTrip(r)
}

// CloseIdleConnections closes the idle connections of every transport
// (http.Client.CloseIdleConnections calls it).
func (b *byOrigin) CloseIdleConnections() {
	b.base.CloseIdleConnections()
	for _, t := range b.origins {
		t.CloseIdleConnections()
	}
}

// withClientCerts returns base when certs is empty, or a byOrigin whose
// transport for each origin of certs is a clone of base presenting that
// origin's certificate. A nil error means every certificate loaded.
func withClientCerts(base *http.Transport, certs map[string]contract.ClientCertificate) (http.RoundTripper, error) {
	if len(certs) == 0 {
		return base, nil
	}
	b := &byOrigin{base: base, origins: map[string]*http.Transport{}}
	for origin, c := range certs {
		o := contract.OriginOf(origin)
		if o == "" {
			continue // not an https origin (the contract refuses such a request)
		}
		pair, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("trust.clientCertificates[%q]: %w", origin, err)
		}
		t := base.Clone()
		t.TLSClientConfig.Certificates = []tls.Certificate{pair}
		b.origins[o] = t
	}
	return b, nil
}

// clientCertsKey is the part of the http.Client cache key that names the
// request's client certificates: "" for none.
func clientCertsKey(certs map[string]contract.ClientCertificate) string {
	keys := make([]string, 0, len(certs))
	for origin, c := range certs {
		keys = append(keys, origin+"\x00"+c.CertFile+"\x00"+c.KeyFile)
	}
	sort.Strings(keys)
	return strings.Join(keys, "\x01")
}
