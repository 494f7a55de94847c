package mockvendor

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// tAuthFleet is vendor D demanding a bearer token (1.0 card: D serves 1.0
// only) and vendor C demanding an API key in X-Vendor-Key (a hybrid card:
// C serves 1.0 and 0.3).
func tAuthFleet(t *testing.T) *Fleet {
	d := VendorD()
	d.Versions = []string{"1.0"}
	d.Auth = &AuthConfig{}
	c := VendorC()
	c.Faults = nil
	c.Auth = &AuthConfig{Scheme: AuthAPIKey, Header: "X-Vendor-Key"}
	return tStart(t, Config{Vendors: []VendorConfig{d, c}})
}

func TestAuthCardDeclaresTheSchemeInItsShape(t *testing.T) {
	f := tAuthFleet(t)
	cases := []struct {
		host       string
		schemePath []any
		want       string
		reqKey     string
	}{
		{HostCardD, []any{"securitySchemes", "bearerAuth", "httpAuthSecurityScheme", "scheme"}, "Bearer", "securityRequirements"},
		{HostC, []any{"securitySchemes", "apiKeyAuth", "name"}, "X-Vendor-Key", "security"},
	}
	for _, c := range cases {
		r := tGet(t, tClient(t, f, tViaProxy), tURL(t, f, c.host, CardPath), nil)
		if r.Status != 200 {
			t.Fatalf("%s card: %d", c.host, r.Status)
		}
		if got := tPath(r.JSON, c.schemePath...); got != c.want {
			t.Errorf("%s: %v = %v, want %q (card %s)", c.host, c.schemePath, got, c.want, r.Body)
		}
		if r.JSON[c.reqKey] == nil {
			t.Errorf("%s: the card has no %s", c.host, c.reqKey)
		}
	}
}

// TestAuthEnforcedAndTraced: each call without the right credential gets
// 401 with a challenge; the trace names whose credential came and how,
// and holds no value anywhere.
func TestAuthEnforcedAndTraced(t *testing.T) {
	f := tAuthFleet(t)
	dCred, ok := f.Credential("d")
	cCred, ok2 := f.Credential("c")
	if !ok || !ok2 || dCred.Value == "" || cCred.Value == "" || dCred.Value == cCred.Value {
		t.Fatalf("credentials %+v %+v", dCred, cCred)
	}
	if !slices.Equal(dCred.Origins, []string{"https://" + HostRPCD}) {
		t.Errorf("D's origins %v", dCred.Origins)
	}
	dURL := tURL(t, f, HostRPCD, DefaultRPCPath)
	cURL := tURL(t, f, HostC, DefaultRPCPath)
	cases := []struct {
		name      string
		url       string
		hdr       map[string]string
		status    int
		challenge string
		want      []Presented
	}{
		{"bearer absent", dURL, nil, 401, `Bearer realm="Vendor D"`, nil},
		{"bearer right", dURL, map[string]string{"Authorization": "Bearer " + dCred.Value}, 200, "", []Presented{{Owner: "d", Via: "bearer"}}},
		{"bearer of another vendor", dURL, map[string]string{"Authorization": "Bearer " + cCred.Value}, 401, `error="invalid_token"`, []Presented{{Owner: "c", Via: "bearer"}}},
		{"bearer made up", dURL, map[string]string{"Authorization": "Bearer nope"}, 401, `error="invalid_token"`, []Presented{{Owner: CredentialUnknown, Via: "bearer"}}},
		{"api key absent", cURL, nil, 401, `ApiKey realm="Vendor C", header="X-Vendor-Key"`, nil},
		{"api key right", cURL, map[string]string{"X-Vendor-Key": cCred.Value}, 200, "", []Presented{{Owner: "c", Via: "header:X-Vendor-Key"}}},
		{"api key as bearer", cURL, map[string]string{"Authorization": "Bearer " + cCred.Value}, 401, "ApiKey", []Presented{{Owner: "c", Via: "bearer"}}},
		{"api key unknown", cURL, map[string]string{"X-Vendor-Key": "guess"}, 401, "ApiKey", []Presented{{Owner: CredentialUnknown, Via: "header:X-Vendor-Key"}}},
		{"D's token in the query", cURL + "?api_key=" + dCred.Value, map[string]string{"X-Vendor-Key": cCred.Value}, 200, "", []Presented{{Owner: "c", Via: "header:X-Vendor-Key"}, {Owner: "d", Via: "query:api_key"}}},
		{"D's token in a cookie", cURL, map[string]string{"X-Vendor-Key": cCred.Value, "Cookie": "session=" + dCred.Value}, 200, "", []Presented{{Owner: "c", Via: "header:X-Vendor-Key"}, {Owner: "d", Via: "header:Cookie"}}},
		{"D's token in an odd header", cURL, map[string]string{"X-Vendor-Key": cCred.Value, "X-Other": dCred.Value}, 200, "", []Presented{{Owner: "c", Via: "header:X-Vendor-Key"}, {Owner: "d", Via: "header:X-Other"}}},
	}
	c := tClient(t, f, tViaProxy)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			since := f.Trace().Seq()
			hdr := map[string]string{"A2A-Version": "1.0"}
			for k, v := range tc.hdr {
				hdr[k] = v
			}
			r := tPost(t, c, tc.url, tEnvelope("SendMessage", tSendParams(Dialect10, "hello", "")), hdr)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d (%s)", r.Status, tc.status, r.Body)
			}
			if got := r.Header.Get("WWW-Authenticate"); !strings.Contains(got, tc.challenge) || (tc.challenge == "") != (got == "") {
				t.Errorf("WWW-Authenticate %q, want %q", got, tc.challenge)
			}
			ev := tWaitEvent(t, f, since, func(e Event) bool { return e.Op == OpSend })
			if !slices.Equal(ev.Credentials, tc.want) {
				t.Errorf("trace credentials %v, want %v", ev.Credentials, tc.want)
			}
			if tc.status == 401 && ev.Status != 401 {
				t.Errorf("trace status %d", ev.Status)
			}
			b, _ := json.Marshal(f.Trace().Since(since))
			for _, v := range []string{dCred.Value, cCred.Value} {
				if strings.Contains(string(b), v) {
					t.Errorf("the trace holds a credential value: %s", b)
				}
			}
		})
	}
}

// TestAuthRevokedAndRedacted: a revoked credential is refused though it is
// the vendor's own; a credential in the body is cut out of the trace; the
// card stays public.
func TestAuthRevokedAndRedacted(t *testing.T) {
	d := VendorD()
	d.Versions = []string{"1.0"}
	d.Auth = &AuthConfig{Revoked: true, Credential: "tok-fixed-d"}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	c := tClient(t, f, tViaResolve)
	if r := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil); r.Status != 200 {
		t.Fatalf("card: %d", r.Status)
	}
	since := f.Trace().Seq()
	r := tPost(t, c, tURL(t, f, HostRPCD, DefaultRPCPath), tEnvelope("SendMessage", tSendParams(Dialect10, "tok-fixed-d", "")),
		map[string]string{"A2A-Version": "1.0", "Authorization": "Bearer tok-fixed-d"})
	if r.Status != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("revoked: %d %q", r.Status, r.Header.Get("WWW-Authenticate"))
	}
	ev := tWaitEvent(t, f, since, func(e Event) bool { return e.Op == OpSend })
	if !slices.Equal(ev.Credentials, []Presented{{Owner: "d", Via: "bearer"}}) || strings.Contains(string(ev.Request), "tok-fixed-d") || !strings.Contains(string(ev.Request), "redacted") {
		t.Errorf("event %+v body %s", ev.Credentials, ev.Request)
	}
	for _, c := range []struct{ in, want string }{
		{"no credential here", "no credential here"},
		{"token tok-fixed-d, twice: tok-fixed-d", "token (credential of d, redacted), twice: (credential of d, redacted)"},
	} {
		got, owners := f.RedactText(c.in)
		if got != c.want || (got != c.in) != slices.Equal(owners, []string{"d"}) {
			t.Errorf("RedactText(%q) = %q, %v; want %q", c.in, got, owners, c.want)
		}
	}
}

func TestAuthConfigRejects(t *testing.T) {
	for _, ac := range []AuthConfig{{Scheme: "basic"}, {CardShape: "2.0"}, {Credential: "a b"}} {
		d := VendorD()
		d.Auth = &ac
		if f, err := NewFleet(Config{Vendors: []VendorConfig{d}}); err == nil {
			f.Close()
			t.Errorf("%+v accepted", ac)
		}
	}
}

// TestAuthRESTBinding: the HTTP+JSON binding demands the credential too
// and answers a google.rpc.Status UNAUTHENTICATED.
func TestAuthRESTBinding(t *testing.T) {
	f := tAuthFleet(t)
	cred, _ := f.Credential("d")
	c := tClient(t, f, tViaResolve)
	u := tURL(t, f, HostRPCD, DefaultRESTPath+"/tasks/t-none")
	cases := []struct {
		hdr    map[string]string
		status int
	}{
		{map[string]string{"A2A-Version": "1.0"}, 401},
		{map[string]string{"A2A-Version": "1.0", "Authorization": "Bearer " + cred.Value}, 404},
	}
	for _, tc := range cases {
		r := tGet(t, c, u, tc.hdr)
		if r.Status != tc.status {
			t.Fatalf("GET %s with %v: %d (%s), want %d", u, tc.hdr, r.Status, r.Body, tc.status)
		}
		if tc.status == 401 && (tPath(r.JSON, "error", "status") != "UNAUTHENTICATED" || r.Header.Get("WWW-Authenticate") == "") {
			t.Errorf("401 body %s, challenge %q", r.Body, r.Header.Get("WWW-Authenticate"))
		}
	}
}
