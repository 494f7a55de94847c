package netx

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"time"
)

// Client certificates for mutual TLS [A2A 1.0 §4.5.6]. The fleet keeps
// them apart from the host certificates: a client CA of their own (so a
// host certificate is never a valid client certificate, nor the reverse)
// whose leaves carry only the clientAuth extended key usage.

// NewClientCAValidFor returns a fresh ECDSA P-256 CA for client
// certificates, valid for d from now (back-dated an hour, as NewCA is).
func NewClientCAValidFor(d time.Duration) (*CA, error) {
	return newCA(d, "a2a-conform test client CA (not for production)")
}

// IssueClient returns a client certificate (clientAuth only, no SAN) for
// the subject organization and common name, signed by the CA, with a
// fresh P-256 key, valid for d from now cut to the CA's own NotAfter.
func (ca *CA) IssueClient(org, cn string, d time.Duration) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	notAfter := time.Now().Add(d)
	if notAfter.After(ca.Cert.NotAfter) {
		notAfter = ca.Cert.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{Organization: []string{org}, CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
