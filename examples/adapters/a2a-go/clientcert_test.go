package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// writeClientCert writes a self-signed client certificate and its PKCS#8
// key to dir and returns their paths.
func writeClientCert(t *testing.T, dir string) contract.ClientCertificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "caller"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	c := contract.ClientCertificate{CertFile: filepath.Join(dir, "client.pem"), KeyFile: filepath.Join(dir, "client-key.pem")}
	for path, block := range map[string]*pem.Block{c.CertFile: {Type: "CERTIFICATE", Bytes: der}, c.KeyFile: {Type: "PRIVATE KEY", Bytes: p8}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// askingServer is a TLS server that asks every caller for a client
// certificate and answers with how many it was given.
func askingServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Peer-Certs", string(rune('0'+len(r.TLS.PeerCertificates))))
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestClientCertGoesToItsOriginOnly(t *testing.T) {
	own, other := askingServer(t), askingServer(t)
	cert := writeClientCert(t, t.TempDir())
	base := own.Client().Transport.(*http.Transport).Clone() // trusts httptest's certificate
	for _, tc := range []struct {
		name      string
		certs     map[string]contract.ClientCertificate
		own, othr string
	}{
		{"held for own", map[string]contract.ClientCertificate{own.URL: cert}, "1", "0"},
		{"held for another origin", map[string]contract.ClientCertificate{"https://rpc.agent-d.example": cert}, "0", "0"},
		{"none held", nil, "0", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := withClientCerts(base.Clone(), tc.certs)
			if err != nil {
				t.Fatal(err)
			}
			c := &http.Client{Transport: rt}
			defer c.CloseIdleConnections()
			for _, s := range []struct{ url, want string }{{own.URL, tc.own}, {other.URL, tc.othr}, {own.URL + "/again", tc.own}} {
				res, err := c.Get(s.url)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if got := res.Header.Get("X-Peer-Certs"); got != s.want {
					t.Errorf("%s: %s client certificates presented, want %s", s.url, got, s.want)
				}
			}
		})
	}
}

func TestClientCertUnreadable(t *testing.T) {
	bad := map[string]contract.ClientCertificate{"https://rpc.agent-d.example": {CertFile: "/nonexistent/c.pem", KeyFile: "/nonexistent/k.pem"}}
	if _, err := withClientCerts(&http.Transport{TLSClientConfig: &tls.Config{}}, bad); err == nil {
		t.Fatal("withClientCerts accepted files that do not exist")
	}
	if clientCertsKey(nil) != "" || clientCertsKey(bad) == "" {
		t.Fatal("clientCertsKey: want empty for none, non-empty for one")
	}
}
