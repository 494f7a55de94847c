package mockvendor

import (
	"slices"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("skill-rollout", tFaultSkillRollout)
}

// tFaultSkillRollout is the skill-rollout case of TestFaults.
func tFaultSkillRollout(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("skill-rollout", SkillRollout{Skill: "alpha", WindowMs: 300}))
	tWantState(t, "generation 1 serves alpha", e.send(t, Dialect03, "x", "alpha"), "completed")
	time.Sleep(320 * time.Millisecond)
	r := e.send(t, Dialect03, "x", "alpha")
	tWantCode(t, "alpha after the rollout", r, -32004)
	if got := tStrings(tPath(r.Err(), "data", "availableSkills")); !slices.Equal(got, []string{"alpha-v2"}) {
		t.Errorf("availableSkills %v, want [alpha-v2]", got)
	}
	tWantState(t, "alpha-v2 served", e.send(t, Dialect10, "x", "alpha-v2"), "completed")
	if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Contains(got, "alpha-v2") || slices.Contains(got, "alpha") {
		t.Errorf("origin card skills %v, want alpha-v2 in place of alpha", got)
	}
	if got := tSkillIDs(e.card(t, tHostX, false).JSON); !slices.Contains(got, "alpha") {
		t.Errorf("CDN card skills %v, want the stale alpha", got)
	}
}
