package mockvendor

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// TestExtendedCardSigned: a signing vendor's extended card lists the
// public card's skills and those ExtendedCardConfig.Skills adds, and is
// signed with the vendor's key like its public card, for 1.0 and 0.3
// callers; the public card does not list the added skill.
func TestExtendedCardSigned(t *testing.T) {
	a := VendorA()
	a.Auth = &AuthConfig{}
	a.Skills = append(a.Skills, SkillConfig{ID: "ledger-audit"})
	a.Card.Skills = []string{SkillSummarize, SkillLedgerWrite}
	a.Card.ExtendedCard = &ExtendedCardConfig{Skills: []string{"ledger-audit"}}
	f := tStart(t, Config{Vendors: []VendorConfig{a}})
	cred, _ := f.Credential("a")
	c := tClient(t, f, tViaProxy)
	keys := &cardsig.HTTPKeySource{Client: c}
	public := tGet(t, c, "https://"+HostVendorA+CardPath, nil)
	if slices.Contains(tSkillIDs(public.JSON), "ledger-audit") {
		t.Errorf("the public card lists ledger-audit: %v", tSkillIDs(public.JSON))
	}
	for _, tc := range []struct{ version, method string }{{"1.0", "GetExtendedAgentCard"}, {"0.3", "agent/getAuthenticatedExtendedCard"}} {
		t.Run(tc.version, func(t *testing.T) {
			hdr := map[string]string{"Authorization": "Bearer " + cred.Value}
			if tc.version == "1.0" {
				hdr["A2A-Version"] = "1.0"
			}
			r := tPost(t, c, "https://"+HostVendorA+VendorARPCPath, tEnvelope(tc.method, map[string]any{}), hdr)
			card := r.Result()
			if got := tSkillIDs(card); !slices.Equal(got, []string{SkillSummarize, SkillLedgerWrite, "ledger-audit"}) {
				t.Errorf("extended card skills %v", got)
			}
			if desc, _ := card["description"].(string); !strings.HasSuffix(desc, "(extended card)") {
				t.Errorf("description %q", desc)
			}
			b, _ := json.Marshal(card)
			v, err := cardsig.Verify(context.Background(), b, keys)
			if err != nil {
				t.Fatalf("the extended card does not verify: %v", err)
			}
			if v.KID != KIDVendorA {
				t.Errorf("signed by %s, want %s", v.KID, KIDVendorA)
			}
			if _, legacy := card["url"]; legacy != (tc.version == "0.3") {
				t.Errorf("url member present %v for %s", legacy, tc.version)
			}
		})
	}
}

// TestExtendedCardSkillsChecked: extended-card skills the vendor lacks, or
// on a public card that lists every skill, are configuration errors.
func TestExtendedCardSkillsChecked(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listed []string
		skills []string
		msg    string
	}{
		{"unknown skill", []string{SkillSummarize}, []string{"nope"}, `no skill "nope"`},
		{"public card lists all", nil, []string{SkillLedgerWrite}, "lists every skill"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := VendorA()
			a.Auth = &AuthConfig{}
			a.Card.Skills = tc.listed
			a.Card.ExtendedCard = &ExtendedCardConfig{Skills: tc.skills}
			f, err := NewFleet(Config{Vendors: []VendorConfig{a}})
			if f != nil {
				defer f.Close()
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != "vendors[0].card.extendedCard.skills" || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("NewFleet: %v, want a ConfigError on vendors[0].card.extendedCard.skills saying %q", err, tc.msg)
			}
		})
	}
}
