package contract

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
)

// ClientCertificate is a client certificate of the caller, for an agent
// whose card declares a mutual TLS security scheme [A2A 1.0 §4.5.6]: the
// OUT presents it in the TLS handshake with its origin, and with no
// other. Both files are PEM; the harness writes them readable by the
// OUT's user only.
//
// Files, not PEM text in the message: every TLS stack loads a client
// certificate from files (Go's tls.LoadX509KeyPair, Python's
// ssl.SSLContext.load_cert_chain, which takes only paths, curl --cert;
// Node reads them into its agent), caFile is already a path (so an OUT
// already shares the harness's file system), and the private key stays
// out of the NDJSON stream and the HTTP bodies that drivers, transcripts
// and reports keep.
type ClientCertificate struct {
	// CertFile is the absolute path of the certificate (PEM, the leaf
	// first, then any intermediates). Empty is invalid.
	CertFile string `json:"certFile"`
	// KeyFile is the absolute path of its private key (PEM, PKCS#8).
	// Empty is invalid. Log it never; present the pair only to its origin.
	KeyFile string `json:"keyFile"`
}

// validateClientCertificates checks trust.clientCertificates: every key is
// an https origin (as for credentials) and every entry names two absolute
// files. A nil error means the entries are usable as far as the request
// shows (the files are read by the OUT).
func (t Trust) validateClientCertificates() error {
	var errs []error
	for _, origin := range slices.Sorted(maps.Keys(t.ClientCertificates)) {
		c := t.ClientCertificates[origin]
		if err := checkOrigin(origin); err != nil {
			errs = append(errs, fmt.Errorf("clientCertificates[%q]: %w", origin, err))
		}
		for _, f := range []struct{ name, path string }{{"certFile", c.CertFile}, {"keyFile", c.KeyFile}} {
			switch {
			case f.path == "":
				errs = append(errs, fmt.Errorf("clientCertificates[%q].%s is empty", origin, f.name))
			case !filepath.IsAbs(f.path):
				errs = append(errs, fmt.Errorf("clientCertificates[%q].%s %q is not an absolute path", origin, f.name, f.path))
			}
		}
	}
	return errors.Join(errs...)
}
