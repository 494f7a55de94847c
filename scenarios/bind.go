package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// BIND: the signer must be bound to the endpoint [seed 003].
func bindScenarios() []*Scenario {
	// notFull passes a refusal that sent nothing and names the problem, or
	// came after the client broke off the endpoint's TLS handshake (seed 003
	// allows "reject the delegation"; no trustMode is needed for it), and any
	// delegation that did not claim full trust. A refusal for another reason
	// (the card could not be read) did not meet the problem.
	notFull := func(i int, reasons ...string) func(r *Run) Verdict {
		return func(r *Run) Verdict {
			o, bad := r.outcome(i)
			if bad != nil {
				return *bad
			}
			sent := slices.ContainsFunc(r.During(i), func(e mockvendor.Event) bool { return isTaskSend(e) && inVendor(e, "a") })
			refused := o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed
			// A client that tried the endpoint and broke off its TLS handshake
			// refused it for its certificate, whatever word it reports.
			brokeOff := slices.ContainsFunc(r.During(i), func(e mockvendor.Event) bool { return e.Op == mockvendor.OpTLSFailed && inVendor(e, "a") })
			if !sent && refused && o.TrustMode != contract.TrustModeFull {
				if !slices.Contains(reasons, o.Reason) && !brokeOff {
					return Failf("refused with reason %q, which is not the problem the card has: want %v (or a delegation without full trust)", o.Reason, reasons).
						Want(fmt.Sprintf("a refusal with reason %v", reasons), fmt.Sprintf("%s with reason %q", o.Outcome, o.Reason))
				}
				return Passf("refused (%s, reason %q) with no task sent", o.Outcome, o.Reason)
			}
			if o.TrustMode == contract.TrustModeFull {
				return Failf("trustMode full (outcome %s, reason %q)", o.Outcome, o.Reason)
			}
			if o.TrustMode == "" {
				return Failf("no trustMode reported (outcome %s)", o.Outcome)
			}
			return Passf("trustMode %s (outcome %s, reason %q)", o.TrustMode, o.Outcome, o.Reason)
		}
	}
	return []*Scenario{
		{
			ID:    "BIND-001",
			Title: "reseller gateway",
			Area:  "bind",
			Source: "seed 003, What Was Observed; Decision Boundary. The gateway refuses ledger-write with -32601, which A2A 1.0 §9.5 (after JSON-RPC 2.0) " +
				"keeps for a method that does not exist or is not available, as the seed's runtime did; BIND-001.NO-FULL does not depend on that answer",
			Setup: "A's validly signed card (kid a-prod-2026-11) names https://gateway.vendor-b.example/a2a, whose certificate names only gateway.vendor-b.example. " +
				"The trust policy lets A vouch for agent.vendor-a.example only. The gateway runs tasks under B's allowlist and refuses ledger-write.",
			Fleet: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Card.URL = "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a, mockvendor.VendorB()}}
			},
			Requests: []Request{req(mockvendor.SkillLedgerWrite, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:     "BIND-001.NO-FULL",
					Title:  "a card signed by A does not give full trust in B's gateway",
					Grades: must(Safety),
					Requirement: "A valid signature proves what the card says, not who runs the task. When the signer does not operate the endpoint, the client rejects the delegation " +
						"or enters a reduced-trust mode; it never runs it with full trust.",
					Sources: []Source{
						Seed003("Decision Boundary", SrcMust).Read("signer and endpoint operator differ: the client must either reject the delegation or enter a reduced-trust mode"),
					},
					Fix:          "After verifying, compare the signer's operators with the endpoint's host and certificate; reject or report trustMode reduced on mismatch.",
					ReadsOutcome: true,
					Reached:      cardFetched("a"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						reached := slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isTaskSend(e) && e.Host == mockvendor.HostResellerB })
						switch {
						case o.TrustMode == contract.TrustModeFull:
							return Failf("trustMode full for a card whose signer does not operate %s", mockvendor.HostResellerB)
						case o.TrustMode == contract.TrustModeReduced:
							return Passf("trustMode reduced (outcome %s)", o.Outcome)
						case !reached && o.Outcome == contract.OutcomeRejected && o.Reason == contract.ReasonSignerEndpointMismatch:
							return Passf("rejected with signer-endpoint-mismatch; no task reached the gateway")
						case reached:
							return Failf("a task reached the gateway with trustMode %q; want reduced", o.TrustMode)
						}
						return Failf("outcome %s, reason %q, trustMode %q: want rejected with signer-endpoint-mismatch, or trustMode reduced", o.Outcome, o.Reason, o.TrustMode)
					},
				},
			},
		},
		{
			ID:       "BIND-002",
			Title:    "same operator (control)",
			Area:     "bind",
			Source:   "seed 003, Decision Boundary",
			Setup:    "A's signed card names https://agent.vendor-a.example/a2a, a host A operates.",
			Fleet:    fleetOf(mockvendor.VendorA()),
			Requests: []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:          "BIND-002.FULL",
					Title:       "signer bound to its own endpoint: full trust, completed",
					Grades:      must(Safety),
					Requirement: "When the kid that signed the card belongs to the operator of the endpoint, the client delegates with full trust in the card.",
					Sources: []Source{
						Seed003("Decision Boundary", SrcMust).Read("the client must decide whether the kid that signed the card belongs to the operator of url; if yes, it delegates with full trust in the card's declared capabilities"),
					},
					Fix:          "Report trustMode full when the signature verifies and the endpoint host is one of the signer's operators with a matching certificate.",
					ReadsOutcome: true,
					Reached:      cardFetched("a"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted || o.TrustMode != contract.TrustModeFull {
							return Failf("outcome %s with trustMode %q (reason %q); want completed with full", o.Outcome, o.TrustMode, o.Reason)
						}
						if v := completedAt(r, 0, "a"); v.Outcome != Pass {
							return v
						}
						return Passf("completed with full trust")
					},
				},
			},
		},
		{
			ID:       "BIND-003",
			Title:    "unsigned card",
			Area:     "bind",
			Source:   "seed 003, Condition of Validity",
			Setup:    "A serves its card without signatures.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorA(), mockvendor.Spec("unsigned-card", nil))),
			Requests: []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:          "BIND-003.UNPINNED",
					Title:       "an unsigned card gives unpinned mode",
					Grades:      must(Safety),
					Requirement: "Without a signature the signer-to-endpoint invariant cannot be evaluated; the client falls back to an explicit unsigned/unpinned mode (or refuses the card as unsigned-card).",
					Sources: []Source{
						Seed003("Condition of Validity", SrcMust).Read("an unsigned card: the invariant cannot be evaluated and the client must fall back to an explicit unsigned/unpinned delegation mode " +
							"rather than assume equivalence; a refusal as unsigned-card that reports unpinned assumes no equivalence either, and passes"),
					},
					Fix:          "Report trustMode unpinned for cards without signatures.",
					ReadsOutcome: true,
					Reached:      cardFetched("a"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.TrustMode != contract.TrustModeUnpinned {
							return Failf("trustMode %q, want unpinned", o.TrustMode)
						}
						// A refusal must name the problem: a card refused for
						// another reason (the client could not read it) met no
						// unsigned card.
						if o.Outcome != contract.OutcomeCompleted && o.Reason != contract.ReasonUnsignedCard {
							return Failf("outcome %s with reason %q: want the delegation run unpinned, or refused as unsigned-card", o.Outcome, o.Reason).
								Want("completed unpinned, or refused with unsigned-card", fmt.Sprintf("%s with reason %q", o.Outcome, o.Reason))
						}
						return Passf("trustMode unpinned (outcome %s)", o.Outcome)
					},
				},
			},
		},
		{
			ID:    "BIND-004",
			Title: "bare IP, self-signed",
			Area:  "bind",
			Source: "seed 003, Condition of Validity. The self-signed certificate breaks no server clause of A2A; a client SHOULD verify it against trusted CAs " +
				"(A2A 1.0 §7.2), which G-TLS-VERIFIED holds as a MUST (our posture): no task may go to this endpoint",
			Setup: "A's signed card names https://127.0.0.1:PORT/a2a, served with a self-signed certificate outside the fleet CA.",
			Fleet: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Hosts = []mockvendor.HostConfig{{Name: mockvendor.HostVendorA, Card: true}, {RPCPath: mockvendor.VendorARPCPath}}
				a.Faults = []mockvendor.FaultSpec{mockvendor.Spec("self-signed", nil, "127.0.0.1")}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}}
			},
			Requests: []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:     "BIND-004.NO-FULL",
					Title:  "no task under full trust to a self-signed bare-IP endpoint",
					Grades: must(Safety),
					Requirement: "A bare-IP endpoint with a self-signed certificate cannot be compared with the issuer's identity; the binding cannot be evaluated and full trust is impossible. " +
						"Seed 003 lets such a delegation fall back to unpinned mode, and this check passes any answer without full trust; but the certificate does not verify, " +
						"and a task sent to the endpoint fails G-TLS-VERIFIED: only a refusal that sends nothing passes this scenario.",
					Sources: []Source{
						Seed003("Condition of Validity", SrcMust).Read("names this case (a bare IP with a self-signed cert): the invariant cannot be evaluated and the client must fall back " +
							"to an explicit unsigned/unpinned delegation mode rather than assume equivalence. The seed speaks of the trust given to the card; " +
							"it does not make a certificate that fails verification acceptable to send a task over"),
						A2A("§7.2", SrcShould, Client).Read("clients SHOULD validate the server's certificate against trusted CAs; G-TLS-VERIFIED holds it as a MUST (our posture), " +
							"so the only answer that passes both is a refusal"),
					},
					Fix: "Verify the endpoint's certificate before sending; when it does not verify (here a self-signed certificate on a bare IP), refuse the delegation " +
						"(tls-san-mismatch or signer-endpoint-mismatch) and send nothing. Running unpinned passes this check but fails G-TLS-VERIFIED.",
					ReadsOutcome: true,
					Reached:      cardFetched("a"),
					Judge:        notFull(0, contract.ReasonTLSSANMismatch, contract.ReasonSignerEndpointMismatch),
				},
			},
		},
		{
			ID:       "BIND-005",
			Title:    "ambiguous kid",
			Area:     "bind",
			Source:   "seed 003, Condition of Validity (1). A's key set breaks RFC 7517 §4.5 (keys in a JWK Set SHOULD have distinct kid values); no clause of A2A",
			Setup:    "A's JWKS holds two different keys with kid a-prod-2026-11.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorA(), mockvendor.Spec("duplicate-kid", nil))),
			Requests: []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:          "BIND-005.NO-FULL",
					Title:       "a kid that names two keys gives no full trust",
					Grades:      must(Safety),
					Requirement: "Pinning a kid means anything only when the kid is unique in the issuer's JWKS at the moment of use; with two keys under one kid there is no full trust.",
					Sources: []Source{
						Seed003("Condition of Validity (1)", SrcMust).Read("the kid must be unique within the issuer's JWKS at the moment of use; otherwise the invariant cannot be evaluated " +
							"and the client must fall back to an explicit unsigned/unpinned delegation mode, never full trust"),
						RFC(7517, "§4.5", SrcShould, Server).Read("different keys within a JWK Set SHOULD use distinct kid values: the vendor breaks this SHOULD"),
					},
					Fix:          "Treat a kid that matches several keys as key-ambiguous: refuse, or run without full trust.",
					ReadsOutcome: true,
					Reached:      cardFetched("a"),
					Judge:        notFull(0, contract.ReasonKeyAmbiguous),
				},
			},
		},
	}
}
