package scenarios

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// KEY: key hygiene and canonical forms of signed cards [A2A 1.0 §8.4].
// Each scenario signs vendor A's card under one fault; the SIG area's
// scenarios have the signature itself broken, these have the key or the
// content in question.
func keyScenarios() []*Scenario {
	signed := func(faults ...mockvendor.FaultSpec) func() mockvendor.Config {
		return fleetOf(withFaults(mockvendor.VendorA(), faults...))
	}
	summarize := req(mockvendor.SkillSummarize, mockvendor.HostVendorA)
	revokedPEM := freshKeyPEM()
	revoked := func(done bool) mockvendor.FaultSpec {
		return mockvendor.Spec("revoked-key", mockvendor.RevokedKey{KeyPEM: revokedPEM, KID: mockvendor.KIDVendorA + "-2024", Revoked: done})
	}
	then := func(spec mockvendor.FaultSpec) Request {
		r := summarize
		r.Before = switchFault("a", spec)
		return r
	}
	return []*Scenario{
		{
			ID:     "KEY-001",
			Title:  "several signatures, one good",
			Area:   "key",
			Source: "A2A 1.0 §8.4.3 (multiple signatures MAY be present to support key rotation)",
			Setup: "A's card carries three signatures: the first by a retired key its JWKS no longer lists, the second by A's key over an earlier version of the card, " +
				"the third by A's key over the card as served. Only the third verifies; the card is A's and unchanged.",
			Fleet:    signed(mockvendor.Spec("several-signatures", nil)),
			Requests: []Request{summarize},
			Checks:   []Check{keyOneGoodCheck()},
		},
		{
			ID:     "KEY-002",
			Title:  "expired signing key",
			Area:   "key",
			Source: "A2A 1.0 §8.4.3 (expired keys MUST NOT be used for verification); RFC 7517 §4.7; RFC 5280 §4.1.2.5",
			Setup: "A's card is signed by a key its JWKS lists with a certificate (x5c) whose validity ended a year ago, and an exp member of the same instant. " +
				"The signature matches the card; the key is expired. (The vendor signs with an expired key: no A2A clause forbids a server that.)",
			Fleet:    signed(mockvendor.Spec("expired-key", nil)),
			Requests: []Request{summarize},
			Checks:   []Check{keyExpiredCheck()},
		},
		{
			ID:     "KEY-003",
			Title:  "revoked signing key",
			Area:   "key",
			Source: "A2A 1.0 §8.4.3 (revoked keys MUST NOT be used for verification); RFC 9111 §5.2.2.5 (no-store)",
			Setup: "Delegation 1: A's card is signed by a key its JWKS lists. Before delegation 2, A revokes the key: the JWKS no longer lists it, " +
				"but the card is still signed by it (a copy made before the revocation, or by whoever took the key). Every JWKS answer says Cache-Control: no-store.",
			Fleet:    signed(revoked(false)),
			Requests: []Request{summarize, then(revoked(true))},
			Checks:   []Check{keyRevokedCheck()},
		},
		{
			ID:     "KEY-004",
			Title:  "key set over plain HTTP",
			Area:   "key",
			Source: "A2A 1.0 §8.4.3 (public keys SHOULD be retrieved over secure channels, HTTPS)",
			Setup: "A's card is signed by a key whose jku is http://agent.vendor-a.example/.well-known/jwks.json: that plain-HTTP key set holds the key, " +
				"A's HTTPS key set does not. A key fetched in the clear could have been put there by anyone on the path.",
			Fleet:    signed(mockvendor.Spec("plain-http-jku", nil)),
			Requests: []Request{summarize},
			Checks:   []Check{keyPlainHTTPCheck()},
		},
		{
			ID:     "KEY-005",
			Title:  "canonicalisation traps, signed",
			Area:   "key",
			Source: "A2A 1.0 §8.4.1, §8.4.3; RFC 8785 §3.2.2.2, §3.2.2.3, §3.2.3; a2aproject/a2a-python#1174",
			Setup: "A's card, honestly signed over its RFC 8785 form, holds non-ASCII text, extension params whose keys sort differently by UTF-16 code unit than by code point (non-BMP characters), " +
				"numbers spelled unlike their canonical form (1.0, -0.0, 1e21, 0.000001, 1e-7, 0.30000000000000004) and the capabilities' optional booleans set to false. No empty string, list or object.",
			Fleet:    signed(mockvendor.Spec("canon-traps", nil)),
			Requests: []Request{summarize},
			Checks:   []Check{keyTrapsAcceptedCheck()},
		},
		{
			ID:     "KEY-006",
			Title:  "canonicalisation traps, tampered",
			Area:   "key",
			Source: "A2A 1.0 §8.4.3; RFC 8785 §3.2.2.2, §3.2.2.3",
			Setup: "Three cards, each honestly signed with one trap and changed after signing: the params' limit 0.3 then reads 0.30000000000000004; " +
				"the description's Résumé is re-spelt with combining accents (equal under Unicode normalisation, other bytes); its U+FFFD becomes the escape of a lone surrogate (which Go's encoding/json decodes as U+FFFD). " +
				"A canonicaliser that rounds numbers, normalises text or replaces bad surrogates maps each changed card onto the signed one. (The vendor serves cards their signatures were not computed over.)",
			Fleet: signed(mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "number"})),
			Requests: []Request{
				summarize,
				then(mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "unicode"})),
				then(mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "surrogate"})),
			},
			Checks: []Check{keyTrapsTamperedCheck()},
		},
	}
}

// The clauses of A2A 1.0 §8.4.3 the KEY checks rest on.
var (
	keyVerifySteps = A2A("§8.4.3", SrcMust, Client).Read("Clients verifying Agent Card signatures MUST retrieve the key by kid and jku (or from a trusted key store), " +
		"remove default-valued properties, exclude signatures, canonicalise with RFC 8785 and verify over the result: a MUST for a client that verifies, not a duty to verify.")
	keyVerifyBeforeTrust = A2A("§8.4.3", SrcShould, Client).Read("Security Considerations: clients SHOULD verify at least one signature before trusting an Agent Card.")
	keyNotExpired        = A2A("§8.4.3", SrcMust, Client).Read("Security Considerations: expired or revoked keys MUST NOT be used for verification. The section does not say how a key's expiry or revocation is published.")
)

// trustedCompletion passes when delegation i completed at vendor with a
// verified signature (trustMode full or reduced); what says a verifier
// took the card on the strength of its signature.
func trustedCompletion(r *Run, i int, vendor string) Verdict {
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	if o.Outcome == contract.OutcomeCompleted && o.TrustMode != contract.TrustModeFull && o.TrustMode != contract.TrustModeReduced {
		return Failf("delegation %d completed with trustMode %q: the key set was fetched, but the card was not taken as verified", i+1, o.TrustMode).
			Want("full or reduced", o.TrustMode)
	}
	if v := completedAt(r, i, vendor); v.Outcome != Pass {
		return v
	}
	return Passf("delegation %d completed with trustMode %s", i+1, o.TrustMode)
}

// refusedBySignature passes when delegation i sent no task to vendor and
// its outcome gives a signature reason (a refusal that judged the
// signature, not one for some other cause).
func refusedBySignature(r *Run, i int, vendor, card string) Verdict {
	if i >= len(r.Delegations) {
		return NotExercisedf("delegation %d (%s) was not run", i+1, card)
	}
	for _, e := range r.During(i) {
		if isTaskSend(e) && inVendor(e, vendor) {
			return Failf("delegation %d (%s): %s", i+1, card, describe(e)).At(e.Seq)
		}
	}
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	if !slices.Contains(signatureReasons, o.Reason) {
		return Failf("delegation %d (%s): no task was sent, but the reason is %q, want a signature reason (a refusal that did not judge the signature)", i+1, card, o.Reason).
			Want("signature-invalid, key-unknown, key-expired, key-ambiguous or signer-endpoint-mismatch", o.Reason)
	}
	return Passf("delegation %d (%s): no task sent; reason %s", i+1, card, o.Reason)
}

// keySetFetchedIn reports whether delegation i fetched vendor's key set
// (over any scheme).
func keySetFetchedIn(r *Run, i int, vendor string) bool {
	if i >= len(r.Delegations) {
		return false
	}
	return slices.ContainsFunc(r.During(i), func(e mockvendor.Event) bool { return e.Op == mockvendor.OpJWKSFetch && inVendor(e, vendor) })
}

func keyOneGoodCheck() Check {
	return Check{
		ID:     "KEY-001.ONE-GOOD",
		Title:  "a card with one good signature among several is taken as verified",
		Grades: should(Safety),
		Requirement: "A card may carry several signatures (A2A 1.0 §8.4.3, for key rotation). One that verifies over the card proves it; a signature by a key no longer published, " +
			"or one made over an earlier version, proves nothing but disproves nothing either. The task completes with the card taken as verified (trustMode full).",
		Sources: []Source{
			A2A("§8.4.3", SrcMay, Server).Read("multiple signatures MAY be present to support key rotation: the signer's choice, which a verifier has to expect"),
			keyVerifyBeforeTrust.Read("clients SHOULD verify at least one signature before trusting a card: one is enough"),
			Posture("a card one of whose signatures verifies is its signer's: refusing it for its other signatures turns every key rotation into an outage"),
		},
		Fix:          "Try every signature; accept the card when one verifies (with a key from the signer's key set), whatever the others do.",
		ReadsOutcome: true,
		Reached:      keysFetched("a"),
		Judge:        func(r *Run) Verdict { return trustedCompletion(r, 0, "a") },
	}
}

func keyExpiredCheck() Check {
	return Check{
		ID:     "KEY-002.REJECT",
		Title:  "a card signed only by an expired key gets no task",
		Grades: []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
		Requirement: "An expired key is never used for verification (A2A 1.0 §8.4.3). Its key set publishes the expiry in the key's certificate (x5c notAfter) and an exp member; " +
			"a card whose only signature needs that key has no signature that verifies, and gets no task.",
		Sources: []Source{
			keyNotExpired,
			keyVerifyBeforeTrust,
			RFC(7517, "§4.7", SrcDescriptive, Server).Read("x5c carries the certificate chain of the key; the first certificate holds the key itself"),
			RFC(5280, "§4.1.2.5", SrcDescriptive, Client).Read("a certificate's validity is the period notBefore to notAfter; outside it the binding of key and subject is not vouched for"),
		},
		Fix:          "Check the key's published validity (the x5c certificate's notBefore and notAfter, an exp member) before verifying with it; refuse the card when no current key verifies it (reason key-expired).",
		ReadsOutcome: true,
		Reached:      keysFetched("a"),
		Judge:        func(r *Run) Verdict { return refusedBySignature(r, 0, "a", "expired key") },
	}
}

func keyRevokedCheck() Check {
	return Check{
		ID:     "KEY-003.REJECT",
		Title:  "after its key is revoked, a card gets no task",
		Grades: must(Safety),
		Requirement: "A revoked key is never used for verification (A2A 1.0 §8.4.3). The vendor revokes a key by removing it from its key set, whose answers say no-store: " +
			"a client that verified the card once must not reuse the key it fetched then. After the revocation the card has no signature that verifies and gets no task.",
		Sources: []Source{
			keyNotExpired,
			RFC(9111, "§5.2.2.5", SrcMust, Client).Read("no-store: a cache MUST NOT store any part of the response; a key set so marked is fetched for each use"),
			Posture("revocation is published by the key set, the one place every client reads keys from; a client that keeps keys past what the key set allows keeps trusting a key its owner withdrew"),
		},
		Fix:          "Honour the key set's Cache-Control (no-store: fetch it for each verification) and look the kid up in the current set; refuse the card when the kid is gone (reason key-unknown).",
		ReadsOutcome: true,
		Reached:      allOf(keysFetched("a"), delegationsRan(2)),
		Judge: func(r *Run) Verdict {
			if v := trustedCompletion(r, 0, "a"); v.Outcome != Pass {
				return NotExercisedf("delegation 1 did not complete on the key before its revocation (%s): the revocation changed nothing the orchestrator had accepted", v.Detail)
			}
			return refusedBySignature(r, 1, "a", "revoked key")
		},
	}
}

func keyPlainHTTPCheck() Check {
	return Check{
		ID:     "KEY-004.NOT-TRUSTED",
		Title:  "a key fetched over plain HTTP does not make a card verified",
		Grades: []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
		Requirement: "Public keys are retrieved over HTTPS (A2A 1.0 §8.4.3, a SHOULD). A key set on http:// can be replaced by anyone on the path, so a card that verifies only with it is not verified: " +
			"refuse it, or at most delegate unpinned, as for an unsigned card; never full or reduced.",
		Sources: []Source{
			A2A("§8.4.3", SrcShould, Client).Read("Security Considerations: public keys SHOULD be retrieved over secure channels (HTTPS)"),
			keyVerifySteps,
			Posture("a key that came in the clear vouches for nothing: the card is no better than unsigned"),
		},
		Fix:          "Fetch key sets over HTTPS only; treat a jku with another scheme as no key (reason key-unknown) or the card as unsigned.",
		ReadsOutcome: true,
		Reached:      cardFetched("a"),
		Judge: func(r *Run) Verdict {
			o, bad := r.outcome(0)
			if bad != nil {
				return *bad
			}
			switch {
			case o.TrustMode == contract.TrustModeFull || o.TrustMode == contract.TrustModeReduced:
				return Failf("trustMode %s for a card whose key is offered only over plain HTTP", o.TrustMode).Want("unpinned, or a refusal", o.TrustMode)
			case o.Outcome == contract.OutcomeCompleted:
				return Passf("delegated with trustMode %q", o.TrustMode)
			}
			v := refusedBySignature(r, 0, "a", "jku over plain http")
			if v.Outcome == Fail && !v.Proven() && !keySetFetchedIn(r, 0, "a") {
				// Refused for a cause of its own before any key was
				// looked at: the key's scheme was never judged.
				return NotExercisedf("delegation 1 was refused before any key set was fetched, with reason %q: the refusal did not judge the key", o.Reason).
					Want("a refusal with a signature reason, or a delegation", "reason "+o.Reason+", no key set fetched")
			}
			return v
		},
	}
}

func keyTrapsAcceptedCheck() Check {
	return Check{
		ID:     "KEY-005.ACCEPT",
		Title:  "a correctly signed card with canonicalisation traps is taken as verified",
		Grades: []Grade{{Profile: Safety, Level: Should}, {Profile: Core, Level: Must, When: &claimsVerification}},
		Requirement: "A client that verifies canonicalises the card by RFC 8785 (A2A 1.0 §8.4.3): literal UTF-8, members ordered by UTF-16 code units, numbers in their ECMAScript form. " +
			"Done so, the card's signature verifies and the task completes with trustMode full. (In a2a-core this binds a client that claims to verify signatures.)",
		Sources: []Source{
			keyVerifySteps,
			A2A("§8.4.1", SrcMust, Server).Read("the card MUST be canonicalised with RFC 8785 before signing: the vendor did, so the same form verifies"),
			RFC(8785, "§3.2.3", SrcMust, Client).Read("members are sorted by their names as arrays of UTF-16 code units; §3.2.2.2 strings as UTF-8 without escaping beyond the mandatory set; §3.2.2.3 numbers as ECMAScript formats them"),
			Field("a2aproject/a2a-python#1174").Read("a canonicaliser that escapes non-ASCII, sorts keys by code point and formats numbers its own way fails to verify cards signed by another SDK"),
			Field("a2aproject/A2A#2122").Read("the spec's gloss of the canonical form (lexicographic key order, default removal) and SDKs disagree on exactly these cases"),
		},
		Fix:          "Canonicalise with an RFC 8785 implementation (UTF-16 key order, ECMAScript numbers, literal UTF-8), not a JSON encoder with sorted keys.",
		ReadsOutcome: true,
		Reached:      keysFetched("a"),
		Judge:        func(r *Run) Verdict { return trustedCompletion(r, 0, "a") },
	}
}

func keyTrapsTamperedCheck() Check {
	cards := []string{"number changed after signing", "text re-spelt after signing", "lone surrogate put in after signing"}
	return Check{
		ID:     "KEY-006.REJECT",
		Title:  "a card changed after signing, unseen by a lossy canonicaliser, gets no task",
		Grades: []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
		Requirement: "A card changed after signing has no signature that verifies over its RFC 8785 form: 0.30000000000000004 is not 0.3, a word spelt with combining accents is other bytes than its precomposed form, " +
			"and a lone surrogate is no character at all. A canonicaliser that rounds, normalises or substitutes takes each for the signed card; all three get no task.",
		Sources: []Source{
			keyVerifyBeforeTrust,
			keyVerifySteps,
			RFC(8785, "§3.2.2.3", SrcMust, Client).Read("numbers are serialised as ECMAScript does: the shortest form that reads back as the same double, so 0.30000000000000004 keeps every digit"),
			RFC(8785, "§3.2.2.2", SrcMust, Client).Read("strings are emitted as UTF-8 as they are, with no Unicode normalisation; a lone surrogate has no UTF-8 form"),
		},
		Fix:          "Canonicalise with RFC 8785 exactly (no rounding, no normalisation, lone surrogates refused) and refuse the card when no signature verifies (reason signature-invalid).",
		ReadsOutcome: true,
		Reached:      allOf(keysFetched("a"), delegationsRan(len(cards))),
		Judge: func(r *Run) Verdict {
			for i, card := range cards {
				if v := refusedBySignature(r, i, "a", card); v.Outcome != Pass {
					return v
				}
			}
			return Passf("the three changed cards were refused on their signature")
		},
	}
}
