package mockvendor

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestOAuth2ClientCredentials: the card declares the flow and its token
// endpoint; the endpoint issues tokens to the right client (either client
// authentication method), refuses the rest; the first token expired, the
// second works; nothing secret reaches the trace.
func TestOAuth2ClientCredentials(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorDOAuth2(true)}})
	cred, ok := f.Credential("d")
	tokenURL := "https://" + HostAuthD + DefaultTokenPath
	if !ok || cred.Scheme != AuthOAuth2 || cred.ClientID != "a2ac-d" || cred.TokenURL != tokenURL || cred.Value == "" {
		t.Fatalf("credential %+v", cred)
	}
	c := tClient(t, f, tViaProxy)
	card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
	if got := tPath(card.JSON, "securitySchemes", "oauth2ClientCredentials", "oauth2SecurityScheme", "flows", "clientCredentials", "tokenUrl"); got != tokenURL {
		t.Fatalf("card's tokenUrl %v (%s)", got, card.Body)
	}
	form := func(kv ...string) []byte {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return []byte(v.Encode())
	}
	formCT := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	basic := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(cred.ClientID+":"+cred.Value))}
	tu := tURL(t, f, HostAuthD, DefaultTokenPath)
	cases := []struct {
		name   string
		body   []byte
		hdr    map[string]string
		status int
		errStr string
	}{
		{"basic", form("grant_type", "client_credentials"), basic, 200, ""},
		{"post", form("grant_type", "client_credentials", "client_id", cred.ClientID, "client_secret", cred.Value), formCT, 200, ""},
		{"both", form("grant_type", "client_credentials", "client_id", cred.ClientID, "client_secret", cred.Value), basic, 400, "invalid_request"},
		{"wrong secret", form("grant_type", "client_credentials", "client_id", cred.ClientID, "client_secret", "nope"), formCT, 401, "invalid_client"},
		{"other grant", form("grant_type", "password"), basic, 400, "unsupported_grant_type"},
		{"json body", []byte(`{"grant_type":"client_credentials"}`), map[string]string{"Authorization": basic["Authorization"]}, 400, "invalid_request"},
	}
	var tokens []string
	for _, tc := range cases {
		r := tPost(t, c, tu, tc.body, tc.hdr)
		if r.Status != tc.status || r.JSON == nil || tc.errStr != "" && r.JSON["error"] != tc.errStr {
			t.Fatalf("%s: %d %s", tc.name, r.Status, r.Body)
		}
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", tc.name, r.Header.Get("Cache-Control"))
		}
		if tc.status == 200 {
			if r.JSON["token_type"] != "Bearer" || r.JSON["expires_in"] != float64(TokenLifetime) {
				t.Errorf("%s: %s", tc.name, r.Body)
			}
			tokens = append(tokens, r.JSON["access_token"].(string))
		}
	}
	rpc := tURL(t, f, HostRPCD, DefaultRPCPath)
	since := f.Trace().Seq()
	for i, want := range []int{401, 200} {
		r := tPost(t, c, rpc, tEnvelope("SendMessage", tSendParams(Dialect10, "hello", "")), map[string]string{"A2A-Version": "1.0", "Authorization": "Bearer " + tokens[i]})
		if r.Status != want {
			t.Fatalf("token #%d: %d %s", i+1, r.Status, r.Body)
		}
		if want == 401 && !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("expired token's challenge %q", r.Header.Get("WWW-Authenticate"))
		}
	}
	r := tPost(t, c, rpc, tEnvelope("SendMessage", tSendParams(Dialect10, "hello", "")), map[string]string{"A2A-Version": "1.0", "Authorization": "Bearer " + cred.Value})
	if r.Status != 401 {
		t.Errorf("the client secret as a bearer token: %d", r.Status)
	}
	evs := f.Trace().Since(since)
	var got [][]Presented
	for _, e := range evs {
		if e.Op == OpSend {
			got = append(got, e.Credentials)
		}
	}
	want := [][]Presented{{{Owner: "d", Via: "bearer", Token: 1}}, {{Owner: "d", Via: "bearer", Token: 2}}, {{Owner: "d", Via: "secret:bearer"}}}
	if !slices.EqualFunc(got, want, slices.Equal[[]Presented]) {
		t.Errorf("presented %v, want %v", got, want)
	}
	b, _ := json.Marshal(f.Trace().Since(0))
	for _, v := range append(tokens, cred.Value) {
		if strings.Contains(string(b), v) {
			t.Errorf("the trace holds a secret: %s", v)
		}
	}
	if !strings.Contains(string(b), "client_secret_basic: access token #1 issued") {
		t.Errorf("no token event noting the grant")
	}
}

// TestOAuth2DeclaredElsewhere: the card names another token endpoint (a
// host of no vendor's own, which issues nothing); the credential handed
// out keeps the vendor's own, and the secret sent there is traced.
func TestOAuth2DeclaredElsewhere(t *testing.T) {
	d := VendorDOAuth2(false)
	d.Auth.DeclaredTokenURL = "https://" + HostSSOX + DefaultTokenPath
	f := tStart(t, Config{Vendors: []VendorConfig{d, VendorSSOX()}})
	cred, _ := f.Credential("d")
	if cred.TokenURL != "https://"+HostAuthD+DefaultTokenPath {
		t.Fatalf("handed-out token URL %s", cred.TokenURL)
	}
	c := tClient(t, f, tViaProxy)
	card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
	if got := tPath(card.JSON, "securitySchemes", "oauth2ClientCredentials", "oauth2SecurityScheme", "flows", "clientCredentials", "tokenUrl"); got != d.Auth.DeclaredTokenURL {
		t.Fatalf("card's tokenUrl %v", got)
	}
	since := f.Trace().Seq()
	r := tPost(t, c, tURL(t, f, HostSSOX, DefaultTokenPath), []byte("grant_type=client_credentials"), map[string]string{"Content-Type": "application/x-www-form-urlencoded",
		"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(cred.ClientID+":"+cred.Value))})
	if r.Status != 400 || r.JSON["error"] != "unauthorized_client" {
		t.Fatalf("foreign token endpoint: %d %s", r.Status, r.Body)
	}
	ev := tWaitEvent(t, f, since, func(e Event) bool { return e.Op == OpToken })
	if !slices.Equal(ev.Credentials, []Presented{{Owner: "d", Via: "secret:basic"}}) || ev.Vendor != "x" {
		t.Errorf("event %s %v", ev.Vendor, ev.Credentials)
	}
}
