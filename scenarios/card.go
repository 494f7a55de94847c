package scenarios

import (
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The seed 000 readings several CARD and PROBE checks share.
var (
	// seedStaleRefetch is seed 000's must for an error in the server range,
	// worded for the probe's answer.
	seedStaleRefetch = Seed000("Decision Boundary", SrcMust).Read("worded for the probe's answer: an error in -32000..-32099 means the card is stale for this region, " +
		"and the orchestrator must re-fetch it with Cache-Control: no-cache and no If-None-Match, then re-route")
	// seedStaleCardError is the must of seed 000's reference code for the
	// real task's -32004.
	seedStaleCardError = Seed000("Operational Effect", SrcMust).Read("the reference code's StaleAgentCardError, raised on the real task's -32004: " +
		"a routing signal, not a fatal error; callers must re-fetch the card with cache bypass and re-route, not escalate to a human")
	// seedRoutingSignal is seed 000's reading of -32004 on the real task.
	seedRoutingSignal = Seed000("Decision Boundary", SrcDescriptive).Read("a successful probe validates the endpoint, not the skill; " +
		"the skill's availability is learnt by submitting the real task and handling -32004 as a routing signal, not as a fatal error")
)

// CARD: the card is a claim, not a contract [seed 000].
func cardScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:    "CARD-001",
			Title: "stale CDN card, renamed skill",
			Area:  "card",
			Source: "seed 000, What Was Observed; Decision Boundary. B breaks no server MUST of A2A 1.0: its CDN card outlives the rollout " +
				"(§8.6.1 asks only, SHOULD, for a max-age fit for the update frequency) and its -32004 is the spec's UnsupportedOperationError (§5.4)",
			Setup: "B's CDN serves a day-old card (max-age 86400, stable ETag) listing invoice-reconciliation; " +
				"the eu-west-1 gateway serves only invoice-reconciliation-v2 and answers -32004 with the available skills; " +
				"a cache-bypassing fetch reaches the origin, which lists -v2.",
			Fleet:      fleetOf(mockvendor.VendorB()),
			Requests:   []Request{req(skillS, mockvendor.HostCardB)},
			Successors: map[string][]string{skillS: {skillV2}},
			Checks: []Check{
				{
					ID:     "CARD-001.REFETCH",
					Title:  "after -32004 the card is re-fetched with cache bypass",
					Grades: must(Safety),
					Requirement: "When the endpoint answers in the server-error range (-32004 here), the card is stale for that region: " +
						"fetch it again with Cache-Control: no-cache and no If-None-Match before the next send to that vendor.",
					Sources: []Source{seedStaleRefetch, seedStaleCardError},
					Fix:     "On -32004, drop the cached card and GET it with Cache-Control: no-cache (no If-None-Match), then re-route.",
					Reached: answered("b", -32004),
					Judge:   func(r *Run) Verdict { return refetchAfter(r, "b", -32004) },
				},
				{
					ID:           "CARD-001.ROUTE",
					Title:        "-32004 is a routing signal: completed via -v2",
					Grades:       must(Safety),
					Requirement:  "-32004 with availableSkills tells the caller where the skill went; the delegation completes via the successor skill instead of escalating or failing.",
					Sources:      []Source{seedStaleCardError, seedRoutingSignal},
					Fix:          "Treat -32004 as a routing signal: re-fetch the card, pick the successor skill, send again.",
					ReadsOutcome: true,
					Reached:      cardFetched("b"),
					Judge:        func(r *Run) Verdict { return completedVia(r, 0, "b", skillV2) },
				},
				{
					ID:          "CARD-001.BOUNDED",
					Title:       "no retry storm: at most 6 calls and 3 card fetches",
					Grades:      should(Safety),
					Requirement: "Recovering from a stale card costs a bounded number of requests: at most 6 JSON-RPC calls and 3 card fetches for the whole delegation.",
					Sources: []Source{
						Seed000("Operational Effect", SrcDescriptive).Read("the seed prices its posture at one extra round trip per delegation; it gives no bound of its own"),
						{Document: DocPosture, Locator: "recovering from a stale card takes at most 6 JSON-RPC calls and 3 card fetches per delegation", Level: SrcShould, Binds: Client},
					},
					Fix:     "Re-fetch once per -32004 and do not retry the same failing send.",
					Reached: answered("b", -32004),
					Judge:   func(r *Run) Verdict { return bounded(r, 0, 6, 3) },
				},
			},
		},
		{
			ID:       "CARD-002",
			Title:    "url host differs from card host (control)",
			Area:     "card",
			Source:   "seed 000, Core Distinction; A2A 1.0 §8.3.2",
			Setup:    "D's card is served by agent-d.example and names https://rpc.agent-d.example/a2a/v1 (JSON-RPC), https://rpc.agent-d.example/a2a/rest (HTTP+JSON) and rpc.agent-d.example:443 (gRPC); everything works.",
			Fleet:    fleetOf(mockvendor.VendorD()),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "CARD-002.URL",
					Title:       "sends go to the card-declared interface URL",
					Grades:      must(Core),
					Requirement: "The client sends each call to the URL the card declares for the interface it selected (here on another host than the card's), not to the host that served the card.",
					Sources: []Source{
						A2A("§8.3.2", SrcMust, Client).Read("rule 3: use the correct URL for the selected transport"),
						A2A03("§5.6.3", SrcMust, Client).Read("rule 5: use the correct URL for the selected transport protocol as declared in the AgentCard"),
					},
					Fix:     "Take the endpoint from the selected supportedInterfaces[].url (or url in 0.3 cards), not from the card's own location.",
					Reached: allOf(cardFetched("d"), rpcMade),
					Judge:   judgeDeclaredURL,
				},
				{
					ID:          "CARD-002.DONE",
					Title:       "the control delegation completes",
					Grades:      must(Safety),
					Requirement: "Against a well-behaved vendor whose card and endpoint live on different hosts, the delegation completes; the posture of the seeds costs nothing where nothing is wrong.",
					Sources: []Source{
						Seed000("Core Distinction", SrcDescriptive).Read("the card's url and the url that answers are frequently different hosts behind the same vendor's edge"),
						Posture("the seeds' posture costs nothing where nothing is wrong: a delegation to an honest vendor whose card and endpoint are on different hosts completes"),
					},
					Fix:          "Do not treat a card host that differs from the endpoint host as an error.",
					ReadsOutcome: true,
					Reached:      cardFetched("d"),
					Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
				},
			},
		},
		{
			ID:    "CARD-003",
			Title: "server-error range",
			Area:  "card",
			Source: "seed 000, Core Distinction; Operational Effect. B's first answer breaks A2A 1.0 §3.3.2 (servers MUST return appropriate errors): " +
				"it reports a quota failure with -32005, the code §5.4 assigns to ContentTypeNotSupportedError (A2A 0.3 §8.2 too), as the seed observed; " +
				"the checks judge surviving that vendor, as delegation-safety",
			Setup: "The first real send to B gets -32005 with vendor data; C, the second candidate, works. A second delegation follows with B healthy.",
			Fleet: fleetOf(
				withFaults(plainB(), mockvendor.Spec("server-error", mockvendor.ServerError{Code: -32005, Message: "upstream quota exceeded", Data: map[string]any{"retryAfterS": 30}, Times: 1})),
				plainC(),
			),
			Requests: []Request{req(skillS, mockvendor.HostCardB, mockvendor.HostC), req(skillS, mockvendor.HostCardB, mockvendor.HostC)},
			Checks: []Check{
				{
					ID:          "CARD-003.NOT-FATAL",
					Title:       "a server-range error is not fatal: the task completes",
					Grades:      must(Safety),
					Requirement: "An error in -32000..-32099 is not the -32603 the caller may be coded for, and it is no reason to escalate: the task completes at the next candidate, or at the same vendor after a cache-bypassing re-fetch of its card.",
					Sources: []Source{
						Seed000("Core Distinction", SrcDescriptive).Read("the delegation fails with an error in -32000..-32099, not the -32600..-32603 range the caller was coded to handle"),
						Seed000("Operational Effect", SrcDescriptive).Read("retry logic coded against -32603 does not match, so the orchestrator escalates to a human: the failure signature"),
						seedStaleRefetch,
					},
					Fix:          "Handle the whole server-error range; move on to the next candidate (or re-fetch the card and retry once) instead of escalating.",
					ReadsOutcome: true,
					Reached:      answered("b", -32005),
					Judge:        judgeNotFatal,
				},
				{
					ID:          "CARD-003.NOT-DEGRADED",
					Title:       "B is tried first again in the next delegation",
					Grades:      should(Safety),
					Requirement: "A server-range error from one call does not mark the vendor degraded for a card's lifetime: the next delegation tries B first again.",
					Sources: []Source{
						Seed000("Operational Effect", SrcDescriptive).Read("marking the vendor degraded for the full TTL after a server-range error is the failure signature of orchestrators that treat the card as a contract"),
					},
					Fix:     "Do not keep a 'degraded' mark keyed on a single server-range error.",
					Reached: allOf(answered("b", -32005), delegationsRan(2)),
					Judge: func(r *Run) Verdict {
						if len(r.Delegations) < 2 {
							return NotExercisedf("the second delegation was not run")
						}
						sends := filter(r.During(1), isRealSend)
						if len(sends) == 0 {
							return NotExercisedf("the second delegation sent no task")
						}
						if sends[0].Vendor != "b" {
							return Failf("the second delegation's first task went to %s, not B", sends[0].Host).At(sends[0].Seq)
						}
						return Passf("the second delegation tried B first").At(sends[0].Seq)
					},
				},
			},
		},
		{
			ID:    "CARD-004",
			Title: "skill missing from a stale card",
			Area:  "card",
			Source: "seed 000, Condition of Validity. D breaks no MUST of A2A: no clause has a card list every skill its endpoint serves " +
				"(A2A 1.0 proto AgentCard.skills: largely a descriptive concept)",
			Setup: "D's card lists only invoice-reconciliation; its endpoint also serves fx-hedging.",
			Fleet: func() mockvendor.Config {
				d := mockvendor.VendorD()
				d.Card.Skills = []string{skillS}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
			},
			Requests: []Request{req(mockvendor.SkillFXHedging, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "CARD-004.NO-PREVALIDATE",
					Title:       "the task is submitted although the card omits the skill",
					Grades:      must(Safety),
					Requirement: "A card that is only a hint must not be used to pre-validate skill ids: the skill's availability is learnt by submitting the task.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcMust).Read("if any condition fails the card is a hint, and the orchestrator must not pre-validate skill ids against it"),
						Seed000("Decision Boundary", SrcDescriptive).Read("a skill's availability is a per-request property, learnt only by submitting the real task"),
					},
					Fix:          "Submit the task and let the endpoint answer; do not reject a skill because the card lacks it.",
					ReadsOutcome: true,
					Reached:      cardFetched("d"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						n := count(r.Events, func(e mockvendor.Event) bool {
							return isRealSend(e) && e.Skill == mockvendor.SkillFXHedging && e.ErrorCode == 0
						})
						if n == 0 {
							return Failf("fx-hedging was never submitted (outcome %s, reason %q)", o.Outcome, o.Reason)
						}
						return completedVia(r, 0, "d", mockvendor.SkillFXHedging)
					},
				},
			},
		},
		{
			ID:    "CARD-005",
			Title: "version disagreement",
			Area:  "card",
			Source: "seed 000, Condition of Validity. A2A defines A2A-Version as a request parameter only (A2A 1.0 §3.6.1, §14.2.1): " +
				"D's answer header breaks no clause of the spec; comparing it with the card is the seed's test",
			Setup:    "D's card claims A2A 1.0; its endpoint answers with A2A-Version: 0.3.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{Version: "0.3"}))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:     "CARD-005.HINT",
					Title:  "the card is reported as a hint",
					Grades: must(Safety),
					Requirement: "The card may be authoritative only if its protocol version and the endpoint's A2A-Version header agree; when they differ the card is a hint. " +
						"Judged where the client asked D for 1.0: a 0.3 request is answered 0.3, as an honest vendor answers it.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcMust).Read("'the card may be treated as authoritative only when' (among others) the card's version field and the JSON-RPC A2A-Version header agree; " +
							"otherwise it is a hint. The seed's version field is read as the protocol version the card declares (A2A 1.0 AgentCard.version is the agent's own). " +
							"A 0.3 client sends no A2A-Version and gets 0.3, what an honest vendor answers it, so it cannot see the disagreement: " +
							"the check is NOT_APPLICABLE to a run whose calls to D asked for no 1.x version"),
					},
					Fix:          "Compare the response A2A-Version with the card's protocolVersion; report cardTrust hint when they differ.",
					ReadsOutcome: true,
					Reached:      allOf(cardFetched("d"), rpcAt("d")),
					Judge:        judgeVersionHint,
				},
			},
		},
		{
			ID:    "CARD-006",
			Title: "availability cache invalidation",
			Area:  "card",
			Source: "seed 000, Operational Effect. B breaks no server MUST of A2A 1.0: its -32004 is the spec's UnsupportedOperationError (§5.4), " +
				"and its CDN card outlives the withdrawal (§8.6.1: SHOULD)",
			Setup: "Three delegations of invoice-reconciliation to B. The first succeeds; then the gateway withdraws the skill in eu-west-1 " +
				"(-32004, the origin card lists invoice-reconciliation-next).",
			Fleet: func() mockvendor.Config {
				b := mockvendor.VendorB()
				b.Skills = []mockvendor.SkillConfig{{ID: skillS, Name: "Invoice reconciliation"}, {ID: skillNext, Name: "Invoice reconciliation (next)"}}
				b.Card.Skills = []string{skillS}
				b.Faults = []mockvendor.FaultSpec{
					mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB, GatedSkills: []string{skillS}, AvailableSkills: []string{skillNext}, AfterSends: 1}),
				}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{b}}
			},
			Requests:   []Request{req(skillS, mockvendor.HostCardB), req(skillS, mockvendor.HostCardB), req(skillS, mockvendor.HostCardB)},
			Successors: map[string][]string{skillS: {skillNext}},
			Checks: []Check{
				{
					ID:          "CARD-006.INVALIDATE",
					Title:       "after -32004 the skill is not sent to that host until the card is re-fetched",
					Grades:      must(Safety),
					Requirement: "A -32004 invalidates the availability cache entry for (host, skill, region): the skill is not sent to that host again until the card has been fetched anew, past the caches (a plain GET the CDN answers with the same stale card is no re-fetch).",
					Sources: []Source{
						Seed000("Operational Effect", SrcMust).Read("the correct posture: an availability cache keyed on (url_host, skill_id, region_hint), invalidated on any -32004; " +
							"the reference code's StaleAgentCardError: callers must re-fetch the card with cache bypass and re-route"),
						seedStaleRefetch,
					},
					Fix:     "Key the availability cache on (host, skill, region) and drop the entry on -32004; re-fetch the card with Cache-Control: no-cache before using that host for that skill.",
					Reached: answered("b", -32004),
					Judge:   judgeInvalidate,
				},
				{
					ID:           "CARD-006.RECOVER",
					Title:        "delegations two and three complete via the successor",
					Grades:       must(Safety),
					Requirement:  "After the withdrawal, later delegations complete via the skill the gateway now serves.",
					Sources:      []Source{seedStaleCardError},
					Fix:          "Re-route to the available skill named by -32004 or the fresh card.",
					ReadsOutcome: true,
					Reached:      answered("b", -32004),
					Judge: func(r *Run) Verdict {
						for _, i := range []int{1, 2} {
							if v := completedVia(r, i, "b", skillNext); v.Outcome != Pass {
								return v
							}
						}
						return Passf("delegations 2 and 3 completed via %s", skillNext)
					},
				},
			},
		},
		{
			ID:     "CARD-007",
			Title:  "authority window",
			Area:   "card",
			Source: "seed 000, Decision Boundary",
			Setup:  "Two delegations to D, 301 s apart.",
			Labels: []string{"slow"},
			Fleet:  fleetOf(mockvendor.VendorD()),
			Requests: []Request{
				req(skillS, mockvendor.HostCardD),
				// The pause is not scaled (TimeScale): it outlasts a window the
				// orchestrator keeps itself (seed 000's 300 s), which no request
				// or card tells it, so a shorter pause would fail an
				// orchestrator that keeps the seed's 300 s exactly.
				{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, Wait: 301 * time.Second},
			},
			Checks: []Check{
				{
					ID:          "CARD-007.REPROBE",
					Title:       "the second delegation re-probes or re-fetches first",
					Grades:      must(Safety),
					Requirement: "A successful probe makes the card authoritative for 300 seconds only; after that, probe again (or re-fetch the card) before the real task.",
					Sources: []Source{
						Seed000("Decision Boundary", SrcMust).Read("after a probe, the orchestrator must treat the card as authoritative for the next 300 seconds only"),
						Seed000("Condition of Validity", SrcMust).Read("the orchestrator must not cache the card beyond the probe's TTL"),
						Seed000("Operational Effect", SrcDescriptive).Read("re-probe on every delegation boundary; the reference code refuses a card older than 300 s until it is re-fetched with Cache-Control: no-cache"),
					},
					Fix:     "Record when the card was verified; after 300 s re-probe before committing.",
					Reached: delegationsRan(2),
					Judge: func(r *Run) Verdict {
						if len(r.Delegations) < 2 {
							return NotExercisedf("the second delegation was not run")
						}
						for _, e := range r.During(1) {
							if e.Op == mockvendor.OpCardFetch || (isTaskSend(e) && e.Probe) {
								return Passf("%s came before the real task", describe(e)).At(e.Seq)
							}
							if isRealSend(e) {
								return Failf("%s: the real task went first, 301 s after the last probe", describe(e)).At(e.Seq)
							}
						}
						return NotExercisedf("the second delegation sent nothing")
					},
				},
			},
		},
		card010(),
	}
}

// judgeDeclaredURL: every call to D reached an interface D's card declares,
// on that interface's binding: the JSON-RPC URL, a route below the
// HTTP+JSON URL, or a gRPC call to the gRPC interface's host [A2A 1.0
// §8.3.2 rule 3]. Which interface the client should have chosen is
// IFACE's question.
func judgeDeclaredURL(r *Run) Verdict {
	ifaces := []declared{{url: rpcURLD, binding: "JSONRPC"}, {url: restURLD, binding: mockvendor.BindingREST}, {url: grpcTargetD, binding: mockvendor.BindingGRPC}}
	calls := filter(r.Events, isCall)
	if len(calls) == 0 {
		return NotExercisedf("no A2A call was made")
	}
	for _, e := range calls {
		if !slices.ContainsFunc(ifaces, func(d declared) bool { return d.at(e) }) {
			return Failf("%s: want %s (JSON-RPC), a route below %s (HTTP+JSON) or gRPC at %s", describe(e), rpcURLD, restURLD, grpcTargetD).At(e.Seq)
		}
	}
	return Passf("%d calls, all to an interface URL D's card declares", len(calls))
}

// judgeVersionHint: CARD-005's disagreement is an A2A-Version 0.3 answer
// to a call that asked for 1.x; a 0.3 call answered 0.3 met none.
func judgeVersionHint(r *Run) Verdict {
	return judgeVersionDisagreement(r, "got 0.3, what an honest vendor answers it")
}

// refetchAfter judges that, after the first error code from vendor, the
// card was fetched with cache bypass before the next send to that vendor.
func refetchAfter(r *Run, vendor string, code int) Verdict {
	i := -1
	for k, e := range r.Events {
		if inVendor(e, vendor) && isTaskSend(e) && e.ErrorCode == code {
			i = k
			break
		}
	}
	if i < 0 {
		return NotExercisedf("vendor %s never answered %d (the orchestrator did not send it the stale skill)", vendorName(vendor), code)
	}
	errEv := r.Events[i]
	plain := ""
	for _, e := range r.Events[i+1:] {
		if !inVendor(e, vendor) {
			continue
		}
		if e.Op == mockvendor.OpCardFetch {
			if bypassesCache(e) {
				return Passf("%d at #%d, then %s with Cache-Control %q", code, errEv.Seq, describe(e), e.CacheControl).At(e.Seq)
			}
			plain = fmt.Sprintf("; %s did not bypass the cache (Cache-Control %q, Pragma %q, If-None-Match %q)", describe(e), e.CacheControl, e.Pragma, e.IfNoneMatch)
		}
		if isTaskSend(e) {
			return Failf("%s came after %d at #%d without a cache-bypassing card fetch%s", describe(e), code, errEv.Seq, plain).At(e.Seq)
		}
	}
	return Failf("%d at #%d, and the card was never fetched again with cache bypass%s", code, errEv.Seq, plain).At(errEv.Seq)
}

// completedAt judges that delegation i reported completed and that a real
// task did complete at the vendor in its window: an outcome alone, with
// nothing on the wire to back it, is not a completion.
func completedAt(r *Run, i int, vendor string) Verdict { return completedVia(r, i, vendor, "") }

// completedVia judges that delegation i completed and that a real task
// sent (or streamed) with skill (any skill when empty) to vendor was seen
// completed in its window, on any event that showed it to the client
// (seenCompleted): the send's answer, a frame of its stream, a get or a
// subscription. A client that asked to return immediately, or streamed,
// and followed the task to its end is credited like one whose send was
// answered at the end.
func completedVia(r *Run, i int, vendor, skill string) Verdict {
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	if o.Outcome != contract.OutcomeCompleted {
		want := "completed at " + vendorName(vendor)
		if skill != "" {
			want += " under skill " + skill
		}
		return Failf("delegation %d: outcome %s (reason %q), want %s", i+1, o.Outcome, o.Reason, want)
	}
	evs := r.During(i)
	for k, e := range evs {
		if !isRealSend(e) || !inVendor(e, vendor) || e.TaskID == "" || skill != "" && e.Skill != skill {
			continue
		}
		if done, ok := seenCompleted(evs[k:], e); ok {
			if done.Seq == e.Seq {
				return Passf("delegation %d completed via %s", i+1, describe(e)).At(e.Seq)
			}
			return Passf("delegation %d completed via %s, seen completed on %s", i+1, describe(e), describe(done)).At(done.Seq)
		}
	}
	if skill == "" {
		skill = "any skill"
	}
	return Failf("delegation %d reported completed, but no task for %s was seen completed at vendor %s", i+1, skill, vendor).
		Want("a task for "+skill+" seen completed at vendor "+vendor, completedTasks(evs))
}

func cardTrustIs(r *Run, i int, want string) Verdict {
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	if o.CardTrust != want {
		return Failf("delegation %d: cardTrust %q, want %q", i+1, o.CardTrust, want)
	}
	return Passf("delegation %d: cardTrust %s", i+1, o.CardTrust)
}

func bounded(r *Run, i, maxRPC, maxCards int) Verdict {
	if i >= len(r.Delegations) {
		return Failf("delegation %d was not run", i+1)
	}
	evs := r.During(i)
	rpc := count(evs, isRPC)
	cards := count(evs, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpCardFetch })
	if rpc > maxRPC || cards > maxCards {
		return Failf("%d JSON-RPC calls and %d card fetches; at most %d and %d", rpc, cards, maxRPC, maxCards)
	}
	return Passf("%d JSON-RPC calls and %d card fetches", rpc, cards)
}

func firstError(evs []mockvendor.Event) string {
	for _, e := range evs {
		if e.ErrorCode != 0 {
			return describe(e)
		}
	}
	return "no error"
}

// judgeInvalidate: after a -32004 for (host, skill), no send of that skill
// to that host until a card fetch for the vendor.
func judgeInvalidate(r *Run) Verdict {
	type key struct{ host, skill string }
	blocked := map[key]int64{}
	seen := false
	for _, e := range r.Events {
		if e.Op == mockvendor.OpCardFetch {
			if inVendor(e, "b") && (bypassesCache(e) || e.Served == "origin") {
				clear(blocked)
			}
			continue
		}
		if !isTaskSend(e) {
			continue
		}
		k := key{e.Host, e.Skill}
		if at, ok := blocked[k]; ok {
			return Failf("%s: %s was sent to %s again after -32004 at #%d with no card fetch in between", describe(e), e.Skill, e.Host, at).At(e.Seq)
		}
		if e.ErrorCode == -32004 {
			blocked[k] = e.Seq
			seen = true
		}
	}
	if !seen {
		return NotExercisedf("no -32004 was received")
	}
	return Passf("after each -32004 the skill was not sent to that host before a cache-bypassing card fetch")
}

// judgeNotFatal: delegation 1 meets -32005 at B; it must not escalate, and
// the task completes at C, or at B after a cache-bypassing re-fetch of B's
// card that followed the error.
func judgeNotFatal(r *Run) Verdict {
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome == contract.OutcomeEscalated {
		return Failf("delegation 1 escalated after %s", firstError(r.During(0)))
	}
	if v := completedAt(r, 0, "c"); v.Outcome == Pass {
		return Passf("delegation 1 completed at C after B's -32005").At(v.Seq)
	}
	evs := r.During(0)
	errAt := slices.IndexFunc(evs, func(e mockvendor.Event) bool { return inVendor(e, "b") && e.ErrorCode == -32005 })
	if errAt < 0 {
		return NotExercisedf("B never answered -32005 in delegation 1")
	}
	refetched := false
	for _, e := range evs[errAt+1:] {
		if e.Op == mockvendor.OpCardFetch && inVendor(e, "b") && bypassesCache(e) {
			refetched = true
		}
		if refetched && isRealSend(e) && inVendor(e, "b") && e.State == "completed" && o.Outcome == contract.OutcomeCompleted {
			return Passf("delegation 1 completed at B after re-fetching its card past the caches").At(e.Seq)
		}
	}
	return Failf("delegation 1 ended %s (reason %q) after B's -32005: want completed at C, or at B after a cache-bypassing re-fetch", o.Outcome, o.Reason).
		Want("completed at C, or at B after a cache-bypassing re-fetch", fmt.Sprintf("%s (reason %q)", o.Outcome, o.Reason))
}
