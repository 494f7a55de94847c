package reference

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

func TestIsMTLS(t *testing.T) {
	cases := map[string]bool{
		`{"mtlsSecurityScheme": {"description": "x"}}`:     true,
		`{"mtlsSecurityScheme": {}}`:                       true,
		`{"type": "mutualTLS"}`:                            true,
		`{"mtlsSecurityScheme": null}`:                     false,
		`{"httpAuthSecurityScheme": {"scheme": "Bearer"}}`: false,
		`{"type": "http", "scheme": "bearer"}`:             false,
		`[]`:                                               false,
	}
	for raw, want := range cases {
		if got := isMTLS(json.RawMessage(raw)); got != want {
			t.Errorf("isMTLS(%s) = %v, want %v", raw, got, want)
		}
	}
}

// TestCertRouter: the certificate rides only on the transport of its
// origin; the breaks put it on every connection.
func TestCertRouter(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "fixtures", "certs")
	certs := map[string]contract.ClientCertificate{"https://rpc.agent-d.example": {CertFile: filepath.Join(dir, "client.pem"), KeyFile: filepath.Join(dir, "client-key.pem")}}
	held := func(tr *http.Transport) int {
		if tr.TLSClientConfig == nil {
			return 0
		}
		return len(tr.TLSClientConfig.Certificates)
	}
	cases := []struct {
		name       string
		br         Breaks
		alt        Alternatives
		declare    bool
		own, other int
	}{
		{"by origin", Breaks{}, Alternatives{}, false, 1, 0},
		{"everywhere", Breaks{ClientCertEverywhere: true}, Alternatives{}, false, 1, 1},
		{"any certificate", Breaks{AnyClientCert: true}, Alternatives{}, false, 1, 1},
		{"only if declared, not declared", Breaks{}, Alternatives{CertOnlyIfDeclared: true}, false, 0, 0},
		{"only if declared, declared", Breaks{}, Alternatives{CertOnlyIfDeclared: true}, true, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &certRouter{base: &http.Transport{}, certs: certs, br: c.br, alt: c.alt, notef: t.Logf,
				byOrigin: map[string]*http.Transport{}, declared: map[string]bool{}}
			defer r.close()
			if c.declare {
				r.declare("https://rpc.agent-d.example")
			}
			if got := held(r.transportFor("https://rpc.agent-d.example")); got != c.own {
				t.Errorf("its origin: %d certificates, want %d", got, c.own)
			}
			for _, o := range []string{"https://agent-d.example", "https://agent-c.example"} {
				if got := held(r.transportFor(o)); got != c.other {
					t.Errorf("%s: %d certificates, want %d", o, got, c.other)
				}
			}
		})
	}
}
