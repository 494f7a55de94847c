package fault

import (
	"crypto/tls"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// WrongSAN gives the host a certificate from the fleet CA that names other
// hosts: a client that checks host names must refuse it (G-TLS-VERIFIED).
// No A2A server clause is about certificate names; this is what an
// impostor answering for the host looks like, which A2A 1.0 §7.2 and
// RFC 9110 §4.3.4 have the client check.
type WrongSAN struct {
	// SANs are the names the certificate carries. Empty means
	// ["wrong-host.example"].
	SANs []string `json:"sans,omitempty" doc:"names on the certificate; empty means [\"wrong-host.example\"]"`
}

// SelfSignedCert gives the host a self-signed certificate for its own name,
// outside the fleet CA [pin the signer's kid to the endpoint: Condition of
// Validity]. It breaks no server clause of A2A; a client SHOULD verify the
// certificate against trusted CAs (A2A 1.0 §7.2), which G-TLS-VERIFIED holds
// as a MUST.
type SelfSignedCert struct{}

func init() {
	Register("wrong-san", "the host presents a CA-signed certificate for other names", func() any { return &WrongSAN{} })
	Register("self-signed", "the host presents a self-signed certificate", func() any { return &SelfSignedCert{} })
}

// Certificate is a certificate from the fleet CA for SANs (CertHook).
func (w *WrongSAN) Certificate(_ string, ca *netx.CA) (tls.Certificate, error) {
	sans := w.SANs
	if len(sans) == 0 {
		sans = []string{"wrong-host.example"}
	}
	return ca.Issue(sans...)
}

// Certificate is a self-signed certificate for the host's name (CertHook).
func (SelfSignedCert) Certificate(name string, _ *netx.CA) (tls.Certificate, error) {
	return netx.SelfSigned(name)
}
