package scenarios

import (
	"net"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// gRPC, the third binding [A2A 1.0.1 §10], where it matters: a card
// whose first interface is gRPC (IFACE-009), the a2a-version metadata a
// gRPC call must carry (IFACE-010), and a credential on gRPC calls
// (AUTH-013). The fleet answers gRPC on a host with HostConfig.GRPC and
// traces a call as the other bindings' operation with Binding "GRPC", its
// metadata as headers and its message as protojson JSON, so the checks
// read it as they read the others.
//
// Only a client that speaks gRPC is judged on it: one that neither
// declares GRPC in its hello nor was seen sending gRPC anywhere in the run
// (Run.speaks) gets NOT_APPLICABLE from the checks about gRPC calls, never
// FAIL; one of which nothing at all is known (it declared nothing and sent
// nothing) gets NOT_EXERCISED. A gRPC interface's url is host:port, as the proto's comment on
// main has it (a2aproject/A2A PR 1997, after issue 1388 found 1.0.1's
// https example wrong for gRPC); clients read it as the host and port to
// dial.

// Hosts and gRPC interface urls of the gRPC scenarios (vendor D).
const (
	// hostGRPCOnlyD is IFACE-009's gRPC interface: a host that serves
	// A2AService over gRPC and no HTTP binding.
	hostGRPCOnlyD = "grpc-api.agent-d.example"
)

// grpcTargetD is D's default gRPC interface url as its card names it,
// host:port: its JSON-RPC host, which serves A2AService too.
const grpcTargetD = mockvendor.HostRPCD + ":443"

// grpcOnlyAddrD is IFACE-009's gRPC interface url.
var grpcOnlyAddrD = hostGRPCOnlyD + ":443"

// The clauses the gRPC checks share.
var (
	// grpcParams is A2A 1.0.1 §10.2: service parameters (A2A-Version,
	// A2A-Extensions) go as gRPC metadata.
	grpcParams = A2A("§10.2", SrcMust, Client).Read("A2A service parameters (§3.2.6: A2A-Version, A2A-Extensions) MUST be transmitted as gRPC metadata; metadata keys are lowercase (a2a-version)")
	// grpcURLForm is the proto's word on a gRPC interface's url.
	grpcURLForm = Proto("AgentInterface.url", SrcDescriptive, Server).Read("the URL where the interface is available; 1.0.1's comment asks an absolute HTTPS URL and gives https://grpc.example.com/a2a for gRPC, " +
		"which the maintainers took for a bug (a2aproject/A2A issue 1388): main's comment (PR 1997) gives a gRPC url as hostname:port, the form D's card uses. Either names the host and port a client dials")
	// grpcFieldVersion is a2a-java's gRPC client without a2a-version.
	grpcFieldVersion = Field("a2aproject/a2a-java#1004").Read("the gRPC client sent no A2A-Version metadata, so a 1.0 server read every call as 0.3 and refused it: \"Protocol version '0.3' is not supported\"")
)

// grpcIfaceScenarios and grpcAuthScenarios are IFACE-010 and AUTH-013,
// which Catalog puts after their areas' others (IFACE-009 is in
// ifaceScenarios). IFACE-010 is about the version a call names, an
// interface-and-version matter (the catalog's IFACE area), not the
// signer's binding to an endpoint (BIND).
func grpcIfaceScenarios() []*Scenario { return []*Scenario{iface010()} }
func grpcAuthScenarios() []*Scenario  { return []*Scenario{auth013()} }

// grpcAt needs a gRPC call to the vendor.
func grpcAt(vendor string) Precondition {
	return Precondition{
		Needs: "call " + vendorName(vendor) + " over gRPC",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isGRPC(e) && inVendor(e, vendor) })
		},
	}
}

// grpcCallsAt are the gRPC calls that reached the vendor.
func grpcCallsAt(r *Run, vendor string) []mockvendor.Event {
	return filter(r.Events, func(e mockvendor.Event) bool { return isGRPC(e) && inVendor(e, vendor) })
}

// speaksGRPC says whether the client speaks gRPC, as the whole run knows
// (its hello's bindings, the gRPC calls of every scenario), and how the
// run shows it.
func speaksGRPC(r *Run) (bool, string) {
	for _, e := range r.Events {
		if isGRPC(e) {
			return true, "here: " + describe(e)
		}
	}
	sp := r.speaks()
	if !slices.Contains(sp.Bindings, contract.BindingGRPC) {
		return false, ""
	}
	if sp.Declared {
		return true, "as its hello declares, or as other scenarios of the run show"
	}
	return true, "as other scenarios of the run show"
}

// notGRPC is the verdict of a gRPC check for a client that neither
// declares gRPC nor was seen sending it: the check is about gRPC calls,
// and such a client makes none.
func notGRPC(r *Run) Verdict {
	sp := r.speaks()
	over := "no binding it named"
	if len(sp.Bindings) > 0 {
		over = strings.Join(sp.Bindings, ", ")
	}
	return NotApplicablef("the client neither declares GRPC in its hello nor was seen sending gRPC in the run (it speaks %s): the check is about gRPC calls", over)
}

// grpcJudge runs judge on a client that speaks gRPC, or of which nothing
// is known (it sent nothing anywhere and declared nothing: the judge finds
// nothing and says NOT_EXERCISED); a client that sent the vendor nothing
// because its card offers nothing it speaks gets unusableCard's verdict,
// and a client known to speak no gRPC notGRPC.
func grpcJudge(vendor string, decl []declared, judge func(r *Run) Verdict) func(r *Run) Verdict {
	return func(r *Run) Verdict {
		if v, ok := unusableCard(r, vendor, decl); ok {
			return v
		}
		if ok, _ := speaksGRPC(r); !ok && r.speaks().Known() {
			return notGRPC(r)
		}
		return judge(r)
	}
}

// createdAt is the event that created delegation i's reported task: a
// real send or stream answered with that task id and no error.
func createdAt(r *Run, i int, taskID string) (mockvendor.Event, bool) {
	for _, e := range r.During(i) {
		if isRealSend(e) && e.TaskID == taskID && e.ErrorCode == 0 {
			return e, true
		}
	}
	return mockvendor.Event{}, false
}

// bindingOf names the binding of a call for people.
func bindingOf(e mockvendor.Event) string {
	switch {
	case isGRPC(e):
		return "gRPC"
	case e.Binding == mockvendor.BindingREST:
		return "HTTP+JSON"
	}
	return "JSON-RPC"
}

// IFACE-009: the card lists gRPC first, JSON-RPC second, both live. A
// client that speaks gRPC takes it, at the host and port the card gives;
// one that does not takes the JSON-RPC entry; either completes through
// the interface it chose [A2A 1.0.1 §8.3.2, §5.2, §10].
func iface009() *Scenario {
	decl := []declared{
		{grpcOnlyAddrD, mockvendor.BindingGRPC, V10},
		{rpcURLD, mockvendor.BindingJSONRPC, V10},
	}
	dHosts := []string{mockvendor.HostCardD, mockvendor.HostRPCD, hostGRPCOnlyD}
	return &Scenario{
		ID:     "IFACE-009",
		Title:  "gRPC first, JSON-RPC second, both live",
		Area:   "iface",
		Source: "A2A 1.0.1 §8.3.2, §5.2, §10; a2aproject/A2A PR 1997 (a gRPC url is hostname:port). D breaks no clause",
		Setup: "D's card lists supportedInterfaces [GRPC 1.0 at " + grpcOnlyAddrD + " (host:port), JSONRPC 1.0 at " + rpcURLD + "]; the card is a 1.0 card. " +
			hostGRPCOnlyD + " serves A2AService over gRPC (TLS with its own certificate, ALPN h2) and no HTTP binding. D's card host and JSON-RPC host answer gRPC too, " +
			"as one gateway behind every name would, but the card names them for no gRPC interface.",
		Fleet: func() mockvendor.Config {
			d := ifaceVendorD(func(c *mockvendor.CardConfig) {
				c.Interfaces = []mockvendor.CardInterface{
					{URL: grpcOnlyAddrD, Binding: mockvendor.BindingGRPC},
					{URL: rpcURLD},
				}
			}, mockvendor.HostConfig{Name: hostGRPCOnlyD, GRPC: true})
			for i := range d.Hosts {
				d.Hosts[i].GRPC = true
			}
			d.Versions = []string{"1.0"} // a 1.0 card: gRPC is 1.0 only
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "IFACE-009.GRPC-FIRST",
				Title:  "a client that speaks gRPC takes the card's first interface, gRPC",
				Grades: should(Core),
				Requirement: "The card's first entry is its preferred interface, and a client that speaks gRPC supports it: its first attempt at D is the gRPC interface, not the JSON-RPC entry behind it. " +
					"(A SHOULD: §8.3.2 asks a client to select the first supported transport, but §5.2 lets a client choose any protocol the agent declares, so the card's order across bindings is a preference.) " +
					"A client that speaks no gRPC (its hello does not declare it and the run never shows it) is not judged here: it takes the JSON-RPC entry, which IFACE-009.DONE judges.",
				Sources: []Source{
					ifaceRule1, ifaceRule2,
					A2A("§5.2", SrcMay, Client).Read("Client Choice: clients MAY choose any protocol declared by the agent; read with §8.3.2, the card's order is what a client that speaks both follows, a SHOULD here"),
					A2A("§8.3.1", SrcDescriptive, Server).Read("the first entry in supportedInterfaces represents the preferred interface"),
					ifaceCLITx,
				},
				Fix:     "Walk supportedInterfaces in card order and take the first entry whose binding and version you speak, gRPC included; declare the bindings you speak in the hello.",
				Reached: ifaceAttempted("d", hostGRPCOnlyD),
				Judge: grpcJudge("d", decl, func(r *Run) Verdict {
					_, how := speaksGRPC(r)
					first := slices.IndexFunc(r.Events, func(e mockvendor.Event) bool {
						return inVendor(e, "d") && (isCall(e) || (e.Op == mockvendor.OpTLSFailed || e.Op == mockvendor.OpConnRefused) && e.Host == hostGRPCOnlyD)
					})
					if first < 0 {
						return NotExercisedf("no call reached D")
					}
					e := r.Events[first]
					switch {
					case isGRPC(e):
						return Passf("the client's first call to D, %s, is gRPC, the card's first interface", describe(e)).At(e.Seq)
					case !isCall(e):
						return Passf("the client's first attempt at D was the gRPC interface (%s: %s); what came after is a fallback (§5.2)", describe(e), e.Note).At(e.Seq)
					}
					return Failf("the client speaks gRPC (%s) yet its first call to D, %s, went over %s: the card lists GRPC 1.0 at %s first", how, describe(e), bindingOf(e), grpcOnlyAddrD).At(e.Seq).
						Want("a gRPC call at "+grpcOnlyAddrD+" first", bindingOf(e)+" first")
				}),
			},
			{
				ID:     "IFACE-009.ADDRESS",
				Title:  "gRPC calls go to the host and port the card gives",
				Grades: must(Core),
				Requirement: "The gRPC interface is where the card says: every gRPC call goes to " + grpcOnlyAddrD + ", read from the url host:port (or, where a card gives one, an https URL's host and port). " +
					"A gRPC call at another host of D (the card's host, the JSON-RPC host), or a dial of the right host at another port, is not the URL of the selected transport, even where something answers there.",
				Sources: []Source{ifaceRule3, ifaceEntry, grpcURLForm},
				Fix:     "Dial the gRPC interface's url as given: host:port as it stands (an https URL: its host, and its port or 443); never the card's host or another entry's.",
				Reached: grpcAt("d"),
				Judge: func(r *Run) Verdict {
					// A dial of one of D's hosts at a port the card does not
					// give is seen whatever the client says it speaks.
					for _, e := range r.Events {
						if e.Op == mockvendor.OpRefused {
							if h, port, err := net.SplitHostPort(e.Host); err == nil && port != "443" && slices.Contains(dHosts, strings.ToLower(h)) {
								return Failf("%s: a connection to %s, a host of D at a port its card does not give", describe(e), e.Host).At(e.Seq).Want(grpcOnlyAddrD, e.Host)
							}
						}
					}
					return grpcJudge("d", decl, judgeGRPCAddress)(r)
				},
			},
			{
				ID:     "IFACE-009.DONE",
				Title:  "the delegation completes over the interface the client chose",
				Grades: must(Safety),
				Requirement: "D is honest and both its interfaces work: the task completes, created at one of the card's interfaces on its binding (a gRPC call at " + grpcOnlyAddrD + ", or JSON-RPC at " + rpcURLD + "), " +
					"and the outcome names the interface that ran it. (A2A asks the client to select and use an interface, IFACE-009.GRPC-FIRST and .ADDRESS; it does not ask it to delegate, so the completion is graded in delegation-safety.)",
				Sources: []Source{ifaceRule3, ifaceFallback,
					Posture("a delegation to an honest vendor completes: the seeds' posture costs nothing where nothing is wrong"),
					ContractRule("Delegation outcome", SrcDescriptive).Read("agent is the endpoint URL that ran the task (for a gRPC interface, its host:port or https URL)")},
				Fix:          "Complete the task over the interface you selected, and report that interface as agent.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					v := completedAt(r, 0, "d")
					if v.Outcome != Pass {
						return v
					}
					o := r.Delegations[0].Outcome
					e, ok := createdAt(r, 0, o.TaskID)
					if !ok || slices.ContainsFunc(decl, func(d declared) bool { return d.at(e) }) {
						return v
					}
					return Failf("the task ran at %s, over %s, which is none of the card's interfaces (%s over gRPC, %s over JSON-RPC)", endpointOf(e), bindingOf(e), grpcOnlyAddrD, rpcURLD).At(e.Seq).
						Want("a task created at one of the card's interfaces", describe(e))
				},
			},
		},
	}
}

// judgeGRPCAddress: every gRPC call to D went to IFACE-009's gRPC
// interface host.
func judgeGRPCAddress(r *Run) Verdict {
	calls := grpcCallsAt(r, "d")
	if len(calls) == 0 {
		return NotExercisedf("no gRPC call reached D")
	}
	for _, e := range calls {
		if e.Host != hostGRPCOnlyD {
			return Failf("%s: a gRPC call at %s; the card's gRPC interface is %s", describe(e), e.Host, grpcOnlyAddrD).At(e.Seq).Want("gRPC calls at "+grpcOnlyAddrD, "a gRPC call at "+e.Host)
		}
	}
	return Passf("%s, each at %s", plural(len(calls), "gRPC call"), grpcOnlyAddrD)
}

// ifaceAttempted needs a call to one of the vendor's interfaces, or a
// connection to the host that failed before any call (a refused
// connection, a TLS handshake broken off: a gRPC client that could not
// reach it).
func ifaceAttempted(vendor, host string) Precondition {
	return Precondition{
		Needs: "try one of " + vendorName(vendor) + "'s interfaces",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && (isCall(e) || (e.Op == mockvendor.OpConnRefused || e.Op == mockvendor.OpTLSFailed) && e.Host == host)
			})
		},
	}
}

// grpcOnlyD is vendor D, A2A 1.0 only, whose card lists one interface,
// GRPC 1.0 at its JSON-RPC host (host:port), and whose JSON-RPC host
// serves A2AService.
func grpcOnlyD(d mockvendor.VendorConfig) mockvendor.VendorConfig {
	d.Versions = []string{"1.0"}
	d.Hosts = slices.Clone(d.Hosts)
	for i := range d.Hosts {
		if d.Hosts[i].Name == mockvendor.HostRPCD {
			d.Hosts[i].GRPC = true
		}
	}
	d.Card.Interfaces = []mockvendor.CardInterface{{URL: grpcTargetD, Binding: mockvendor.BindingGRPC}}
	return d
}

// IFACE-010: D's only interface is gRPC 1.0. A call without a2a-version
// metadata is a 0.3 call and is refused VersionNotSupported, as A2A 1.0.1
// §3.6.2 asks of D [a2aproject/a2a-java#1004].
func iface010() *Scenario {
	decl := []declared{{grpcTargetD, mockvendor.BindingGRPC, V10}}
	refused := Precondition{
		Needs: "call D over gRPC and get VersionNotSupported (-32009)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(grpcCallsAt(r, "d"), func(e mockvendor.Event) bool { return e.ErrorCode == -32009 })
		},
	}
	return &Scenario{
		ID:     "IFACE-010",
		Title:  "a2a-version over gRPC",
		Area:   "iface",
		Source: "A2A 1.0.1 §3.6.1, §3.6.2, §10.2; a2aproject/a2a-java#1004. D breaks no clause",
		Setup: "D serves A2A 1.0 only; its card lists one interface, GRPC 1.0 at " + grpcTargetD + " (host:port). Its gRPC binding reads the a2a-version metadata as the HTTP bindings read the A2A-Version header: " +
			"a call without it is a 0.3 call, answered FAILED_PRECONDITION with ErrorInfo VERSION_NOT_SUPPORTED (VersionNotSupportedError, -32009; A2A 1.0.1 §3.6.2, §5.4, §10.6).",
		Fleet:    fleetOf(grpcOnlyD(mockvendor.VendorD())),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "IFACE-010.METADATA",
				Title:  "every gRPC call carries a2a-version metadata",
				Grades: must(Core),
				Requirement: "A client sends the A2A version it speaks with every request (A2A 1.0.1 §3.6.1), and over gRPC a service parameter is gRPC metadata (§10.2): every gRPC call carries a2a-version with its Major.Minor (1.0). " +
					"Without it the agent reads the call as 0.3 (§3.6.2) and a 1.0 agent refuses it.",
				Sources: []Source{
					A2A("§3.6.1", SrcMust, Client).Read("clients MUST send A2A-Version with each request (except 0.3 clients: an empty value is read as 0.3)"),
					grpcParams,
					A2A("§3.6.2", SrcMust, Server).Read("agents MUST interpret an empty value as 0.3 and answer a version the interface does not support with VersionNotSupportedError: D does"),
					grpcFieldVersion,
				},
				Fix:     "Put a2a-version: 1.0 in the outgoing metadata of every gRPC call (a client interceptor), as the A2A-Version header of every HTTP request.",
				Reached: grpcAt("d"),
				Local:   true,
				Judge: grpcJudge("d", decl, func(r *Run) Verdict {
					calls := filter(r.Events, isGRPC)
					if len(calls) == 0 {
						return NotExercisedf("no gRPC call reached D")
					}
					for _, e := range calls {
						if !e.HasA2AVersion {
							return Failf("%s: a gRPC call without a2a-version metadata, read as a 0.3 call%s", describe(e), refusedNote(e)).At(e.Seq).Want("metadata a2a-version: 1.0", "absent")
						}
						if !majorMinor.MatchString(e.A2AVersion) {
							return Failf("%s: a2a-version %q is not Major.Minor", describe(e), e.A2AVersion).At(e.Seq).Want("metadata a2a-version: 1.0", e.A2AVersion)
						}
					}
					return Passf("%s, each with a2a-version", plural(len(calls), "gRPC call"))
				}),
			},
			{
				ID:     "IFACE-010.REPORT",
				Title:  "a delegation refused VersionNotSupported is reported as not done",
				Grades: must(Safety),
				Requirement: "When D answered VersionNotSupported, its task did not run: the outcome says so (failed or rejected, or escalated to the caller), or, where the client sent the call again with a2a-version, " +
					"reports a completion the wire shows. An outcome is a claim checked against the wire: completed (or interrupted) with no such task at D is a success the vendor never gave.",
				Sources: []Source{
					A2A("§3.6.2", SrcMust, Server).Read("a version the interface does not support is answered with VersionNotSupportedError: the request was not processed"),
					ContractRule("Delegation outcome", SrcDescriptive).Read("completed needs a completed task at the endpoint named by agent; a refusal is failed or rejected with its reason"),
					Posture("an outcome is a claim checked against the wire: a delegation the agent refused is never reported done"),
					grpcFieldVersion.Read("the refusal reached the caller as an error (A2AClientException: \"Protocol version '0.3' is not supported\")"),
				},
				Fix:          "Read a gRPC status whose ErrorInfo is VERSION_NOT_SUPPORTED as a refusal: report failed (reason version-mismatch or other), or send a2a-version and try again.",
				ReadsOutcome: true,
				Reached:      refused,
				Judge: grpcJudge("d", decl, func(r *Run) Verdict {
					calls := grpcCallsAt(r, "d")
					k := slices.IndexFunc(calls, func(e mockvendor.Event) bool { return e.ErrorCode == -32009 })
					if len(calls) == 0 {
						return NotExercisedf("no gRPC call reached D")
					}
					if k < 0 {
						return NotApplicablef("D refused none of the %s (each carried a2a-version): no VersionNotSupported to report", plural(len(calls), "gRPC call"))
					}
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					switch o.Outcome {
					case contract.OutcomeFailed, contract.OutcomeRejected, contract.OutcomeEscalated:
						return Passf("outcome %s (reason %q) after %s was refused VersionNotSupported", o.Outcome, o.Reason, describe(calls[k])).At(calls[k].Seq)
					case contract.OutcomeCompleted:
						return completedAt(r, 0, "d") // sent again with a2a-version: the wire must show the task done
					}
					return Failf("outcome %s (reason %q) after %s was refused VersionNotSupported", o.Outcome, o.Reason, describe(calls[k])).At(calls[k].Seq).
						Want("failed, rejected or escalated (or a completion the wire shows)", o.Outcome)
				}),
			},
		},
	}
}

// refusedNote says how the fleet answered a call, for a failure text.
func refusedNote(e mockvendor.Event) string {
	if e.ErrorCode == -32009 {
		return " and refused VersionNotSupported"
	}
	return ""
}

// AUTH-013: D's only interface is gRPC and demands an API key in the
// header its card names; over gRPC that header is metadata (lowercase)
// [A2A 1.0.1 §7.3, §10.2; a2aproject/a2a-java#708].
func auth013() *Scenario {
	decl := []declared{{grpcTargetD, mockvendor.BindingGRPC, V10}}
	const metaKey = "x-vendor-key"
	return &Scenario{
		ID:     "AUTH-013",
		Title:  "an API key on gRPC calls",
		Area:   "auth",
		Source: "A2A 1.0.1 §7.3 (credentials in protocol-appropriate headers or metadata), §10.2; a2a-cli COMPLIANCE.md A2ACLI_AUTH_001; a2aproject/a2a-java#708. D breaks no clause",
		Setup: "D serves A2A 1.0 only; its card lists one interface, GRPC 1.0 at " + grpcTargetD + ", and declares an API key in the header " + apiKeyHeader + " (apiKeySecurityScheme, location header). " +
			"Over gRPC the header is the metadata key " + metaKey + " (gRPC metadata keys are lowercase); a call without D's key there is refused UNAUTHENTICATED. The request hands out D's key for https://" + mockvendor.HostRPCD + ".",
		Fleet:    fleetOf(grpcOnlyD(protectedD(mockvendor.AuthConfig{Scheme: mockvendor.AuthAPIKey, Header: apiKeyHeader}, true))),
		Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "AUTH-013.ATTACH",
				Title:  "every gRPC call carries the API key in the metadata the card names",
				Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "The credential goes on every request, whatever the binding: over gRPC the header an API key scheme names is gRPC metadata of that name, lowercase (" + metaKey + "), on every call (the probe, the send, every get and cancel), " +
					"not only on the HTTP paths of the client. (A2A 1.0.1 §7.3 describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
				Sources: []Source{
					authProcess,
					Proto("APIKeySecurityScheme", SrcDescriptive, Server).Read("location (query, header or cookie) and name: the parameter the key goes in; over gRPC a header is metadata"),
					A2A("§10.2", SrcDescriptive, Client).Read("over gRPC, service parameters travel as metadata (headers), whose keys gRPC lowercases; the section names no credential, so it is read only as where a header goes over gRPC"),
					authCLIAttach,
					Field("a2aproject/a2a-java#708").Read("credentials missing from requests on one of the client's paths"),
				},
				Fix:     "Attach the credential in a gRPC client interceptor (or per-call credentials) so every call, unary and streaming, carries it, in the metadata key the scheme names, lowercased.",
				Reached: grpcAt("d"),
				Judge: grpcJudge("d", decl, func(r *Run) Verdict {
					calls := grpcCallsAt(r, "d")
					if len(calls) == 0 {
						return NotExercisedf("no gRPC call reached D")
					}
					for _, e := range calls {
						if !presents(e, "d", viaAPIKey) {
							return Failf("%s: D's API key not in the %s metadata (presented: %s)", describe(e), metaKey, presentedList(e)).At(e.Seq).
								Want("D's key in metadata "+metaKey, presentedList(e))
						}
					}
					return Passf("%s, each with D's key in %s", plural(len(calls), "gRPC call"), metaKey)
				}),
			},
			{
				ID:           "AUTH-013.DONE",
				Title:        "the delegation over gRPC with the API key completes",
				Grades:       must(Safety),
				Requirement:  "With the key in the declared metadata D runs the task: the outcome is completed at D, through its gRPC interface.",
				Sources:      []Source{authCLIAttach, authProcess},
				Fix:          "Send the API key as the metadata the card's scheme names on every gRPC call.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					if ok, _ := speaksGRPC(r); !ok && r.speaks().Known() {
						return notGRPC(r)
					}
					return completedThrough(r, 0, "d", grpcTargetD)
				},
			},
		},
	}
}
