package credentials

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// tIssued is a fleet's credentials: d a bearer token, c an API key in
// X-Vendor-Key.
func tIssued(t *testing.T) *Issued {
	var s Issued
	s.Add(tIssuer(t, Config{Vendor: "d", Credential: "tok-d-0123456789"}))
	s.Add(tIssuer(t, Config{Vendor: "c", Scheme: APIKey, Header: "X-Vendor-Key", Credential: "key-c-0123456789"}))
	return &s
}

// tScan returns what Scan found in a request to target with hdr, each as
// "owner via", sorted.
func tScan(s *Issued, target string, hdr map[string]string) []string {
	r := httptest.NewRequest(http.MethodPost, target, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	var got []string
	s.Scan(r, func(owner, via string, _ int) { got = append(got, owner+" "+via) })
	slices.Sort(got)
	return got
}

func TestIssuedScan(t *testing.T) {
	const d, c = "tok-d-0123456789", "key-c-0123456789"
	cases := []struct {
		name   string
		target string
		hdr    map[string]string
		want   []string
	}{
		{"nothing", "/rpc", nil, nil},
		{"bearer", "/rpc", map[string]string{"Authorization": "Bearer " + d}, []string{"d bearer"}},
		{"bearer any case", "/rpc", map[string]string{"Authorization": "  bEaReR   " + d + " "}, []string{"d bearer"}},
		{"bearer of another vendor", "/rpc", map[string]string{"Authorization": "Bearer " + c}, []string{"c bearer"}},
		{"bearer made up", "/rpc", map[string]string{"Authorization": "Bearer nope"}, []string{"unknown bearer"}},
		{"bearer wrapping a credential", "/rpc", map[string]string{"Authorization": "Bearer x" + d}, []string{"unknown bearer"}},
		{"other authorization holding one", "/rpc", map[string]string{"Authorization": "Basic " + d + ":"}, []string{"d authorization"}},
		{"other authorization", "/rpc", map[string]string{"Authorization": "Basic Zm9v"}, []string{"unknown authorization"}},
		{"api key", "/rpc", map[string]string{"X-Vendor-Key": c}, []string{"c header:X-Vendor-Key"}},
		{"api key header guessed", "/rpc", map[string]string{"X-Vendor-Key": "guess"}, []string{"unknown header:X-Vendor-Key"}},
		{"api key header empty", "/rpc", map[string]string{"X-Vendor-Key": "  "}, nil},
		{"in a cookie", "/rpc", map[string]string{"Cookie": "session=" + d}, []string{"d header:Cookie"}},
		{"in an odd header", "/rpc", map[string]string{"X-Other": d}, []string{"d header:X-Other"}},
		{"odd header without one", "/rpc", map[string]string{"X-Other": "nothing"}, nil},
		{"in the query", "/rpc?api_key=" + d + "&x=1", nil, []string{"d query:api_key"}},
		{"everywhere", "/rpc?k=" + c, map[string]string{"Authorization": "Bearer " + d, "X-Vendor-Key": c},
			[]string{"c header:X-Vendor-Key", "c query:k", "d bearer"}},
	}
	s := tIssued(t)
	for _, tc := range cases {
		if got := tScan(s, tc.target, tc.hdr); !slices.Equal(got, tc.want) {
			t.Errorf("%s: found %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestIssuedScanNoneIssued: with no credential issued, only the
// Authorization header is reported.
func TestIssuedScanNoneIssued(t *testing.T) {
	var s Issued
	got := tScan(&s, "/rpc?api_key=tok", map[string]string{"Authorization": "Bearer tok", "X-API-Key": "tok", "Cookie": "tok"})
	if want := []string{"unknown bearer"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	if s.Any() {
		t.Error("Any() with no issuer")
	}
}

func TestIssuedOwners(t *testing.T) {
	s := tIssued(t)
	cases := []struct {
		text           string
		ownerOf, owner string
		holds          bool
	}{
		{"tok-d-0123456789", "d", "d", true},
		{"key-c-0123456789", "c", "c", true},
		{"Bearer tok-d-0123456789", Unknown, "d", true},
		{"tok-d-012345678", Unknown, Unknown, false},
		{"", Unknown, Unknown, false},
	}
	for _, c := range cases {
		if got := s.OwnerOf(c.text); got != c.ownerOf {
			t.Errorf("OwnerOf(%q) = %q, want %q", c.text, got, c.ownerOf)
		}
		if got := s.OwnerIn(c.text); got != c.owner {
			t.Errorf("OwnerIn(%q) = %q, want %q", c.text, got, c.owner)
		}
		if got := s.Holds([]byte(c.text)); got != c.holds {
			t.Errorf("Holds(%q) = %v, want %v", c.text, got, c.holds)
		}
	}
	for k, want := range map[string]bool{"X-Vendor-Key": true, "x-vendor-key": false, "X-Api-Key": false, "Authorization": false} {
		if got := s.APIKeyHeader(k); got != want {
			t.Errorf("APIKeyHeader(%q) = %v, want %v", k, got, want)
		}
	}
}

// TestIssuedOwnerFirstIssuer: two vendors issuing the same value, the
// first in vendor order owns it.
func TestIssuedOwnerFirstIssuer(t *testing.T) {
	var s Issued
	s.Add(tIssuer(t, Config{Vendor: "b", Credential: "same-value"}))
	s.Add(tIssuer(t, Config{Vendor: "a", Credential: "same-value"}))
	if got := s.OwnerOf("same-value"); got != "b" {
		t.Errorf("OwnerOf = %q, want b", got)
	}
}

func TestIssuedRedact(t *testing.T) {
	s := tIssued(t)
	cases := []struct {
		in, want string
		owners   []string
	}{
		{"no credential here", "no credential here", nil},
		{"token tok-d-0123456789, twice: tok-d-0123456789", "token (credential of d, redacted), twice: (credential of d, redacted)", []string{"d"}},
		{"key-c-0123456789 and tok-d-0123456789", "(credential of c, redacted) and (credential of d, redacted)", []string{"d", "c"}},
		{"", "", nil},
	}
	for _, c := range cases {
		got, owners := s.Redact(c.in)
		if got != c.want || !slices.Equal(owners, c.owners) {
			t.Errorf("Redact(%q) = %q, %q; want %q, %q", c.in, got, owners, c.want, c.owners)
		}
		if strings.Contains(got, "0123456789") {
			t.Errorf("Redact(%q) kept a credential: %q", c.in, got)
		}
	}
}
