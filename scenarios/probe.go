package scenarios

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// PROBE: exactly one probe between discovery and commitment [seed 000,
// Decision Boundary].
func probeScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:    "PROBE-001",
			Title: "stub endpoint",
			Area:  "probe",
			Source: "seed 000, Condition of Validity; Decision Boundary. E's card breaks A2A 1.0 §8.3.1 (each interface MUST accurately declare " +
				"its transport protocol and URL): the JSON-RPC endpoint it declares answers every method -32601",
			Setup:    "E's card looks fine; its endpoint answers every method with -32601. D is the second candidate.",
			Fleet:    fleetOf(vendorE(), mockvendor.VendorD()),
			Requests: []Request{req(skillS, hostE, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:     "PROBE-001.NO-COMMIT",
					Title:  "no real task is sent to a stub endpoint",
					Grades: must(Safety),
					Requirement: "An endpoint that answers -32601 does not implement the task lifecycle; the card is a hint and the real task must not be committed there. " +
						"The delegation ends rejected or failed with endpoint-not-a2a, or uses a later candidate.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcDescriptive).Read("a probe answered -32601 rather than -32001 shows the endpoint does not implement the task lifecycle (a stub); the card is then a hint"),
						Seed000("Operational Effect", SrcDescriptive).Read("the reference code raises StaleAgentCardError, and sends no real task, when the probe shows no task lifecycle"),
						Posture("no real task is committed to an endpoint whose probe shows it does not implement the task lifecycle"),
					},
					Fix:          "Probe first; on -32601/-32602 from the probe, skip the endpoint and try the next candidate.",
					ReadsOutcome: true,
					Reached:      cardFetched("e"),
					Judge:        judgeStubNoCommit,
				},
				probedCheck("PROBE-001.PROBED", "a probe reached E before any real task"),
			},
		},
		{
			ID:       "PROBE-002",
			Title:    "probe accepted",
			Area:     "probe",
			Source:   "seed 000, Decision Boundary. D breaks no clause of A2A: the probe is a message like any other, and working on it is what an A2A server does",
			Setup:    "D's endpoint takes the probe for work and returns a task that stays working until cancelled.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("probe-accept", nil))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "PROBE-002.CANCEL",
					Title:       "every accepted probe task is cancelled before the real task",
					Grades:      must(Safety),
					Requirement: "A probe that comes back as a task in submitted or working is cancelled at once, before the real task is sent.",
					Sources: []Source{
						Seed000("Decision Boundary", SrcMust).Read("a probe answered with a task in submitted or working: the orchestrator must immediately cancel it"),
					},
					Fix:     "When the probe returns a task that is not terminal, send cancel for its id before committing.",
					Reached: probeAccepted,
					Judge:   judgeProbeCancel,
				},
				{
					ID:          "PROBE-002.ONE",
					Title:       "exactly one probe per endpoint per delegation",
					Grades:      must(Safety),
					Requirement: "Exactly one re-verification is permitted and required between discovery and commitment.",
					Sources: []Source{
						Seed000("Decision Boundary", SrcMust).Read("between discovery and commitment exactly one re-verification is permitted and required"),
					},
					Fix:     "Probe each endpoint once per delegation.",
					Reached: cardFetched("d"),
					Judge: func(r *Run) Verdict {
						for i := range r.Delegations {
							per := map[string]int{}
							for _, e := range r.During(i) {
								if isProbe(e) {
									per[endpointOf(e)]++ // a gRPC call's path is its method's: its endpoint is its host
								}
							}
							if len(per) == 0 {
								return Failf("delegation %d sent no probe", i+1)
							}
							for ep, n := range per {
								if n != 1 {
									return Failf("delegation %d probed %s %d times", i+1, ep, n)
								}
							}
						}
						return Passf("one probe per endpoint per delegation")
					},
				},
			},
		},
		{
			ID:         "PROBE-003",
			Title:      "the probe proves the endpoint, not the skill",
			Area:       "probe",
			Source:     "seed 000, Decision Boundary",
			Setup:      "B's probe succeeds; the real task for invoice-reconciliation gets -32004 listing invoice-reconciliation-v2.",
			Fleet:      fleetOf(mockvendor.VendorB()),
			Requests:   []Request{req(skillS, mockvendor.HostCardB)},
			Successors: map[string][]string{skillS: {skillV2}},
			Checks: []Check{
				{
					ID:           "PROBE-003.ROUTE",
					Title:        "re-fetch and complete via -v2 after a successful probe",
					Grades:       must(Safety),
					Requirement:  "A successful probe validates the endpoint, not the skill; the real task's -32004 is handled as a routing signal: re-fetch the card and complete via the available skill.",
					Sources:      []Source{seedRoutingSignal, seedStaleCardError},
					Fix:          "Do not treat a passed probe as proof the skill exists; handle -32004 on the real task by re-fetching and re-routing.",
					ReadsOutcome: true,
					Reached:      cardFetched("b"),
					Judge: func(r *Run) Verdict {
						if v := refetchAfter(r, "b", -32004); v.Outcome == Fail {
							return v
						}
						return completedVia(r, 0, "b", skillV2)
					},
				},
			},
		},
	}
}

// judgeProbeCancel: each probe that returned a non-terminal task is
// cancelled before the next real send to that vendor.
func judgeProbeCancel(r *Run) Verdict {
	open := map[string]mockvendor.Event{}
	accepted := 0
	for _, e := range r.Events {
		switch {
		case isAcceptedProbe(e):
			open[e.TaskID] = e
			accepted++
		case e.Op == mockvendor.OpCancel:
			delete(open, e.TaskID)
		case isRealSend(e):
			for id, p := range open {
				if p.Vendor == e.Vendor {
					return Failf("%s: the real task went out while probe task %s (#%d) was still open", describe(e), id, p.Seq).At(e.Seq)
				}
			}
		}
	}
	if accepted == 0 {
		if slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isProbe(e) && e.Op == mockvendor.OpGet }) {
			return NotApplicablef("the orchestrator probed with a get of a synthetic id, which creates no task to cancel")
		}
		return NotExercisedf("no probe was accepted as a task (the orchestrator did not probe)")
	}
	for id, p := range open {
		return Failf("probe task %s (#%d) was never cancelled", id, p.Seq).At(p.Seq)
	}
	return Passf("%d accepted probe tasks, all cancelled before the real task", accepted)
}

// isProbe reports whether the event is a probe: a probe send, or seed 000's
// lifecycle probe (a get of a synthetic id marked as a probe).
func isProbe(e mockvendor.Event) bool {
	return e.Probe && (isTaskSend(e) || e.Op == mockvendor.OpGet)
}

// isAcceptedProbe reports whether a probe send came back as a task that is
// not terminal.
func isAcceptedProbe(e mockvendor.Event) bool {
	return isTaskSend(e) && e.Probe && e.TaskID != "" && (e.State == "submitted" || e.State == "working")
}

// probeAccepted needs a probe the vendor took for work.
var probeAccepted = Precondition{
	Needs: "send a probe the vendor accepts as a task",
	Met:   func(r *Run) bool { return slices.ContainsFunc(r.Events, isAcceptedProbe) },
}

// judgeStubNoCommit: no real task reached E's stub endpoint, and the
// delegation completed at D or ended rejected/failed with endpoint-not-a2a,
// a reason the wire bears out (E answered -32601 or -32602).
func judgeStubNoCommit(r *Run) Verdict {
	for _, e := range r.Events {
		if isRealSend(e) && inVendor(e, "e") {
			return Failf("%s: a real task reached the stub endpoint", describe(e)).At(e.Seq)
		}
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	notA2A := slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
		return inVendor(e, "e") && (e.ErrorCode == -32601 || e.ErrorCode == -32602)
	})
	switch {
	case o.Outcome == contract.OutcomeCompleted:
		if v := completedAt(r, 0, "d"); v.Outcome != Pass {
			return v
		}
		return Passf("the stub got no real task; D completed it")
	case (o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed) && o.Reason == contract.ReasonEndpointNotA2A:
		if !notA2A {
			return Failf("the outcome says endpoint-not-a2a; the wire shows E's endpoint never answered -32601 or -32602 (it was not asked)")
		}
		return Passf("the stub got no real task; outcome %s, endpoint-not-a2a", o.Outcome)
	}
	return Failf("the stub got no real task, but the outcome is %s (reason %q): want completed via D, or rejected/failed with endpoint-not-a2a", o.Outcome, o.Reason)
}

// judgeProbedFirst: a probe (a probe send, or a get of a marked synthetic
// id) reached E before any real task did.
func judgeProbedFirst(r *Run) Verdict {
	for _, e := range r.Events {
		if isProbe(e) && inVendor(e, "e") {
			return Passf("%s", describe(e)).At(e.Seq)
		}
		if isTaskSend(e) && inVendor(e, "e") {
			if e.Probe {
				return Passf("%s", describe(e)).At(e.Seq)
			}
			return Failf("%s: a real task came before any probe", describe(e)).At(e.Seq)
		}
	}
	return Failf("E's endpoint was never probed")
}

// probedCheck is the check that a probe reached stub endpoint E before any
// real task [seed 000, Decision Boundary], under the id and title of the
// scenario that stages the stub.
func probedCheck(id, title string) Check {
	return Check{
		ID:          id,
		Title:       title,
		Grades:      must(Safety),
		Requirement: "Between discovery and commitment exactly one re-verification is required: a side-effect-free probe to the endpoint the card names.",
		Sources: []Source{
			Seed000("Decision Boundary", SrcMust).Read("between discovery and commitment exactly one re-verification is permitted and required: a side-effect-free probe; " +
				"a get of a synthetic probe task id (Condition of Validity) is accepted as that probe"),
		},
		Fix:     `Send a probe (text part "__probe__" or metadata a2a_probe: true, or a get of a synthetic id marked as a probe) before the first real task to an endpoint.`,
		Reached: cardFetched("e"),
		Judge:   judgeProbedFirst,
	}
}
