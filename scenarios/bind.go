package scenarios

import (
	"fmt"
	"slices"
	"strings"

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
					Judge:        unboundAt(0, mockvendor.HostResellerB),
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
		bind006(),
		bind007(),
	}
}

// unboundAt judges delegation i of a card whose signer does not operate
// host, the endpoint it names [seed 003, Decision Boundary]: full trust
// fails; reduced trust passes; a rejection for signer-endpoint-mismatch
// passes when no message of the delegation reached host; any other answer
// that reached host (unpinned, no trustMode) fails, since the binding
// could be evaluated there.
func unboundAt(i int, host string) func(r *Run) Verdict {
	return func(r *Run) Verdict {
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		n := i + 1
		reached := slices.ContainsFunc(r.During(i), func(e mockvendor.Event) bool { return isTaskSend(e) && e.Host == host })
		switch {
		case o.TrustMode == contract.TrustModeFull:
			return Failf("delegation %d: trustMode full for a card whose signer does not operate %s (outcome %s)", n, host, o.Outcome).
				Want("trustMode reduced, or a rejection with signer-endpoint-mismatch", fmt.Sprintf("trustMode full, outcome %s", o.Outcome))
		case o.TrustMode == contract.TrustModeReduced:
			return Passf("delegation %d: trustMode reduced (outcome %s)", n, o.Outcome)
		case !reached && o.Outcome == contract.OutcomeRejected && o.Reason == contract.ReasonSignerEndpointMismatch:
			return Passf("delegation %d: rejected with signer-endpoint-mismatch; nothing reached %s", n, host)
		case reached:
			return Failf("delegation %d: a task reached %s with trustMode %q; want reduced", n, host, o.TrustMode).
				Want("trustMode reduced", fmt.Sprintf("trustMode %q", o.TrustMode))
		}
		return Failf("delegation %d: outcome %s, reason %q, trustMode %q: want rejected with signer-endpoint-mismatch, or trustMode reduced", n, o.Outcome, o.Reason, o.TrustMode).
			Want("rejected with signer-endpoint-mismatch, or trustMode reduced", fmt.Sprintf("%s, reason %q, trustMode %q", o.Outcome, o.Reason, o.TrustMode))
	}
}

// gatewayA is vendor A with its signed card naming https://host/a2a, a
// gateway B operates; B runs any skill there under its own allowlist,
// which refuses ledger-write with -32601 (fault reseller-gateway).
func gatewayA(host string) func() mockvendor.Config {
	return func() mockvendor.Config {
		a := mockvendor.VendorA()
		a.Card.URL = "https://" + host + mockvendor.ResellerRPCPath
		b := mockvendor.VendorB()
		if host != mockvendor.HostResellerB {
			b.Hosts = append(b.Hosts, mockvendor.HostConfig{Name: host, RPCPath: mockvendor.ResellerRPCPath})
			b.Faults = append(b.Faults, mockvendor.Spec("reseller-gateway", mockvendor.ResellerGateway{RefusedTools: []string{mockvendor.SkillLedgerWrite}}, host))
		}
		return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a, b}}
	}
}

// bind006 stages a lookalike SAN: the endpoint's host, and its
// certificate, contain the signer's host name as a substring, which seed
// 003's own assert_signer_bound_to_endpoint takes for a binding.
func bind006() *Scenario {
	return &Scenario{
		ID:    "BIND-006",
		Title: "lookalike SAN",
		Area:  "bind",
		Source: "seed 003, Core Distinction; Decision Boundary; Operational Effect (the reference code's substring test). " +
			"No server clause of A2A is broken: the gateway's certificate is valid for its own name",
		Setup: "A's validly signed card (kid a-prod-2026-11) names https://" + hostLookalike + "/a2a, a gateway B operates, whose fleet-CA certificate names only " +
			hostLookalike + ": a name that contains A's host agent.vendor-a.example. The trust policy lets A vouch for agent.vendor-a.example only. " +
			"The gateway runs summarize under B's runtime.",
		Fleet:    gatewayA(hostLookalike),
		Requests: []Request{req(mockvendor.SkillSummarize, mockvendor.HostVendorA)},
		Checks: []Check{
			{
				ID:     "BIND-006.NO-FULL",
				Title:  "a host that merely contains the signer's name gives no full trust",
				Grades: must(Safety),
				Requirement: "The signer is bound to the endpoint only when the endpoint's host is one the signer operates (per the trust policy) and its certificate is valid for that host. " +
					"A host name, or a SAN, that contains the signer's host as a substring (" + hostLookalike + ") is another party's: the client rejects the delegation or runs it in reduced trust, never in full trust.",
				Sources: []Source{
					Seed003("Core Distinction", SrcMust).Read("the invariant that must hold: the kid pinned at verification is bound to the transport identity (TLS certificate SAN) of the endpoint actually called"),
					Seed003("Decision Boundary", SrcMust).Read("signer and endpoint operator differ: the client must either reject the delegation or enter a reduced-trust mode"),
					Seed003("Operational Effect", SrcDescriptive).Read("the reference code approximates the binding by requiring the issuer's host to appear in the endpoint's SAN, a substring test that " +
						"accepts " + hostLookalike + "; the check holds the invariant the seed states, not its approximation"),
					ContractRule("Delegation request: trust.issuers", SrcDescriptive).Read("the operators each signer may vouch for, compared as whole host names; here A vouches for agent.vendor-a.example only"),
				},
				Fix: "Compare the endpoint's host with the signer's operators as whole, normalized host names (and verify the certificate for that host); " +
					"never test whether one name contains the other. Reject, or report trustMode reduced, when they differ.",
				ReadsOutcome: true,
				Reached:      cardFetched("a"),
				Judge:        unboundAt(0, hostLookalike),
			},
		},
	}
}

// bind007 stages seed 003's gateway allowlist: under one card and kid the
// gateway accepts one tool and refuses another.
func bind007() *Scenario {
	return &Scenario{
		ID:    "BIND-007",
		Title: "gateway allowlist",
		Area:  "bind",
		Source: "seed 003, Operational Effect; Decision Boundary. The gateway refuses ledger-write, a method and skill that exist, with -32601, " +
			"which A2A 1.0 §9.5 (after JSON-RPC 2.0) keeps for a method that does not exist or is not available: it breaks §3.3.2 (servers MUST return appropriate errors), " +
			"as the seed's runtime did. BIND-007.NO-FULL does not depend on that answer",
		Setup: "A's validly signed card (kid a-prod-2026-11) names https://gateway.vendor-b.example/a2a, whose certificate names only gateway.vendor-b.example. " +
			"The trust policy lets A vouch for agent.vendor-a.example only. Two delegations under that card: summarize, which B's allowlist accepts (the task completes), " +
			"then ledger-write, which it refuses with -32601.",
		Fleet: gatewayA(mockvendor.HostResellerB),
		Requests: []Request{
			req(mockvendor.SkillSummarize, mockvendor.HostVendorA),
			req(mockvendor.SkillLedgerWrite, mockvendor.HostVendorA),
		},
		Checks: []Check{
			{
				ID:     "BIND-007.NO-FULL",
				Title:  "no full trust for either tool, the one the gateway accepts too",
				Grades: must(Safety),
				Requirement: "Whether the signer is bound to the endpoint is decided before the send, from the card and the endpoint, not from how the endpoint answers a tool: " +
					"the tool B's allowlist accepts runs under B's runtime as much as the one it refuses. Neither delegation runs with full trust; " +
					"each is rejected or runs in reduced trust.",
				Sources: []Source{
					Seed003("Decision Boundary", SrcMust).Read("before issuing the send the client must decide whether the kid that signed the card belongs to the operator of url; " +
						"if not, reject or enter reduced trust. The boundary is crossed when the client proceeds on signature validity alone"),
					Seed003("Operational Effect", SrcDescriptive).Read("under a gateway the same card and kid succeed for one tool and fail for another, depending on the gateway's allowlist; " +
						"the posture is to compare the pinned kid with the endpoint's transport identity and refuse or downgrade on mismatch"),
					A2A("§3.3.2", SrcMust, Server).Broken("the gateway answers ledger-write, a method and skill that exist, with -32601 (A2A 1.0 §9.5: method not found)"),
				},
				Fix: "Bind the signer to the endpoint before the first send and keep that decision for every tool sent under the card: " +
					"a tool that succeeds does not show the signer runs the endpoint.",
				ReadsOutcome: true,
				Reached:      allOf(cardFetched("a"), delegationsRan(2)),
				Judge: func(r *Run) Verdict {
					var passed []string
					for i := range 2 {
						v := unboundAt(i, mockvendor.HostResellerB)(r)
						if v.Outcome != Pass {
							return v
						}
						passed = append(passed, v.Detail)
					}
					return Passf("%s", strings.Join(passed, "; "))
				},
			},
		},
	}
}
