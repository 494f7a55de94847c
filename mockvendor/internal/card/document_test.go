package card

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/credentials"
)

// tSpec is a vendor serving 1.0 and 0.3 on one JSON-RPC endpoint and the
// HTTP+JSON binding, with two skills.
func tSpec() *Spec {
	return &Spec{
		ID: "d", URL: "https://rpc.agent-d.example/a2a/v1", RESTURL: "https://rpc.agent-d.example/a2a/rest",
		ProviderURL: "https://agent-d.example", Versions: []string{"1.0", "0.3"},
		Skills: []Skill{{ID: "alpha"}, {ID: "beta", Name: "Beta", Description: "Does beta.", InputModes: []string{"application/json"}}},
	}
}

// tKeys are the sorted top-level members of a document.
func tKeys(doc map[string]any) []string {
	var out []string
	for k := range doc {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tJSON round-trips v through JSON, as a client reads it.
func tJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocumentMembers: the honest card carries the 0.3 members exactly
// when the vendor serves 0.3 and does not sign without LegacyFields; the
// extended card, extensions and a security scheme add their members.
func TestDocumentMembers(t *testing.T) {
	issuer, err := credentials.New(credentials.Config{Vendor: "d", Credential: "k"})
	if err != nil {
		t.Fatal(err)
	}
	members10 := []string{"capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "provider", "skills", "supportedInterfaces", "version"}
	with := func(extra ...string) []string {
		out := append(slices.Clone(members10), extra...)
		sort.Strings(out)
		return out
	}
	cases := []struct {
		name   string
		change func(*Spec)
		want   []string
	}{
		{"1.0 and 0.3", func(*Spec) {}, with("url", "preferredTransport", "protocolVersion")},
		{"1.0 only", func(s *Spec) { s.Versions = []string{"1.0"} }, members10},
		{"signed", func(s *Spec) { s.Signed = true }, members10},
		{"signed with legacy fields", func(s *Spec) { s.Signed, s.LegacyFields = true, true }, with("url", "preferredTransport", "protocolVersion")},
		{"extended card", func(s *Spec) { s.ExtendedCard = true }, with("url", "preferredTransport", "protocolVersion", "supportsAuthenticatedExtendedCard")},
		{"1.0 card with a scheme", func(s *Spec) { s.Versions, s.Security = []string{"1.0"}, issuer }, with("securityRequirements", "securitySchemes")},
		{"0.3 card with a scheme", func(s *Spec) { s.Security = issuer }, with("url", "preferredTransport", "protocolVersion", "security", "securitySchemes")},
	}
	for _, c := range cases {
		s := tSpec()
		c.change(s)
		if got := tKeys(s.Document()); !slices.Equal(got, c.want) {
			t.Errorf("%s: members %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDocumentDefaults: the names, interfaces, capabilities and skills
// an honest card derives from a sparse Spec.
func TestDocumentDefaults(t *testing.T) {
	s := tSpec()
	s.Listed = []string{"beta", "gamma"}
	s.Extensions = []Extension{{URI: "urn:x", Required: true}}
	doc := tJSON(t, s.Document()).(map[string]any)
	want := map[string]any{
		"name":        "Vendor D agent",
		"description": "Vendor D agent, a mock vendor agent of the a2a-conform fleet",
		"version":     "1.0.0",
		"provider":    map[string]any{"organization": "Vendor D", "url": "https://agent-d.example"},
		"supportedInterfaces": []any{
			map[string]any{"url": s.URL, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
			map[string]any{"url": s.RESTURL, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
			map[string]any{"url": s.URL, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
		},
		"capabilities":       map[string]any{"streaming": false, "pushNotifications": false, "extensions": []any{map[string]any{"uri": "urn:x", "required": true}}},
		"defaultInputModes":  []any{"text/plain"},
		"defaultOutputModes": []any{"text/plain"},
		"skills": []any{
			map[string]any{"id": "beta", "name": "Beta", "description": "Does beta.", "tags": []any{"beta"}, "inputModes": []any{"application/json"}},
			map[string]any{"id": "gamma", "name": "gamma", "description": "Runs gamma.", "tags": []any{"gamma"}},
		},
	}
	for k, w := range want {
		if g, _ := json.Marshal(doc[k]); string(g) != string(must(json.Marshal(w))) {
			t.Errorf("%s: %s, want %s", k, g, must(json.Marshal(w)))
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestDocumentFresh: each Document is a new value, so a fault changing
// one leaves the next as it was.
func TestDocumentFresh(t *testing.T) {
	s := tSpec()
	a := s.Document()
	a["skills"] = []any{}
	delete(a, "name")
	b := s.Document()
	if _, ok := b["name"]; !ok || len(b["skills"].([]any)) != 2 {
		t.Errorf("a changed document changed the next: %v", b)
	}
}
