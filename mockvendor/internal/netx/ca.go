package netx

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"time"
)

// CA is the certificate authority the fleet issues host certificates from.
// Its private key stays in memory unless TestKeyPEM is called on purpose.
type CA struct {
	Cert *x509.Certificate
	key  crypto.Signer
	der  []byte
}

// NewCA returns a fresh ECDSA P-256 CA valid for 24 hours (a run, not a
// deployment). Generation takes well under a millisecond.
func NewCA() (*CA, error) { return NewCAValidFor(24 * time.Hour) }

// LoadCA reads a CA certificate and its private key from PEM (the form
// fixtures/certs ships). The key may be PKCS#8 or SEC 1 ("EC PRIVATE KEY").
func LoadCA(certPEM, keyPEM []byte) (*CA, error) {
	cb, _ := pem.Decode(certPEM)
	if cb == nil || cb.Type != "CERTIFICATE" {
		return nil, errors.New("ca: no CERTIFICATE block in certificate PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("ca: %w", err)
	}
	if !cert.IsCA {
		return nil, errors.New("ca: certificate is not a CA")
	}
	key, err := ParseKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("ca: %w", err)
	}
	return &CA{Cert: cert, key: key, der: cb.Bytes}, nil
}

// ParseKeyPEM returns the first private key in keyPEM: SEC 1 ("EC PRIVATE
// KEY") or PKCS#8 ("PRIVATE KEY") that can sign. Blocks of other types are
// skipped.
func ParseKeyPEM(keyPEM []byte) (crypto.Signer, error) {
	for {
		var b *pem.Block
		b, keyPEM = pem.Decode(keyPEM)
		if b == nil {
			return nil, errors.New("no private key block in key PEM")
		}
		switch b.Type {
		case "EC PRIVATE KEY":
			return x509.ParseECPrivateKey(b.Bytes)
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
			if err != nil {
				return nil, err
			}
			s, ok := k.(crypto.Signer)
			if !ok {
				return nil, errors.New("private key cannot sign")
			}
			return s, nil
		}
	}
}

// CertPEM returns the CA certificate in PEM form, the trust anchor handed to
// orchestrators as trust.caFile.
func (ca *CA) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.der})
}

// Pool returns a certificate pool holding only this CA.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// Issue returns a leaf certificate for exactly the given SANs (DNS names or IP
// literals), signed by the CA, with a fresh P-256 key.
func (ca *CA) Issue(sans ...string) (tls.Certificate, error) {
	return issueLeaf(sans, ca.Cert, ca.key)
}

// SelfSigned returns a leaf certificate for the SANs that no CA signed: a
// client that verifies certificates must refuse it.
func SelfSigned(sans ...string) (tls.Certificate, error) {
	return issueLeaf(sans, nil, nil)
}

func issueLeaf(sans []string, parent *x509.Certificate, parentKey crypto.Signer) (tls.Certificate, error) {
	return issueLeafUntil(sans, parent, parentKey, time.Now().Add(24*time.Hour))
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// TestKeyNotice is the line every private key file the project writes
// starts with (see TestKeyPEM).
const TestKeyNotice = "a2a-conform TEST KEY - never trust outside tests"

// TestKeyPEM returns a private key in PKCS#8 PEM form, preceded by the
// TestKeyNotice line: the form of the keys in fixtures/.
//
// The notice is explanatory text before the BEGIN line (RFC 7468, section 2)
// rather than a PEM header such as "Comment:": Go's pem.Decode skips it and
// so does OpenSSL, while OpenSSL (and with it Python's ssl, Node.js, curl,
// nginx) refuses a private key block with any header but Proc-Type.
func TestKeyPEM(key crypto.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	out := []byte(TestKeyNotice + "\n")
	return append(out, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})...), nil
}

// TestKeyPEM returns the CA private key in the TestKeyPEM form. Only the
// certs command calls it; a running fleet never writes its key.
func (ca *CA) TestKeyPEM() ([]byte, error) { return TestKeyPEM(ca.key) }

// NewCAValidFor returns a fresh ECDSA P-256 CA valid for d from now (with
// the hour of back-dating NewCA has). The certs command uses it for the
// long-lived CA in fixtures/certs; a fleet run keeps NewCA's 24 hours.
func NewCAValidFor(d time.Duration) (*CA, error) {
	return newCA(d, "a2a-conform test CA (not for production)")
}

// newCA makes a self-signed ECDSA P-256 CA named commonName, valid for d
// from now and back-dated an hour.
func newCA(d time.Duration, commonName string) (*CA, error) {
	if d <= 0 {
		return nil, errors.New("ca: validity must be positive")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{Organization: []string{"a2a-conform test fleet"}, CommonName: commonName},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(d),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, key: key, der: der}, nil
}

// IssueValidFor is Issue with a validity of d from now instead of 24 hours,
// cut to the CA's own NotAfter.
func (ca *CA) IssueValidFor(d time.Duration, sans ...string) (tls.Certificate, error) {
	notAfter := time.Now().Add(d)
	if notAfter.After(ca.Cert.NotAfter) {
		notAfter = ca.Cert.NotAfter
	}
	return issueLeafUntil(sans, ca.Cert, ca.key, notAfter)
}

// SelfSignedValidFor is SelfSigned with a validity of d from now.
func SelfSignedValidFor(d time.Duration, sans ...string) (tls.Certificate, error) {
	return issueLeafUntil(sans, nil, nil, time.Now().Add(d))
}

// issueLeafUntil is issueLeaf with a chosen NotAfter.
func issueLeafUntil(sans []string, parent *x509.Certificate, parentKey crypto.Signer, notAfter time.Time) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	cn := "a2a-conform host"
	if len(sans) > 0 {
		cn = sans[0]
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{Organization: []string{"a2a-conform test fleet"}, CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, s := range sans {
		if ip := net.ParseIP(s); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, s)
		}
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
