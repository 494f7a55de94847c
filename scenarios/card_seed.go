package scenarios

import (
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The seed 000 items of the CARD area that CARD-001..007 leave unstaged:
// an endpoint that sends no A2A-Version header at all, and the 60-second
// lifetime of the availability cache.

// availabilityTTL is the lifetime of an availability cache entry [seed 000,
// Operational Effect: "a 60-second TTL"]; CARD-009 waits past it.
const availabilityTTL = 60 * time.Second

// cardSeedScenarios are CARD-008 and CARD-009, the latter's pause staged
// at scale ts.
func cardSeedScenarios(ts TimeScale) []*Scenario {
	return []*Scenario{noVersionHeaderScenario(), availExpiryScenario(ts)}
}

// noVersionHeaderScenario is CARD-008: CARD-005 with the header left out.
func noVersionHeaderScenario() *Scenario {
	return &Scenario{
		ID:    "CARD-008",
		Title: "version disagreement without an A2A-Version header",
		Area:  "card",
		Source: "seed 000, Condition of Validity. A2A defines A2A-Version as a request parameter only (A2A 1.0 §3.6.1, §14.2.1): " +
			"D's answers without the header break no clause of the spec; the seed reads a missing header as a v0.x peer, which disagrees with D's 1.0 card",
		Setup:    "D's card claims A2A 1.0; its endpoint answers every call without an A2A-Version header.",
		Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{}))),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "CARD-008.HINT",
				Title:  "the card is reported as a hint",
				Grades: must(Safety),
				Requirement: "The card may be authoritative only if its protocol version and the endpoint's A2A-Version header agree; an endpoint that sends no header " +
					"is a v0.x peer, so a 1.0 card is then a hint. Judged where the client asked D for 1.0: a 0.3 request met a 0.x answer, which agrees with the 0.3 interface it chose.",
				Sources: []Source{
					Seed000("Condition of Validity", SrcMust).Read("'the card may be treated as authoritative only when' (among others) the card's version field and the JSON-RPC A2A-Version header agree, " +
						"'v1.0 requires the header; absence is a v0.x peer'; otherwise it is a hint. The version field is read as the protocol version the card declares. " +
						"A 0.3 client sends no A2A-Version, chose D's 0.3 interface and met a 0.x peer: no disagreement to see, " +
						"so the check is NOT_APPLICABLE to a run whose calls to D asked for no 1.x version"),
				},
				Fix:          "Read a missing A2A-Version response header as a 0.x peer; report cardTrust hint when the card's interface says 1.0.",
				ReadsOutcome: true,
				Reached:      allOf(cardFetched("d"), rpcAt("d")),
				Judge: func(r *Run) Verdict {
					return judgeVersionDisagreement(r, "got no A2A-Version header, a 0.x peer as the seed reads it, which agrees with the 0.3 it asked for")
				},
			},
		},
	}
}

// availExpiryScenario is CARD-009: the availability entry a -32004 leaves
// lasts 60 s. The pause past it is scaled by ts, with no floor: the
// orchestrator keeps its own 60 s, which the contract does not carry, but
// CARD-009.EXPIRY judges the delegations before the pause and allows
// either choice after it, so a shorter pause changes no verdict (it only
// no longer shows a retry the TTL would permit).
func availExpiryScenario(ts TimeScale) *Scenario {
	pause := ts.Duration(availabilityTTL+time.Second, 0)
	pastTTL := "past 60 s from every earlier -32004"
	if !ts.IsReal() {
		pastTTL = "61 s scaled by " + ts.String() + ": the orchestrator's own 60 s TTL may still run, and either choice then passes"
	}
	return &Scenario{
		ID:    "CARD-009",
		Title: "the availability cache expires after 60 s",
		Area:  "card",
		Source: "seed 000, Operational Effect. B breaks no server MUST of A2A 1.0: its -32004 is the spec's UnsupportedOperationError (§5.4), " +
			"and its CDN card outlives the rollout (§8.6.1: SHOULD)",
		Setup: "B's eu-west-1 gateway refuses real tasks for invoice-reconciliation with -32004 naming invoice-reconciliation-v2 throughout " +
			"(probes pass: they prove the endpoint, not the skill); the CDN card lists the old skill, the origin -v2. Three delegations of invoice-reconciliation: the second at once after the first (within 60 s of any -32004 of the first, " +
			"each having 20 s), the third " + seconds(pause) + " after the second ended (" + pastTTL + ").",
		Labels: []string{"slow"},
		Fleet: func() mockvendor.Config {
			b := mockvendor.VendorB()
			b.Skills = []mockvendor.SkillConfig{{ID: skillS, Name: "Invoice reconciliation"}, {ID: skillV2, Name: "Invoice reconciliation v2"}}
			b.Faults = []mockvendor.FaultSpec{
				mockvendor.Spec("stale-card", mockvendor.StaleCard{Skills: []string{skillS}}),
				mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB, GatedSkills: []string{skillS}, AvailableSkills: []string{skillV2}}),
			}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{b}}
		},
		Requests: []Request{
			req(skillS, mockvendor.HostCardB),
			req(skillS, mockvendor.HostCardB),
			{Skill: skillS, Candidates: []string{mockvendor.HostCardB}, Wait: pause},
		},
		Successors: map[string][]string{skillS: {skillV2}},
		Checks: []Check{
			{
				ID:     "CARD-009.EXPIRY",
				Title:  "a refused skill stays away from the host for 60 s, not longer",
				Grades: must(Safety),
				Requirement: "A -32004 leaves an availability entry for (host, skill) that lasts 60 s: within it the skill is not sent to that host again unless the card " +
					"was fetched past the caches after the -32004; once it has expired the skill may be tried there again. The TTL permits that retry and requires none: " +
					"an orchestrator that keeps to the successor passes too, with the reason said.",
				Sources: []Source{
					Seed000("Operational Effect", SrcDescriptive).Read("'the correct posture': a per-region skill-availability cache keyed on (url_host, skill_id, region_hint) " +
						"with a 60-second TTL, invalidated on any -32004. Read as an entry the -32004 leaves, relied on for 60 s and no longer; " +
						"the text obliges no retry once it has expired, so not retrying passes. The delegations before the 61 s pause are the entry's 60 s, " +
						"those after it lie past them"),
					seedStaleCardError,
				},
				Fix: "Keep the -32004 as an availability entry for (host, skill, region) for 60 s: route to the successor while it lasts (or re-fetch the card past the caches first); " +
					"drop the entry after 60 s.",
				Reached: allOf(answered("b", -32004), delegationsRan(3)),
				Judge:   func(r *Run) Verdict { return judgeAvailExpiry(r, "b", 2) },
			},
		},
	}
}

// judgeVersionDisagreement: the card is reported as a hint where a call to
// D asked for a 1.x version and met the disagreement. A run whose calls to
// D all asked for 0.3 (no header) got what an honest vendor answers it
// (zeroAnswer says what that was): the disagreement was not there to see
// [seed 000, Condition of Validity].
func judgeVersionDisagreement(r *Run, zeroAnswer string) Verdict {
	atD := filter(r.Events, func(e mockvendor.Event) bool { return inVendor(e, "d") && isCall(e) })
	if len(atD) > 0 && !slices.ContainsFunc(atD, func(e mockvendor.Event) bool { return !below10(askedVersion(e)) }) {
		return NotApplicablef("every call to D asked for A2A %s and %s: no disagreement to see", askedVersion(atD[0]), zeroAnswer)
	}
	return cardTrustIs(r, 0, contract.CardTrustHint)
}

// refusal is a -32004 for (host, skill): where it was, and in which part
// of the scenario (before or after the pause that outlasts the TTL).
type refusal struct {
	seq    int64
	at     time.Time
	period int
}

// judgeAvailExpiry: within the TTL of a -32004 for (host, skill) from
// vendor (the delegations before expiredFrom), the skill is sent (probe or
// real task) to the host
// again only after a cache-bypassing fetch of the vendor's card that
// followed the -32004; from delegation expiredFrom on (after a pause past
// the TTL) the entry has expired, and sending the skill again, or not,
// both pass [seed 000, Operational Effect].
func judgeAvailExpiry(r *Run, vendor string, expiredFrom int) Verdict {
	if len(r.Delegations) <= expiredFrom {
		return NotExercisedf("delegation %d, after the pause past the 60 s TTL, was not run", expiredFrom+1)
	}
	period := func(seq int64) int {
		if seq >= r.Delegations[expiredFrom].FirstSeq {
			return 1
		}
		return 0
	}
	type key struct{ host, skill string }
	live := map[key]refusal{}  // refusals no cache-bypassing fetch has followed
	first := map[key]refusal{} // every refusal, the first per key
	var retry *mockvendor.Event
	var retried refusal
	for _, e := range r.Events {
		if e.Op == mockvendor.OpCardFetch && inVendor(e, vendor) && bypassesCache(e) {
			clear(live)
			continue
		}
		// A probe names the skill as a real task does: both are sends of
		// it, and either may be the one answered -32004.
		if !isTaskSend(e) || !inVendor(e, vendor) {
			continue
		}
		k := key{e.Host, e.Skill}
		if ref, ok := live[k]; ok && ref.period == period(e.Seq) {
			return Failf("%s: %s went to %s again %s after its -32004 at #%d, within the 60 s the availability entry lasts, with no cache-bypassing fetch of %s's card in between",
				describe(e), e.Skill, e.Host, gap(ref.at, e.Time), ref.seq, vendorName(vendor)).
				Want(fmt.Sprintf("no send of %s to %s until 60 s after #%d, or a cache-bypassing card fetch first", e.Skill, e.Host, ref.seq), describe(e)).At(e.Seq)
		}
		if ref, ok := first[k]; ok && ref.period == 0 && period(e.Seq) == 1 && retry == nil {
			ev := e
			retry, retried = &ev, ref
		}
		if e.ErrorCode == -32004 {
			ref := refusal{seq: e.Seq, at: e.Time, period: period(e.Seq)}
			live[k] = ref
			if _, ok := first[k]; !ok {
				first[k] = ref
			}
		}
	}
	if len(first) == 0 {
		return NotExercisedf("%s never answered -32004", vendorName(vendor))
	}
	if retry != nil {
		return Passf("within 60 s no refused skill went back to %s without a cache-bypassing re-fetch; after the entry expired, %s tried it again, %s after the -32004 at #%d",
			vendorName(vendor), describe(*retry), gap(retried.at, retry.Time), retried.seq).At(retry.Seq)
	}
	return Passf("within 60 s no refused skill went back to %s without a cache-bypassing re-fetch; after the entry expired the orchestrator did not try it there again, "+
		"which the seed's 60 s TTL permits and does not require", vendorName(vendor))
}

// gap says how long after a the event at b came, when both times are known.
func gap(a, b time.Time) string {
	if a.IsZero() || b.IsZero() {
		return "some time"
	}
	return b.Sub(a).Round(100 * time.Millisecond).String()
}
