package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// IFACE: interface and version selection [A2A 1.0 §8.3.2, §5.2, §3.6;
// a2aproject/a2a-cli specification/COMPLIANCE.md A2ACLI_TX_001..003,
// A2ACLI_VER_001 (SPEC §13.1-13.2)]. Every scenario gives vendor D a card
// with explicit interfaces (mockvendor.CardConfig.Interfaces, Form,
// LegacyURL); D's endpoints hold the card to what it says of them: each
// serves only the versions the card declares for its URL (-32009 for
// others) and, where a tenant is declared, refuses a request without it.
// The checks read which interface each request reached, the version it
// asked for (A2A-Version header or query parameter; none is 0.3) and the
// tenant it named, and hold the outcome against the wire.

// Hosts and interface URLs of the IFACE fleets (vendor D).
const (
	hostLegacyD = "legacy.agent-d.example"
	hostGRPCD   = "grpc.agent-d.example"
	hostDownD   = "down.agent-d.example"
	legacyPathD = "/a2a"
	tenantD     = "acme-eu"
)

var (
	rpcURLD    = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath
	restURLD   = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRESTPath
	legacyURLD = "https://" + hostLegacyD + legacyPathD
	grpcURLD   = "https://" + hostGRPCD
	downURLD   = "https://" + hostDownD + mockvendor.DefaultRPCPath
)

// The clauses of interface selection the IFACE checks cite. A2A 1.0 §8.3.2
// is a client MUST in four rules; the proto defines an interface as a URL,
// a binding and a version together, which is how the checks read "the
// first supported transport" and "the correct URL for the selected
// transport".
var (
	ifaceRule1 = A2A("§8.3.2", SrcMust, Client).Read("rule 1: parse supportedInterfaces if present, and select the first supported transport (rule 2: prefer earlier entries)")
	ifaceRule3 = A2A("§8.3.2", SrcMust, Client).Read("rule 3: use the correct URL for the selected transport")
	ifaceRule4 = A2A("§8.3.2", SrcMust, Client).Read("rule 4: set tenant in every request message to exactly the value the selected AgentInterface declares (omit it when the entry sets none)")
	// ifaceEntry is the proto's definition the rules are read with.
	ifaceEntry = Proto("AgentInterface", SrcDescriptive, Server).Read("an interface declares a combination of URL, transport and protocol version; protocol_version (REQUIRED) is the version the interface exposes. " +
		"So an entry the client supports is one whose binding and version it speaks, and the URL of the selected entry is the URL for that binding at that version.")
	ifaceFallback = A2A("§5.2", SrcShould, Client).Read("Fallback Behavior: clients SHOULD implement fallback logic for alternative protocols")
	ifaceCLITx    = CLI("A2ACLI_TX_001", SrcMust).Read("transport selected from the card, honoring its preference order (a2a-cli SPEC §13.1)")
	ifaceCLIVer   = CLI("A2ACLI_VER_001", SrcMust).Read("a2a-cli SPEC §13.2: negotiate down only within 1.x and MUST NOT go below 1.0, which needs an explicit opt-in; " +
		"MUST surface a version-unsupported error clearly rather than silently downgrading")
)

// declared is one interface a scenario's card declares.
type declared struct {
	url, binding, version string
}

// at reports whether a request reached the interface: its JSON-RPC URL,
// a route below its HTTP+JSON URL, or a gRPC call to its gRPC host (url
// host:port or an https URL; the path is the service method's).
func (d declared) at(e mockvendor.Event) bool {
	host, path := hostPath(d.url)
	if e.Host != host {
		return false
	}
	switch d.binding {
	case mockvendor.BindingREST:
		return e.Binding == mockvendor.BindingREST && strings.HasPrefix(e.Path, path+"/")
	case mockvendor.BindingGRPC:
		return e.Binding == mockvendor.BindingGRPC
	}
	return e.Binding == "" && e.Path == path
}

func (d declared) String() string { return d.binding + " " + d.version + " interface " + d.url }

// bodyIsParams reports whether the event's traced body is the request
// message itself, the params of its JSON-RPC form: an HTTP+JSON body, or
// a gRPC request as its protojson.
func bodyIsParams(e mockvendor.Event) bool {
	return e.Binding == mockvendor.BindingREST || e.Binding == mockvendor.BindingGRPC
}

// isCall reports whether the event is an A2A call on any binding.
func isCall(e mockvendor.Event) bool {
	return isRPC(e) || e.Binding == mockvendor.BindingREST
}

// askedVersion is the A2A version (Major.Minor) a request asked for: its
// A2A-Version header, else the query parameter, else 0.3 [A2A 1.0 §3.6.2].
func askedVersion(e mockvendor.Event) string {
	v := e.A2AVersion
	if !e.HasA2AVersion && e.A2AVersionQuery != "" {
		v = e.A2AVersionQuery
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return "0.3"
	}
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

func below10(v string) bool { return strings.HasPrefix(v, "0.") }

// callsAt are the calls that reached the vendor.
func callsAt(r *Run, vendor string) []mockvendor.Event {
	return filter(r.Events, func(e mockvendor.Event) bool { return isCall(e) && inVendor(e, vendor) })
}

// interfaceTried needs a call to, or a refused connection at, one of the
// vendor's interfaces.
func interfaceTried(vendor string) Precondition {
	return Precondition{
		Needs: "try one of " + vendorName(vendor) + "'s interfaces",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && (isCall(e) || e.Op == mockvendor.OpConnRefused)
			})
		},
	}
}

// deadInterfaceEvent reports whether e is IFACE-004's dead interface
// failing a client: a connection the down host refused, or a TLS
// handshake with the gRPC host broken off (it offers no h2, so a gRPC
// client cannot reach it).
func deadInterfaceEvent(e mockvendor.Event) bool {
	return e.Op == mockvendor.OpConnRefused && e.Host == hostDownD || e.Op == mockvendor.OpTLSFailed && e.Host == hostGRPCD
}

// deadInterfaceTried needs one of IFACE-004's dead interfaces tried.
func deadInterfaceTried() Precondition {
	return Precondition{
		Needs: "try the interface at " + hostDownD + ", which refuses connections (or, over gRPC, " + hostGRPCD + ", which offers no h2)",
		Met:   func(r *Run) bool { return slices.ContainsFunc(r.Events, deadInterfaceEvent) },
	}
}

// versionRefused needs a 1.x request the vendor answered -32009.
func versionRefused(vendor string) Precondition {
	return Precondition{
		Needs: "ask " + vendorName(vendor) + " for A2A 1.x and get -32009",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return isCall(e) && inVendor(e, vendor) && e.ErrorCode == -32009 && !below10(askedVersion(e))
			})
		},
	}
}

// unusableCard is the verdict for a client that read the vendor's card,
// found no interface it speaks, and sent the vendor nothing (no call, no
// connection) before its delegation ended without a completion: the wire
// shows the refusal, whatever word the outcome gives for it. What the
// client speaks is what the whole run shows (Run.speaks); where no
// interface is in a version it speaks, the check needs that version
// (NeedsVersionf), and where only the binding is unspoken it does not
// apply. ok is false when the client sent the vendor anything, completed,
// gave no outcome, or nothing is known of what it speaks.
func unusableCard(r *Run, vendor string, decl []declared) (Verdict, bool) {
	if len(r.Delegations) == 0 || r.Delegations[0].Outcome == nil || r.Delegations[0].Outcome.Outcome == contract.OutcomeCompleted || !cardFetched(vendor).Met(r) {
		return Verdict{}, false
	}
	if slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
		return inVendor(e, vendor) && (isCall(e) || e.Op == mockvendor.OpConnRefused)
	}) {
		return Verdict{}, false
	}
	sp := r.speaks()
	if !sp.Known() {
		return Verdict{}, false
	}
	var versions, offered []string
	for _, d := range decl {
		if !sp.Has(d.version) {
			versions = addWord(versions, Family(d.version))
			offered = append(offered, d.String())
			continue
		}
		if len(sp.Bindings) > 0 && !slices.Contains(sp.Bindings, d.binding) {
			offered = append(offered, d.String())
			continue
		}
		return Verdict{}, false // an interface it speaks: the refusal is judged as one
	}
	if !slices.ContainsFunc(decl, func(d declared) bool { return sp.Has(d.version) }) {
		return NeedsVersionf(strings.Join(versions, ", "), "the card offers %s; the client speaks A2A %s, read the card and sent %s nothing", strings.Join(offered, "; "), sp, vendorName(vendor)), true
	}
	return NotApplicablef("the card offers %s; the client speaks A2A %s over %s only, read the card and sent %s nothing", strings.Join(offered, "; "), sp, strings.Join(sp.Bindings, ", "), vendorName(vendor)), true
}

// ifaceVendorD is vendor D with extra hosts and the card's interfaces.
func ifaceVendorD(card func(c *mockvendor.CardConfig), extra ...mockvendor.HostConfig) mockvendor.VendorConfig {
	d := mockvendor.VendorD()
	d.Hosts = append(d.Hosts, extra...)
	card(&d.Card)
	return d
}

// judgeDeclaredVersions: every call that reached a declared interface
// asked for the version that interface declares.
func judgeDeclaredVersions(r *Run, vendor string, decl []declared) Verdict {
	calls := callsAt(r, vendor)
	if len(calls) == 0 {
		return NotExercisedf("no call reached %s", vendorName(vendor))
	}
	n := 0
	for _, e := range calls {
		for _, d := range decl {
			if !d.at(e) {
				continue
			}
			n++
			if got := askedVersion(e); got != d.version {
				return Failf("%s asked for A2A %s at the %s", describe(e), got, d).At(e.Seq).
					Want("A2A-Version "+d.version+" at that interface (its declared protocolVersion)", "A2A-Version "+got)
			}
		}
	}
	if n == 0 {
		return NotExercisedf("no call reached an interface the card declares")
	}
	return Passf("%d calls, each in the version its interface declares", n)
}

// completedThrough: delegation i completed at the vendor, at the host of
// one of the URLs.
func completedThrough(r *Run, i int, vendor string, urls ...string) Verdict {
	v := completedAt(r, i, vendor)
	if v.Outcome != Pass {
		return v
	}
	o := r.Delegations[i].Outcome
	host, _ := hostPath(o.Agent)
	for _, u := range urls {
		if h, _ := hostPath(u); h == host {
			return v
		}
	}
	at := fmt.Sprintf("completed at %q", o.Agent)
	if o.Agent == "" {
		at = "completed, with no agent named in the outcome"
	}
	return Failf("delegation %d %s, not through %s", i+1, at, strings.Join(urls, " or ")).Want("a task completed through "+strings.Join(urls, " or "), at)
}

func ifaceScenarios() []*Scenario {
	return []*Scenario{
		iface001(), iface002(), iface003(), iface004(), iface005(), iface006(), iface007(), iface008(), iface009(),
	}
}

// IFACE-001: the card lists a 0.3 JSON-RPC interface first and a 1.0
// HTTP+JSON interface second. A 1.0 client uses the 1.0 interface and sends
// no 1.0 request to the 0.3 one; a client that speaks 0.3 may use the 0.3
// one, in 0.3 [trpc-group/trpc-agent-go PR 2472 review: a card ordered
// JSONRPC 0.3 then HTTP+JSON 1.0 sent v1 requests to the 0.3 endpoint;
// A2A 1.0 §8.3.2; A2ACLI_TX_001, A2ACLI_TX_002].
func iface001() *Scenario {
	decl := []declared{
		{rpcURLD, mockvendor.BindingJSONRPC, "0.3"},
		{restURLD, mockvendor.BindingREST, "1.0"},
	}
	return &Scenario{
		ID:     "IFACE-001",
		Title:  "0.3 JSON-RPC interface first, 1.0 HTTP+JSON second",
		Area:   "iface",
		Source: "trpc-group/trpc-agent-go PR 2472 (review); A2A 1.0 §8.3.2; A2ACLI_TX_001, A2ACLI_TX_002",
		Setup: "D's card lists supportedInterfaces [JSONRPC 0.3 at " + rpcURLD + ", HTTP+JSON 1.0 at " + restURLD + "]; " +
			"the JSON-RPC endpoint serves 0.3 only (-32009 for 1.0), the HTTP+JSON one 1.0.",
		Fleet: fleetOf(ifaceVendorD(func(c *mockvendor.CardConfig) {
			c.Interfaces = []mockvendor.CardInterface{
				{URL: rpcURLD, ProtocolVersion: "0.3"},
				{URL: restURLD, Binding: mockvendor.BindingREST},
			}
		})),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "IFACE-001.NO-MISMATCH",
				Title:  "no request in a version the interface does not declare",
				Grades: must(Core),
				Requirement: "Each interface of a card declares the protocol version it serves; a client sends to an interface only requests of that version. " +
					"A 1.0 request to an interface declared 0.3 is not what the card offers, whatever the interface's place in the list.",
				Sources: []Source{
					ifaceRule1, ifaceRule3, ifaceEntry,
					A2A("§3.6.2", SrcMust, Server).Read("agents MUST answer a version the interface does not support with VersionNotSupportedError: the 0.3 interface here refuses 1.0, as the spec asks"),
					Field("trpc-group/trpc-agent-go#2472").Read("review: a card ordered JSONRPC 0.3 then HTTP+JSON 1.0 had v1 requests sent to the 0.3 endpoint"),
				},
				Fix:     "When choosing from supportedInterfaces, match protocolVersion as well as protocolBinding; skip entries in versions you do not speak.",
				Reached: interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v // nothing sent: no version to mismatch
					}
					return judgeDeclaredVersions(r, "d", decl)
				},
			},
			{
				ID:     "IFACE-001.DONE",
				Title:  "the delegation completes through an interface the client speaks",
				Grades: should(Core),
				Requirement: "A client that speaks the 1.0 HTTP+JSON binding, or 0.3 JSON-RPC, finds an interface on this card and completes the task through it; " +
					"an interface it cannot use is a reason to try the next one, not to give up.",
				Sources: []Source{ifaceFallback, ifaceRule1, ifaceEntry, ifaceCLITx,
					A2A03("§3.4.2", SrcShould, Client).Read("Fallback Behavior: clients SHOULD try alternative transports when the preferred one fails"),
					A2A03("§5.6.3", SrcShould, Client).Read("rule 2: a client that supports the preferredTransport SHOULD use the main url, here the 0.3 JSON-RPC interface, through which a 0.3 client completes"),
				},
				Fix:          "Walk supportedInterfaces in order and take the first whose binding and version you speak.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        judgeDoneAtD(decl),
			},
		},
	}
}

// IFACE-002: a pure 0.3 card. A client that speaks 1.0 and 0.3 falls back
// to the legacy members instead of failing for want of supportedInterfaces
// [a2aproject/a2a-java issue 1121: "No server interface available" for a
// 0.3 card; a2aproject/a2a-js PR 602; A2A 1.0 §8.3.2 rule 1 ("if
// present"); A2A 0.3 §5.6].
func iface002() *Scenario {
	decl := []declared{{rpcURLD, mockvendor.BindingJSONRPC, "0.3"}}
	return &Scenario{
		ID:     "IFACE-002",
		Title:  "pure 0.3 card (url, preferredTransport, additionalInterfaces)",
		Area:   "iface",
		Source: "a2aproject/a2a-java issue 1121; a2aproject/a2a-js PR 602; A2A 1.0 §8.3.2",
		Setup:  "D's card is a 0.3 card: url " + rpcURLD + ", preferredTransport JSONRPC, additionalInterfaces, protocolVersion 0.3.0, no supportedInterfaces; the endpoint serves 0.3 only.",
		Fleet: fleetOf(ifaceVendorD(func(c *mockvendor.CardConfig) {
			c.Form = mockvendor.FormLegacy
			c.Interfaces = []mockvendor.CardInterface{{URL: rpcURLD}}
		})),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V03},
		Checks: []Check{
			{
				ID:     "IFACE-002.FALLBACK",
				Title:  "a 0.3 card is read through its legacy members",
				Grades: must(Core),
				Requirement: "A card without supportedInterfaces is a 0.3 card: a client that speaks 0.3 takes url and preferredTransport (then additionalInterfaces) and completes the task, " +
					"instead of failing for want of an interface. A client that speaks no 0.3 (in its hello, or anywhere in the run) is not judged here: the check needs 0.3.",
				Sources: []Source{
					A2A03("§5.6.3", SrcMust, Client).Read("a client speaking 0.3 MUST extract the transports from url/preferredTransport and additionalInterfaces, and use the correct URL for the transport it selects"),
					ifaceRule1.Read("rule 1 applies to supportedInterfaces \"if present\": a card without it is left to the 0.3 rules"),
					ifaceCLIVer.Read("versions below 1.0 are an explicit opt-in (a2a-cli SPEC §13.2): a 1.0 client that speaks no 0.3 may refuse the card"),
					Field("a2aproject/a2a-java#1121").Read("the client builder threw \"No server interface available\" for a 0.3 card"),
					Field("a2aproject/a2a-js#602"),
				},
				Fix:          "When supportedInterfaces is absent, build the interface list from url + preferredTransport and additionalInterfaces at the card's protocolVersion.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge: func(r *Run) Verdict {
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome == contract.OutcomeCompleted {
						return completedAt(r, 0, "d")
					}
					if sp := r.speaks(); sp.Known() && !sp.Has(V03) {
						return NeedsVersionf(V03, "the client speaks A2A %s (as declared and seen in the whole run), and the rules for reading a card without supportedInterfaces are those of A2A 0.3; "+
							"A2A 1.0 does not ask a 1.0 client to read a 0.3 card (§8.3.2 applies to supportedInterfaces \"if present\"; a2a-cli SPEC §13.2 makes 0.3 an opt-in)", sp)
					}
					return Failf("outcome %s (reason %q) for a 0.3 card whose endpoint works, from a client that speaks 0.3", o.Outcome, o.Reason).
						Want("completed through url/preferredTransport", fmt.Sprintf("%s (reason %q)", o.Outcome, o.Reason))
				},
			},
			{
				ID:     "IFACE-002.VERSION",
				Title:  "the 0.3 endpoint gets 0.3 requests",
				Grades: should(Core),
				Requirement: "The endpoint a 0.3 card names serves 0.3: requests to it are 0.3 requests (0.3 methods; A2A-Version 0.3 or none), not 1.0 requests sent to a 0.3 url. " +
					"(A SHOULD: the card's protocolVersion states the version, but no client MUST covers a card without supportedInterfaces, whose selection rules in A2A 1.0 §8.3.2 apply \"if present\".)",
				Sources: []Source{
					A2A03("§5.5", SrcDescriptive, Server).Read("AgentCard.protocolVersion: the version of the A2A protocol the agent supports, here 0.3.0 for the card's url"),
					A2A03("§5.6.3", SrcMust, Client).Read("the 0.3 selection rules: use the correct URL for the transport selected from url/preferredTransport and additionalInterfaces; they speak of transports, not of versions"),
					A2A("§3.6.1", SrcMust, Client).Read("what a 0.3 request carries: clients MUST send A2A-Version with each request, except 0.3 clients, for whom an empty header is read as 0.3; it does not say which version to ask for"),
					A2A("§3.6.2", SrcMust, Server).Read("agents MUST interpret an empty value as 0.3 and answer a version the interface does not support with VersionNotSupportedError"),
				},
				Fix:     "Speak the card's protocolVersion at its url; a 1.0-only client should refuse a 0.3 card rather than send it 1.0.",
				Reached: interfaceTried("d"),
				Judge:   func(r *Run) Verdict { return judgeDeclaredVersions(r, "d", decl) },
			},
		},
	}
}

// IFACE-003: a hybrid card whose 0.3 url is another endpoint than its
// supportedInterfaces entry. supportedInterfaces wins: the legacy members
// are a fallback for cards without it [mastra-ai/mastra PR 24134; A2A 1.0
// §8.3.2 rule 1].
func iface003() *Scenario {
	return &Scenario{
		ID:     "IFACE-003",
		Title:  "hybrid card: supportedInterfaces wins over the legacy url",
		Area:   "iface",
		Source: "mastra-ai/mastra PR 24134; A2A 1.0 §8.3.2",
		Setup: "D's card has supportedInterfaces [JSONRPC 1.0 at " + rpcURLD + "] and the 0.3 members url " + legacyURLD +
			", preferredTransport JSONRPC, protocolVersion 0.3.0; the legacy endpoint serves 0.3 only.",
		Fleet: fleetOf(ifaceVendorD(func(c *mockvendor.CardConfig) {
			c.Form = mockvendor.FormHybrid
			c.LegacyURL = legacyURLD
			c.Interfaces = []mockvendor.CardInterface{{URL: rpcURLD}}
		}, mockvendor.HostConfig{Name: hostLegacyD, RPCPath: legacyPathD})),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "IFACE-003.SUPPORTED-FIRST",
				Title:  "a client that reads supportedInterfaces does not use the legacy url",
				Grades: must(Core),
				Requirement: "When a card has supportedInterfaces, a client that reads them selects from them; the top-level url of the 0.3 members is for clients that do not. " +
					"A 1.0 request to the legacy url, or a 1.0 client sending there at all, takes the fallback over the card's own list.",
				Sources: []Source{ifaceRule1, Field("mastra-ai/mastra#24134").Read("a hybrid card's legacy url was used over its supportedInterfaces")},
				Fix:     "Look at supportedInterfaces first; read url/preferredTransport only when it is absent.",
				Reached: interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					calls := callsAt(r, "d")
					if len(calls) == 0 {
						return NotExercisedf("no call reached D")
					}
					legacy := filter(calls, func(e mockvendor.Event) bool { return e.Host == hostLegacyD })
					if len(legacy) == 0 {
						return Passf("%d calls, none to the legacy url %s", len(calls), legacyURLD)
					}
					for _, e := range legacy {
						if v := askedVersion(e); !below10(v) {
							return Failf("%s: an A2A %s request to the card's 0.3 url", describe(e), v).At(e.Seq).Want("calls to "+rpcURLD+" (supportedInterfaces)", "a call to "+legacyURLD)
						}
					}
					if sp := r.speaks(); sp.Has(V10) {
						return Failf("the client speaks A2A 1.0 (%s) yet took the card's legacy 0.3 url (%s) over its supportedInterfaces", speaks10Evidence(r, sp), describe(legacy[0])).At(legacy[0].Seq).
							Want("a client that speaks 1.0 selects from supportedInterfaces ("+rpcURLD+")", "a call to the legacy url "+legacyURLD)
					}
					return NotApplicablef("the client speaks only A2A 0.3 (as declared and seen in the whole run) and used the card's 0.3 url: a 0.3 client does not read supportedInterfaces, whose only entry here is 1.0")
				},
			},
			{
				ID:           "IFACE-003.DONE",
				Title:        "the delegation completes through supportedInterfaces",
				Grades:       must(Core),
				Requirement:  "The task completes through the interface supportedInterfaces names (for a client that speaks only 0.3, through the legacy url, which is then its card).",
				Sources:      []Source{ifaceRule1, ifaceRule3, Field("mastra-ai/mastra#24134")},
				Fix:          "Select the interface from supportedInterfaces and complete the task there.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge: func(r *Run) Verdict {
					v := completedAt(r, 0, "d")
					if v.Outcome != Pass {
						return v
					}
					host, _ := hostPath(r.Delegations[0].Outcome.Agent)
					if host != hostLegacyD {
						return v
					}
					if sp := r.speaks(); sp.Has(V10) {
						return Failf("completed at the legacy url %s by a client that speaks A2A 1.0 (%s)", legacyURLD, speaks10Evidence(r, sp)).
							Want("a completion through supportedInterfaces ("+rpcURLD+")", "a completion at the legacy url "+legacyURLD)
					}
					return NotApplicablef("a client that speaks only A2A 0.3 (as declared and seen in the whole run) completed through the card's 0.3 url")
				},
			},
		},
	}
}

// IFACE-004: the first interface is gRPC, the second (JSON-RPC 1.0)
// refuses connections, the third (JSON-RPC 1.0) works. A client skips the
// binding it does not speak and, when the first one it speaks cannot be
// reached, tries the next [a2aproject/a2a-go PR 50; A2A 1.0 §5.2
// "Clients SHOULD implement fallback logic", §8.3.2].
func iface004() *Scenario {
	decl := []declared{
		{grpcURLD, mockvendor.BindingGRPC, V10},
		{downURLD, mockvendor.BindingJSONRPC, V10},
		{rpcURLD, mockvendor.BindingJSONRPC, V10},
	}
	return &Scenario{
		ID:     "IFACE-004",
		Title:  "gRPC first, a dead JSON-RPC interface second, a live one third",
		Area:   "iface",
		Source: "a2aproject/a2a-go PR 50; A2A 1.0 §5.2, §8.3.2; A2ACLI_TX_001",
		Setup: "D's card lists supportedInterfaces [GRPC 1.0 at " + grpcURLD + ", JSONRPC 1.0 at " + downURLD + " (its host closes every connection), JSONRPC 1.0 at " + rpcURLD + "]. " +
			"The gRPC host serves no A2A: no HTTP binding, and its TLS offers no h2, so a gRPC client cannot reach it either and moves on as from the dead interface; the card is a 1.0 card (no 0.3 members). The dead interface is an outage as a client meets one, " +
			"not a card that misdeclares its interfaces (A2A 1.0 §5.2 asks clients to fall back).",
		Fleet: func() mockvendor.Config {
			d := withFaults(ifaceVendorD(func(c *mockvendor.CardConfig) {
				c.Interfaces = []mockvendor.CardInterface{
					{URL: grpcURLD, Binding: mockvendor.BindingGRPC},
					{URL: downURLD},
					{URL: rpcURLD},
				}
			}, mockvendor.HostConfig{Name: hostGRPCD}, mockvendor.HostConfig{Name: hostDownD, RPCPath: mockvendor.DefaultRPCPath}),
				mockvendor.FaultSpec{Type: "refuse-connections", Hosts: []string{hostDownD}})
			d.Versions = []string{"1.0"} // a 1.0 card: every interface is 1.0
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:          "IFACE-004.SKIP-UNSPOKEN",
				Title:       "no JSON-RPC or HTTP+JSON request to the gRPC interface",
				Grades:      must(Core),
				Requirement: "An interface's binding says how to talk to it: a client sends a gRPC interface gRPC or nothing, never JSON-RPC or HTTP+JSON; it skips bindings it does not speak.",
				Sources: []Source{ifaceRule1, ifaceRule3, ifaceCLITx,
					A2A03("§5.6.3", SrcMust, Client).Read("rule 5: use the correct URL for the selected transport as the card declares it, the same rule that 0.3 states over a card's url and additionalInterfaces: a URL the card declares for gRPC gets no JSON-RPC. The card here is 1.0 only, so a 0.3-only client is judged only where the wire shows it sending there anyway"),
				},
				Fix:     "Filter supportedInterfaces by protocolBinding before taking the first entry.",
				Reached: interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					for _, e := range r.Events {
						if e.Host != hostGRPCD || e.HTTPMethod == "" {
							continue
						}
						if !strings.HasPrefix(e.Path, "/lf.a2a.v1.A2AService/") && !strings.HasPrefix(e.Path, "/a2a.v1.A2AService/") {
							return Failf("%s: an HTTP request that is not gRPC at the gRPC interface %s", describe(e), grpcURLD).At(e.Seq).Want("no JSON-RPC or HTTP+JSON request to a GRPC interface", e.HTTPMethod+" "+e.Path)
						}
					}
					return Passf("nothing but gRPC (here: nothing) reached the gRPC interface")
				},
			},
			{
				ID:     "IFACE-004.NEXT-ON-FAIL",
				Title:  "an interface that cannot be reached leads to the next one",
				Grades: should(Core),
				Requirement: "When the first interface the client speaks cannot be reached, it tries the next interface of the card, in order, and completes the task there " +
					"rather than giving up on an agent that declared a working alternative.",
				Sources: []Source{
					ifaceFallback.Read("Fallback Behavior: clients SHOULD implement fallback logic for alternative protocols; read for the card's next entry, another URL of the same binding"),
					A2A03("§5.6.3", SrcShould, Client).Read("rule 4, Graceful degradation: clients SHOULD try alternative transports if their first choice fails"),
					Field("a2aproject/a2a-go#50"),
				},
				Fix:          "Keep the ordered list of usable interfaces; on a connection failure move to the next before reporting failure.",
				ReadsOutcome: true,
				Reached:      deadInterfaceTried(),
				Judge: func(r *Run) Verdict {
					// A gRPC client meets a dead interface first: the gRPC
					// host offers no h2, so its handshake fails.
					refused := slices.IndexFunc(r.Events, deadInterfaceEvent)
					if refused < 0 {
						if v, ok := unusableCard(r, "d", decl); ok {
							return v
						}
						return NotExercisedf("the client never tried %s", downURLD)
					}
					dead := downURLD
					if r.Events[refused].Host == hostGRPCD {
						dead = grpcURLD + " (gRPC)"
					}
					v := completedThrough(r, 0, "d", rpcURLD)
					if v.Outcome != Pass {
						return v
					}
					if v.Seq != 0 && v.Seq < r.Events[refused].Seq {
						return Failf("the task completed at %s before the dead interface was tried", rpcURLD).At(v.Seq)
					}
					return Passf("the connection to %s failed (#%d); the task completed at %s", dead, r.Events[refused].Seq, rpcURLD).At(v.Seq)
				},
			},
		},
	}
}

// IFACE-005: an interface with a tenant. Every request carries it exactly
// as declared [A2A 1.0 §8.3.2 rule 4; A2ACLI_TX_003].
func iface005() *Scenario {
	decl := []declared{
		{rpcURLD, mockvendor.BindingJSONRPC, V10},
		{restURLD, mockvendor.BindingREST, V10},
	}
	return &Scenario{
		ID:     "IFACE-005",
		Title:  "an interface with a tenant",
		Area:   "iface",
		Source: "A2A 1.0 §8.3.2 rule 4; A2ACLI_TX_003",
		Setup: "D's card lists supportedInterfaces [JSONRPC 1.0 at " + rpcURLD + ", HTTP+JSON 1.0 at " + restURLD + "], both with tenant " + tenantD +
			"; the card is a 1.0 card (no 0.3 members); the endpoint serves several tenants and refuses a request that names none of its own (-32602).",
		Fleet: func() mockvendor.Config {
			d := ifaceVendorD(func(c *mockvendor.CardConfig) {
				c.Interfaces = []mockvendor.CardInterface{
					{URL: rpcURLD, Tenant: tenantD},
					{URL: restURLD, Binding: mockvendor.BindingREST, Tenant: tenantD},
				}
			})
			d.Versions = []string{"1.0"} // a 1.0 card: 0.3 has no tenant
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "IFACE-005.TENANT",
				Title:  "every request carries the declared tenant exactly",
				Grades: must(Core),
				Requirement: "An interface that declares a tenant routes by it: every request to it (the probe, the send, every get and cancel) carries that tenant exactly as declared, " +
					"in params.tenant over JSON-RPC or as the /{tenant}/ path segment over HTTP+JSON.",
				Sources: []Source{
					ifaceRule4,
					Proto("AgentInterface.tenant", SrcMust, Client).Read("when set, clients MUST include this value in the tenant field of all request messages sent to this interface"),
					CLI("A2ACLI_TX_003", SrcMust),
				},
				Fix:     "Keep the selected interface's tenant with its URL and set it on every request message to that interface.",
				Reached: interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					calls := callsAt(r, "d")
					if len(calls) == 0 {
						if v, ok := unusableCard(r, "d", decl); ok {
							return v
						}
						return NotExercisedf("no call reached D")
					}
					// tenant is a 1.0 field: a 0.3 request has none to carry.
					v10 := filter(calls, func(e mockvendor.Event) bool { return !below10(askedVersion(e)) })
					if len(v10) == 0 {
						return NotApplicablef("needs 1.0: D got only 0.3 requests (%s), which have no tenant field; a request in a version the interface does not declare is what IFACE-001.NO-MISMATCH judges", describe(calls[0]))
					}
					for _, e := range v10 {
						if e.Tenant != tenantD {
							return Failf("%s carried tenant %q, the interface declares %q", describe(e), e.Tenant, tenantD).At(e.Seq).Want("tenant "+tenantD, fmt.Sprintf("tenant %q", e.Tenant))
						}
					}
					return Passf("%d calls, each with tenant %s", len(v10), tenantD)
				},
			},
			{
				ID:           "IFACE-005.DONE",
				Title:        "the delegation completes at the tenant's interface",
				Grades:       must(Core),
				Requirement:  "With the tenant carried, the shared endpoint routes the task and it completes.",
				Sources:      []Source{ifaceRule4, CLI("A2ACLI_TX_003", SrcMust)},
				Fix:          "Send the tenant the card declares; a request without it reaches no agent behind a shared endpoint.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        judgeDoneAtD(decl),
			},
		},
	}
}

// IFACE-006: the endpoint answers a 1.0 request with -32009 and the
// versions it supports (0.3). The client negotiates within 1.x or fails
// with version-mismatch; it never falls back below the 1.0 it asked for
// [A2ACLI_VER_001, a2a-cli SPEC §13.2; A2A 1.0 §3.6.3: client agents that
// need the latest features should (lowercase: descriptive) avoid automatic
// fallback to older versions]. The vendor breaks its card (A2A 1.0 §8.3),
// so both checks are delegation-safety.
func iface006() *Scenario {
	return &Scenario{
		ID:     "IFACE-006",
		Title:  "-32009: the endpoint serves only 0.3 although its card says 1.0",
		Area:   "iface",
		Source: "A2ACLI_VER_001 (a2a-cli SPEC §13.2); A2A 1.0 §3.6.3 (descriptive)",
		Setup: "D's honest-looking card lists JSONRPC 1.0, HTTP+JSON 1.0 and JSONRPC 0.3; the endpoint answers every request that is not 0.3 with -32009 " +
			"(supportedVersions 0.3): the card was upgraded before the server (fault version-reject). The vendor breaks A2A 1.0 §8.3 (the card MUST properly declare the supported protocols): " +
			"its card declares interfaces at 1.0 (AgentInterface.protocol_version, the version an interface exposes) that the endpoint does not serve. The -32009 itself is what §3.6.2 asks.",
		Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("version-reject", mockvendor.VersionReject{Accepted: []string{"0.3"}}))),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "IFACE-006.NO-DOWNGRADE",
				Title:  "no request below 1.0 after -32009",
				Grades: must(Safety),
				Requirement: "A client that asked for 1.x and got -32009 may negotiate within 1.x, never below 1.0: a 0.3 request to the same agent afterwards is a silent downgrade " +
					"that loses what 1.0 guarantees (a2a-cli: versions before 1.0 are an explicit opt-in; A2A 1.0 §3.6.3 describes client agents that need the latest features avoiding automatic fallback).",
				Sources: []Source{
					ifaceCLIVer,
					A2A("§3.6.3", SrcDescriptive, Client).Read("client agents that require the latest features of the protocol should be configured to request specific versions and avoid automatic fallback to older versions " +
						"(lowercase should: descriptive, and only for such clients)"),
				},
				Fix:     "Treat -32009 to a 1.x request as final for that agent (or retry another 1.x version it lists); report version-mismatch.",
				Reached: rpcAt("d"),
				Judge: func(r *Run) Verdict {
					calls := callsAt(r, "d")
					if len(calls) == 0 {
						return NotExercisedf("no call reached D")
					}
					first := slices.IndexFunc(calls, func(e mockvendor.Event) bool { return e.ErrorCode == -32009 && !below10(askedVersion(e)) })
					if first < 0 {
						if !slices.ContainsFunc(calls, func(e mockvendor.Event) bool { return !below10(askedVersion(e)) }) {
							return NotApplicablef("the client asked D for no 1.x version (a 0.3 client)")
						}
						return NotExercisedf("no 1.x request to D got -32009")
					}
					for _, e := range calls[first+1:] {
						if below10(askedVersion(e)) {
							return Failf("%s asked for A2A %s after %s got -32009", describe(e), askedVersion(e), describe(calls[first])).At(e.Seq).Want("no request below 1.0 after -32009", "A2A-Version "+askedVersion(e))
						}
					}
					return Passf("after -32009 (#%d) nothing below 1.0 was sent", calls[first].Seq)
				},
			},
			{
				ID:          "IFACE-006.REPORT",
				Title:       "the outcome is version-mismatch (or a 1.x completion)",
				Grades:      must(Safety),
				Requirement: "After -32009 the delegation either completes in a 1.x version the agent also serves or fails with reason version-mismatch; it is never completed by falling back below 1.0.",
				Sources: []Source{
					ifaceCLIVer,
					ContractRule("Delegation outcome: reason vocabulary", SrcDescriptive).Read("version-mismatch: card and endpoint disagree on the protocol version"),
				},
				Fix:          "Report rejected or failed with reason version-mismatch when the agent serves no 1.x version you speak.",
				ReadsOutcome: true,
				Reached:      versionRefused("d"),
				Judge: func(r *Run) Verdict {
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome == contract.OutcomeCompleted {
						calls := callsAt(r, "d")
						if !slices.ContainsFunc(calls, func(e mockvendor.Event) bool { return !below10(askedVersion(e)) }) {
							return NotApplicablef("the client asked D for no 1.x version (a 0.3 client) and completed in 0.3")
						}
						refused := slices.IndexFunc(calls, func(e mockvendor.Event) bool { return e.ErrorCode == -32009 && !below10(askedVersion(e)) })
						k := slices.IndexFunc(calls, func(e mockvendor.Event) bool { return isRealSend(e) && e.TaskID == o.TaskID })
						if refused >= 0 && k > refused && below10(askedVersion(calls[k])) {
							e := calls[k]
							return Failf("completed by %s, an A2A %s request after 1.0 was refused", describe(e), askedVersion(e)).At(e.Seq).Want("version-mismatch, or a 1.x completion", "a completion in "+askedVersion(e))
						}
						return completedAt(r, 0, "d")
					}
					if (o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed) && o.Reason == contract.ReasonVersionMismatch {
						return Passf("outcome %s, reason version-mismatch", o.Outcome)
					}
					return Failf("outcome %s (reason %q) after -32009", o.Outcome, o.Reason).Want("rejected or failed with reason version-mismatch", o.Outcome+" "+o.Reason)
				},
			},
		},
	}
}

// speaks10Evidence says how the run shows a client speaking 1.0: a 1.x
// call of this scenario, else its hello or another scenario's calls.
func speaks10Evidence(r *Run, sp Speaks) string {
	for _, e := range r.Events {
		if isCall(e) && SpokenIn([]mockvendor.Event{e}).Has(V10) {
			return "here: " + describe(e)
		}
	}
	if sp.Declared {
		return "as its hello declares, or as other scenarios of the run show"
	}
	return "as other scenarios of the run show"
}

// judgeDoneAtD is the DONE check of a scenario whose card is D's, with
// the interfaces decl: the delegation completes through one of D's
// endpoints, unless the client speaks none of the card's interfaces and,
// as the wire shows, sent D nothing (unusableCard).
func judgeDoneAtD(decl []declared) func(r *Run) Verdict {
	return func(r *Run) Verdict {
		if v, ok := unusableCard(r, "d", decl); ok {
			return v
		}
		return completedThrough(r, 0, "d", rpcURLD, restURLD)
	}
}
