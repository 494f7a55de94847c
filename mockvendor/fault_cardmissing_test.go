package mockvendor

import (
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("card-missing", tFaultCardMissing)
}

// tFaultCardMissing is the card-missing case of TestFaults: by default the
// card lacks the six REQUIRED members sending does not need and keeps
// supportedInterfaces and skills; a configured list drops those members
// instead.
func tFaultCardMissing(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("card-missing", nil))
	card := e.card(t, tHostX, true).JSON
	for _, k := range DefaultCardMissingMembers {
		if _, has := card[k]; has {
			t.Errorf("card has %s: %v", k, card)
		}
	}
	if card["supportedInterfaces"] == nil || len(tSkillIDs(card)) != 3 {
		t.Errorf("card lost what sending needs: %v", card)
	}
	tWantState(t, "send", e.send(t, Dialect10, "incomplete card", "alpha"), "completed")
	if err := e.f.RemoveFault("x", id); err != nil {
		t.Fatal(err)
	}
	delete(e.added, id)
	e.add(t, "x", Spec("card-missing", CardMissing{Members: []string{"skills"}}))
	card = e.card(t, tHostX, true).JSON
	var keys []string
	for k := range card {
		keys = append(keys, k)
	}
	if _, has := card["skills"]; has || !slices.Contains(keys, "name") {
		t.Errorf("card members %s, want skills gone and name kept", strings.Join(keys, ", "))
	}
}
