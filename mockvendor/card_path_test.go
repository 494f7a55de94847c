package mockvendor

import (
	"errors"
	"testing"
)

// Cards below a path, cards at a URL given directly, and JSON-RPC paths
// served in their declared spelling only (HostConfig.CardPath, RPCPath).

const tHubHost = "hub.agent-p.example"

func TestCardPathAndExactRPCPath(t *testing.T) {
	cases := []struct {
		name, cardPath, rpcPath string
		// other are spellings of the card and endpoint paths that must
		// answer 404.
		otherCards, otherRPC []string
	}{
		{
			name: "well-known name below a path", cardPath: "/agents/p/.well-known/agent-card.json", rpcPath: "/agents/p/a2a/v1",
			otherCards: []string{CardPath, LegacyCardPath, "/agents/p/.well-known/agent-card.json/"},
			otherRPC:   []string{"/agents/p/a2a/v1/", DefaultRPCPath, "/agents/p/A2A/v1"},
		},
		{
			name: "a card URL given directly, endpoint with a trailing slash", cardPath: "/agents/p/card", rpcPath: "/a2a/v1/",
			otherCards: []string{CardPath, "/agents/p/card/.well-known/agent-card.json", "/agents/p/.well-known/agent-card.json"},
			otherRPC:   []string{DefaultRPCPath, "/a2a/v1//"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{{
				ID:     "p",
				Hosts:  []HostConfig{{Name: tHubHost, Card: true, CardPath: c.cardPath, RPCPath: c.rpcPath}},
				Skills: []SkillConfig{{ID: "alpha"}},
			}}})
			cl := tClient(t, f, tViaProxy)
			card := tGet(t, cl, "https://"+tHubHost+c.cardPath, nil)
			if card.Status != 200 || card.JSON["name"] == nil {
				t.Fatalf("card at %s: %d %s", c.cardPath, card.Status, card.Body)
			}
			want := "https://" + tHubHost + c.rpcPath
			if got := tPath(card.JSON, "supportedInterfaces", 0, "url"); got != want {
				t.Errorf("interface url %v, want %s (the declared spelling)", got, want)
			}
			for _, p := range c.otherCards {
				if r := tGet(t, cl, "https://"+tHubHost+p, nil); r.Status != 404 {
					t.Errorf("GET %s: %d, want 404", p, r.Status)
				}
			}
			if r := tIfaceSend(t, cl, want, "1.0", ""); r.Status != 200 || r.JSON["error"] != nil {
				t.Errorf("send at %s: %d %s", want, r.Status, r.Body)
			}
			for _, p := range c.otherRPC {
				if r := tIfaceSend(t, cl, "https://"+tHubHost+p, "1.0", ""); r.Status != 404 {
					t.Errorf("send at %s: %d, want 404", p, r.Status)
				}
			}
		})
	}
}

func TestCardPathNeedsCard(t *testing.T) {
	for _, h := range []HostConfig{
		{Name: tHubHost, CardPath: "/agents/p/card", RPCPath: DefaultRPCPath},
		{Name: tHubHost, Card: true, CardPath: "agents/p/card", RPCPath: DefaultRPCPath},
	} {
		_, err := NewFleet(Config{Vendors: []VendorConfig{{ID: "p", Hosts: []HostConfig{h}, Skills: []SkillConfig{{ID: "alpha"}}}}})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != "vendors[0].hosts[0].cardPath" {
			t.Errorf("%+v: error %v, want a ConfigError on vendors[0].hosts[0].cardPath", h, err)
		}
	}
}
