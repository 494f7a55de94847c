package scenarios

import (
	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// PROBE: exactly one probe between discovery and commitment [seed 000,
// Decision Boundary].
func probeScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:       "PROBE-001",
			Title:    "stub endpoint",
			Area:     "probe",
			Source:   "seed 000, Condition of Validity; Decision Boundary",
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
					Source:       "seed 000, Condition of Validity",
					Fix:          "Probe first; on -32601/-32602 from the probe, skip the endpoint and try the next candidate.",
					ReadsOutcome: true,
					Judge: func(r *Run) Verdict {
						for _, e := range r.Events {
							if isRealSend(e) && inVendor(e, "e") {
								return Failf("%s: a real task reached the stub endpoint", describe(e)).At(e.Seq)
							}
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						switch {
						case o.Outcome == contract.OutcomeCompleted && count(r.Events, func(e mockvendor.Event) bool { return isRealSend(e) && inVendor(e, "d") && e.State == "completed" }) > 0:
							return Passf("the stub got no real task; D completed it")
						case (o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed) && o.Reason == contract.ReasonEndpointNotA2A:
							return Passf("the stub got no real task; outcome %s, endpoint-not-a2a", o.Outcome)
						}
						return Failf("the stub got no real task, but the outcome is %s (reason %q): want completed via D, or rejected/failed with endpoint-not-a2a", o.Outcome, o.Reason)
					},
				},
				{
					ID:          "PROBE-001.PROBED",
					Title:       "a probe reached E before any real task",
					Grades:      should(Safety),
					Requirement: "Between discovery and commitment exactly one re-verification is due: a side-effect-free probe to the endpoint the card names.",
					Source:      "seed 000, Decision Boundary",
					Fix:         `Send a probe (text part "__probe__" or metadata a2a_probe: true) before the first real task to an endpoint.`,
					Judge: func(r *Run) Verdict {
						for _, e := range r.Events {
							if isTaskSend(e) && inVendor(e, "e") {
								if e.Probe {
									return Passf("%s", describe(e)).At(e.Seq)
								}
								return Failf("%s: a real task came before any probe", describe(e)).At(e.Seq)
							}
						}
						return Failf("E's endpoint was never probed")
					},
				},
			},
		},
		{
			ID:       "PROBE-002",
			Title:    "probe accepted",
			Area:     "probe",
			Source:   "seed 000, Decision Boundary",
			Setup:    "D's endpoint takes the probe for work and returns a task that stays working until cancelled.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("probe-accept", nil))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "PROBE-002.CANCEL",
					Title:       "every accepted probe task is cancelled before the real task",
					Grades:      must(Safety),
					Requirement: "A probe that comes back as a task in submitted or working is cancelled at once, before the real task is sent.",
					Source:      "seed 000, Decision Boundary",
					Fix:         "When the probe returns a task that is not terminal, send cancel for its id before committing.",
					Judge:       judgeProbeCancel,
				},
				{
					ID:          "PROBE-002.ONE",
					Title:       "exactly one probe per endpoint per delegation",
					Grades:      should(Safety),
					Requirement: "Exactly one re-verification is permitted and required between discovery and commitment.",
					Source:      "seed 000, Decision Boundary",
					Fix:         "Probe each endpoint once per delegation.",
					Judge: func(r *Run) Verdict {
						for i := range r.Delegations {
							per := map[string]int{}
							for _, e := range r.During(i) {
								if isTaskSend(e) && e.Probe {
									per[e.Host+e.Path]++
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
			ID:       "PROBE-003",
			Title:    "the probe proves the endpoint, not the skill",
			Area:     "probe",
			Source:   "seed 000, Decision Boundary",
			Setup:    "B's probe succeeds; the real task for invoice-reconciliation gets -32004 listing invoice-reconciliation-v2.",
			Fleet:    fleetOf(mockvendor.VendorB()),
			Requests: []Request{req(skillS, mockvendor.HostCardB)},
			Checks: []Check{
				{
					ID:           "PROBE-003.ROUTE",
					Title:        "re-fetch and complete via -v2 after a successful probe",
					Grades:       must(Safety),
					Requirement:  "A successful probe validates the endpoint, not the skill; the real task's -32004 is handled as a routing signal: re-fetch the card and complete via the available skill.",
					Source:       "seed 000, Decision Boundary",
					Fix:          "Do not treat a passed probe as proof the skill exists; handle -32004 on the real task by re-fetching and re-routing.",
					ReadsOutcome: true,
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
		case isTaskSend(e) && e.Probe && e.TaskID != "" && (e.State == "submitted" || e.State == "working"):
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
		return NotApplicablef("no probe was accepted as a task (the orchestrator did not probe)")
	}
	for id, p := range open {
		return Failf("probe task %s (#%d) was never cancelled", id, p.Seq).At(p.Seq)
	}
	return Passf("%d accepted probe tasks, all cancelled before the real task", accepted)
}
