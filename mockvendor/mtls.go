package mockvendor

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// Mutual TLS [A2A 1.0 §4.5.6 MutualTlsSecurityScheme; a2a-cli
// COMPLIANCE.md A2ACLI_AUTH_009; seed 003, Core Distinction: an mTLS SAN
// is a transport identity a key id may be bound to]. A vendor with an
// MTLSConfig issues the caller a client certificate from the fleet's
// client CA (a CA of its own, apart from the host CA) at start. Its card
// declares a mutual TLS scheme, and the TLS of its endpoint hosts (those
// with a JSON-RPC or HTTP+JSON endpoint) asks for a client certificate
// from that CA; a call that did not present the vendor's certificate gets
// HTTP 401. Its card-only hosts, and every other vendor's hosts, do not
// ask. With AskOnly the endpoint hosts ask for a certificate of any
// issuer and need none (a TLS terminator with optional client
// authentication); the card declares no scheme.
//
// TLS lets a client send a certificate only when the server asks for one,
// so a host that does not ask never sees one: a certificate leaks only to
// a host that asks, which is why AskOnly exists. Every request records
// the certificate the connection presented (tls.ConnectionState's
// PeerCertificates) among its Credentials, as ViaClientCert, owned by the
// vendor that issued it (CredentialUnknown for one the fleet's client CA
// did not issue).

// ViaClientCert is how the trace records a client certificate presented
// in the TLS handshake (Presented.Via).
const ViaClientCert = "tls-client-cert"

// clientCertValidity is how long a client certificate lasts.
const clientCertValidity = 24 * time.Hour

// MTLSConfig makes a vendor authenticate its callers by mutual TLS.
type MTLSConfig struct {
	// Name is the scheme's key in the card's securitySchemes. Empty means
	// "mtls".
	Name string `json:"name,omitempty"`
	// AskOnly makes the endpoint hosts ask for a client certificate of
	// any issuer (the TLS CertificateRequest names no authority) while
	// needing none, and leaves the card without a scheme. False means
	// they ask for one from the fleet's client CA and refuse calls
	// without the vendor's own.
	AskOnly bool `json:"askOnly,omitempty"`
}

// ClientCert is a client certificate a vendor issued, as the fleet hands
// it out: its Vendor (id), CertPEM and KeyPEM (the key in the form of
// the fixtures' keys, TestKeyPEM) and Origins (the https origins of the
// vendor's hosts that ask for it).
type ClientCert struct {
	Vendor          string
	CertPEM, KeyPEM []byte
	Origins         []string
}

// fleetMTLS is the fleet's client CA and the client certificates its
// vendors issued, by the SHA-256 of their DER (set at Start, read-only
// after).
type fleetMTLS struct {
	ca     *CA
	owners map[[32]byte]string
}

// initMTLS issues the vendor's client certificate, making the fleet's
// client CA first when it has none.
func (v *Vendor) initMTLS() error {
	m := v.cfg.MTLS
	if m == nil || m.AskOnly {
		return nil
	}
	if v.cfg.Auth != nil {
		return &ConfigError{Field: fmt.Sprintf("vendors[%d].mtls", slices.Index(v.fleet.vendors, v)),
			Msg: fmt.Sprintf("vendor %s: give a vendor auth or mtls, not both (its card declares one scheme)", v.cfg.ID)}
	}
	f := v.fleet
	if f.mtls.ca == nil {
		ca := f.cfg.ClientCA
		if ca == nil {
			var err error
			if ca, err = netx.NewClientCAValidFor(clientCertValidity); err != nil {
				return err
			}
		}
		f.mtls.ca, f.mtls.owners = ca, map[[32]byte]string{}
	}
	c, err := f.mtls.ca.IssueClient(v.cfg.Organization, "a2a-conform caller of vendor "+v.cfg.ID, clientCertValidity)
	if err != nil {
		return err
	}
	v.clientCert = &c
	f.mtls.owners[sha256.Sum256(c.Certificate[0])] = v.cfg.ID
	return nil
}

// mtlsScheme is the name of the mutual TLS scheme the vendor's card
// declares ("" for none).
func (v *Vendor) mtlsScheme() string {
	m := v.cfg.MTLS
	switch {
	case m == nil || m.AskOnly:
		return ""
	case m.Name != "":
		return m.Name
	}
	return "mtls"
}

// asksClientCert reports whether the host's TLS asks for a client
// certificate: an endpoint host of a vendor with an MTLSConfig.
func (h *host) asksClientCert() bool {
	return h.vendor.cfg.MTLS != nil && (h.cfg.RPCPath != "" || h.cfg.RESTPath != "")
}

// clientAuth sets the host's TLS to ask for a client certificate when it
// does (asksClientCert): naming the fleet's client CA as the one
// authority it takes, or (AskOnly) none. The handshake never fails for
// want of one; the call is judged (authenticateMTLS) and traced.
func (h *host) clientAuth(c *tls.Config) {
	if !h.asksClientCert() {
		return
	}
	c.ClientAuth = tls.RequestClientCert
	if ca := h.vendor.fleet.mtls.ca; !h.vendor.cfg.MTLS.AskOnly && ca != nil {
		c.ClientCAs = ca.Pool()
	}
}

// withClientCert adds the client certificate r's connection presented,
// if any, to what the request presented (at most maxPresented in all):
// owned by the vendor that issued it when it verifies against the client
// CA for client authentication, else by CredentialUnknown.
func (f *Fleet) withClientCert(presented []Presented, r *http.Request) []Presented {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return presented
	}
	if len(presented) >= maxPresented {
		presented = presented[:maxPresented-1] // the bound holds, and the certificate stays
	}
	return append(presented, Presented{Owner: f.clientCertOwner(r.TLS.PeerCertificates), Via: ViaClientCert})
}

// clientCertOwner is the vendor that issued the chain's leaf, or
// CredentialUnknown.
func (f *Fleet) clientCertOwner(chain []*x509.Certificate) string {
	ca := f.mtls.ca
	if ca == nil {
		return CredentialUnknown
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	if _, err := chain[0].Verify(x509.VerifyOptions{Roots: ca.Pool(), Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		return CredentialUnknown
	}
	if o, ok := f.mtls.owners[sha256.Sum256(chain[0].Raw)]; ok {
		return o
	}
	return CredentialUnknown
}

// authenticateMTLS checks a call to a vendor that requires its client
// certificate: nil when the call's connection presented it, else a
// *binding.AuthError (HTTP 401; no WWW-Authenticate challenge exists for
// a TLS client certificate).
func (v *Vendor) authenticateMTLS(presented []Presented) error {
	if v.clientCert == nil {
		return nil
	}
	if slices.Contains(presented, Presented{Owner: v.cfg.ID, Via: ViaClientCert}) {
		return nil
	}
	return &binding.AuthError{Err: &RPCError{Code: -32000, Message: "a client certificate issued by " + v.cfg.Organization + " is required (mutual TLS)",
		Data: map[string]any{"scheme": v.mtlsScheme()}, Reason: "UNAUTHENTICATED"}}
}

// redactClientKeys cuts the private keys of the client certificates the
// fleet issued out of s: each line of a key's PEM body (64 base64
// characters, each unique to its key, the first one included: it ends in
// the private scalar) is replaced by a mark naming whose it was, however
// the lines are joined (newlines, escaped ones, none). The ids of the
// vendors whose key s held are added to owners.
func (f *Fleet) redactClientKeys(s string, owners []string) (string, []string) {
	for _, v := range f.vendors {
		if v.clientCert == nil {
			continue
		}
		pemKey, err := TestKeyPEM(v.clientCert.PrivateKey)
		if err != nil {
			continue
		}
		found := false
		for _, line := range strings.Split(string(pemKey), "\n") {
			if len(line) < 16 || strings.HasPrefix(line, "-----") || strings.Contains(line, " ") {
				continue // the notice, the BEGIN and END lines, a short last line
			}
			if strings.Contains(s, line) {
				s, found = strings.ReplaceAll(s, line, "(client key of "+v.cfg.ID+", redacted)"), true
			}
		}
		if found && !slices.Contains(owners, v.cfg.ID) {
			owners = append(owners, v.cfg.ID)
		}
	}
	return s, owners
}

// ClientCertificate returns the client certificate the vendor with that
// id issued, and false when it issued none (or does not exist). Call it
// after Start.
func (f *Fleet) ClientCertificate(vendorID string) (ClientCert, bool) {
	v := f.byVendor[vendorID]
	if v == nil || v.clientCert == nil {
		return ClientCert{}, false
	}
	key, err := TestKeyPEM(v.clientCert.PrivateKey)
	if err != nil {
		return ClientCert{}, false
	}
	out := ClientCert{Vendor: vendorID, KeyPEM: key, CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: v.clientCert.Certificate[0]})}
	for _, h := range v.hosts {
		if h.asksClientCert() {
			out.Origins = append(out.Origins, h.url())
		}
	}
	return out, true
}

// NewClientCAValidFor returns a fresh ECDSA P-256 CA for client
// certificates (Config.ClientCA), valid for d from now: the certs
// command's long-lived one.
func NewClientCAValidFor(d time.Duration) (*CA, error) { return netx.NewClientCAValidFor(d) }

// ClientCA returns the fleet's client CA, nil when no vendor issued a
// client certificate.
func (f *Fleet) ClientCA() *CA { return f.mtls.ca }

// WriteClientCertFiles writes the vendor's client certificate and its
// key (mode 0600) to the temporary directory Close removes, and returns
// their absolute paths.
func (f *Fleet) WriteClientCertFiles(vendorID string) (certFile, keyFile string, err error) {
	c, ok := f.ClientCertificate(vendorID)
	if !ok {
		return "", "", &NotFoundError{What: "client certificate of vendor", Name: vendorID}
	}
	if _, err := f.WriteCAFile(); err != nil { // makes the directory
		return "", "", err
	}
	n := slices.Index(f.vendors, f.byVendor[vendorID]) // an index: a vendor id is no file name
	certFile = filepath.Join(f.tmpDir, fmt.Sprintf("client-%d.pem", n))
	keyFile = filepath.Join(f.tmpDir, fmt.Sprintf("client-%d-key.pem", n))
	if err := os.WriteFile(certFile, c.CertPEM, 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, os.WriteFile(keyFile, c.KeyPEM, 0o600)
}
