package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The seed 000 items of the PROBE area that PROBE-001..003 leave unstaged:
// a probe the endpoint refuses in the server-error range, and a stub that
// answers -32602 rather than -32601.

// seedProbeCodeOrder is how the reference code of seed 000 departs from its
// Decision Boundary on a refused probe; the PROBE-004 checks say which they
// follow.
var seedProbeCodeOrder = Seed000("Operational Effect", SrcDescriptive).Read("the reference code's probe_endpoint counts a -32004 probe answer " +
	"as proof of the task lifecycle and goes on to the real send, raising StaleAgentCardError only on the real task's -32004; " +
	"the Decision Boundary's prose, a must, asks for the re-fetch and the re-route on the probe's answer, and the check follows the prose")

// probeSeedScenarios are PROBE-004 and PROBE-005.
func probeSeedScenarios() []*Scenario {
	return []*Scenario{probeRefusedScenario(), stub32602Scenario()}
}

// probeRefusedScenario is PROBE-004: B's gateway refuses the probe itself.
func probeRefusedScenario() *Scenario {
	return &Scenario{
		ID:    "PROBE-004",
		Title: "a probe answered -32004",
		Area:  "probe",
		Source: "seed 000, Decision Boundary. B breaks no server MUST of A2A 1.0: a probe is a message like any other, its -32004 is the spec's " +
			"UnsupportedOperationError (§5.4), and its CDN card outlives the rollout (§8.6.1 asks only, SHOULD, for a max-age fit for the update frequency)",
		Setup: "B's CDN serves a day-old card listing invoice-reconciliation; the eu-west-1 gateway refuses that skill with -32004 naming invoice-reconciliation-v2, " +
			"the probe for it too; a cache-bypassing fetch reaches the origin, which lists -v2.",
		Fleet: func() mockvendor.Config {
			b := mockvendor.VendorB()
			b.Faults = []mockvendor.FaultSpec{
				mockvendor.Spec("stale-card", mockvendor.StaleCard{Skills: []string{skillS}}),
				mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB, GatedSkills: []string{skillS}, AvailableSkills: []string{skillV2}, GateProbes: true}),
			}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{b}}
		},
		Requests:   []Request{req(skillS, mockvendor.HostCardB)},
		Successors: map[string][]string{skillS: {skillV2}},
		Checks: []Check{
			{
				ID:     "PROBE-004.REFETCH",
				Title:  "a refused probe is followed by a cache-bypassing re-fetch before any real task",
				Grades: must(Safety),
				Requirement: "A probe answered in -32000..-32099 means the card is stale for this region: fetch it again with Cache-Control: no-cache " +
					"(or max-age=0, or Pragma: no-cache) and no If-None-Match before the real task goes anywhere.",
				Sources: []Source{seedStaleRefetch, seedProbeCodeOrder},
				Fix:     "On a server-range error from the probe, GET the card again with Cache-Control: no-cache and without If-None-Match, then choose the route from it.",
				Reached: probeRefused("b"),
				Judge:   judgeRefusedProbeRefetch,
			},
			{
				ID:     "PROBE-004.NO-COMMIT",
				Title:  "the skill the probe was refused gets no real task there",
				Grades: must(Safety),
				Requirement: "After the probe for a skill is answered in -32000..-32099, the orchestrator re-routes: no real task for that skill goes to that endpoint " +
					"(the fresh card names the skill's successor).",
				Sources: []Source{
					Seed000("Decision Boundary", SrcMust).Read("a probe answered in -32000..-32099: the card is stale for this region, and the orchestrator must re-fetch it, then re-route; " +
						"a real task for the refused skill at the same endpoint is no re-route"),
					seedProbeCodeOrder,
				},
				Fix:     "Treat the probe's -32004 as the routing signal it is: do not commit the refused skill to that endpoint; send the successor the fresh card or the error data names.",
				Reached: probeRefused("b"),
				Judge:   judgeRefusedProbeNoCommit,
			},
			{
				ID:           "PROBE-004.ROUTE",
				Title:        "completed via -v2 after the refused probe",
				Grades:       must(Safety),
				Requirement:  "The refused probe is a routing signal, not a fatal error: the delegation completes via the successor skill the gateway serves.",
				Sources:      []Source{seedStaleRefetch, seedStaleCardError},
				Fix:          "Re-fetch the card past the caches, pick the successor skill, probe if needed and send the real task there; do not escalate.",
				ReadsOutcome: true,
				Reached:      cardFetched("b"),
				Judge:        func(r *Run) Verdict { return completedVia(r, 0, "b", skillV2) },
			},
		},
	}
}

// stub32602Scenario is PROBE-005: PROBE-001's stub, answering -32602.
func stub32602Scenario() *Scenario {
	e := vendorE()
	e.Faults = []mockvendor.FaultSpec{mockvendor.Spec("stub-endpoint", mockvendor.StubEndpoint{Code: -32602})}
	return &Scenario{
		ID:    "PROBE-005",
		Title: "a -32602 stub",
		Area:  "probe",
		Source: "seed 000, Condition of Validity; Decision Boundary; the reference code of Operational Effect (-32601/-32602 prove no task lifecycle). " +
			"E's card breaks A2A 1.0 §8.3.1 (each interface MUST accurately declare its transport protocol and URL): the JSON-RPC endpoint it declares answers every method -32602",
		Setup:    "E's card looks fine; its endpoint answers every method with -32602 (invalid params). D is the second candidate.",
		Fleet:    fleetOf(e, mockvendor.VendorD()),
		Requests: []Request{req(skillS, hostE, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "PROBE-005.NO-COMMIT",
				Title:  "no real task is sent to a -32602 stub",
				Grades: must(Safety),
				Requirement: "An endpoint whose probe is answered -32602 does not implement the task lifecycle; the real task must not be committed there. " +
					"The delegation ends rejected or failed with endpoint-not-a2a, or uses a later candidate.",
				Sources: []Source{
					Seed000("Operational Effect", SrcDescriptive).Read("the reference code's probe_endpoint: -32601 and -32602 prove the endpoint does not speak the task lifecycle " +
						"(only -32001 and -32004 do); delegate then raises StaleAgentCardError and sends no real task"),
					Seed000("Condition of Validity", SrcDescriptive).Read("a probe answered otherwise than -32001 leaves the card a hint; the clause names -32601, the reference code adds -32602. " +
						"What Was Observed step 4 shows a live endpoint answering -32602 to a get of an id it never issued: here every method, the real send too, gets -32602"),
					Posture("no real task is committed to an endpoint whose probe shows it does not implement the task lifecycle"),
				},
				Fix:          "Probe first; on -32601 or -32602 from the probe, skip the endpoint and try the next candidate.",
				ReadsOutcome: true,
				Reached:      cardFetched("e"),
				Judge:        judgeStubNoCommit,
			},
			probedCheck("PROBE-005.PROBED", "a probe reached the -32602 stub before any real task"),
		},
	}
}

// serverRange reports whether a JSON-RPC error code is in -32000..-32099.
func serverRange(code int) bool { return code <= -32000 && code >= -32099 }

// isRefusedProbe reports whether the event is a probe send to the vendor
// answered in the server-error range.
func isRefusedProbe(e mockvendor.Event, vendor string) bool {
	return inVendor(e, vendor) && isTaskSend(e) && e.Probe && serverRange(e.ErrorCode)
}

// probeRefused needs a probe send the vendor answered in the server range.
func probeRefused(vendor string) Precondition {
	return Precondition{
		Needs: "probe " + vendorName(vendor) + " and get an error in -32000..-32099",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isRefusedProbe(e, vendor) })
		},
	}
}

// refusedProbe is the index of B's first refused probe, or -1 and the
// verdict for a run without one: NOT_APPLICABLE where every probe of B was
// a get of a synthetic id (it names no skill, so the gate cannot refuse it,
// and the real task's -32004 is the situation of CARD-001 and PROBE-003),
// else NOT_EXERCISED.
func refusedProbe(r *Run) (int, Verdict) {
	if k := slices.IndexFunc(r.Events, func(e mockvendor.Event) bool { return isRefusedProbe(e, "b") }); k >= 0 {
		return k, Verdict{}
	}
	atB := filter(r.Events, func(e mockvendor.Event) bool { return isProbe(e) && inVendor(e, "b") })
	if len(atB) > 0 && !slices.ContainsFunc(atB, isTaskSend) {
		return -1, NotApplicablef("the orchestrator probed B only with gets of a synthetic id, which name no skill for the gate to refuse")
	}
	return -1, NotExercisedf("B never answered a probe in -32000..-32099 (the orchestrator did not probe it with a send)")
}

// judgeRefusedProbeRefetch: after B's refused probe, a cache-bypassing
// fetch of B's card comes before the next real task anywhere [seed 000,
// Decision Boundary].
func judgeRefusedProbeRefetch(r *Run) Verdict {
	k, v := refusedProbe(r)
	if k < 0 {
		return v
	}
	p := r.Events[k]
	plain := ""
	for _, e := range r.Events[k+1:] {
		if e.Op == mockvendor.OpCardFetch && inVendor(e, "b") {
			if bypassesCache(e) {
				return Passf("the probe got %d at #%d; then %s (Cache-Control %q, Pragma %q, no If-None-Match) before any real task", p.ErrorCode, p.Seq, describe(e), e.CacheControl, e.Pragma).At(e.Seq)
			}
			plain = fmt.Sprintf("; %s did not bypass the caches (Cache-Control %q, Pragma %q, If-None-Match %q)", describe(e), e.CacheControl, e.Pragma, e.IfNoneMatch)
		}
		if isRealSend(e) {
			return Failf("%s: a real task went out after the probe's %d at #%d, before any cache-bypassing fetch of B's card%s", describe(e), p.ErrorCode, p.Seq, plain).
				Want("a fetch of B's card with Cache-Control: no-cache (or max-age=0, or Pragma: no-cache) and no If-None-Match before the real task", describe(e)+" first"+plain).At(e.Seq)
		}
	}
	return Failf("the probe got %d at #%d, and B's card was never fetched again with cache bypass%s", p.ErrorCode, p.Seq, plain).
		Want("a cache-bypassing fetch of B's card after the refused probe", "none"+plain).At(p.Seq)
}

// judgeRefusedProbeNoCommit: after the probe for a skill was refused at an
// endpoint, no real task for that skill goes to that endpoint.
func judgeRefusedProbeNoCommit(r *Run) Verdict {
	k, v := refusedProbe(r)
	if k < 0 {
		return v
	}
	p := r.Events[k]
	for _, e := range r.Events[k+1:] {
		if isRealSend(e) && inVendor(e, "b") && endpointOf(e) == endpointOf(p) && e.Skill == p.Skill {
			return Failf("%s: the real task for %q went to the endpoint whose probe for it got %d at #%d", describe(e), e.Skill, p.ErrorCode, p.Seq).
				Want(fmt.Sprintf("a re-route: no real task for %q at https://%s%s", p.Skill, p.Host, p.Path), describe(e)).At(e.Seq)
		}
	}
	return Passf("no real task for %q went to https://%s%s after its probe got %d at #%d", p.Skill, p.Host, p.Path, p.ErrorCode, p.Seq)
}
