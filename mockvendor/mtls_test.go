package mockvendor

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// tMTLSFleet is vendor D (1.0 only) requiring its client certificate on
// rpc.agent-d.example, and vendor C whose endpoint asks for a certificate
// of any issuer and needs none.
func tMTLSFleet(t *testing.T) *Fleet {
	d := VendorD()
	d.Versions = []string{"1.0"}
	d.MTLS = &MTLSConfig{}
	c := VendorC()
	c.Faults = nil
	c.MTLS = &MTLSConfig{AskOnly: true}
	return tStart(t, Config{Vendors: []VendorConfig{d, c}})
}

// tClientWithCert is tClient presenting cert to every server that asks
// (nil: none).
func tClientWithCert(t *testing.T, f *Fleet, r tRoute, cert *tls.Certificate) *http.Client {
	c := tClient(t, f, r)
	tr := c.Transport.(*http.Transport)
	if cert != nil {
		// Whatever authorities the server names: a Go client would not
		// offer a certificate of another issuer on its own.
		tr.TLSClientConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return cert, nil }
	}
	return c
}

func TestMTLSCardDeclaresTheScheme(t *testing.T) {
	f := tMTLSFleet(t)
	r := tGet(t, tClient(t, f, tViaProxy), tURL(t, f, HostCardD, CardPath), nil)
	if got := tPath(r.JSON, "securitySchemes", "mtls", "mtlsSecurityScheme", "description"); got == nil {
		t.Errorf("D's card declares no mtlsSecurityScheme: %s", r.Body)
	}
	if r.JSON["securityRequirements"] == nil {
		t.Errorf("D's card has no securityRequirements: %s", r.Body)
	}
	c := tGet(t, tClient(t, f, tViaProxy), tURL(t, f, HostC, CardPath), nil)
	if c.JSON["securitySchemes"] != nil {
		t.Errorf("C (ask only) declares a scheme: %s", c.Body)
	}
}

// TestMTLSEnforcedAndTraced: each host asks for a certificate or not as
// configured, D refuses a call without its certificate, and the trace
// says whose certificate every request's connection presented.
func TestMTLSEnforcedAndTraced(t *testing.T) {
	f := tMTLSFleet(t)
	cc, ok := f.ClientCertificate("d")
	if !ok || !slices.Equal(cc.Origins, []string{"https://" + HostRPCD}) {
		t.Fatalf("D's client certificate %v %v", ok, cc.Origins)
	}
	if _, ok := f.ClientCertificate("c"); ok {
		t.Errorf("C (ask only) issued a client certificate")
	}
	good, err := tls.X509KeyPair(cc.CertPEM, cc.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := f.CA().Issue("caller.example") // a host certificate: not from the client CA
	if err != nil {
		t.Fatal(err)
	}
	dURL, cURL := tURL(t, f, HostRPCD, DefaultRPCPath), tURL(t, f, HostC, DefaultRPCPath)
	cases := []struct {
		name   string
		url    string
		cert   *tls.Certificate
		status int
		want   []Presented
	}{
		{"D without a certificate", dURL, nil, 401, nil},
		{"D with its certificate", dURL, &good, 200, []Presented{{Owner: "d", Via: ViaClientCert}}},
		{"D with another CA's certificate", dURL, &stranger, 401, []Presented{{Owner: CredentialUnknown, Via: ViaClientCert}}},
		{"C without a certificate", cURL, nil, 200, nil},
		{"C given D's certificate", cURL, &good, 200, []Presented{{Owner: "d", Via: ViaClientCert}}},
		{"D's card host never asks", tURL(t, f, HostCardD, CardPath), &good, 200, nil},
	}
	for _, route := range tRoutes {
		for _, c := range cases {
			t.Run(string(route)+"/"+c.name, func(t *testing.T) {
				cl := tClientWithCert(t, f, route, c.cert)
				var r *tResp
				if c.url == tURL(t, f, HostCardD, CardPath) {
					r = tGet(t, cl, c.url, nil)
				} else {
					r = tSend(t, cl, c.url, Dialect10, "hello", SkillInvoice)
				}
				if r.Status != c.status {
					t.Fatalf("status %d, want %d (%s)", r.Status, c.status, r.Body)
				}
				e := tLastEvent(t, f, hostOf(t, c.url))
				if !slices.Equal(e.Credentials, c.want) {
					t.Errorf("traced %v, want %v", e.Credentials, c.want)
				}
			})
		}
	}
}

func hostOf(t *testing.T, u string) string {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req.URL.Hostname()
}

// TestMTLSAskedOfTheRightHosts reads the CertificateRequest each host
// sends: D's endpoint names the client CA, C's names none, D's card host
// sends none.
func TestMTLSAskedOfTheRightHosts(t *testing.T) {
	f := tMTLSFleet(t)
	cases := []struct {
		host     string
		asked    bool
		nameCAs  bool
		clientCA bool
	}{
		{HostRPCD, true, true, true},
		{HostC, true, false, false},
		{HostCardD, false, false, false},
	}
	for _, c := range cases {
		var asked bool
		var cas [][]byte
		tr := tResolveTransport(f)
		tr.TLSClientConfig.GetClientCertificate = func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			asked, cas = true, cri.AcceptableCAs
			return &tls.Certificate{}, nil
		}
		cl := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		resp, err := cl.Get(tURL(t, f, c.host, CardPath))
		if err != nil {
			t.Fatalf("%s: %v", c.host, err)
		}
		resp.Body.Close()
		tr.CloseIdleConnections()
		if asked != c.asked || (len(cas) > 0) != c.nameCAs {
			t.Errorf("%s: asked %v naming %d CAs, want asked %v naming CAs %v", c.host, asked, len(cas), c.asked, c.nameCAs)
		}
		if c.clientCA && (len(cas) != 1 || string(cas[0]) != string(f.ClientCA().Cert.RawSubject)) {
			t.Errorf("%s: the request does not name the client CA", c.host)
		}
	}
}

func TestMTLSClientCertFiles(t *testing.T) {
	f := tMTLSFleet(t)
	certFile, keyFile, err := f.WriteClientCertFiles("d")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(pair.Certificate[0])
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: f.ClientCA().Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the certificate does not verify for client auth: %v", err)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: f.CA().Pool()}); err == nil {
		t.Errorf("the client certificate verifies against the host CA")
	}
	for _, p := range []string{certFile, keyFile} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, err, st)
		}
	}
	if _, _, err := f.WriteClientCertFiles("c"); err == nil {
		t.Errorf("C has no client certificate, but files were written")
	}
}

func TestMTLSWithAuthRefused(t *testing.T) {
	d := VendorD()
	d.MTLS, d.Auth = &MTLSConfig{}, &AuthConfig{}
	f, err := NewFleet(Config{Vendors: []VendorConfig{d}})
	if err == nil {
		f.Close()
		t.Fatal("a vendor with auth and mtls started")
	}
}

func TestMTLSInTheFleetFile(t *testing.T) {
	cfg, err := ParseConfig("fleet.yaml", []byte("vendors:\n  - id: d\n    hosts:\n      - name: rpc.agent-d.example\n        rpcPath: /a2a/v1\n    mtls:\n      name: clientCert\n  - id: c\n    hosts:\n      - name: agent-c.example\n        card: true\n        rpcPath: /a2a/v1\n    mtls: {askOnly: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := cfg.Vendors[0].MTLS; m == nil || m.Name != "clientCert" || m.AskOnly {
		t.Errorf("d: %+v", m)
	}
	if m := cfg.Vendors[1].MTLS; m == nil || !m.AskOnly {
		t.Errorf("c: %+v", m)
	}
}

// TestMTLSKeyRedacted: a client key written out in any form is cut out of
// text and named as the vendor's; its certificate is no secret.
func TestMTLSKeyRedacted(t *testing.T) {
	f := tMTLSFleet(t)
	cc, _ := f.ClientCertificate("d")
	escaped, _ := json.Marshal(string(cc.KeyPEM))
	for _, s := range []string{string(cc.KeyPEM), "key: " + string(escaped), "loaded " + strings.ReplaceAll(string(cc.KeyPEM), "\n", "")} {
		got, owners := f.RedactText(s)
		if !slices.Equal(owners, []string{"d"}) || strings.Contains(got, string(cc.KeyPEM[len(TestKeyNotice)+30:len(TestKeyNotice)+90])) {
			t.Errorf("%q: owners %v, redacted %q", s[:20], owners, got)
		}
	}
	if _, owners := f.RedactText(string(cc.CertPEM)); len(owners) != 0 {
		t.Errorf("the certificate counted as a secret: %v", owners)
	}
}

// TestMTLSHybridCardDeclares03Shape: a card that carries the 0.3 members
// declares the scheme as 0.3 readers know it.
func TestMTLSHybridCardDeclares03Shape(t *testing.T) {
	d := VendorD() // 1.0 and 0.3: a hybrid card
	d.MTLS = &MTLSConfig{Name: "clientCert"}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	r := tGet(t, tClient(t, f, tViaProxy), tURL(t, f, HostCardD, CardPath), nil)
	if got := tPath(r.JSON, "securitySchemes", "clientCert", "type"); got != "mutualTLS" {
		t.Errorf("scheme type %v, want mutualTLS (card %s)", got, r.Body)
	}
	if r.JSON["security"] == nil {
		t.Errorf("no security requirement: %s", r.Body)
	}
}
