package scenarios

import (
	"encoding/json"
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// IFACE-007 and IFACE-008: interface choice where every interface works.
// In IFACE-001..006 the first entry is always unusable in some way, so
// "prefer earlier entries" (A2A 1.0 §8.3.2 rule 2) is never tested on its
// own: IFACE-007 lists two equal JSON-RPC 1.0 interfaces, both live, and
// the first must win (a2aproject/a2a-js#734 took the last). Neither
// declares a tenant, so no request carries one (rule 4; A2ACLI_TX_003).
// IFACE-008 declares its JSON-RPC URL with a trailing slash, and the
// endpoint serves that spelling only: the URL is used byte for byte
// (rule 3; trpc-group/trpc-a2a-go PR 144 changed a declared /a2a/v1 into
// /a2a/v1/). D breaks no clause in either.

// The second host of IFACE-007 and the declared URL of IFACE-008.
const (
	hostTwinD  = "rpc2.agent-d.example"
	slashPathD = mockvendor.DefaultRPCPath + "/"
)

var (
	twinURLD  = "https://" + hostTwinD + mockvendor.DefaultRPCPath
	slashURLD = "https://" + mockvendor.HostRPCD + slashPathD
)

// ifaceRule2 is §8.3.2's rule 2, the one IFACE-007 isolates.
var ifaceRule2 = A2A("§8.3.2", SrcMust, Client).Read("rule 2: prefer earlier entries in the ordered list when multiple options are supported; two equal entries are both supported, so the first is used")

// tenantSent reports whether a request carried a tenant, and which: the
// /{tenant}/ segment over HTTP+JSON, the request's tenant field over gRPC
// (the trace's Tenant: proto3 has no empty tenant apart from none),
// params.tenant over JSON-RPC, present even when empty (A2A 1.0 §8.3.2
// rule 4 asks for the field to be omitted).
func tenantSent(e mockvendor.Event) (string, bool) {
	if e.Tenant != "" {
		return e.Tenant, true
	}
	var body struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if bodyIsParams(e) || json.Unmarshal(e.Body(), &body) != nil {
		return "", false
	}
	raw, ok := body.Params["tenant"]
	if !ok {
		return "", false
	}
	var t string
	_ = json.Unmarshal(raw, &t)
	return t, true
}

// judgeNoTenant: no 1.x request to the vendor carries a tenant field.
func judgeNoTenant(r *Run, vendor string, decl []declared) Verdict {
	calls := callsAt(r, vendor)
	if len(calls) == 0 {
		if v, ok := unusableCard(r, vendor, decl); ok {
			return v
		}
		return NotExercisedf("no call reached %s", vendorName(vendor))
	}
	v10 := filter(calls, func(e mockvendor.Event) bool { return !below10(askedVersion(e)) })
	if len(v10) == 0 {
		return NotApplicablef("needs 1.0: %s got only 0.3 requests (%s), which have no tenant field", vendorName(vendor), describe(calls[0]))
	}
	for _, e := range v10 {
		if t, ok := tenantSent(e); ok {
			return Failf("%s carried tenant %q; the interface declares none", describe(e), t).At(e.Seq).Want("no tenant field", fmt.Sprintf("tenant %q", t))
		}
	}
	return Passf("%s, none with a tenant field", plural(len(v10), "1.x call"))
}

func iface007() *Scenario {
	decl := []declared{{rpcURLD, mockvendor.BindingJSONRPC, V10}, {twinURLD, mockvendor.BindingJSONRPC, V10}}
	return &Scenario{
		ID:     "IFACE-007",
		Title:  "two equal JSON-RPC 1.0 interfaces, both live",
		Area:   "iface",
		Source: "A2A 1.0 §8.3.2 rules 2 and 4; a2aproject/a2a-js#734; A2ACLI_TX_001, A2ACLI_TX_003. D breaks no clause",
		Setup: "D's card lists supportedInterfaces [JSONRPC 1.0 at " + rpcURLD + ", JSONRPC 1.0 at " + twinURLD + "], neither with a tenant; both endpoints serve the agent. " +
			"The card is a 1.0 card (no 0.3 members).",
		Fleet: func() mockvendor.Config {
			d := ifaceVendorD(func(c *mockvendor.CardConfig) {
				c.Interfaces = []mockvendor.CardInterface{{URL: rpcURLD}, {URL: twinURLD}}
			}, mockvendor.HostConfig{Name: hostTwinD, RPCPath: mockvendor.DefaultRPCPath})
			d.Versions = []string{"1.0"}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "IFACE-007.FIRST",
				Title:  "the first of two equal interfaces is used",
				Grades: must(Core),
				Requirement: "Two entries the client supports equally are ordered by the card: every request goes to the first, " + rpcURLD + ", which works; none to the second. " +
					"(A client that cannot reach the first may fall back to the second; here the first is live.)",
				Sources: []Source{ifaceRule1, ifaceRule2, ifaceCLITx,
					Field("a2aproject/a2a-js#734").Read("among several interfaces of the same transport the client took the last one listed")},
				Fix:     "Walk supportedInterfaces in card order and stop at the first entry you support; never let a later entry overwrite an earlier one (a map keyed by binding does).",
				Reached: interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					calls := callsAt(r, "d")
					if len(calls) == 0 {
						if v, ok := unusableCard(r, "d", decl); ok {
							return v
						}
						return NotExercisedf("no call reached D")
					}
					for _, e := range calls {
						if e.Host == hostTwinD {
							return Failf("%s went to the second of two equal interfaces (%s)", describe(e), twinURLD).At(e.Seq).Want("calls at "+rpcURLD+" (the first entry)", "a call at "+twinURLD)
						}
					}
					return Passf("%s, all at the first interface %s", plural(len(calls), "call"), rpcURLD)
				},
			},
			{
				ID:     "IFACE-007.NO-TENANT",
				Title:  "no tenant field where the interface declares none",
				Grades: must(Core),
				Requirement: "Neither interface declares a tenant, so no request carries one: no params.tenant over JSON-RPC (not even an empty string), no tenant segment over HTTP+JSON. " +
					"A tenant taken from elsewhere (another card, another entry, a default) is one the agent never declared.",
				Sources: []Source{ifaceRule4, CLI("A2ACLI_TX_003", SrcMust).Read("the tenant of the selected interface is sent as declared, and none when it declares none")},
				Fix:     "Set params.tenant only from the selected interface's tenant, and only when it has one; omit the member otherwise.",
				Reached: interfaceTried("d"),
				Judge:   func(r *Run) Verdict { return judgeNoTenant(r, "d", decl) },
			},
		},
	}
}

func iface008() *Scenario {
	decl := []declared{{slashURLD, mockvendor.BindingJSONRPC, V10}}
	return &Scenario{
		ID:     "IFACE-008",
		Title:  "the JSON-RPC URL is declared with a trailing slash and served only so",
		Area:   "iface",
		Source: "A2A 1.0 §8.3.2 rule 3; trpc-group/trpc-a2a-go PR 144. D breaks no clause: the card declares the URL its endpoint serves",
		Setup: "D's card lists supportedInterfaces [JSONRPC 1.0 at " + slashURLD + "] (a trailing slash) and nothing else; the endpoint serves that spelling only, and " + rpcURLD + " (without the slash) answers 404, " +
			"as a router that matches paths exactly does. The card is a 1.0 card.",
		Fleet: func() mockvendor.Config {
			d := ifaceVendorD(func(c *mockvendor.CardConfig) { c.Interfaces = []mockvendor.CardInterface{{URL: slashURLD}} })
			d.Hosts[1].RPCPath, d.Hosts[1].RESTPath = slashPathD, ""
			d.Versions = []string{"1.0"}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:          "IFACE-008.EXACT",
				Title:       "the declared URL is used byte for byte",
				Grades:      must(Core),
				Requirement: "Every request goes to " + slashURLD + " exactly as declared: a slash trimmed (/a2a/v1) or added (/a2a/v1//), a path normalised or rebuilt, is another URL, and this endpoint answers it 404.",
				Sources: []Source{ifaceRule3, ifaceEntry,
					Field("trpc-group/trpc-a2a-go#144").Read("the client turned a declared /a2a/v1 into /a2a/v1/, which the agent's router did not serve")},
				Fix:     "Post to the interface URL exactly as the card gives it; do not trim, append or clean its path.",
				Reached: endpointRequested("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					return judgeAtDeclared(r, "d", decl)
				},
			},
			{
				ID:           "IFACE-008.DONE",
				Title:        "the delegation completes at the URL as declared",
				Grades:       must(Safety),
				Requirement:  "Sent to the URL as declared, the task completes: D is honest, so the posture costs nothing here. (A2A asks the client to use the declared URL, IFACE-008.EXACT; it does not ask it to delegate, so the completion is graded in delegation-safety.)",
				Sources:      []Source{ifaceRule3, Field("trpc-group/trpc-a2a-go#144"), Posture("a delegation to an honest vendor completes: the seeds' posture costs nothing where nothing is wrong")},
				Fix:          "Use the declared URL unchanged.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					return completedThrough(r, 0, "d", slashURLD)
				},
			},
		},
	}
}
