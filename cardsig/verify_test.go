package cardsig

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

func decodeProtected(t *testing.T, signed []byte) (map[string]any, signatureEntry) {
	t.Helper()
	var card struct {
		Signatures []json.RawMessage `json:"signatures"`
	}
	if err := json.Unmarshal(signed, &card); err != nil {
		t.Fatal(err)
	}
	if len(card.Signatures) != 1 {
		t.Fatalf("want 1 signature, got %d", len(card.Signatures))
	}
	raw := string(card.Signatures[0])
	if !strings.HasPrefix(raw, `{"protected":`) || !strings.Contains(raw, `,"signature":`) {
		t.Errorf("signature entry member order: %s", raw)
	}
	var e signatureEntry
	if err := json.Unmarshal(card.Signatures[0], &e); err != nil {
		t.Fatal(err)
	}
	hdr, err := base64.RawURLEncoding.DecodeString(e.Protected)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(hdr, &m); err != nil {
		t.Fatal(err)
	}
	return m, e
}

func TestSignShape(t *testing.T) {
	card := fleetCard(t, vendorAOrigin+"/a2a")
	for _, tc := range []struct {
		name string
		jku  string
		want map[string]any
	}{
		{"with jku", vendorAJKU, map[string]any{"alg": "ES256", "typ": "JOSE", "kid": vendorAKID, "jku": vendorAJKU}},
		{"without jku", "", map[string]any{"alg": "ES256", "typ": "JOSE", "kid": vendorAKID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSigner(t, "", vendorAKID, tc.jku)
			signed := mustSign(t, s, card)
			hdr, _ := decodeProtected(t, signed)
			if !reflect.DeepEqual(hdr, tc.want) {
				t.Errorf("protected header %v, want %v", hdr, tc.want)
			}
			// Re-signing replaces, never accumulates.
			again := mustSign(t, s, signed)
			decodeProtected(t, again)
			ordered := mustSign(t, s, []byte(`{"zeta":1, "alpha":{"b":2,"a":1}, "signatures":[], "mid":true}`))
			if want := `{"zeta":1,"alpha":{"b":2,"a":1},"signatures":[{"protected":`; !strings.HasPrefix(string(ordered), want) {
				t.Errorf("member order not kept: %s", ordered)
			}
			c1, _ := Canonicalize(card)
			c2, _ := Canonicalize(again)
			if string(c1) != string(c2) {
				t.Error("signing changed the card's canonical form")
			}
		})
	}
}

func TestVerify(t *testing.T) {
	ctx := context.Background()
	card := fleetCard(t, vendorAOrigin+"/a2a")
	es := mustSigner(t, jose.ES256, vendorAKID, vendorAJKU)
	rs := mustSigner(t, jose.RS256, "a-rsa-2026-11", vendorAJKU)
	other := mustSigner(t, jose.ES256, vendorAKID, vendorAJKU) // same kid, different key
	newKey := mustSigner(t, jose.ES256, "a-prod-2026-12", vendorAJKU)
	signed := mustSign(t, es, card)

	withHeader := func(h map[string]any) []byte {
		out, err := SignWithHeader(card, h, func([]byte) ([]byte, error) { return []byte("not a signature"), nil })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	algNone, err := SignAlgNone(card, vendorAKID, vendorAJKU)
	if err != nil {
		t.Fatal(err)
	}
	hs256, err := es.SignHS256Confusion(card)
	if err != nil {
		t.Fatal(err)
	}
	// A card that keeps an empty value, signed the way the JS and Python
	// SDKs do (empties dropped before JCS).
	withEmpty := []byte(strings.Replace(string(card), `"version"`, `"iconUrl":"","version"`, 1))
	dropSigned := signOver(t, es, withEmpty, FormJCSDropEmpty)
	// Two signatures: an unknown kid first, then a good one.
	multiGood, err := CombineSignatures(mustSign(t, mustSigner(t, "", "retired", vendorAJKU), card), signed)
	if err != nil {
		t.Fatal(err)
	}
	multiBad, err := CombineSignatures(withHeader(map[string]any{"alg": "ES256", "typ": "JOSE"}), algNone)
	if err != nil {
		t.Fatal(err)
	}

	esKey, rsKey, otherKey, newPub := es.PublicJWK(), rs.PublicJWK(), other.PublicJWK(), newKey.PublicJWK()
	first, refresh := keyCall{vendorAJKU, false}, keyCall{vendorAJKU, true}

	tests := []struct {
		name      string
		card      []byte
		first     []jose.JSONWebKey
		refreshed []jose.JSONWebKey
		opts      []Option
		class     Class // "" means success
		form      Form
		calls     []keyCall
	}{
		{name: "es256 round trip", card: signed, first: []jose.JSONWebKey{esKey}, form: FormJCS, calls: []keyCall{first}},
		{name: "rs256 round trip", card: mustSign(t, rs, card), first: []jose.JSONWebKey{rsKey}, form: FormJCS, calls: []keyCall{first}},
		{name: "drop-empty form (sdk style)", card: dropSigned, first: []jose.JSONWebKey{esKey}, form: FormJCSDropEmpty, calls: []keyCall{first}},
		{name: "tampered: skill added after signing", card: addSkill(t, signed), first: []jose.JSONWebKey{esKey}, class: ClassSignatureInvalid, calls: []keyCall{first}},
		{name: "unknown kid even after refresh", card: signed, first: []jose.JSONWebKey{rsKey}, refreshed: []jose.JSONWebKey{rsKey}, class: ClassKeyUnknown, calls: []keyCall{first, refresh}},
		{name: "key rotation: refresh finds the kid", card: mustSign(t, newKey, card), first: []jose.JSONWebKey{esKey}, refreshed: []jose.JSONWebKey{esKey, newPub}, form: FormJCS, calls: []keyCall{first, refresh}},
		{name: "duplicate kid", card: signed, first: []jose.JSONWebKey{esKey, otherKey}, class: ClassKeyAmbiguous, calls: []keyCall{first}},
		{name: "alg none", card: algNone, first: []jose.JSONWebKey{esKey}, class: ClassAlgRejected},
		{name: "hs256 keyed with public key pem", card: hs256, first: []jose.JSONWebKey{esKey}, class: ClassAlgRejected},
		{name: "alg missing", card: withHeader(map[string]any{"typ": "JOSE", "kid": vendorAKID}), class: ClassAlgRejected},
		{name: "alg HS512 lower case", card: withHeader(map[string]any{"alg": "hs512", "typ": "JOSE", "kid": vendorAKID}), class: ClassAlgRejected},
		{name: "kid missing", card: withHeader(map[string]any{"alg": "ES256", "typ": "JOSE"}), class: ClassSignatureInvalid},
		{name: "typ missing", card: withHeader(map[string]any{"alg": "ES256", "kid": vendorAKID}), class: ClassSignatureInvalid},
		{name: "key type does not fit alg", card: withHeader(map[string]any{"alg": "RS256", "typ": "JOSE", "kid": vendorAKID, "jku": vendorAJKU}), first: []jose.JSONWebKey{esKey}, class: ClassSignatureInvalid, calls: []keyCall{first}},
		{name: "unsigned", card: card, class: ClassUnsigned},
		{name: "empty signatures array", card: []byte(`{"name":"x","signatures":[]}`), class: ClassUnsigned},
		{name: "signatures not an array", card: []byte(`{"name":"x","signatures":{}}`), class: ClassSignatureInvalid},
		{name: "several: first unknown, second good", card: multiGood, first: []jose.JSONWebKey{esKey}, form: FormJCS, calls: []keyCall{first, refresh, first}},
		{name: "several: all bad, first error wins", card: multiBad, class: ClassSignatureInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &scriptedSource{first: tc.first, refreshed: tc.refreshed}
			v, err := Verify(ctx, tc.card, src, tc.opts...)
			if !reflect.DeepEqual(src.calls, tc.calls) {
				t.Errorf("key source calls %v, want %v", src.calls, tc.calls)
			}
			if tc.class == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if v.Form != tc.form || v.Issuer != vendorAOrigin || v.JKU != vendorAJKU || v.KID == "" || v.Alg == "" {
					t.Errorf("Verified = %+v", v)
				}
				return
			}
			if err == nil {
				t.Fatalf("Verify succeeded (%+v), want %s", v, tc.class)
			}
			if got := ClassOf(err); got != tc.class {
				t.Errorf("class %q, want %q (%v)", got, tc.class, err)
			}
			sentinel := map[Class]error{ClassUnsigned: ErrUnsigned, ClassSignatureInvalid: ErrSignatureInvalid,
				ClassKeyUnknown: ErrKeyUnknown, ClassKeyAmbiguous: ErrKeyAmbiguous, ClassAlgRejected: ErrAlgRejected}
			for c, s := range sentinel {
				if errors.Is(err, s) != (c == tc.class) {
					t.Errorf("errors.Is(err, %s) = %v", c, !(c == tc.class))
				}
			}
			if msg := err.Error(); msg != strings.ToLower(msg[:1])+msg[1:] || strings.HasSuffix(msg, ".") {
				t.Errorf("error text style: %q", msg)
			}
		})
	}
}

// signOver signs card over the given canonical form using go-jose directly.
func signOver(t *testing.T, s *Signer, card []byte, form Form) []byte {
	t.Helper()
	doc, err := parseCard(card)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := canonicalForm(doc, form)
	if err != nil {
		t.Fatal(err)
	}
	opts := (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", s.KID).WithHeader("jku", s.JKU)
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: s.Algorithm(), Key: s.Key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := js.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	p := strings.Split(compact, ".")
	out, err := setSignatures(card, []signatureEntry{{Protected: p[0], Signature: p[2]}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHS256ConfusionIsRealForgery shows the fault card would fool a naive
// verifier that HMACs with the PEM of the key it looked up.
func TestHS256ConfusionIsRealForgery(t *testing.T) {
	s := mustSigner(t, "", vendorAKID, vendorAJKU)
	card := fleetCard(t, vendorAOrigin+"/a2a")
	forged, err := s.SignHS256Confusion(card)
	if err != nil {
		t.Fatal(err)
	}
	hdr, e := decodeProtected(t, forged)
	if hdr["alg"] != "HS256" || hdr["kid"] != vendorAKID {
		t.Fatalf("header %v", hdr)
	}
	payload, _ := Canonicalize(card)
	secret, _ := PublicKeyPEM(s.Key.Public())
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(e.Protected + "." + base64.RawURLEncoding.EncodeToString(payload)))
	if base64.RawURLEncoding.EncodeToString(mac.Sum(nil)) != e.Signature {
		t.Fatal("HS256 signature is not HMAC(PEM(public key), signing input)")
	}
}

func TestVerifyIssuerWithoutJKU(t *testing.T) {
	s := mustSigner(t, "", vendorAKID, "")
	signed := mustSign(t, s, fleetCard(t, vendorAOrigin+"/a2a"))
	// Without a jku the keys are looked up at the card origin's well-known JWKS.
	v, err := Verify(context.Background(), signed, StaticKeys{vendorAOrigin + WellKnownJWKS: {s.PublicJWK()}},
		WithCardURL("HTTPS://Agent.Vendor-A.example:443/.well-known/agent-card.json"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Issuer != vendorAOrigin || v.JKU != "" {
		t.Errorf("Verified = %+v", v)
	}
	// StaticKeys only offers keys listed under the signature's own jku.
	_, err = Verify(context.Background(), signed, StaticKeys{vendorAJKU: {s.PublicJWK()}})
	if !errors.Is(err, ErrKeyUnknown) {
		t.Errorf("want key-unknown, got %v", err)
	}
}

func TestHTTPKeySource(t *testing.T) {
	oldKey := mustSigner(t, "", "old", "")
	newKey := mustSigner(t, "", "new", "")
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			// First answer lacks the new key; later answers carry it.
			if hits.Add(1) == 1 {
				w.Write(JWKS(oldKey.PublicJWK()))
				return
			}
			w.Write(JWKS(oldKey.PublicJWK(), newKey.PublicJWK()))
		case "/huge":
			w.Write([]byte(`{"keys":[],"pad":"` + strings.Repeat("x", maxJWKSBytes) + `"}`))
		case "/moved":
			// The jku's host sends the fetch to a key set it does not serve.
			http.Redirect(w, r, "/.well-known/jwks.json", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	jku := srv.URL + "/.well-known/jwks.json"
	newKey.JKU = jku
	src := &HTTPKeySource{Client: srv.Client()}
	ctx := context.Background()

	// Warm the cache with the old set, then verify a card signed by the new
	// key: Verify must refetch once.
	if _, err := src.Keys(ctx, jku, false); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Keys(ctx, jku, false); err != nil || hits.Load() != 1 {
		t.Fatalf("cache not used: hits=%d err=%v", hits.Load(), err)
	}
	signed := mustSign(t, newKey, fleetCard(t, vendorAOrigin+"/a2a"))
	v, err := Verify(ctx, signed, src)
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 || v.Issuer != srvOrigin(srv) {
		t.Errorf("hits=%d issuer=%q", hits.Load(), v.Issuer)
	}
	for _, bad := range []struct{ jku, want string }{
		{"", "no jku"},
		{"http://agent.vendor-a.example/jwks.json", "not an https url"},
		{srv.URL + "/huge", "larger than 1 MiB"},
		{srv.URL + "/missing", "status 404"},
		{srv.URL + "/moved", "status 302, a redirect to \"/.well-known/jwks.json\": not followed"},
	} {
		if _, err := src.Keys(ctx, bad.jku, false); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Keys(%q) error %v, want it to mention %q", bad.jku, err, bad.want)
		}
	}
}

func srvOrigin(srv *httptest.Server) string {
	return strings.ToLower(srv.URL)
}
