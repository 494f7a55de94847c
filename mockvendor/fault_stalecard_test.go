package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("stale-card", tFaultStaleCard)
}

// tFaultStaleCard is the stale-card case of TestFaults.
func tFaultStaleCard(t *testing.T, e *tFaultEnv) {
	off := false
	e.add(t, "x", Spec("stale-card", StaleCard{Skills: []string{"old-skill", "alpha"}, Streaming: &off}))
	cdn := e.card(t, tHostX, false)
	if got := tSkillIDs(cdn.JSON); !slices.Equal(got, []string{"old-skill", "alpha"}) {
		t.Errorf("CDN skills %v", got)
	}
	if tPath(cdn.JSON, "capabilities", "streaming") != false {
		t.Error("CDN copy still claims streaming")
	}
	origin := e.card(t, tHostX, true)
	if got := tSkillIDs(origin.JSON); !slices.Equal(got, []string{"alpha", "beta", "gamma"}) {
		t.Errorf("origin skills %v", got)
	}
	if tPath(origin.JSON, "capabilities", "streaming") != true {
		t.Error("origin lost streaming")
	}
	if cdn.Header.Get("ETag") == origin.Header.Get("ETag") {
		t.Error("CDN and origin share an ETag")
	}
	again := e.card(t, tHostX, false)
	if again.Header.Get("ETag") != cdn.Header.Get("ETag") {
		t.Error("CDN ETag is not stable")
	}
}
