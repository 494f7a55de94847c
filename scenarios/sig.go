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
	return []*Scenario{
		{
			ID:       "SIG-001",
			Title:    "tampered card",
			Area:     "sig",
			Source:   "A2A 1.0 §8.4.3; seed 003, Core Distinction",
			Setup:    "A skill was added to A's card after it was signed.",
			Fleet:    signed(mockvendor.Spec("tampered-card", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:           "SIG-001.REJECT",
				Title:        "a card whose signature does not verify gets no task",
				Grades:       []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
				Requirement:  "A client that verifies signatures trusts a card only if one of its signatures verifies over the card's canonical form; a card changed after signing is refused.",
				Source:       "A2A 1.0 §8.4.3",
				Fix:          "Verify the JWS over the RFC 8785 form of the card without signatures; refuse the card when it fails (reason signature-invalid).",
				ReadsOutcome: true,
				Reached:      keysFetched("a"),
				Judge:        reject(contract.ReasonSignatureInvalid),
			}},
		},
		{
			ID:       "SIG-002",
			Title:    "unknown kid",
			Area:     "sig",
			Source:   "A2A 1.0 §8.4.3",
			Setup:    "A's card is signed with a key whose kid is not in the JWKS, even after a re-fetch.",
			Fleet:    signed(mockvendor.Spec("unknown-kid", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:           "SIG-002.REJECT",
				Title:        "a signature by an unknown key gets no task",
				Grades:       must(Safety),
				Requirement:  "The verification key is found by kid (and jku); when no key with that kid exists, even after re-fetching the key set, the signature cannot be trusted.",
				Source:       "A2A 1.0 §8.4.3",
				Fix:          "Re-fetch the JWKS once for an unknown kid; if still absent, refuse the card (reason key-unknown).",
				ReadsOutcome: true,
				Reached:      keysFetched("a"),
				Judge:        reject(contract.ReasonKeyUnknown),
			}},
		},
		{
			ID:       "SIG-003",
			Title:    "key rotation",
			Area:     "sig",
			Source:   "A2A 1.0 §8.4.3 (several signatures and key rotation); OpenID RP test rp-key-rotation-op-sign-key",
			Setup:    "A's card is signed by a new key; the first JWKS response lacks it, a re-fetch has it.",
			Fleet:    signed(mockvendor.Spec("key-rotation", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:           "SIG-003.REFETCH-JWKS",
				Title:        "the JWKS is re-fetched once, then the task completes with full trust",
				Grades:       should(Core),
				Requirement:  "Keys rotate: a client that does not find the kid in a cached key set fetches the set once more before giving up, then verifies.",
				Source:       "A2A 1.0 §8.4.3; OpenID RP test rp-key-rotation-op-sign-key",
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
			Setup:  "First A's card has a protected header with alg none; then a card signed HS256 with the public key's bytes as the secret.",
			Fleet:  signed(mockvendor.Spec("alg-none", nil)),
			Requests: []Request{
				req(mockvendor.SkillSummarize, mockvendor.HostVendorA),
				{Skill: mockvendor.SkillSummarize, Candidates: []string{mockvendor.HostVendorA}, Before: switchFault("a", mockvendor.Spec("hs256-confusion", nil))},
			},
			Checks: []Check{{
				ID:    "SIG-004.REJECT",
				Title: "no task to a card signed with alg none or HS256-with-public-key",
				// Verifying is a SHOULD in the spec, so in a2a-core this binds only
				// a client that says it verifies; delegation-safety always asks.
				Grades:       []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Must, When: &claimsVerification}},
				Requirement:  "Only the signature algorithms the key allows are accepted: an unsecured JWS (alg none) or an HMAC keyed with the public key proves nothing and the card is refused. (In a2a-core this binds a client that claims to verify signatures; verifying is a SHOULD there.)",
				Source:       "A2A 1.0 §8.4.3; RFC 8725 §2.1, §3.1",
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
			ID:       "SIG-005",
			Title:    "key embedded in the signature header",
			Area:     "sig",
			Source:   "A2A 1.0 §8.4.3; RFC 7515 §4.1.3 (jwk); issue 13 (SIG: key sources an attacker controls)",
			Setup:    "A's card is signed by a key of someone else's, whose public half rides in the protected header (jwk) under A's kid and jku; A's key set does not hold it.",
			Fleet:    signed(mockvendor.Spec("embedded-jwk", nil)),
			Requests: summarize,
			Checks: []Check{{
				ID:           "SIG-005.REJECT",
				Title:        "a card signed by the key its own header offers gets no task",
				Grades:       must(Safety),
				Requirement:  "A key carried inside the signature proves only that whoever made the signature had that key; the verification key must come from the issuer's key set (the jku, or the trust store). A card that verifies only with its header's own jwk is refused.",
				Source:       "A2A 1.0 §8.4.3; RFC 7515 §4.1.3",
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
			Source: "A2A 1.0 §8.4.3; RFC 7515 §4.1.2 (jku); issue 13 (SIG: key sources an attacker controls)",
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
				Source:       "A2A 1.0 §8.4.3; RFC 7515 §4.1.2; catalog, signer convention",
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
