package fault

import (
	"slices"
	"sync"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// RegionGate makes the gateway refuse skills in its region with -32004 and
// data {"region", "availableSkills"} [card as claim, not contract: What Was
// Observed, step 3]. Once the gate is closed the origin card lists
// AvailableSkills instead of GatedSkills (the rollout reached the origin, not
// the CDN).
type RegionGate struct {
	// Region is the region the gate applies to. Empty means every region.
	Region string `json:"region" doc:"region the gate applies to; empty means every region"`
	// GatedSkills are refused.
	GatedSkills []string `json:"gatedSkills" doc:"skill ids refused with -32004"`
	// AvailableSkills are named in the error data. Empty means the skills
	// the gateway serves in the region, less the gated ones.
	AvailableSkills []string `json:"availableSkills" doc:"skill ids named in the error data; empty means what the gateway serves, less the gated skills"`
	// AfterSends lets this many sends of gated skills succeed before the gate
	// closes. Zero means it is closed from the start.
	AfterSends int `json:"afterSends,omitempty" doc:"sends of gated skills that succeed before the gate closes; 0 closes it at once"`
	// GateProbes makes probes for gated skills fail too. False means a probe
	// passes: it proves the endpoint, not the skill.
	GateProbes bool `json:"gateProbes,omitempty" doc:"refuse probes too; false lets probes through"`

	mu     sync.Mutex
	passed int
}

func init() {
	Register("region-gate", "the regional gateway refuses skills with -32004 and names the ones it has", func() any { return &RegionGate{} })
}

func (g *RegionGate) closed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.passed >= g.AfterSends
}

// OnCall answers a send or stream for a gated skill in the gate's region
// with -32004 once the gate is closed (CallHook).
func (g *RegionGate) OnCall(c *Call) *CallError {
	if (c.Op != trace.OpSend && c.Op != trace.OpStream) || (c.Probe && !g.GateProbes) {
		return nil
	}
	if g.Region != "" && c.Region != g.Region {
		return nil
	}
	skill := c.Skill
	if skill == "" {
		skill = c.Vendor.DefaultSkill()
	}
	if !slices.Contains(g.GatedSkills, skill) {
		return nil
	}
	g.mu.Lock()
	if g.passed < g.AfterSends {
		g.passed++ // the last pass closes the gate: a new card epoch
		g.mu.Unlock()
		return nil
	}
	g.mu.Unlock()
	avail := g.AvailableSkills
	if len(avail) == 0 {
		// What the gateway serves here, less what the gate refuses.
		avail = []string{}
		for _, id := range c.Vendor.SkillsIn(c.Region) {
			if !slices.Contains(g.GatedSkills, id) {
				avail = append(avail, id)
			}
		}
	}
	return errSkillUnavailable(c.Region, avail)
}

// CardEpoch is 1 once the gate is closed: the origin card changes then.
func (g *RegionGate) CardEpoch() int64 {
	if g.closed() {
		return 1
	}
	return 0
}

// OnCard takes the gated skills off the origin card once the gate is
// closed and adds the available ones it lacks (CardHook).
func (g *RegionGate) OnCard(v VendorView, card map[string]any, cdn bool) {
	if cdn || !g.closed() {
		return
	}
	list, _ := card["skills"].([]any)
	out := []any{}
	have := map[string]bool{}
	for _, e := range list {
		m := e.(map[string]any)
		id := m["id"].(string)
		if slices.Contains(g.GatedSkills, id) {
			continue
		}
		have[id] = true
		out = append(out, m)
	}
	for _, id := range g.AvailableSkills {
		if !have[id] {
			out = append(out, v.SkillEntry(id))
		}
	}
	card["skills"] = out
}
