package mockvendor

import (
	"slices"
	"sort"
	"testing"
)

// tCardMembers10 are the members of a 1.0 AgentCard (a2a.proto at v1.0.1).
var tCardMembers10 = []string{"capabilities", "defaultInputModes", "defaultOutputModes", "description", "documentationUrl", "iconUrl", "name", "provider", "securityRequirements", "securitySchemes", "signatures", "skills", "supportedInterfaces", "version"}

// TestCardPerVersions: a card declares an interface for each version the
// vendor serves; a 1.0-only vendor's card holds 1.0 members only (valid
// under the 1.0 schema, which admits no others); a vendor serving 0.3 adds
// the 0.3 members (url, preferredTransport JSONRPC, protocolVersion).
func TestCardPerVersions(t *testing.T) {
	cfg := tHonestConfig() // C serves 1.0 only
	for i := range cfg.Vendors {
		if cfg.Vendors[i].ID == "b" {
			cfg.Vendors[i].Card.ProtocolVersion = "0.3" // B: 0.3 only
		}
	}
	f := tStart(t, cfg)
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		host     string
		versions []string
		legacy   bool
	}{
		{HostCardD, []string{"1.0", "0.3"}, true},
		{HostC, []string{"1.0"}, false},
		{HostCardB, []string{"0.3"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.host, func(t *testing.T) {
			card := tGet(t, c, "https://"+tc.host+CardPath, nil).JSON
			var got []string
			for _, i := range tAsList(card["supportedInterfaces"]) {
				if b := tPath(i, "protocolBinding"); b == BindingREST || b == BindingGRPC {
					continue // TestREST, TestCardGRPCInterface
				}
				got = append(got, tPath(i, "protocolVersion").(string))
				if tPath(i, "protocolBinding") != "JSONRPC" || tPath(i, "url") == nil {
					t.Errorf("interface %v", i)
				}
			}
			if !slices.Equal(got, tc.versions) {
				t.Errorf("interfaces for %v, want %v", got, tc.versions)
			}
			var extra []string
			for k := range card {
				if !slices.Contains(tCardMembers10, k) {
					extra = append(extra, k)
				}
			}
			sort.Strings(extra)
			want := []string(nil)
			if tc.legacy {
				want = []string{"preferredTransport", "protocolVersion", "url"}
			}
			if !slices.Equal(extra, want) {
				t.Errorf("members outside the 1.0 card: %v, want %v", extra, want)
			}
		})
	}
}
