package mockvendor_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// sFleet starts a fleet and closes it when the test ends.
func sFleet(t *testing.T, cfg mockvendor.Config) *mockvendor.Fleet {
	t.Helper()
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatalf("NewFleet: %v", err)
	}
	t.Cleanup(f.Close)
	return f
}

const (
	sIssuerA  = "https://" + mockvendor.HostVendorA
	sCardURLA = sIssuerA + mockvendor.CardPath
)

// sVendorAFleet starts a fleet of vendor A alone with the given faults.
func sVendorAFleet(t *testing.T, faults ...mockvendor.FaultSpec) *mockvendor.Fleet {
	t.Helper()
	a := mockvendor.VendorA()
	a.Faults = faults
	return sFleet(t, mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}})
}

// sGet fetches u with c and returns the body and the response (whose body
// is already read and closed).
func sGet(t *testing.T, c *http.Client, u string) ([]byte, *http.Response) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read: %v", u, err)
	}
	return body, resp
}

// sFetchCard fetches a card over the fleet's verifying client.
func sFetchCard(t *testing.T, f *mockvendor.Fleet, cardURL string) []byte {
	t.Helper()
	body, resp := sGet(t, f.Client(), cardURL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", cardURL, resp.Status)
	}
	return body
}

// sVerify verifies a card with keys fetched over the fleet's client.
func sVerify(t *testing.T, f *mockvendor.Fleet, card []byte) (*cardsig.Verified, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return cardsig.Verify(ctx, card, &cardsig.HTTPKeySource{Client: f.Client()}, cardsig.WithCardURL(sCardURLA))
}

// sJWKSFetchEvents counts the JWKS fetches of a vendor in the trace.
func sJWKSFetchEvents(f *mockvendor.Fleet, vendor string) int {
	n := 0
	for _, e := range f.Trace().Events() {
		if e.Vendor == vendor && e.Op == mockvendor.OpJWKSFetch {
			n++
		}
	}
	return n
}

// sEndpointOf returns the JSON-RPC URL a card names: its 0.3 url, or the
// first supportedInterfaces entry (a signed fleet card has only those).
func sEndpointOf(t *testing.T, card []byte) string {
	t.Helper()
	var doc struct {
		URL        string `json:"url"`
		Interfaces []struct {
			URL string `json:"url"`
		} `json:"supportedInterfaces"`
	}
	if err := json.Unmarshal(card, &doc); err != nil {
		t.Fatalf("card: %v", err)
	}
	if doc.URL != "" {
		return doc.URL
	}
	if len(doc.Interfaces) == 0 || doc.Interfaces[0].URL == "" {
		t.Fatalf("card names no endpoint: %s", card)
	}
	return doc.Interfaces[0].URL
}

// sPeerCert makes a real request to u with c and returns the leaf
// certificate the endpoint presented.
func sPeerCert(t *testing.T, c *http.Client, u string) *x509.Certificate {
	t.Helper()
	_, resp := sGet(t, c, u)
	if resp.TLS == nil || len(resp.TLS.PeerCertificates) == 0 {
		t.Fatalf("GET %s: no TLS peer certificate", u)
	}
	return resp.TLS.PeerCertificates[0]
}

// TestSigFaults checks that each signature fault of the fleet, attached to
// vendor A and fetched over TLS, fails cardsig.Verify with its class, and
// that the honest card and the key rotation verify.
func TestSigFaults(t *testing.T) {
	cases := []struct {
		fault   string
		class   cardsig.Class // "" when the card verifies
		sentin  error
		kid     string // the kid that verified or failed
		fetches int    // JWKS fetches Verify made
	}{
		{fault: "", kid: mockvendor.KIDVendorA, fetches: 1},
		{fault: "tampered-card", class: cardsig.ClassSignatureInvalid, sentin: cardsig.ErrSignatureInvalid, kid: mockvendor.KIDVendorA, fetches: 1},
		{fault: "unknown-kid", class: cardsig.ClassKeyUnknown, sentin: cardsig.ErrKeyUnknown, kid: mockvendor.KIDVendorA + "-unknown", fetches: 2},
		{fault: "key-rotation", kid: mockvendor.KIDVendorA + "-next", fetches: 2},
		{fault: "duplicate-kid", class: cardsig.ClassKeyAmbiguous, sentin: cardsig.ErrKeyAmbiguous, kid: mockvendor.KIDVendorA, fetches: 1},
		{fault: "alg-none", class: cardsig.ClassAlgRejected, sentin: cardsig.ErrAlgRejected, kid: mockvendor.KIDVendorA, fetches: 0},
		{fault: "hs256-confusion", class: cardsig.ClassAlgRejected, sentin: cardsig.ErrAlgRejected, kid: mockvendor.KIDVendorA, fetches: 0},
		{fault: "unsigned-card", class: cardsig.ClassUnsigned, sentin: cardsig.ErrUnsigned, fetches: 0},
	}
	for _, tc := range cases {
		name := tc.fault
		if name == "" {
			name = "honest"
		}
		t.Run(name, func(t *testing.T) {
			var faults []mockvendor.FaultSpec
			if tc.fault != "" {
				faults = append(faults, mockvendor.Spec(tc.fault, nil))
			}
			f := sVendorAFleet(t, faults...)
			card := sFetchCard(t, f, sCardURLA)
			v, err := sVerify(t, f, card)
			fetches, traced := f.Vendor("a").JWKSFetches(), sJWKSFetchEvents(f, "a")
			t.Logf("Verify: %+v, err %v; jwks fetches %d (trace %d)", v, err, fetches, traced)
			if fetches != tc.fetches || traced != tc.fetches {
				t.Errorf("JWKS fetches: vendor counted %d, trace has %d, want %d", fetches, traced, tc.fetches)
			}
			if tc.class == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if v.KID != tc.kid || v.Issuer != sIssuerA || v.JKU != sIssuerA+mockvendor.JWKSPath || v.Alg != "ES256" {
					t.Errorf("Verified = %+v, want kid %s issuer %s", v, tc.kid, sIssuerA)
				}
				return
			}
			if err == nil {
				t.Fatalf("Verify accepted the %s card (kid %s)", tc.fault, v.KID)
			}
			if got := cardsig.ClassOf(err); got != tc.class {
				t.Errorf("class %q, want %q (%v)", got, tc.class, err)
			}
			if !errors.Is(err, tc.sentin) {
				t.Errorf("errors.Is(err, %v) is false", tc.sentin)
			}
			var ce *cardsig.Error
			if errors.As(err, &ce) && ce.KID != tc.kid {
				t.Errorf("error kid %q, want %q", ce.KID, tc.kid)
			}
		})
	}
}

// sBindPolicy trusts vendor A's signer for its own host only.
var sBindPolicy = cardsig.TrustPolicy{sIssuerA: {Operators: []string{mockvendor.HostVendorA}}}

// TestBindCatalog runs cardsig.Bind over the catalog's BIND scenarios with
// cards fetched from the live fleet and the certificate each endpoint
// really presented.
func TestBindCatalog(t *testing.T) {
	cases := []struct {
		id         string
		cfg        func() mockvendor.Config
		endpoint   func(f *mockvendor.Fleet) string // want: the endpoint the card names
		selfSigned bool                             // the endpoint's certificate is outside the fleet CA
		verr       cardsig.Class                    // Verify's class; "" for success
		mode       cardsig.Mode
		reason     string
	}{
		{
			id: "BIND-001 reseller gateway",
			cfg: func() mockvendor.Config {
				cfg := mockvendor.DefaultConfig()
				for i := range cfg.Vendors {
					if cfg.Vendors[i].ID == "a" {
						cfg.Vendors[i].Card.URL = "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
					}
				}
				return cfg
			},
			endpoint: func(*mockvendor.Fleet) string {
				return "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
			},
			mode: cardsig.ModeReduced, reason: cardsig.ReasonSignerEndpointMismatch,
		},
		{
			id:  "BIND-002 same operator",
			cfg: mockvendor.DefaultConfig,
			endpoint: func(*mockvendor.Fleet) string {
				return "https://" + mockvendor.HostVendorA + mockvendor.VendorARPCPath
			},
			mode: cardsig.ModeFull, reason: cardsig.ReasonOK,
		},
		{
			id: "BIND-003 unsigned card",
			cfg: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Faults = []mockvendor.FaultSpec{mockvendor.Spec("unsigned-card", nil)}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}}
			},
			endpoint: func(*mockvendor.Fleet) string {
				return "https://" + mockvendor.HostVendorA + mockvendor.VendorARPCPath
			},
			verr: cardsig.ClassUnsigned,
			mode: cardsig.ModeUnpinned, reason: cardsig.ReasonUnsignedCard,
		},
		{
			// A's card host keeps its CA certificate; its endpoint moves to
			// a bare-IP host that presents a self-signed certificate.
			id: "BIND-004 bare IP, self-signed",
			cfg: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Hosts = []mockvendor.HostConfig{
					{Name: mockvendor.HostVendorA, Card: true},
					{Name: "", RPCPath: mockvendor.VendorARPCPath},
				}
				a.Faults = []mockvendor.FaultSpec{mockvendor.Spec("self-signed", nil, "127.0.0.1")}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}}
			},
			endpoint: func(f *mockvendor.Fleet) string {
				u, ok := f.HostURL("vendor:a")
				if !ok {
					t.Fatal("vendor a has no bare-IP host")
				}
				return u + mockvendor.VendorARPCPath
			},
			selfSigned: true,
			mode:       cardsig.ModeUnpinned, reason: cardsig.ReasonTLSSANMismatch,
		},
		{
			id: "BIND-005 ambiguous kid",
			cfg: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Faults = []mockvendor.FaultSpec{mockvendor.Spec("duplicate-kid", nil)}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}}
			},
			endpoint: func(*mockvendor.Fleet) string {
				return "https://" + mockvendor.HostVendorA + mockvendor.VendorARPCPath
			},
			verr: cardsig.ClassKeyAmbiguous,
			mode: cardsig.ModeUnpinned, reason: cardsig.ReasonKeyAmbiguous,
		},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			f := sFleet(t, tc.cfg())
			card := sFetchCard(t, f, sCardURLA)
			endpoint := sEndpointOf(t, card)
			if want := tc.endpoint(f); endpoint != want {
				t.Fatalf("card names %s, want %s", endpoint, want)
			}
			v, verr := sVerify(t, f, card)
			if got := cardsig.ClassOf(verr); got != tc.verr {
				t.Fatalf("Verify class %q (%v), want %q", got, verr, tc.verr)
			}

			var peer *x509.Certificate
			if tc.selfSigned {
				// The fleet's verifying client refuses the endpoint...
				if _, err := f.Client().Get(endpoint); err == nil {
					t.Fatalf("the fleet client accepted %s's certificate", endpoint)
				} else if !strings.Contains(err.Error(), "certificate") {
					t.Fatalf("GET %s: %v, want a certificate error", endpoint, err)
				}
				// ...so skip verification only to capture what it presents.
				tr := f.Transport()
				tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
				peer = sPeerCert(t, &http.Client{Transport: tr, Timeout: 10 * time.Second}, endpoint)
				// Self-signed: issuer is subject and its own key signs it
				// (CheckSignatureFrom would refuse a leaf without CA bits).
				if !bytes.Equal(peer.RawIssuer, peer.RawSubject) {
					t.Errorf("endpoint certificate issuer %q is not its subject", peer.Issuer)
				}
				if err := peer.CheckSignature(peer.SignatureAlgorithm, peer.RawTBSCertificate, peer.Signature); err != nil {
					t.Errorf("endpoint certificate is not signed by its own key: %v", err)
				}
				if _, err := peer.Verify(x509.VerifyOptions{Roots: f.CA().Pool()}); err == nil {
					t.Error("the self-signed certificate verifies against the fleet CA")
				}
			} else {
				peer = sPeerCert(t, f.Client(), endpoint)
			}
			t.Logf("endpoint %s presented %q (DNS %v, IP %v, issuer %q)", endpoint, peer.Subject.CommonName, peer.DNSNames, peer.IPAddresses, peer.Issuer.CommonName)

			b := cardsig.Bind(v, verr, sBindPolicy, endpoint, peer)
			t.Logf("Bind: mode %s, reason %s: %s", b.Mode, b.Reason, b.Detail)
			if b.Mode != tc.mode || b.Reason != tc.reason {
				t.Errorf("Bind = %s/%s, want %s/%s", b.Mode, b.Reason, tc.mode, tc.reason)
			}
		})
	}
}

// The @a2a-js/sdk interop test lives here rather than in
// interop_js_test.go: Go reads a "_js" before "_test.go" as a GOOS=js build
// constraint, so a file of that name is never compiled on linux or darwin.

// sJSInteropDir holds interop.mjs and its node_modules (relative to this
// package's directory, where go test runs).
const sJSInteropDir = "../cardsig/testdata/jsinterop"

// sNodeOrSkip returns the node binary. Like cardsig's TestJSInterop it
// skips when node or the npm dependencies are missing, unless
// A2A_CONFORM_REQUIRE_NODE=1, which makes that a failure.
func sNodeOrSkip(t *testing.T) string {
	t.Helper()
	const fix = "run npm ci --prefix cardsig/testdata/jsinterop (from the repository root)"
	node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed: install it, then "+fix, "node")
	testenv.File(t, "A2A_CONFORM_REQUIRE_NODE", filepath.Join(sJSInteropDir, "node_modules", "@a2a-js", "sdk"), fix)
	return node
}

type sJSResult struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// sJSVerify runs `node interop.mjs verify <card> <jwks>`, which checks the
// card with @a2a-js/sdk's verifyAgentCardSignature and the key of the
// signature's kid from the JWKS file.
func sJSVerify(t *testing.T, node string, card, jwks []byte) sJSResult {
	t.Helper()
	dir := t.TempDir()
	cardPath, jwksPath := filepath.Join(dir, "card.json"), filepath.Join(dir, "jwks.json")
	if err := os.WriteFile(cardPath, card, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jwksPath, jwks, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "interop.mjs", "verify", cardPath, jwksPath)
	cmd.Dir = sJSInteropDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node interop.mjs verify: %v\nstderr: %s", err, stderr.String())
	}
	var r sJSResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	return r
}

// TestJSInteropFleetCards verifies cards the live fleet signed (vendor A,
// fetched over TLS, with the JWKS the fleet served) with @a2a-js/sdk 1.3.0.
func TestJSInteropFleetCards(t *testing.T) {
	node := sNodeOrSkip(t)
	jwksURL := sIssuerA + mockvendor.JWKSPath

	for _, tc := range []struct {
		fault  string
		wantOK bool
	}{
		{fault: "", wantOK: true},
		{fault: "tampered-card", wantOK: false},
	} {
		name := tc.fault
		if name == "" {
			name = "honest"
		}
		t.Run(name, func(t *testing.T) {
			var faults []mockvendor.FaultSpec
			if tc.fault != "" {
				faults = append(faults, mockvendor.Spec(tc.fault, nil))
			}
			f := sVendorAFleet(t, faults...)
			card := sFetchCard(t, f, sCardURLA)
			jwks, resp := sGet(t, f.Client(), jwksURL)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %s", jwksURL, resp.Status)
			}
			keys, err := cardsig.ParseJWKS(jwks)
			if err != nil || len(keys) != 1 || keys[0].KeyID != mockvendor.KIDVendorA {
				t.Fatalf("fleet JWKS %s: %d keys, err %v", jwks, len(keys), err)
			}

			// Go's verdict on the same bytes, for comparison.
			_, goErr := cardsig.Verify(context.Background(), card, cardsig.StaticKeys{jwksURL: keys})
			r := sJSVerify(t, node, card, jwks)
			t.Logf("js: ok=%v error=%q; go: %v", r.OK, r.Error, goErr)
			if r.OK != tc.wantOK {
				t.Errorf("@a2a-js/sdk verify ok=%v (%s), want %v", r.OK, r.Error, tc.wantOK)
			}
			if strings.Contains(r.Error, "expected one key") {
				t.Errorf("js failed on the key lookup, not the signature: %s", r.Error)
			}
			if (goErr == nil) != tc.wantOK {
				t.Errorf("cardsig.Verify: %v, want ok=%v", goErr, tc.wantOK)
			}
		})
	}
}
