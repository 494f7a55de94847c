package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// SIG: card signatures [A2A 1.0 §8.4], [seed 003].
func sigScenarios() []*Scenario {
	signed := func(faults ...mockvendor.FaultSpec) func() mockvendor.Config {
		return fleetOf(withFaults(mockvendor.VendorA(), faults...))
	}
	// reject passes when no task reached A and the refusal names one of
	// the reasons (the first is the one the check expects most).
	reject := func(reasons ...string) func(r *Run) Verdict {
		return func(r *Run) Verdict {
			if v := noTaskTo(r, "a"); v.Outcome != Pass {
				return v
			}
			o, bad := r.outcome(0)
			if bad != nil {
				return *bad
			}
			if !slices.Contains(reasons, o.Reason) {
				return Failf("no task was sent, but the reason is %q, want %q", o.Reason, reasons[0]).Want(strings.Join(reasons, " or "), o.Reason)
			}
			return Passf("no task sent; reason %s", o.Reason)
		}
	}
	summarize := []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)}
	// The two client clauses of A2A 1.0 §8.4.3 the SIG checks rest on.
	verifySteps := A2A("§8.4.3", SrcMust, Client).Read("Clients verifying Agent Card signatures MUST retrieve the public key using the kid and jku (or from a trusted key store), " +
		"and verify the signature over the RFC 8785 form of the card without signatures: a MUST for a client that verifies, not a duty to verify.")
	verifyBeforeTrust := A2A("§8.4.3", SrcShould, Client).Read("Security Considerations: clients SHOULD verify at least one signature before trusting an Agent Card.")
	return []*Scenario{
		{
			ID:     "SIG-001",
			Title:  "tampered card",
			Area:   "sig",
			Source: "A2A 1.0 §8.4.3; seed 003, Core Distinction",
			Setup: "A skill was added to A's card after it was signed: the card no longer matches its signature (the vendor serves a card that A2A 1.0 §8.4.2's signing process did not produce; " +
				"this is what a card altered on its way looks like).",
			Fleet:    signed(mockvendor.Spec("tampered-card", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:     "SIG-001.REJECT",
				Title:  "a card whose signature does not verify gets no task",
				Grades: []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
				Requirement: "A client trusts a card only once one of its signatures verifies over the card's canonical form (A2A 1.0 §8.4.3, a SHOULD; the verification steps are a MUST for a client that verifies). " +
					"A card changed after signing has no such signature; by this project's posture it gets no task.",
				Sources: []Source{
					verifyBeforeTrust,
					verifySteps,
					Seed003("Core Distinction", SrcDescriptive).Read("signature verification proves the card content was not tampered with: a card whose signature fails has no such proof"),
					Posture("a card whose signature does not verify gets no task: it may say whatever whoever altered it wished"),
				},
				Fix:          "Verify the JWS over the RFC 8785 form of the card without signatures; refuse the card when it fails (reason signature-invalid).",
				ReadsOutcome: true,
				Reached:      keysFetched("a"),
				Judge:        reject(contract.ReasonSignatureInvalid),
			}},
		},
		{
			ID:     "SIG-002",
			Title:  "unknown kid",
			Area:   "sig",
			Source: "A2A 1.0 §8.4.3",
			Setup: "A's card is signed with a key whose kid is not in the JWKS, even after a re-fetch: the kid identifies no key the vendor publishes " +
				"(A2A 1.0 §8.4.2 has the kid identify the signing key; this is what a card signed by someone else under A's name looks like).",
			Fleet:    signed(mockvendor.Spec("unknown-kid", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:     "SIG-002.REJECT",
				Title:  "a signature by an unknown key gets no task",
				Grades: must(Safety),
				Requirement: "The verification key is the one the signature's kid names in the signer's key set (jku) or a trusted key store (A2A 1.0 §8.4.3). " +
					"When no key with that kid is there, even after fetching the set again, nothing verifies the signature; by this project's posture the card is refused, not treated as unsigned.",
				Sources: []Source{
					verifySteps,
					verifyBeforeTrust,
					Posture("a card signed by a key its signer does not publish is refused (key-unknown)").Read("stricter than seed 003, Condition of Validity, " +
						"which lets a client fall back to unpinned where the kid cannot be evaluated: a card that claims a signer it cannot prove is treated as a forgery, not as unsigned"),
				},
				Fix:          "Re-fetch the JWKS once for an unknown kid; if still absent, refuse the card (reason key-unknown).",
				ReadsOutcome: true,
				Reached:      keysFetched("a"),
				Judge:        reject(contract.ReasonKeyUnknown),
			}},
		},
		{
			ID:     "SIG-003",
			Title:  "key rotation",
			Area:   "sig",
			Source: "OpenID RP test rp-key-rotation-op-sign-key; A2A 1.0 §8.4.3 (several signatures MAY be present to support key rotation)",
			Setup: "A's card is signed by a new key; the first JWKS response lacks it, a re-fetch has it (a key rotation whose key set lags the card: for one fetch the jku does not hold the key the kid names, " +
				"which A2A 1.0 §8.4.2 describes the jku as holding).",
			Fleet:    signed(mockvendor.Spec("key-rotation", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:     "SIG-003.REFETCH-JWKS",
				Title:  "the JWKS is re-fetched once, then the task completes with full trust",
				Grades: should(Safety),
				Requirement: "Keys rotate (A2A 1.0 §8.4.3 allows several signatures for it, but gives the client no rule about its cached key set). " +
					"As the OpenID relying-party tests expect, a client that does not find the kid in the key set it holds fetches the set once more before giving up, then verifies.",
				Sources: []Source{
					{Document: DocOpenIDRP, Locator: "rp-key-rotation-op-sign-key", Level: SrcDescriptive, Binds: Client,
						Note: "the relying party passes when it verifies a token signed by a rotated-in key, fetching the key set again for the unknown kid; a test of OpenID's certification, read here for a card's key set"},
					A2A("§8.4.3", SrcMay, Server).Read("multiple signatures MAY be present to support key rotation: a rule for the card's signer; it says nothing of re-fetching a key set"),
				},
				Fix:          "On an unknown kid, re-fetch the JWKS once (bypassing your cache), then verify.",
				ReadsOutcome: true,
				Reached:      keysFetched("a"),
				Judge: func(r *Run) Verdict {
					n := count(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpJWKSFetch })
					if n != 2 {
						return Failf("the JWKS was fetched %d times, want 2 (once, then once more for the new kid)", n)
					}
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome != contract.OutcomeCompleted || o.TrustMode != contract.TrustModeFull {
						return Failf("JWKS fetched twice, but outcome %s with trustMode %q, want completed with full", o.Outcome, o.TrustMode)
					}
					if v := completedAt(r, 0, "a"); v.Outcome != Pass {
						return v
					}
					return Passf("JWKS fetched twice; completed with full trust")
				},
			}},
		},
		{
			ID:     "SIG-004",
			Title:  "alg none and algorithm confusion",
			Area:   "sig",
			Source: "A2A 1.0 §8.4.3; RFC 8725 §2.1, §3.1",
			Setup: "First A's card has a protected header with alg none; then a card signed HS256 with the public key's bytes as the secret. " +
				"Neither is signed with A's private key as A2A 1.0 §8.4.2's signing process does: these are the forgeries a verifier that lets the header pick the algorithm accepts.",
			Fleet: signed(mockvendor.Spec("alg-none", nil)),
			Requests: []Request{
				req(mockvendor.SkillSummarize, mockvendor.HostVendorA),
				{Skill: mockvendor.SkillSummarize, Candidates: []string{mockvendor.HostVendorA}, Before: switchFault("a", mockvendor.Spec("hs256-confusion", nil))},
			},
			Checks: []Check{{
				ID:    "SIG-004.REJECT",
				Title: "no task to a card signed with alg none or HS256-with-public-key",
				// Verifying is a SHOULD in the spec, so in a2a-core this binds only
				// a client that says it verifies; delegation-safety always asks.
				Grades:      []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Must, When: &claimsVerification}},
				Requirement: "Only the signature algorithms the key allows are accepted: an unsecured JWS (alg none) or an HMAC keyed with the public key proves nothing and the card is refused. (In a2a-core this binds a client that claims to verify signatures; verifying is a SHOULD there.)",
				Sources: []Source{
					verifySteps.Read("Clients verifying Agent Card signatures MUST retrieve the key by kid and jku (or from a trusted key store) and verify the signature: this binds a client that verifies, " +
						"hence the a2a-core grade's condition. An unsecured JWS has no signature to verify, and an HMAC keyed with the public key is no verification with the key step 2 retrieves."),
					verifyBeforeTrust,
					RFC(8725, "§3.1", SrcMust, Client).Read("a verifier MUST use only the algorithms it allows and check that alg is the algorithm the key is used with; each key MUST be used with exactly one algorithm"),
					RFC(8725, "§2.1", SrcDescriptive, Client).Read("the attacks: alg none accepted as a signature, and an RSA public key used as an HMAC secret"),
				},
				Fix:          "Pin the algorithm to the key type (ES256/RS256...); never accept none or HS* for card signatures.",
				ReadsOutcome: true,
				Reached:      allOf(cardFetched("a"), delegationsRan(2)),
				Judge: func(r *Run) Verdict {
					cards := []string{"alg none", "HS256 with the public key"}
					for i := range r.Delegations {
						for _, e := range r.During(i) {
							if isTaskSend(e) && inVendor(e, "a") {
								return Failf("delegation %d (%s): %s", i+1, cards[min(i, 1)], describe(e)).At(e.Seq)
							}
						}
					}
					if len(r.Delegations) < 2 {
						return NotExercisedf("the second delegation was not run")
					}
					for i := range 2 {
						o, bad := r.outcome(i)
						if bad != nil {
							return *bad
						}
						if o.Reason != contract.ReasonSignatureInvalid {
							return Failf("delegation %d (%s): no task sent, but the reason is %q, want signature-invalid (a refusal that did not judge the signature)", i+1, cards[i], o.Reason).
								Want("signature-invalid", o.Reason)
						}
					}
					return Passf("no task was sent for either card; both refused as signature-invalid")
				},
			}},
		},
		{
			ID:     "SIG-005",
			Title:  "key embedded in the signature header",
			Area:   "sig",
			Source: "A2A 1.0 §8.4.3; RFC 7515 §4.1.3 (jwk); posture: no key source an attacker controls",
			Setup: "A's card is signed by a key of someone else's, whose public half rides in the protected header (jwk) under A's kid and jku; A's key set does not hold it " +
				"(a forgery: A2A 1.0 §8.4.2 has the kid identify A's signing key, and it identifies none).",
			Fleet:    signed(mockvendor.Spec("embedded-jwk", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:     "SIG-005.REJECT",
				Title:  "a card signed by the key its own header offers gets no task",
				Grades: must(Safety),
				Requirement: "A key carried inside the signature proves only that whoever made the signature had that key; the verification key comes from the issuer's key set (the jku) or a trusted key store (A2A 1.0 §8.4.3). " +
					"A card that verifies only with its header's own jwk is refused.",
				Sources: []Source{
					verifySteps.Read("step 2: the public key is retrieved using the kid and jku, or from a trusted key store; the signature's own header is neither (a MUST for a client that verifies)"),
					RFC(7515, "§4.1.3", SrcDescriptive, Server).Read("jwk is the public key that matches the key that signed: it says which key made the signature, not whose key it is"),
					Posture("the verification key comes from the issuer's key set or the trust store, never from the signature itself"),
				},
				Fix:          "Never take the jwk header as the verification key; look the kid up in the issuer's key set only.",
				ReadsOutcome: true,
				Reached:      cardFetched("a"),
				Judge:        reject(contract.ReasonSignatureInvalid, contract.ReasonKeyUnknown),
			}},
		},
		{
			ID:     "SIG-006",
			Title:  "key set on another host",
			Area:   "sig",
			Source: "seed 003, Condition of Validity; RFC 7515 §4.1.2 (jku); driver contract, trust.issuers (the signer is the jku's origin)",
			Setup: "A's card is validly signed by vendor X's key, and its jku names X's key set at keys.vendor-x.example. The trust policy knows only A's signer; " +
				"X is not in it.",
			Fleet: func() mockvendor.Config {
				keyPEM := freshKeyPEM()
				x, jku := vendorXKeyed(keyPEM)
				a := withFaults(mockvendor.VendorA(), mockvendor.Spec("foreign-jku", mockvendor.ForeignJKU{KeyPEM: keyPEM, KID: kidX, JKU: jku}))
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a, x}}
			},
			Requests: summarize,
			Checks: []Check{{
				ID:     "SIG-006.NO-FULL",
				Title:  "a signature by another host's key set gives at most unpinned",
				Grades: must(Safety),
				Requirement: "The signer of a card is the origin of the jku its signature names. A card on A's host signed through X's key set is X's statement, and X is no issuer the policy trusts: " +
					"refuse it, or at most delegate unpinned; never full (nor reduced, which claims a trusted signer).",
				Sources: []Source{
					Seed003("Condition of Validity", SrcMust).Read("without a policy mapping the issuer to execution authority (condition 3) the client must fall back to unsigned/unpinned: X is no issuer the policy knows"),
					RFC(7515, "§4.1.2", SrcDescriptive, Server).Read("jku names the key set that holds the signing key: whoever serves that set is the signer"),
					ContractRule("Delegation request: trust.issuers", SrcDescriptive).Read("signers are keyed by the origin of the jku in the signature's protected header; a signer not listed is trusted for nothing"),
				},
				Fix:          "Take the signer's identity from the jku's origin and look it up in the trust policy; an unknown signer gives unpinned at best.",
				ReadsOutcome: true,
				Reached:      cardFetched("a"),
				Judge: func(r *Run) Verdict {
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					switch {
					case o.TrustMode == contract.TrustModeFull || o.TrustMode == contract.TrustModeReduced:
						return Failf("trustMode %s for a card signed through %s, a signer the policy does not know", o.TrustMode, hostX).
							Want("unpinned, or a refusal", o.TrustMode)
					case o.Outcome == contract.OutcomeCompleted:
						return Passf("delegated with trustMode %q", o.TrustMode)
					}
					return reject(contract.ReasonKeyUnknown, contract.ReasonSignatureInvalid, contract.ReasonSignerEndpointMismatch)(r)
				},
			}},
		},
	}
}

// noTaskTo passes when no send or stream (probe or not) reached the vendor.
func noTaskTo(r *Run, vendor string) Verdict {
	for _, e := range r.Events {
		if isTaskSend(e) && inVendor(e, vendor) {
			return Failf("%s: the card should have been refused before any task", describe(e)).At(e.Seq)
		}
	}
	return Passf("no task reached vendor %s", vendor)
}

// switchFault replaces every fault of a vendor with spec.
func switchFault(vendor string, spec mockvendor.FaultSpec) func(f *mockvendor.Fleet) error {
	return func(f *mockvendor.Fleet) error {
		faults, err := f.Faults(vendor)
		if err != nil {
			return err
		}
		for _, af := range faults {
			if err := f.RemoveFault(vendor, af.ID); err != nil {
				return fmt.Errorf("removing %s: %w", af.ID, err)
			}
		}
		_, err = f.AddFault(vendor, spec)
		return err
	}
}
