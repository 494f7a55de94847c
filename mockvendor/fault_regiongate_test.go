package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("region-gate", tFaultRegionGate)
}

// tFaultRegionGate is the region-gate case of TestFaults.
func tFaultRegionGate(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("region-gate", RegionGate{Region: "r1", GatedSkills: []string{"gamma"}, AvailableSkills: []string{"beta"}}))
	r := e.send(t, Dialect03, "x", "gamma")
	tWantCode(t, "0.3 gated send", r, -32004)
	if d, _ := tPath(r.Err(), "data").(map[string]any); d["region"] != "r1" || !slices.Equal(tStrings(d["availableSkills"]), []string{"beta"}) {
		t.Errorf("0.3 data %v", tPath(r.Err(), "data"))
	}
	r = e.send(t, Dialect10, "x", "gamma")
	tWantCode(t, "1.0 gated send", r, -32004)
	data := tAsList(tPath(r.Err(), "data"))
	// The gate's reason is the vendor's own: its ErrorInfo is filed under
	// the vendor's domain, never the spec's a2a-protocol.org.
	if len(data) != 2 || tPath(data, 0, "@type") != "type.googleapis.com/google.rpc.ErrorInfo" || tPath(data, 0, "reason") != "SKILL_NOT_AVAILABLE" || tPath(data, 0, "domain") != tHostX {
		t.Errorf("1.0 data %v, want an ErrorInfo SKILL_NOT_AVAILABLE under %s", data, tHostX)
	}
	if tPath(data, 0, "metadata", "region") != "r1" || tPath(data, 0, "metadata", "availableSkills") != "beta" {
		t.Errorf("1.0 ErrorInfo metadata %v", tPath(data, 0, "metadata"))
	}
	if tPath(data, 1, "@type") == nil || tPath(data, 1, "region") != "r1" || !slices.Equal(tStrings(tPath(data, 1, "availableSkills")), []string{"beta"}) {
		t.Errorf("1.0 data object %v", tPath(data, 1))
	}
	r = e.send(t, Dialect01, "x", "gamma")
	tWantCode(t, "0.1 gated send", r, -32004)
	tWantState(t, "probe for a gated skill", e.send(t, Dialect03, ProbeText, "gamma"), "completed")
	tWantState(t, "ungated skill", e.send(t, Dialect03, "x", "alpha"), "completed")
	tWantState(t, "other region", tSend(t, e.c, "https://"+tHostX2+DefaultRPCPath, Dialect03, "x", "gamma"), "completed")
	if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("origin card with the gate closed lists %v", got)
	}
	if got := tSkillIDs(e.card(t, tHostX, false).JSON); !slices.Equal(got, []string{"alpha", "beta", "gamma"}) {
		t.Errorf("CDN card lists %v", got)
	}
	e.remove(t, id)

	// afterSends: two sends pass, then the gate closes and the origin card changes.
	id = e.add(t, "x", Spec("region-gate", RegionGate{GatedSkills: []string{"gamma"}, AfterSends: 2}))
	if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Contains(got, "gamma") {
		t.Errorf("origin card before the gate closed lists %v", got)
	}
	tWantState(t, "pass 1", e.send(t, Dialect03, "x", "gamma"), "completed")
	tWantState(t, "probe does not count", e.send(t, Dialect03, ProbeText, "gamma"), "completed")
	tWantState(t, "pass 2", e.send(t, Dialect10, "x", "gamma"), "completed")
	r = e.send(t, Dialect03, "x", "gamma")
	tWantCode(t, "after the gate closed", r, -32004)
	if avail := tStrings(tPath(r.Err(), "data", "availableSkills")); slices.Contains(avail, "gamma") || !slices.Equal(avail, []string{"alpha", "beta"}) {
		t.Errorf("availableSkills %v names the gated skill or misses the served ones", avail)
	}
	if got := tSkillIDs(e.card(t, tHostX, true).JSON); slices.Contains(got, "gamma") {
		t.Errorf("origin card after the gate closed lists %v", got)
	}
	e.remove(t, id)

	e.add(t, "x", Spec("region-gate", RegionGate{GatedSkills: []string{"gamma"}, GateProbes: true}))
	tWantCode(t, "gated probe", e.send(t, Dialect03, ProbeText, "gamma"), -32004)
}
