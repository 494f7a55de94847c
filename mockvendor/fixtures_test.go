package mockvendor_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// update rewrites the golden files under fixtures/cards:
//
//	go test ./mockvendor -run 'Golden|Fixture' -update
var update = flag.Bool("update", false, "rewrite the golden files in fixtures/cards")

const (
	cardsDir       = "../fixtures/cards"
	signingKeyFile = "a-signing-key.pem"
	updateHint     = "regenerate with: go test ./mockvendor -run 'Golden|Fixture' -update"
)

// jkuVendorA is where vendor A's signatures say its key set lives.
const jkuVendorA = "https://" + mockvendor.HostVendorA + mockvendor.JWKSPath

// fixtureSigningKey returns the committed test key vendor A signs the golden
// card with; -update creates it when it is missing.
func fixtureSigningKey(t *testing.T) string {
	t.Helper()
	path := filepath.Join(cardsDir, signingKeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && *update {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = mockvendor.TestKeyPEM(key); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return string(b)
	}
	if err != nil {
		t.Fatalf("%v (%s)", err, updateHint)
	}
	if first, _, _ := strings.Cut(string(b), "\n"); first != mockvendor.TestKeyNotice {
		t.Errorf("%s does not start with the test-key notice %q", path, mockvendor.TestKeyNotice)
	}
	return string(b)
}

// goldenFleet starts the default fleet with vendor A signing with the
// committed test key.
func goldenFleet(t *testing.T) *mockvendor.Fleet {
	t.Helper()
	cfg := mockvendor.DefaultConfig()
	key := fixtureSigningKey(t)
	found := false
	for i, v := range cfg.Vendors {
		if v.ID == "a" && v.Signing != nil {
			s := *v.Signing
			s.KeyPEM = key
			cfg.Vendors[i].Signing = &s
			found = true
		}
	}
	if !found {
		t.Fatal("default fleet has no signing vendor a")
	}
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// get fetches a URL through the fleet's client; noCache asks the CDN for the
// origin's copy.
func get(t *testing.T, c *http.Client, url string, noCache bool) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if noCache {
		req.Header.Set("Cache-Control", "no-cache")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", url, resp.StatusCode, body)
	}
	return resp, body
}

// pretty is the golden form of a JSON document: the served bytes indented
// by two spaces, member order and string escapes as served, with a final
// newline.
func pretty(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// withoutSignatures returns the card with its "signatures" member removed
// (members in sorted order, as the fleet renders cards).
func withoutSignatures(t *testing.T, card []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(card))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "signatures")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// golden compares got with fixtures/cards/name, or writes it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(cardsDir, name)
	want, err := os.ReadFile(path)
	if *update {
		if err != nil || !bytes.Equal(want, got) {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", path)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (%s)", err, updateHint)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the fleet's (%s)\n--- golden\n%s\n--- fleet\n%s", path, updateHint, want, got)
	}
}

// TestGoldenCards fetches every default-fleet card from its origin over TLS
// through the fleet's proxy (Cache-Control: no-cache), B's CDN copy and A's
// JWKS, and compares them with fixtures/cards.
func TestGoldenCards(t *testing.T) {
	f := goldenFleet(t)
	c := f.Client()
	defer c.CloseIdleConnections()
	var signedA []byte
	for _, v := range f.Vendors() {
		cfg := v.Config()
		cardHost := ""
		for _, h := range cfg.Hosts {
			if h.Card {
				cardHost = h.Name
				break
			}
		}
		if cardHost == "" {
			t.Fatalf("vendor %s has no card host", cfg.ID)
		}
		url := "https://" + cardHost + mockvendor.CardPath
		resp, body := get(t, c, url, true)
		if xc := resp.Header.Get("X-Cache"); xc != "MISS" {
			t.Errorf("%s with no-cache: X-Cache %q, want the origin's MISS", url, xc)
		}
		// Cards name hosts, never the loopback ports the fleet listens on,
		// so the served bytes are the same on every run.
		if bytes.Contains(body, []byte("127.0.0.1")) {
			t.Errorf("%s: card names a loopback address, so it is not host-independent: %s", url, body)
		}
		if cfg.Signing != nil {
			signedA = body
			body = withoutSignatures(t, body)
		} else if bytes.Contains(body, []byte(`"signatures"`)) {
			t.Errorf("%s: unsigned vendor's card has signatures", url)
		}
		golden(t, cfg.ID+".json", pretty(t, body))
		if cfg.ID == "b" {
			resp, cdn := get(t, c, url, false)
			if xc := resp.Header.Get("X-Cache"); xc != "HIT" {
				t.Errorf("%s: X-Cache %q, want the CDN's HIT", url, xc)
			}
			if bytes.Equal(cdn, body) {
				t.Errorf("%s: CDN copy equals the origin's; the stale-card fault should make them differ", url)
			}
			golden(t, "b.cdn.json", pretty(t, cdn))
		}
	}
	if signedA == nil {
		t.Fatal("vendor a served no card")
	}

	// The JWKS is stable because the key is the committed one.
	_, jwks := get(t, c, jkuVendorA, false)
	golden(t, "a.jwks.json", pretty(t, jwks))

	// The live signature verifies against the fleet's key set...
	live, err := cardsig.Verify(context.Background(), signedA, &cardsig.HTTPKeySource{Client: c})
	if err != nil {
		t.Fatalf("live signed card of vendor a does not verify: %v", err)
	}
	if live.KID != mockvendor.KIDVendorA {
		t.Errorf("live kid %q, want %q", live.KID, mockvendor.KIDVendorA)
	}
	// ...and against the committed one, so the fleet signed with the
	// committed key.
	if _, err := cardsig.Verify(context.Background(), signedA, committedKeys(t)); err != nil {
		t.Errorf("live signed card does not verify against fixtures/cards/a.jwks.json: %v", err)
	}

	// ECDSA signatures are randomized: a.signed.json is rewritten only when
	// the committed one no longer verifies or no longer signs this card.
	if *update {
		path := filepath.Join(cardsDir, "a.signed.json")
		old, err := os.ReadFile(path)
		if err != nil || checkSignedFixture(t, old, committedKeys(t), withoutSignatures(t, signedA)) != nil {
			if err := os.WriteFile(path, pretty(t, signedA), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", path)
		}
	}
}

func committedKeys(t *testing.T) cardsig.StaticKeys {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(cardsDir, "a.jwks.json"))
	if err != nil {
		t.Fatalf("%v (%s)", err, updateHint)
	}
	keys, err := cardsig.ParseJWKS(b)
	if err != nil {
		t.Fatal(err)
	}
	return cardsig.StaticKeys{jkuVendorA: keys}
}

// checkSignedFixture verifies a signed card against keys (kid
// a-prod-2026-11, issuer vendor A's host) and checks it signs exactly the
// content of unsigned.
func checkSignedFixture(t *testing.T, signed []byte, keys cardsig.KeySource, unsigned []byte) error {
	t.Helper()
	v, err := cardsig.Verify(context.Background(), signed, keys)
	if err != nil {
		return err
	}
	if v.KID != mockvendor.KIDVendorA {
		return errors.New("kid " + v.KID + ", want " + mockvendor.KIDVendorA)
	}
	if want := "https://" + mockvendor.HostVendorA; v.Issuer != want {
		return errors.New("issuer " + v.Issuer + ", want " + want)
	}
	got, err := cardsig.Canonicalize(signed)
	if err != nil {
		return err
	}
	want, err := cardsig.Canonicalize(unsigned)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return errors.New("signed card content differs from the unsigned card:\n" + string(got) + "\n" + string(want))
	}
	return nil
}

// TestGoldenSignedCard checks the committed a.signed.json by verification,
// not bytes: it verifies against a.jwks.json with kid a-prod-2026-11, and
// minus its signatures it is a.json.
func TestGoldenSignedCard(t *testing.T) {
	signed, err := os.ReadFile(filepath.Join(cardsDir, "a.signed.json"))
	if err != nil {
		t.Fatalf("%v (%s)", err, updateHint)
	}
	unsigned, err := os.ReadFile(filepath.Join(cardsDir, "a.json"))
	if err != nil {
		t.Fatalf("%v (%s)", err, updateHint)
	}
	if err := checkSignedFixture(t, signed, committedKeys(t), unsigned); err != nil {
		t.Errorf("fixtures/cards/a.signed.json: %v (%s)", err, updateHint)
	}
	// A tampered copy must fail, or the check above proves nothing.
	tampered := bytes.Replace(signed, []byte(mockvendor.SkillLedgerWrite), []byte("ledger-read"), 1)
	if bytes.Equal(tampered, signed) {
		t.Fatal("a.signed.json does not list " + mockvendor.SkillLedgerWrite)
	}
	if _, err := cardsig.Verify(context.Background(), tampered, committedKeys(t)); err == nil {
		t.Error("a tampered a.signed.json verifies")
	}
}

// TestFixtureSigningKeyPEM checks SigningConfig.KeyPEM: the committed key
// is served in the JWKS, and a key that is not PEM or does not fit the
// algorithm is a configuration error.
func TestFixtureSigningKeyPEM(t *testing.T) {
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p384PEM, err := mockvendor.TestKeyPEM(p384)
	if err != nil {
		t.Fatal(err)
	}
	for name, keyPEM := range map[string]string{"not PEM": "not a key", "P-384 for ES256": string(p384PEM)} {
		cfg := mockvendor.Config{Vendors: []mockvendor.VendorConfig{mockvendor.VendorA()}}
		cfg.Vendors[0].Signing.KeyPEM = keyPEM
		f, err := mockvendor.NewFleet(cfg)
		if err == nil {
			f.Close()
			t.Errorf("%s: fleet started", name)
			continue
		}
		var ce *mockvendor.ConfigError
		if !errors.As(err, &ce) || ce.Field != "signing.keyPEM" {
			t.Errorf("%s: err = %v, want a signing.keyPEM ConfigError", name, err)
		}
	}
}
