package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// card010 stages seed 000's "skill ids are not globally unique": C and D
// both list invoice-reconciliation, for different capabilities. The
// caller asks C, then D (whose gateway refuses the skill with -32004),
// then C again. An orchestrator that takes the id for a global name
// either sends D's work to C's same-named skill, or lets D's refusal stand
// for C's skill.
func card010() *Scenario {
	return &Scenario{
		ID:    "CARD-010",
		Title: "one skill id, two vendors",
		Area:  "card",
		Source: "seed 000, What Was Observed; Operational Effect. D breaks no server MUST of A2A 1.0: its -32004 is the spec's UnsupportedOperationError (§5.4), " +
			"and its CDN card, which still lists the skill, outlives the withdrawal (§8.6.1: SHOULD); two vendors using one skill id breaks no clause either",
		Setup: "C lists invoice-reconciliation as bank statement reconciliation; D lists invoice-reconciliation as supplier invoice matching, but its " + regionD +
			" gateway refuses it with -32004 (availableSkills names only fx-hedging; the origin card no longer lists it). " +
			"Three delegations of invoice-reconciliation: to C, to D, to C again.",
		Fleet: func() mockvendor.Config {
			c := plainC()
			c.Skills = []mockvendor.SkillConfig{{ID: skillS, Name: "Bank statement reconciliation", Description: "Matches bank statement lines against ledger entries"}}
			d := mockvendor.VendorD()
			d.Skills = []mockvendor.SkillConfig{
				{ID: skillS, Name: "Invoice reconciliation", Description: "Matches supplier invoices against purchase orders"},
				{ID: mockvendor.SkillFXHedging, Name: "FX hedging"},
			}
			d.Hosts[1].Region = regionD
			d.Faults = []mockvendor.FaultSpec{mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: regionD, GatedSkills: []string{skillS}})}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{c, d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostC), req(skillS, mockvendor.HostCardD), req(skillS, mockvendor.HostC)},
		Checks: []Check{
			{
				ID:     "CARD-010.NO-BORROW",
				Title:  "a skill refused at D is not sent to another vendor's same-named skill",
				Grades: must(Safety),
				Requirement: "A skill id is scoped to the card that lists it: C's invoice-reconciliation is another capability than D's. " +
					"The work of a delegation goes only to the vendors its candidates name, under the skill asked for (or a successor: G-SKILL-SUCCESSOR); " +
					"when D refuses the skill, it is not re-routed to C because C's card listed the same id in an earlier delegation.",
				Sources: []Source{
					Seed000("What Was Observed", SrcDescriptive).Read("the invariant that broke: skill ids are not globally unique; a card's skills[].id is scoped to the card's issuer, " +
						"nothing stops two vendors reusing one id, and the orchestrator fell back to the same id verbatim at another vendor"),
					ContractRule("Delegation request: candidates", SrcDescriptive).Read("the agent card URLs the caller offers for this delegation"),
					Posture("a delegation's work goes only to the vendors its candidates name: a same-named skill elsewhere is another capability"),
				},
				Fix: "Key everything learnt about a skill (availability, routes, successors) on the vendor's host as well as the skill id, " +
					"and re-route only among the delegation's own candidates; when none serves the skill, report skill-unavailable.",
				Reached: allOf(delegationsRan(2), answered("d", -32004)),
				Judge:   judgeNoBorrow,
			},
			{
				ID:     "CARD-010.OWN-SKILL",
				Title:  "D's -32004 says nothing of C's skill: the third delegation completes at C",
				Grades: should(Safety),
				Requirement: "Availability is learnt per host: D's -32004 for invoice-reconciliation invalidates D's entry only. " +
					"The next delegation of that id to C is sent to C and completes there; it is not refused because D refused an id that C uses for its own skill.",
				Sources: []Source{
					Seed000("Operational Effect", SrcDescriptive).Read("the correct posture keeps a skill-availability cache keyed on (url_host, skill_id, region_hint), invalidated on -32004: " +
						"an entry is one host's, never the skill id's everywhere"),
					Seed000("Decision Boundary", SrcDescriptive).Read("a skill's availability is a per-request property, learnt only by submitting the real task"),
				},
				Fix:          "Key the availability cache on (host, skill, region); a -32004 from one host must not stop the same id going to another host.",
				ReadsOutcome: true,
				Reached:      allOf(answered("d", -32004), delegationsRan(3)),
				Judge: func(r *Run) Verdict {
					v := completedVia(r, 2, "c", skillS)
					if v.Outcome == Fail {
						v.Detail += " (after D's -32004 for the same id)"
					}
					return v
				},
			},
		},
	}
}

// judgeNoBorrow: no real send of a delegation, under the requested skill
// or a successor of it, reaches a vendor that none of the delegation's
// candidates belongs to. A send under another skill is
// G-SKILL-SUCCESSOR's to judge, not this check's.
func judgeNoBorrow(r *Run) Verdict {
	n := 0
	for i, d := range r.Delegations {
		want := d.Request.Task.Skill
		allowed := append([]string{want}, r.Successors[want]...)
		named := r.candidateVendors(i)
		for _, e := range r.During(i) {
			if !isRealSend(e) || !slices.Contains(allowed, e.Skill) {
				continue
			}
			n++
			if !slices.Contains(named, e.Vendor) {
				return Failf("delegation %d: %s sent the work to vendor %s, which the delegation did not name: its %s is that vendor's own skill", i+1, describe(e), vendorName(e.Vendor), e.Skill).At(e.Seq).
					Want(fmt.Sprintf("a send to the delegation's vendors %v only", upper(named)), fmt.Sprintf("a send to %s", vendorName(e.Vendor)))
			}
		}
	}
	return Passf("%d real sends of the requested skill, each to a vendor its delegation named", n)
}

// candidateVendors are the vendors whose hosts serve delegation i's
// candidate cards.
func (r *Run) candidateVendors(i int) []string {
	var out []string
	for _, c := range r.Delegations[i].Request.Candidates {
		h, _ := hostPath(c)
		for v, hosts := range r.VendorHosts {
			if slices.Contains(hosts, h) && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

func upper(ids []string) []string {
	out := make([]string, len(ids))
	for i, v := range ids {
		out[i] = vendorName(v)
	}
	return out
}
