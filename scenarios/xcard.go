package scenarios

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// XCARD: the authenticated extended agent card [A2A 1.0 §3.1.11, §13.3;
// 0.3 §7.10]. Vendor A signs its public card and its extended card with
// the same key, demands a bearer token its public card declares, and lists
// the skill ledger-audit on its extended card only. The caller wants
// ledger-audit and holds A's token.
//
// Nothing in A2A makes a client fetch an extended card. The clauses bind a
// client that does: it MUST authenticate the fetch with a scheme the
// public card declares (§3.1.11; 0.3 §7.10) and SHOULD replace the public
// card with what it gets (§3.1.11, §13.3; 0.3 §7.10). So every XCARD grade
// but NO-CARD-CREDENTIAL applies only to a run that fetched A's extended
// card (Grade.When): a client that never does breaks none of them, and
// may still send ledger-audit (a card is a claim, not a contract) or
// refuse it for a reason of its own.
//
// A client that takes the extended card in before its signature verifies
// acts on claims nobody vouched for (a2aproject/a2a-js#705: the SDK cached
// the extended card before verifying it). XCARD-002 serves an extended
// card changed after signing; a task for the skill only it lists, sent
// after it arrived, fails XCARD-002.NOT-USED.
func xcardScenarios() []*Scenario {
	audit := authReq(skillAudit, []string{"a"}, mockvendor.HostVendorA)
	return []*Scenario{
		{
			ID:     "XCARD-001",
			Title:  "a signed extended card adds a skill",
			Area:   "xcard",
			Source: "A2A 1.0 §3.1.11, §13.3; A2A 0.3 §7.10; a2a-cli A2ACLI_CARD_GET_003, A2ACLI_AUTH_008. A breaks no clause: it requires authentication for its extended card with the scheme its public card declares (§13.3 MUST)",
			Setup: "A's public card (signed) declares an HTTP bearer scheme and capabilities.extendedAgentCard, and lists summarize and ledger-write. " +
				"GetExtendedAgentCard (agent/getAuthenticatedExtendedCard in 0.3) answers 401 without A's token and, with it, the extended card: signed by A's key like the public card, it lists ledger-audit as well. " +
				"A serves ledger-audit to every caller with its token. The caller wants ledger-audit and holds A's token for https://" + mockvendor.HostVendorA + ".",
			Fleet:    fleetOf(extendedA()),
			Requests: []Request{audit},
			Checks:   []Check{xcardAuthCheck(), xcardReplaceCheck(), xcardCardCredentialCheck()},
		},
		{
			ID:     "XCARD-002",
			Title:  "the extended card's signature fails",
			Area:   "xcard",
			Source: "A2A 1.0 §8.4.3, §14.3 (clients SHOULD verify a card's signature before trusting it); a2aproject/a2a-js#705. No clause binds a server to sign correctly; A serves an extended card its signature was not computed over, as one altered behind its endpoint would be",
			Setup: "As XCARD-001, but A's extended card is changed after it was signed (fault tampered-extended-card: its description gains a sentence): it still lists ledger-audit and carries A's signature, which no longer verifies. " +
				"A's public card is honestly signed.",
			Fleet:    fleetOf(withFaults(extendedA(), mockvendor.Spec("tampered-extended-card", nil))),
			Requests: []Request{audit},
			Checks:   []Check{xcardNotUsedCheck(), xcardRefusedCheck()},
		},
	}
}

// skillAudit is the skill only A's extended card lists.
const skillAudit = "ledger-audit"

// extendedA is vendor A demanding a bearer token, serving ledger-audit
// too, and listing it on its extended card only.
func extendedA() mockvendor.VendorConfig {
	a := mockvendor.VendorA()
	a.Auth = &mockvendor.AuthConfig{}
	a.Skills = append(slices.Clip(a.Skills), mockvendor.SkillConfig{ID: skillAudit, Name: "Ledger audit"})
	a.Card.Skills = []string{mockvendor.SkillSummarize, mockvendor.SkillLedgerWrite}
	a.Card.ExtendedCard = &mockvendor.ExtendedCardConfig{Skills: []string{skillAudit}}
	return a
}

// isExtendedCardCall reports whether e asked the vendor for its extended
// card (any method, any answer).
func isExtendedCardCall(e mockvendor.Event, vendor string) bool {
	return e.Op == mockvendor.OpExtendedCard && inVendor(e, vendor)
}

// extendedCardAsked needs a call for the vendor's extended card, answered
// or not.
func extendedCardAsked(vendor string) *Precondition {
	return &Precondition{
		Needs: "ask " + vendorName(vendor) + " for its extended card",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isExtendedCardCall(e, vendor) })
		},
	}
}

// extendedCardGot needs the vendor's extended card received: a call for
// it answered 200 with no error.
func extendedCardGot(vendor string) *Precondition {
	return &Precondition{
		Needs: "receive " + vendorName(vendor) + "'s extended card",
		Met: func(r *Run) bool {
			_, ok := firstExtendedCard(r, vendor)
			return ok
		},
	}
}

// firstExtendedCard is the first call that received the vendor's
// extended card.
func firstExtendedCard(r *Run, vendor string) (mockvendor.Event, bool) {
	i := slices.IndexFunc(r.Events, func(e mockvendor.Event) bool {
		return isExtendedCardCall(e, vendor) && e.Status == 200 && e.ErrorCode == 0
	})
	if i < 0 {
		return mockvendor.Event{}, false
	}
	return r.Events[i], true
}

// The clauses the XCARD checks rest on.
var (
	xcardAuthClause = A2A("§3.1.11", SrcMust, Client).Read("Get Extended Agent Card, Authentication: the client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes and security fields. " +
		"It binds a client that makes the call; nothing asks a client to make it")
	xcardReplaceClause = A2A("§3.1.11", SrcShould, Client).Read("Card Replacement: clients retrieving the extended card SHOULD replace their cached public Agent Card with it for the duration of their authenticated session or until the card's version changes")
	xcardCLIFetch      = CLI("A2ACLI_CARD_GET_003", SrcMay).Read("the authenticated extended Agent Card, fetched only via a security scheme advertised on the public card (a2a-cli Tier 3, advanced: optional)")
)

func xcardAuthCheck() Check {
	return Check{
		ID:     "XCARD-001.AUTH",
		Title:  "the extended card is asked for with the scheme the public card declares",
		Grades: []Grade{{Profile: Core, Level: Must, When: extendedCardAsked("a")}},
		Requirement: "A client that asks for the extended card authenticates the request with a scheme the public card declares (A2A 1.0 §3.1.11, 0.3 §7.10: MUST): here A's bearer token as Authorization: Bearer, and nothing else. " +
			"A call without it (answered 401), or with the token presented another way, fails. A client that never asks for the extended card is not judged here.",
		Sources: []Source{
			xcardAuthClause,
			A2A03("§7.10", SrcMust, Client).Read("agent/getAuthenticatedExtendedCard: the client MUST authenticate the request using one of the schemes declared in the public card's securitySchemes and security"),
			A2A("§13.3", SrcMust, Server).Read("the operation MUST require authentication, with a scheme of the public card: A does, and answers 401 without it"),
			xcardCLIFetch,
			CLI("A2ACLI_AUTH_008", SrcMay).Read("never presents a credential to an Agent Card endpoint that has not declared a scheme accepting it (a2a-cli Tier 3): the token goes the way the card declares"),
		},
		Fix:     "Before GetExtendedAgentCard (agent/getAuthenticatedExtendedCard, GET /extendedAgentCard), read the public card's securitySchemes and security, and present the credential you hold for that endpoint the way the scheme says (bearer: Authorization: Bearer <token>). Without such a credential, do not ask.",
		Local:   true,
		Reached: *extendedCardAsked("a"),
		Judge:   judgeExtendedCardAuth,
	}
}

// judgeExtendedCardAuth fails the first call for A's extended card that did
// not present A's token as a bearer token alone.
func judgeExtendedCardAuth(r *Run) Verdict {
	n := 0
	for _, e := range r.Events {
		if !isExtendedCardCall(e, "a") {
			continue
		}
		n++
		if !presents(e, "a", viaBearer) {
			return Failf("%s without A's token as Authorization: Bearer (the scheme A's public card declares); presented: %s", describe(e), presentedList(e)).At(e.Seq).
				Want("A's token as Authorization: Bearer", presentedList(e))
		}
		if len(e.Credentials) != 1 {
			return Failf("%s presented more than the declared scheme asks: %s", describe(e), presentedList(e)).At(e.Seq).
				Want("A's token as Authorization: Bearer, alone", presentedList(e))
		}
	}
	return Passf("%s for A's extended card, each with A's bearer token", plural(n, "call"))
}

func xcardReplaceCheck() Check {
	return Check{
		ID:     "XCARD-001.REPLACE",
		Title:  "the verified extended card is used: its skill is delegated",
		Grades: []Grade{{Profile: Core, Level: Should, When: extendedCardGot("a")}},
		Requirement: "A client that received the extended card replaces the public card with it (A2A 1.0 §3.1.11, §13.3; 0.3 §7.10: SHOULD). Its signature verifies with A's key, so nothing stands in the way: " +
			"ledger-audit, which only the extended card lists, goes to A once that card is in use and completes (a completed ledger-audit task at A on the wire, sent after the extended card arrived). A client that fetched the extended card and then refused ledger-audit as unlisted kept the public card.",
		Sources: []Source{
			xcardReplaceClause,
			A2A("§13.3", SrcShould, Client).Read("clients retrieving extended cards SHOULD replace their cached public Agent Card with the extended version for the duration of their authenticated session"),
			A2A03("§7.10", SrcShould, Client).Read("clients retrieving this authenticated card SHOULD replace their cached public Agent Card with the content received"),
			xcardCLIFetch,
		},
		Fix:          "Once the extended card is fetched and its signature verifies, use it in place of the public card for this agent: its skills, modes and interfaces.",
		ReadsOutcome: true,
		Reached:      *extendedCardGot("a"),
		Judge:        judgeExtendedCardUsed,
	}
}

// judgeExtendedCardUsed passes when ledger-audit completed at A by a task
// sent after A's extended card arrived (the skill came from that card).
func judgeExtendedCardUsed(r *Run) Verdict {
	first, ok := firstExtendedCard(r, "a")
	if !ok {
		return NotExercisedf("A's extended card was never received")
	}
	for _, e := range r.Events {
		if isRealSend(e) && inVendor(e, "a") && e.Skill == skillAudit && e.Seq < first.Seq {
			return Failf("%s came before the extended card (#%d): the skill was not taken from it", describe(e), first.Seq).At(e.Seq).
				Want("the task for "+skillAudit+" sent once the extended card is in use", describe(e))
		}
	}
	return completedVia(r, 0, "a", skillAudit)
}

func xcardCardCredentialCheck() Check {
	return Check{
		ID:     "XCARD-001.NO-CARD-CREDENTIAL",
		Title:  "no credential on the public card fetch",
		Grades: should(Safety),
		Requirement: "The public card is public: its well-known URL declares no scheme, so no credential goes with its fetch, though it is served by the host the token was issued for. " +
			"The token goes to the calls the card's scheme covers (the endpoint, the extended card), nowhere else.",
		Sources: []Source{
			CLI("A2ACLI_AUTH_008", SrcMay).Read("never presents a credential to an Agent Card endpoint that has not declared a scheme accepting it (a2a-cli Tier 3)"),
			A2A("§13.3", SrcDescriptive, Server).Read("the extended card gives authenticated clients what is beyond the public card: the public card is the one served without authentication"),
			authBearerSafe,
		},
		Fix:     "Fetch cards without credentials; attach a credential only to the requests its scheme covers.",
		Local:   true,
		Reached: cardFetched("a"),
		Judge: func(r *Run) Verdict {
			for _, e := range r.Events {
				if e.Op == mockvendor.OpCardFetch && inVendor(e, "a") && (len(e.Credentials) > 0 || e.Authorization) {
					return Failf("%s carried a credential: %s", describe(e), presentedList(e)).At(e.Seq).Want("no credential", presentedList(e))
				}
			}
			return Passf("A's card fetched without a credential")
		},
	}
}

func xcardNotUsedCheck() Check {
	got := extendedCardGot("a")
	return Check{
		ID:     "XCARD-002.NOT-USED",
		Title:  "an extended card whose signature fails is not acted on",
		Grades: []Grade{{Profile: Safety, Level: Must, When: got}, {Profile: Core, Level: Should, When: got}},
		Requirement: "An extended card is a card: it is trusted only once a signature verifies over it (A2A 1.0 §8.4.3, §14.3: SHOULD), and this one's does not. " +
			"ledger-audit is listed by that card alone, so a task for ledger-audit sent to A after it arrived acts on a claim nobody vouched for, as an SDK that cached the extended card before verifying it does (a2aproject/a2a-js#705). Probes are not judged here.",
		Sources: []Source{
			keyVerifyBeforeTrust,
			A2A("§14.3", SrcShould, Client).Read("Security considerations: clients SHOULD verify signatures when present to ensure the Agent Card has not been tampered with; extended cards (§3.1.11) may contain additional information"),
			keyVerifySteps,
			Field("a2aproject/a2a-js#705").Read("the client cached the extended card and used it before its signature was verified"),
			Posture("a card whose signature fails is evidence of tampering, not a card: nothing it alone claims is acted on"),
		},
		Fix:          "Verify the extended card's signature as you verify the public card's, before you cache or use anything from it; when it fails, discard it (and treat the agent as you treat a public card whose signature fails).",
		ReadsOutcome: true,
		Reached:      *got,
		Judge:        judgeExtendedCardNotUsed,
	}
}

// judgeExtendedCardNotUsed fails a real task for ledger-audit sent to A
// after A's extended card arrived.
func judgeExtendedCardNotUsed(r *Run) Verdict {
	first, ok := firstExtendedCard(r, "a")
	if !ok {
		return NotExercisedf("A's extended card was never received")
	}
	for _, e := range r.Events {
		if e.Seq > first.Seq && isRealSend(e) && inVendor(e, "a") && e.Skill == skillAudit {
			return Failf("%s after the extended card whose signature fails (#%d)", describe(e), first.Seq).At(e.Seq).
				Want("no task for "+skillAudit+" (listed only by an extended card that does not verify)", describe(e))
		}
	}
	if _, bad := r.outcome(0); bad != nil && bad.Proven() {
		return *bad // an outcome the wire contradicts (a completion claimed with no task)
	}
	return Passf("extended card received at #%d; no task for %s followed", first.Seq, skillAudit)
}

func xcardRefusedCheck() Check {
	got := extendedCardGot("a")
	reasons := append(slices.Clip(signatureReasons), contract.ReasonSkillUnavailable)
	return Check{
		ID:     "XCARD-002.REFUSED",
		Title:  "the delegation is refused and says why",
		Grades: []Grade{{Profile: Safety, Level: Should, When: got}},
		Requirement: "With the extended card discarded, nothing vouches for ledger-audit at A: the delegation is refused with a reason that says so, " +
			"signature-invalid (the card that lists the skill does not verify) or skill-unavailable (no verified card lists it), and no task for ledger-audit is sent.",
		Sources: []Source{
			keyVerifyBeforeTrust,
			Field("a2aproject/a2a-js#705").Read("the extended card was used before its signature was verified"),
			ContractRule("Delegation outcome: reason", SrcDescriptive).Read("signature-invalid: a card whose signature does not verify; skill-unavailable: the wanted skill is not offered"),
		},
		Fix:          "Report a refusal with reason signature-invalid when the extended card's signature fails (or skill-unavailable if you fall back to the public card, which does not list the skill).",
		ReadsOutcome: true,
		Reached:      *got,
		Judge: func(r *Run) Verdict {
			first, ok := firstExtendedCard(r, "a")
			if !ok {
				return NotExercisedf("A's extended card was never received")
			}
			o, bad := r.outcome(0)
			if bad != nil {
				return *bad
			}
			for _, e := range r.During(0) {
				if e.Seq > first.Seq && isRealSend(e) && inVendor(e, "a") && e.Skill == skillAudit {
					return Failf("%s: a task for %s was sent", describe(e), skillAudit).At(e.Seq)
				}
			}
			if o.Outcome == contract.OutcomeCompleted || !slices.Contains(reasons, o.Reason) {
				return Failf("outcome %s, reason %q; want a refusal with a signature reason or skill-unavailable", o.Outcome, o.Reason).
					Want("rejected or failed, reason signature-invalid (or skill-unavailable)", o.Outcome+" / "+o.Reason)
			}
			return Passf("refused: %s, reason %s", o.Outcome, o.Reason)
		},
	}
}
