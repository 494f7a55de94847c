package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// AUTH: credentials by the card's security schemes [A2A 1.0 §7; a2a-cli
// specification/COMPLIANCE.md A2ACLI_AUTH_001, A2ACLI_AUTH_003; seed 003,
// Operational Effect]. The vendors that demand a credential declare one
// scheme on their card and answer 401 without it; the request hands out
// the credentials the caller holds in trust.credentials, keyed by the
// origin each was issued for; the trace says of every request whose
// credential it presented and how (mockvendor.Event.Credentials).

// authVia is how the fleet traces a credential presented per a scheme.
const (
	viaBearer    = "bearer"
	apiKeyHeader = "X-Vendor-Key"
	viaAPIKey    = "header:" + apiKeyHeader
)

// presents reports whether the event presented owner's credential (any way
// when via is empty).
func presents(e mockvendor.Event, owner, via string) bool {
	return slices.ContainsFunc(e.Credentials, func(p mockvendor.Presented) bool {
		return p.Owner == owner && (via == "" || p.Via == via)
	})
}

// protectedD is vendor D demanding a credential; v10 makes it a 1.0-only
// vendor (its card declares the scheme in the 1.0 shape), else it serves
// 1.0 and 0.3 and its hybrid card declares it in the 0.3 shape.
func protectedD(ac mockvendor.AuthConfig, v10 bool) mockvendor.VendorConfig {
	d := mockvendor.VendorD()
	if v10 {
		d.Versions = []string{"1.0"}
	}
	d.Auth = &ac
	return d
}

// authReq is a delegation of skill to the card hosts that hands out the
// credentials of the vendors named.
func authReq(skill string, creds []string, candidates ...string) Request {
	r := req(skill, candidates...)
	r.Credentials = creds
	return r
}

// credentialRefused needs a request that presented the vendor's own
// credential and got 401.
func credentialRefused(vendor string) Precondition {
	return Precondition{
		Needs: "present " + vendorName(vendor) + "'s credential and get 401",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return e.Status == 401 && inVendor(e, vendor) && presents(e, vendor, "")
			})
		},
	}
}

// endpointMet needs the vendor's card fetched and its endpoint met: a
// request that reached it, a TLS handshake with it the client broke off, or
// a refusal that names its certificate.
func endpointMet(vendor string) Precondition {
	return allOf(cardFetched(vendor), Precondition{
		Needs: "meet " + vendorName(vendor) + "'s endpoint (call it, break off its TLS handshake, or refuse it as tls-san-mismatch)",
		Met: func(r *Run) bool {
			if slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && (isRPC(e) || e.Op == mockvendor.OpTLSFailed)
			}) {
				return true
			}
			return slices.ContainsFunc(r.Delegations, func(d Delegation) bool {
				return d.Outcome != nil && d.Outcome.Reason == contract.ReasonTLSSANMismatch
			})
		},
	})
}

// attachedAsDeclared judges that every call to the vendor's endpoint
// presented the vendor's credential the way its card declares.
func attachedAsDeclared(vendor, via, how string) func(r *Run) Verdict {
	return func(r *Run) Verdict {
		n := 0
		for _, e := range r.Events {
			if !isRPC(e) || !inVendor(e, vendor) {
				continue
			}
			n++
			if !presents(e, vendor, via) {
				return Failf("%s: %s's credential not presented %s (presented: %s)", describe(e), vendorName(vendor), how, presentedList(e)).
					At(e.Seq).Want(vendorName(vendor)+"'s credential "+how, presentedList(e))
			}
		}
		if n == 0 {
			return NotExercisedf("no call reached %s's endpoint", vendorName(vendor))
		}
		return Passf("%d calls to %s's endpoint, each with its credential %s", n, vendorName(vendor), how)
	}
}

func presentedList(e mockvendor.Event) string {
	if len(e.Credentials) == 0 {
		return "none"
	}
	var s []string
	for _, p := range e.Credentials {
		s = append(s, p.Owner+" via "+p.Via)
	}
	return strings.Join(s, ", ")
}

// The sources the AUTH checks share.
var (
	// authProcess is A2A 1.0 §7.3, which describes (no requirement
	// keyword) how a client authenticates: a2a-core SHOULD at most.
	authProcess = A2A("§7.3", SrcDescriptive, Client).Read("the client discovers the required schemes in the card's securitySchemes, obtains the credentials out of band, " +
		"and includes them in protocol-appropriate headers or metadata for every A2A request (described, with no requirement keyword)")
	// authCLIAttach is the a2a-cli client rule to attach credentials per
	// the declared scheme.
	authCLIAttach = CLI("A2ACLI_AUTH_001", SrcMust).Read("credentials attached per the agent's declared security scheme (a2a-cli SPEC §12.1, a Tier 1 MUST)")
	// authCLIInsecure asks for a warning, not a refusal.
	authCLIInsecure = CLI("A2ACLI_AUTH_003", SrcMust).Read("a tool MUST warn prominently when a credential is sent over a connection with certificate verification disabled, " +
		"and never disable verification silently; it asks for a warning, it does not forbid sending")
	// authBearerSafe is RFC 6750's summary of a client's duties for a
	// bearer token.
	authBearerSafe = RFC(6750, "§5.3", SrcMust, Client).Read("Safeguard bearer tokens: client implementations MUST ensure bearer tokens are not leaked to unintended parties; " +
		"Validate TLS certificate chains: the client MUST validate the chain when making requests to protected resources, or a DNS hijack steals the token")
	// authScope is this project's stance on where a credential may go.
	authScope = Posture("a credential goes only to the origin it was issued for, over a connection whose certificate verified for that host")
)

// authScenarios are the AUTH area.
func authScenarios() []*Scenario {
	const (
		srcAttach = "A2A 1.0 §7.3 (the card's securitySchemes say how; the credential goes in the protocol's headers of every request); a2a-cli COMPLIANCE.md A2ACLI_AUTH_001"
		srcLeak   = "seed 003, Decision Boundary and Operational Effect (under a reseller gateway the gateway's security context applies, not the signer's); RFC 6750 §5.3 (bearer tokens are not leaked to unintended parties)"
	)
	done := func(vendor string) func(r *Run) Verdict {
		return func(r *Run) Verdict { return completedAt(r, 0, vendor) }
	}
	return []*Scenario{
		{
			ID:       "AUTH-001",
			Title:    "bearer token as a 1.0 card declares it",
			Area:     "auth",
			Source:   srcAttach,
			Setup:    "D serves A2A 1.0 only; its card declares an HTTP bearer scheme (httpAuthSecurityScheme, securityRequirements) and its endpoint answers 401 with WWW-Authenticate: Bearer to a call without D's token. The request hands out D's token for https://rpc.agent-d.example.",
			Fleet:    fleetOf(protectedD(mockvendor.AuthConfig{}, true)),
			Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
			Offers:   []string{V10}, // a 0.3-only client cannot reach D: its checks need 1.0
			Checks: []Check{
				{
					ID:     "AUTH-001.ATTACH",
					Title:  "every call carries the bearer token the card asks for",
					Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "A client learns from the card's security schemes how the agent authenticates and presents the credential it holds for that agent on every request: for an HTTP bearer scheme, Authorization: Bearer <token>. " +
						"(A2A 1.0 §7.3 describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
					Sources: []Source{
						authProcess,
						Proto("HTTPAuthSecurityScheme.scheme", SrcDescriptive, Server).Read("the HTTP Authentication scheme to be used in the Authorization header, e.g. Bearer"),
						A2A03("§4.3", SrcDescriptive, Client).Read("the client learns the schemes from the card, gets the credentials out of band and puts them in the HTTP headers (e.g. Authorization: Bearer <token>) of every A2A request. The cards here are 1.0 only, so a 0.3-only client is judged only where the wire shows it sending to D anyway"),
						authCLIAttach,
					},
					Fix:     "Read securitySchemes (1.0: httpAuthSecurityScheme; 0.3: type http) and the requirements, find the credential held for the endpoint's origin, and send Authorization: Bearer <value> on every call.",
					Reached: rpcAt("d"),
					Judge:   attachedAsDeclared("d", viaBearer, "as Authorization: Bearer"),
				},
				{
					ID:           "AUTH-001.DONE",
					Title:        "the authenticated delegation completes",
					Grades:       must(Safety),
					Requirement:  "With the right credential presented the right way, the agent runs the task: the outcome is completed at D.",
					Sources:      []Source{authCLIAttach, authProcess},
					Fix:          "Present the credential as the card declares; a 401 means it was missing or sent the wrong way.",
					ReadsOutcome: true,
					Reached:      rpcAt("d"),
					Judge:        done("d"),
				},
			},
		},
		{
			ID:       "AUTH-002",
			Title:    "API key in the header a 0.3-shaped card names",
			Area:     "auth",
			Source:   srcAttach + "; A2A 0.3 AgentCard.securitySchemes (OpenAPI 3.0 apiKey: in, name)",
			Setup:    "D serves 1.0 and 0.3; its hybrid card declares an API key in the header " + apiKeyHeader + " in the 0.3 shape ({\"type\":\"apiKey\",\"in\":\"header\",\"name\":...}, security). A call without D's key in that header gets 401. The request hands out D's key for https://rpc.agent-d.example.",
			Fleet:    fleetOf(protectedD(mockvendor.AuthConfig{Scheme: mockvendor.AuthAPIKey, Header: apiKeyHeader}, false)),
			Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:     "AUTH-002.ATTACH",
					Title:  "every call carries the API key in the header the card names",
					Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "For an API key scheme the client sends the key where the scheme says (here the request header the scheme names), not as a bearer token or under a header of its own choosing. " +
						"(A2A describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
					Sources: []Source{
						authProcess,
						Proto("APIKeySecurityScheme", SrcDescriptive, Server).Read("location (query, header or cookie) and name: the parameter the key goes in"),
						A2A03("§5.5.3", SrcDescriptive, Server).Read("SecurityScheme describes the authentication requirements for the agent's url (OpenAPI apiKey: in, name)"),
						A2A03("§4.3", SrcDescriptive, Client).Read("the client includes the credentials in the appropriate HTTP headers (e.g. X-API-Key) of every A2A request"),
						authCLIAttach,
					},
					Fix:     "For an apiKey scheme (1.0: apiKeySecurityScheme location/name; 0.3: in/name) put the value in the named header.",
					Reached: rpcAt("d"),
					Judge:   attachedAsDeclared("d", viaAPIKey, "in the "+apiKeyHeader+" header"),
				},
				{
					ID:           "AUTH-002.DONE",
					Title:        "the delegation with the API key completes",
					Grades:       must(Safety),
					Requirement:  "With the key in the declared header the agent runs the task: the outcome is completed at D.",
					Sources:      []Source{authCLIAttach, authProcess},
					Fix:          "Send the API key in the header the card names.",
					ReadsOutcome: true,
					Reached:      rpcAt("d"),
					Judge:        done("d"),
				},
			},
		},
		{
			ID:       "AUTH-003",
			Title:    "refused credential: no retry loop",
			Area:     "auth",
			Source:   "A2A 1.0 §3.3.2 (servers MUST reject invalid credentials; HTTP 401); RFC 6750 §3.1 (invalid_token: the client MAY get a new token and retry); posture: no retry loop with a refused credential",
			Setup:    "D's card declares a bearer scheme; D refuses the token it issued (as if revoked): every call gets 401 with WWW-Authenticate: Bearer error=\"invalid_token\". The request hands out that token.",
			Fleet:    fleetOf(protectedD(mockvendor.AuthConfig{Revoked: true}, true)),
			Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
			Offers:   []string{V10},
			Checks: []Check{
				{
					ID:     "AUTH-003.NO-RETRY",
					Title:  "a refused credential is not sent again and again",
					Grades: must(Safety),
					Requirement: "A 401 says the origin refused the credential (A2A 1.0 §3.3.2; for a bearer token, RFC 6750 §3.1's invalid_token). RFC 6750 lets the client get a new token and retry; " +
						"it neither forbids nor asks for a retry with the same one. By this project's posture, sending the refused credential again and again cannot succeed and looks like the brute force " +
						"servers rate-limit (A2A 1.0 §13.4): after a 401 the client sends the same credential there at most once more in the delegation.",
					Sources: []Source{
						A2A("§3.3.2", SrcMust, Server).Read("Authentication Errors: servers MUST reject requests with invalid or missing credentials (HTTP 401)"),
						RFC(6750, "§3.1", SrcMay, Client).Read("invalid_token: the resource SHOULD answer 401, and the client MAY request a new access token and retry; nothing about retrying with the same token"),
						A2A("§13.4", SrcShould, Server).Read("agents SHOULD log authentication failures and implement rate limiting to prevent brute-force attacks"),
						Posture("after a 401, the same credential goes to that origin at most once more in the delegation"),
					},
					Fix:     "Treat 401 as final for that credential and origin in this delegation: stop, move to the next candidate, or get a new credential.",
					Reached: credentialRefused("d"),
					Judge: func(r *Run) Verdict {
						for i := range r.Delegations {
							refused, again := false, 0
							for _, e := range r.During(i) {
								if !inVendor(e, "d") || !presents(e, "d", "") {
									continue
								}
								if refused {
									again++
									if again > 1 {
										return Failf("delegation %d: %s: D's refused credential sent %d more times after its first 401", i+1, describe(e), again).At(e.Seq).
											Want("at most one more request with it after a 401", fmt.Sprintf("%d more", again))
									}
								}
								if e.Status == 401 {
									refused = true
								}
							}
						}
						return Passf("no refused credential was sent again more than once")
					},
				},
				{
					ID:          "AUTH-003.REPORT",
					Title:       "a refused credential is reported as such",
					Grades:      should(Safety),
					Requirement: "The caller needs to learn that its credential was refused (to renew it), not a generic failure: the outcome is failed or rejected with reason auth-rejected, or escalated to the caller.",
					Sources: []Source{
						A2A("§3.3.2", SrcMust, Server).Read("authentication errors are a category of their own, which servers MUST return for invalid credentials"),
						ContractRule("Delegation request: Credentials", SrcMust).Read("after a 401, report failed (or rejected) with reason auth-rejected; the check also takes an escalation to the caller"),
					},
					Fix:          "Map HTTP 401 to reason auth-rejected.",
					ReadsOutcome: true,
					Reached:      credentialRefused("d"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						switch {
						case o.Outcome == contract.OutcomeEscalated:
							return Passf("escalated to the caller (reason %q)", o.Reason)
						case (o.Outcome == contract.OutcomeFailed || o.Outcome == contract.OutcomeRejected) && o.Reason == contract.ReasonAuthRejected:
							return Passf("%s with reason auth-rejected", o.Outcome)
						}
						return Failf("outcome %s with reason %q; want failed or rejected with auth-rejected (or escalated)", o.Outcome, o.Reason).
							Want("failed/rejected with auth-rejected, or escalated", fmt.Sprintf("%s with %q", o.Outcome, o.Reason))
					},
				},
			},
		},
		{
			ID:     "AUTH-004",
			Title:  "reseller gateway: A's credential stays with A",
			Area:   "auth",
			Source: srcLeak,
			Setup: "A's validly signed card declares a bearer scheme and names https://gateway.vendor-b.example/a2a, B's reseller gateway, which demands B's own token. " +
				"The request hands out A's token for https://agent.vendor-a.example and B's for B's hosts (the gateway among them). Trust: A vouches for agent.vendor-a.example only.",
			Fleet: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Card.URL = "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
				a.Auth = &mockvendor.AuthConfig{}
				b := mockvendor.VendorB()
				b.Auth = &mockvendor.AuthConfig{}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{a, b}}
			},
			Requests: []Request{authReq(mockvendor.SkillSummarize, []string{"a", "b"}, mockvendor.HostVendorA)},
			Checks: []Check{
				{
					ID:     "AUTH-004.NO-LEAK",
					Title:  "A's credential never goes to the gateway A's card names",
					Grades: must(Safety),
					Requirement: "A credential belongs to the origin it was issued for. A card signed by A that names another party's gateway does not make A's credential valid there: the gateway's own security context applies, so A's credential is never presented to it " +
						"(the client refuses, or runs with the credential it holds for the gateway itself).",
					Sources: []Source{
						Seed003("Decision Boundary", SrcMust).Read("when the signer does not operate the endpoint the client must reject, or enter reduced trust where the endpoint's own constraints apply: " +
							"its own security context, not the signer's credential"),
						Seed003("Operational Effect", SrcDescriptive).Read("under a reseller gateway the gateway's security context applies, not the signer's securitySchemes"),
						authBearerSafe,
						authScope,
					},
					Fix:     "Key credentials by the endpoint's origin, not by the card or its signer; present at the gateway only a credential issued for the gateway's origin (or refuse it as signer-endpoint-mismatch).",
					Reached: cardFetched("a"),
					Judge: func(r *Run) Verdict {
						hosts := r.VendorHosts["a"]
						sent := 0
						for _, e := range r.Events {
							if !presents(e, "a", "") {
								continue
							}
							if !slices.Contains(hosts, e.Host) {
								return Failf("%s: A's credential presented to %s, which A does not operate", describe(e), e.Host).At(e.Seq).
									Want("A's credential only at "+strings.Join(hosts, ", "), "A's credential at "+e.Host)
							}
							sent++
						}
						if calls := filter(r.Events, func(e mockvendor.Event) bool { return e.Host == mockvendor.HostResellerB && isRPC(e) }); len(calls) > 0 {
							// Calling the gateway with no credential at all shows
							// nothing about which credential the client picks.
							if !slices.ContainsFunc(calls, func(e mockvendor.Event) bool { return presents(e, "b", "") }) {
								return NotExercisedf("the gateway was called with no credential at all (%s), so the client never chose between A's credential and the gateway's own", describe(calls[0]))
							}
							return Passf("the gateway was called with its own (B's) credential, never with A's (A's hosts saw it %d times)", sent)
						}
						// Nothing reached the gateway: a refusal passes when it
						// names the problem the card poses.
						if len(r.Delegations) == 0 || r.Delegations[0].Outcome == nil {
							return NotExercisedf("no request reached the gateway, and no outcome came")
						}
						o := r.Delegations[0].Outcome
						if o.Outcome != contract.OutcomeCompleted && slices.Contains([]string{contract.ReasonSignerEndpointMismatch, contract.ReasonNoCredential}, o.Reason) {
							return Passf("refused (%s, reason %s) before the gateway; A's credential never left A", o.Outcome, o.Reason)
						}
						return NotExercisedf("no request reached the gateway and the outcome (%s, reason %q) names neither the signer mismatch nor a missing credential", o.Outcome, o.Reason)
					},
				},
			},
		},
		{
			ID:     "AUTH-005",
			Title:  "no credential over an unverified connection",
			Area:   "auth",
			Source: "RFC 6750 §5.3 (validate TLS certificate chains); A2A 1.0 §7.2; a2a-cli COMPLIANCE.md A2ACLI_AUTH_003 (a credential over a connection without certificate verification is never silent); posture",
			Setup: "D's card (on agent-d.example, a good certificate) declares a bearer scheme; its endpoint rpc.agent-d.example presents a certificate from the fleet CA for other names, " +
				"as an impostor answering for that host would (no A2A server clause is about certificate names; A2A 1.0 §7.2 has the client verify them). The request hands out D's token for https://rpc.agent-d.example.",
			Fleet:    fleetOf(withFaults(protectedD(mockvendor.AuthConfig{}, true), mockvendor.Spec("wrong-san", nil, mockvendor.HostRPCD))),
			Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
			Offers:   []string{V10},
			Checks: []Check{
				{
					ID:     "AUTH-005.NO-UNVERIFIED",
					Title:  "the token is not sent to an endpoint whose certificate does not verify",
					Grades: must(Safety),
					Requirement: "A credential is presented only over a connection whose certificate verified for the host: one sent where verification failed (or was off) goes to whoever answers. " +
						"RFC 6750 §5.3 has a client validate the TLS certificate chain when it sends a bearer token, RFC 9110 §4.3.4 has it verify that the certificate is valid for the host " +
						"(an automated client SHOULD then end the connection), and A2A 1.0 §7.2 asks clients to verify (a SHOULD); a2a-cli asks only for a warning. " +
						"Never sending the credential over such a connection is this project's posture.",
					Sources: []Source{
						authBearerSafe.Read("Validate TLS certificate chains: the client MUST validate the chain when making requests to protected resources, or a DNS hijack steals the token"),
						RFC(9110, "§4.3.4", SrcMust, Client).Read("a client MUST verify the service identity (RFC 6125); when the certificate is not valid for the origin, " +
							"an automated client MUST log the error and SHOULD terminate the connection"),
						A2A("§7.2", SrcShould, Client).Read("A2A clients SHOULD verify the server's identity by validating its TLS certificate"),
						authCLIInsecure,
						authScope,
					},
					Fix:     "Keep certificate and host name verification on; when it fails, do not send the request (and so not the credential).",
					Reached: endpointMet("d"),
					Judge: func(r *Run) Verdict {
						var bare []mockvendor.Event
						for _, e := range r.Events {
							if !slices.Contains(r.UntrustedHosts, e.Host) || !isRPC(e) {
								continue
							}
							if len(e.Credentials) > 0 {
								return Failf("%s: a credential (%s) went to %s, whose certificate does not verify", describe(e), presentedList(e), e.Host).At(e.Seq)
							}
							bare = append(bare, e)
						}
						if len(bare) > 0 {
							// Requests without any credential over the bad
							// connection: G-TLS-VERIFIED judges the connection;
							// whether a credential would have gone too was not seen.
							return NotExercisedf("%s went over the unverified connection with no credential at all, so whether the client withholds its credential there was not seen", describe(bare[0]))
						}
						return Passf("no request, and so no credential, reached %v", r.UntrustedHosts)
					},
				},
			},
		},
		{
			ID:     "AUTH-006",
			Title:  "no credential fits: another candidate, or a refusal",
			Area:   "auth",
			Source: "A2A 1.0 §7.3 (the client obtains the credential for the server's declared scheme out of band); driver contract, Credentials (refusing and delegating to a vendor that needs none are both right)",
			Setup: "D's card declares a bearer scheme, and the request holds no credential for D's origin, only A's (for https://agent.vendor-a.example, not a candidate). " +
				"The second candidate, C, needs no credential.",
			Fleet: func() mockvendor.Config {
				a := mockvendor.VendorA()
				a.Auth = &mockvendor.AuthConfig{}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{protectedD(mockvendor.AuthConfig{}, true), plainC(), a}}
			},
			Requests: []Request{authReq(skillS, []string{"a"}, mockvendor.HostCardD, mockvendor.HostC)},
			Checks: []Check{
				{
					ID:     "AUTH-006.NO-FIT",
					Title:  "no borrowed credential; the task goes where no credential is needed, or is refused",
					Grades: must(Safety),
					Requirement: "Holding no credential for a vendor's origin, the client does not present one issued for another origin because its scheme looks alike; it delegates to a candidate it can call " +
						"(the task completes at C), or refuses naming the missing credential (no-credential, or auth-rejected after D's 401).",
					Sources: []Source{
						authProcess.Read("the client obtains the credentials the server's scheme requires out of band: a scheme that looks alike does not make another origin's credential the one required"),
						authBearerSafe.Read("Safeguard bearer tokens: client implementations MUST ensure bearer tokens are not leaked to unintended parties"),
						authScope,
						ContractRule("Delegation request: Credentials", SrcMust).Read("with no credential that fits a card that demands one, try the next candidate or report rejected with no-credential"),
					},
					Fix:          "Look credentials up by the endpoint's origin only; with none, skip the candidate (or report no-credential).",
					ReadsOutcome: true,
					Reached:      cardFetched("d"),
					Judge: func(r *Run) Verdict {
						for _, e := range r.Events {
							if inVendor(e, "d") && len(e.Credentials) > 0 {
								return Failf("%s: D was presented %s, and the caller holds no credential for D", describe(e), presentedList(e)).At(e.Seq)
							}
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						switch {
						case o.Outcome == contract.OutcomeCompleted:
							return completedAt(r, 0, "c")
						case (o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed) &&
							(o.Reason == contract.ReasonNoCredential || o.Reason == contract.ReasonAuthRejected):
							return Passf("%s with reason %s; no borrowed credential", o.Outcome, o.Reason)
						}
						return Failf("outcome %s with reason %q: want completed at C, or a refusal with no-credential (or auth-rejected)", o.Outcome, o.Reason).
							Want("completed at C, or rejected with no-credential", fmt.Sprintf("%s with %q", o.Outcome, o.Reason))
					},
				},
			},
		},
	}
}

// credentialPresented is met once the orchestrator presented a credential
// the scenario handed out, anywhere: an orchestrator that never attaches
// one has not shown where it would send it, so the credential globals give
// it no credit.
var credentialPresented = Precondition{
	Needs: "present a credential the request handed out",
	Met: func(r *Run) bool {
		return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
			return slices.ContainsFunc(e.Credentials, func(p mockvendor.Presented) bool {
				_, ours := r.CredentialHosts[p.Owner]
				return ours
			})
		})
	},
}

// judgeCredentialScope is G-CREDENTIAL-SCOPE: a credential the scenario
// handed out is presented only to a host it was handed out for, over a
// connection whose certificate verifies.
func judgeCredentialScope(r *Run) Verdict {
	if len(r.CredentialHosts) == 0 {
		return NotApplicablef("the scenario handed out no credential")
	}
	n := 0
	for _, e := range r.Events {
		for _, p := range e.Credentials {
			hosts, ours := r.CredentialHosts[p.Owner]
			if !ours {
				continue
			}
			if !slices.Contains(hosts, e.Host) {
				return Failf("%s: %s's credential presented to %s; it was handed out for %s only", describe(e), vendorName(p.Owner), e.Host, strings.Join(hosts, ", ")).At(e.Seq).
					Want(vendorName(p.Owner)+"'s credential only at "+strings.Join(hosts, ", "), "at "+e.Host)
			}
			if slices.Contains(r.UntrustedHosts, e.Host) {
				return Failf("%s: %s's credential presented to %s, whose certificate does not verify", describe(e), vendorName(p.Owner), e.Host).At(e.Seq)
			}
			n++
		}
	}
	return Passf("%d presentations, each at a host the credential was handed out for", n)
}

// credentialScopeCheck is the global requirement G-CREDENTIAL-SCOPE.
func credentialScopeCheck() Check {
	return Check{
		ID:     "G-CREDENTIAL-SCOPE",
		Title:  "a credential goes only to the origin it was issued for",
		Grades: must(Safety),
		Requirement: "Each credential the caller holds is keyed by the origin it was issued for and is presented only there, over a verified connection: never to another vendor's host, a gateway or CDN a card names, " +
			"or an endpoint whose certificate does not verify. A credential anywhere else is a leak, whatever the far side does with it.",
		Sources: []Source{
			authScope,
			authBearerSafe,
			Seed003("Operational Effect", SrcDescriptive).Read("under a reseller gateway the gateway's security context applies, not the signer's"),
			authCLIInsecure,
		},
		Fix:     "Look up the credential by the origin of the URL you are about to call (never by card, signer or scheme name) and attach it in that request only.",
		Reached: credentialPresented,
		Judge:   judgeCredentialScope,
		Local:   true,
	}
}

// judgeCredentialRedacted is G-CREDENTIAL-REDACTED: the orchestrator writes
// no credential value it was handed into what it reports (its outcome's
// detail, its stderr).
func judgeCredentialRedacted(r *Run) Verdict {
	if len(r.CredentialHosts) == 0 {
		return NotApplicablef("the scenario handed out no credential")
	}
	if len(r.CredentialsReported) > 0 {
		return Failf("the orchestrator wrote out a credential value: %s", strings.Join(r.CredentialsReported, "; ")).evidenced().
			Want("no credential value in the outcome or the logs", strings.Join(r.CredentialsReported, "; "))
	}
	return Passf("no credential value in what the orchestrator reported")
}

// credentialRedactedCheck is the global requirement G-CREDENTIAL-REDACTED.
func credentialRedactedCheck() Check {
	return Check{
		ID:          "G-CREDENTIAL-REDACTED",
		Title:       "no credential value in the orchestrator's reports or logs",
		Grades:      must(Safety),
		Requirement: "Credential material stays out of diagnostic output: a token in an outcome's detail or a log line ends up in CI logs and reports that many people read.",
		Sources: []Source{
			CLI("A2ACLI_AUTH_004", SrcMust).Read("a2a-cli SPEC §12.1: a tool MUST redact credential material from all diagnostic output, and no verbosity flag may defeat it"),
			A2A("§13.4", SrcMust, Server).Read("Audit and Monitoring: logs MUST NOT include sensitive information (credentials) unless required and properly protected; " +
				"stated among the agents' duties, read here for the client's own logs and reports"),
		},
		Fix:     "Never format a credential into a message; log which credential (its origin or scheme), not its value.",
		Reached: allOf(credentialPresented, delegationsRan(1)),
		Judge:   judgeCredentialRedacted,
		Local:   true,
	}
}
