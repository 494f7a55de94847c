package scenarios

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// MODE: input modes are not enforced [seed 000, What Was Observed, step 5].
func modeScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:    "MODE-001",
			Title: "silent coercion",
			Area:  "mode",
			Source: "seed 000, What Was Observed, step 5. C breaks A2A 1.0 §3.3.2 (servers MUST validate all input parameters; an unsupported content type " +
				"is a validation error, ContentTypeNotSupportedError in §5.4): it coerces the text part instead of refusing it",
			Setup: "B answers -32004 for invoice-reconciliation (it only has fx-hedging); C's card lists invoice-reconciliation with inputModes [application/json] " +
				"and C silently turns a text part into a data part {\"text\": ...}.",
			Fleet: func() mockvendor.Config {
				b := mockvendor.VendorB()
				b.Skills = []mockvendor.SkillConfig{{ID: mockvendor.SkillFXHedging}}
				b.Faults = []mockvendor.FaultSpec{
					mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB, GatedSkills: []string{skillS}, AvailableSkills: []string{mockvendor.SkillFXHedging}}),
				}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{b, mockvendor.VendorC()}}
			},
			Requests: []Request{req(skillS, mockvendor.HostCardB, mockvendor.HostC)},
			Checks: []Check{
				{
					ID:     "MODE-001.NO-COERCION",
					Title:  "every part sent matches the target skill's input modes",
					Grades: must(Safety),
					Requirement: "The orchestrator does not count on the vendor to enforce the declared input modes: every part it sends matches the target skill's inputModes " +
						"(or the card's defaultInputModes), or it does not route there. A coercion the vendor had to apply shows a mismatch.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcMust).Read("when the card is a hint the orchestrator must not assume inputModes are enforced"),
						Seed000("What Was Observed", SrcDescriptive).Read("step 5: a text part sent to a skill declaring application/json was silently coerced to {\"text\": ...}"),
					},
					Fix:          "Read the skill's inputModes from the card and build parts that match (a data part for application/json), or pick another agent (or refuse with input-mode-mismatch).",
					ReadsOutcome: true,
					Reached:      cardFetched("c"),
					Judge: func(r *Run) Verdict {
						for _, e := range r.Events {
							if isRealSend(e) && len(e.Coercions) > 0 {
								c := e.Coercions[0]
								return Failf("%s: part %d was coerced %s -> %s", describe(e), c.Part, c.From, c.To).At(e.Seq)
							}
						}
						if slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isRealSend(e) && inVendor(e, "c") }) {
							return Passf("the task went to C with parts its input modes accept; no coercion")
						}
						// Not routed to C: engaged only if the outcome says the
						// input modes were the reason.
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Reason == contract.ReasonInputModeMismatch {
							return Passf("refused C's skill as input-mode-mismatch (outcome %s)", o.Outcome)
						}
						return NotExercisedf("no task went to C and the outcome (%s, reason %q) does not say input-mode-mismatch: the input modes were never put to the test", o.Outcome, o.Reason)
					},
				},
			},
		},
	}
}
