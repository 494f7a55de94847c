package scenarios

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Mutual TLS [A2A 1.0 §4.5.6 MutualTlsSecurityScheme; a2a-cli
// COMPLIANCE.md A2ACLI_AUTH_009]. The vendor's card declares a mutual TLS
// scheme and its endpoint's TLS asks for the client certificate it issued;
// the request hands the certificate out in trust.clientCertificates, keyed
// by the endpoint's origin; every request's trace event lists the client
// certificate its connection presented among its Credentials (via
// mockvendor.ViaClientCert).
//
// Levels: no A2A clause binds a client here. A2A 1.0 §7.3 describes (no
// keyword) how a client authenticates, and its step 3 puts the credential
// "in protocol-appropriate headers or metadata" of each request: a client
// certificate goes in the TLS handshake, below the protocol, so §7.3 does
// not describe presenting it; §4.5.6 (the scheme's proto message) only
// describes what a server declares; §7.4 binds servers; in §13 the
// client's duties are a webhook receiver's (§13.2), and §13.4's credential
// management (treat credentials as secrets, send them only over encrypted
// connections) says nothing of where a client certificate goes. So the
// checks are delegation-safety only, from a2a-cli's client rules and this
// project's posture.

// The sources the mTLS checks share.
var (
	// mtlsCLI is a2a-cli's Tier 3 requirement; every listed requirement
	// gates its tier.
	mtlsCLI = CLI("A2ACLI_AUTH_009", SrcMust).Read("Mutual TLS (a2a-cli SPEC §10.3, a Tier 3 requirement: a gating requirement of its tier)")
	// mtlsScheme is the scheme the card declares.
	mtlsScheme = Proto("SecurityScheme.mtls_security_scheme", SrcDescriptive, Server).Read("a card's security scheme may be mutual TLS authentication (MutualTlsSecurityScheme, A2A 1.0 §4.5.6: an optional description only)")
	// mtlsProcess is §7.3 read for a client certificate.
	mtlsProcess = A2A("§7.3", SrcDescriptive, Client).Read("the client discovers the required schemes in the card's securitySchemes, obtains the credentials out of band, " +
		"and includes them in protocol-appropriate headers or metadata for every A2A request (described, no requirement keyword)")
	// mtlsScope is this project's stance on whom a client certificate goes to.
	mtlsScope = Posture("a client certificate identifies the caller: it is presented only in TLS handshakes with the origin it was issued for, whoever else asks for one")
	// mtlsSeed is seed 003 naming mTLS SANs as a transport identity.
	mtlsSeed = Seed003("Core Distinction", SrcDescriptive).Read("names the TLS certificate or mTLS SAN as the transport identity of the endpoint that the signer's kid is bound to")
)

// mtlsD is vendor D, serving 1.0 and 0.3 (a client certificate is no
// matter of protocol version, and a 0.3-only client must be judged too),
// requiring the client certificate it issued on rpc.agent-d.example (its
// card host asks for none).
func mtlsD() mockvendor.VendorConfig {
	d := mockvendor.VendorD()
	d.MTLS = &mockvendor.MTLSConfig{}
	return d
}

// askingC is vendor C, open, whose endpoint (and card) host asks for a
// client certificate of any issuer and needs none.
func askingC() mockvendor.VendorConfig {
	c := plainC()
	c.MTLS = &mockvendor.MTLSConfig{AskOnly: true}
	return c
}

// certReq is a delegation of skill to the card hosts that hands out the
// client certificates of the vendors named.
func certReq(skill string, certs []string, candidates ...string) Request {
	r := req(skill, candidates...)
	r.ClientCerts = certs
	return r
}

// presentsCert reports whether the event's connection presented owner's
// client certificate.
func presentsCert(e mockvendor.Event, owner string) bool {
	return presents(e, owner, mockvendor.ViaClientCert)
}

// certPresented needs the vendor's client certificate presented somewhere.
func certPresented(vendor string) Precondition {
	return Precondition{
		Needs: "present " + vendorName(vendor) + "'s client certificate",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return presentsCert(e, vendor) })
		},
	}
}

// hostCalled needs a request that reached the host.
func hostCalled(host string) Precondition {
	return Precondition{
		Needs: "send a request to " + host,
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Host == host && e.HTTPMethod != "" })
		},
	}
}

// mtlsScenarios are the mutual TLS scenarios of the AUTH area.
func mtlsScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:     "AUTH-010",
			Title:  "client certificate to the endpoint that asks for it, and to no other host",
			Area:   "auth",
			Source: "A2A 1.0 §4.5.6 (MutualTlsSecurityScheme); a2a-cli COMPLIANCE.md A2ACLI_AUTH_009; seed 003, Core Distinction (mTLS SANs as transport identity); posture: a client certificate goes to its origin only",
			Setup: "D serves A2A 1.0 and 0.3; its card (agent-d.example, which asks for no certificate) declares a mutual TLS scheme (1.0 mtlsSecurityScheme with securityRequirements; 0.3 type mutualTLS with security), " +
				"and its endpoint rpc.agent-d.example asks in the TLS handshake for a client certificate from the fleet's client CA: a call whose connection did not present the one D issued gets 401. " +
				"C needs no credential, but its host asks for a client certificate of any issuer (a TLS terminator with optional client authentication). " +
				"Delegation 1 goes to D, delegation 2 to C; both hand out D's client certificate for https://rpc.agent-d.example.",
			Fleet: func() mockvendor.Config {
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{mtlsD(), askingC()}}
			},
			Requests: []Request{certReq(skillS, []string{"d"}, mockvendor.HostCardD), certReq(skillS, []string{"d"}, mockvendor.HostC)},
			Checks:   []Check{mtlsPresentCheck(), mtlsDoneCheck(), mtlsOnlyOriginCheck()},
		},
		{
			ID:     "AUTH-011",
			Title:  "no client certificate fits: no borrowed one, another candidate or a refusal",
			Area:   "auth",
			Source: "A2A 1.0 §4.5.6 (MutualTlsSecurityScheme), §7.3 (credentials obtained out of band for the server's scheme); posture: a client certificate goes to its origin only",
			Setup: "D's card declares a mutual TLS scheme and its endpoint asks for a client certificate from the fleet's client CA. The request holds no certificate for D's origin, only A's " +
				"(for https://agent.vendor-a.example, not a candidate), which the same client CA issued: a client that picks a certificate by the authorities the server names finds A's fitting. " +
				"The second candidate, C, needs no credential and asks for none.",
			Fleet: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.MTLS = &mockvendor.MTLSConfig{}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{mtlsD(), plainC(), a}}
			},
			Requests: []Request{certReq(skillS, []string{"a"}, mockvendor.HostCardD, mockvendor.HostC)},
			Checks:   []Check{mtlsNoBorrowCheck()},
		},
	}
}

func mtlsNoBorrowCheck() Check {
	return Check{
		ID:     "AUTH-011.NO-BORROW",
		Title:  "no borrowed client certificate; a completion is the candidate's that needs none",
		Grades: must(Safety),
		Requirement: "Holding no client certificate for D's origin, the client does not present one issued for another origin because the same authority signed it (the authorities a server names " +
			"say which issuers it takes, not whose certificate it is): a completion it reports is C's (the candidate it can call), and giving up instead is no borrowing. " +
			"A certificate issued for A presented at D fails, as does a completion claimed where the wire shows none.",
		Sources: []Source{
			mtlsProcess.Read("the client obtains the credentials the server's required scheme needs out of band (described, no requirement keyword)"),
			mtlsScope,
			authScope,
			mtlsCLI,
		},
		Fix:          "Look the client certificate up by the endpoint's origin only, never by the certificate authorities the server's TLS names; with none, skip the candidate (or report no-credential).",
		ReadsOutcome: true,
		Reached:      cardFetched("d"),
		Judge: func(r *Run) Verdict {
			for _, e := range r.Events {
				if inVendor(e, "d") && presentsCert(e, "a") {
					return Failf("%s: D was presented A's client certificate, and the caller holds none for D", describe(e)).At(e.Seq).
						Want("no client certificate at D", "A's")
				}
			}
			o, bad := r.outcome(0)
			if bad != nil {
				return *bad
			}
			if o.Outcome == contract.OutcomeCompleted {
				return completedAt(r, 0, "c")
			}
			return Passf("no borrowed certificate at D; the delegation ended %s (reason %q): not completing is no borrowing, and the reason word is not judged here", o.Outcome, o.Reason)
		},
	}
}

func mtlsPresentCheck() Check {
	return Check{
		ID:     "AUTH-010.PRESENT",
		Title:  "every call to the endpoint presents the client certificate it asks for",
		Grades: must(Safety),
		Requirement: "An agent whose card declares a mutual TLS scheme authenticates the caller by the client certificate presented in the TLS handshake: every connection that carries a call to its endpoint " +
			"presents the certificate the caller holds for that origin. (No A2A clause binds a client to this: A2A 1.0 §7.3 puts credentials in headers or metadata, and a client certificate is neither; " +
			"a2a-cli lists mutual TLS among a client's requirements, graded here in delegation-safety.)",
		Sources: []Source{mtlsCLI, mtlsScheme, mtlsProcess, CLI("A2ACLI_AUTH_001", SrcMust).Read("credentials attached per the agent's declared security scheme (a2a-cli SPEC §12.1, a Tier 1 MUST)")},
		Fix: "Read securitySchemes (1.0: mtlsSecurityScheme; 0.3: type mutualTLS); load trust.clientCertificates[<endpoint origin>] (certFile, keyFile) into the TLS configuration of the connections " +
			"to that origin only, and keep them for every call there.",
		Reached: rpcAt("d"),
		Judge: func(r *Run) Verdict {
			n := 0
			for _, e := range r.Events {
				if !isRPC(e) || !inVendor(e, "d") {
					continue
				}
				n++
				if !presentsCert(e, "d") {
					return Failf("%s: the connection presented no client certificate of D's (presented: %s)", describe(e), presentedList(e)).
						At(e.Seq).Want("D's client certificate in the TLS handshake", presentedList(e))
				}
			}
			if n == 0 {
				return NotExercisedf("no call reached D's endpoint")
			}
			return Passf("%d calls to D's endpoint, each over a connection that presented D's client certificate", n)
		},
	}
}

func mtlsDoneCheck() Check {
	return Check{
		ID:           "AUTH-010.DONE",
		Title:        "the delegation over mutual TLS completes",
		Grades:       must(Safety),
		Requirement:  "With the client certificate presented in the handshake, the agent runs the task: delegation 1's outcome is completed at D.",
		Sources:      []Source{mtlsCLI, mtlsProcess},
		Fix:          "Present the client certificate the request holds for the endpoint's origin; a 401 from a mutual TLS endpoint means the handshake carried none (or another).",
		ReadsOutcome: true,
		Reached:      rpcAt("d"),
		Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
	}
}

func mtlsOnlyOriginCheck() Check {
	return Check{
		ID:     "AUTH-010.ONLY-ORIGIN",
		Title:  "the client certificate goes to no other host, even one that asks for a certificate",
		Grades: must(Safety),
		Requirement: "A client certificate identifies the caller to whoever receives it. It is presented only to the origin it was issued for: a host of another vendor that asks for a certificate " +
			"of any issuer (as C's does) gets none. A TLS client presents one only when asked, so a client that configures the certificate for every connection shows it to every host that asks.",
		Sources: []Source{mtlsScope, authScope, mtlsSeed, mtlsCLI},
		Fix:     "Keep the certificate in the TLS configuration of its origin's connections only (a transport per origin, or a certificate callback that knows the host), never in a configuration shared by every host.",
		Reached: allOf(certPresented("d"), hostCalled(mockvendor.HostC)),
		Local:   true,
		Judge: func(r *Run) Verdict {
			own := r.CredentialHosts["d"]
			for _, e := range r.Events {
				if presentsCert(e, "d") && !slices.Contains(own, e.Host) {
					return Failf("%s: D's client certificate presented to %s; it was issued for %s only", describe(e), e.Host, strings.Join(own, ", ")).
						At(e.Seq).Want("D's client certificate only at "+strings.Join(own, ", "), "at "+e.Host)
				}
			}
			calls := filter(r.Events, func(e mockvendor.Event) bool { return e.Host == mockvendor.HostC && e.HTTPMethod != "" })
			return Passf("%d requests to %s, whose TLS asked for a certificate, presented none of D's", len(calls), mockvendor.HostC)
		},
	}
}
