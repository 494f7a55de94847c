package scenarios

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// grpcTargetD is D's gRPC interface as its card names it: host:port, the
// proto's comment on AgentInterface.url.
const grpcTargetD = mockvendor.HostRPCD + ":443"

// IFACE-009: D's card lists its gRPC interface first, then JSON-RPC, both
// 1.0, both served. A client that speaks gRPC selects the first interface
// it supports, gRPC; one that does not takes JSON-RPC (IFACE-004 judges
// that it sends the gRPC interface nothing else) [A2A 1.0 §8.3.2 rules 1
// and 2; A2A 1.0.1 §10; a2aproject/a2a-java#1004 for the version
// metadata, judged by the global G-VERSION-HEADER on every gRPC call].
func iface009() *Scenario {
	decl := []declared{
		{grpcTargetD, mockvendor.BindingGRPC, V10},
		{rpcURLD, mockvendor.BindingJSONRPC, V10},
	}
	return &Scenario{
		ID:     "IFACE-009",
		Title:  "gRPC first, JSON-RPC second, both served",
		Area:   "iface",
		Source: "A2A 1.0 §8.3.2; A2A 1.0.1 §10; A2ACLI_TX_001",
		Setup: "D's card lists supportedInterfaces [GRPC 1.0 at " + grpcTargetD + ", JSONRPC 1.0 at " + rpcURLD + "]; " +
			mockvendor.HostRPCD + " serves both (gRPC over HTTP/2, ALPN h2); the card is a 1.0 card (no 0.3 members).",
		Fleet: func() mockvendor.Config {
			d := ifaceVendorD(func(c *mockvendor.CardConfig) {
				c.Interfaces = []mockvendor.CardInterface{
					{URL: grpcTargetD, Binding: mockvendor.BindingGRPC},
					{URL: rpcURLD},
				}
			})
			d.Versions = []string{"1.0"} // a 1.0 card: gRPC is 1.0 only
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "IFACE-009.GRPC-FIRST",
				Title:  "a client that speaks gRPC uses the card's first interface, gRPC",
				Grades: must(Core),
				Requirement: "The card's first interface is gRPC: a client that speaks gRPC (as its hello declares or the run shows) selects it, " +
					"its first call to the agent is a gRPC call and the task completes over gRPC, rather than taking a later entry. " +
					"A client that does not speak gRPC is not judged here.",
				Sources: []Source{ifaceRule1, ifaceCLITx,
					A2A("§10.1", SrcMust, Client).Read("the gRPC binding is gRPC over HTTP/2 with TLS, the A2AService of specification/a2a.proto"),
					Proto("AgentInterface.url", SrcDescriptive, Server).Read("a gRPC interface's url is host:port (\"grpc.example.com:443\")"),
				},
				Fix:          "Keep supportedInterfaces in card order and take the first entry whose binding and version you speak; dial a gRPC url given as host:port.",
				ReadsOutcome: true,
				Reached:      interfaceTried("d"),
				Judge: func(r *Run) Verdict {
					if v, ok := unusableCard(r, "d", decl); ok {
						return v
					}
					calls := callsAt(r, "d")
					if len(calls) == 0 {
						return NotExercisedf("no call reached D")
					}
					sp := r.speaks()
					if !slices.Contains(sp.Bindings, contract.BindingGRPC) {
						return NotApplicablef("the client does not speak gRPC (its hello and the run show %v): the first interface it speaks is JSON-RPC", sp.Bindings)
					}
					if first := calls[0]; first.Binding != mockvendor.BindingGRPC {
						return Failf("%s: the first call to D is not gRPC, from a client that speaks gRPC", describe(first)).At(first.Seq).
							Want("a gRPC call to "+grpcTargetD+" (the card's first interface)", describe(first))
					}
					v := completedAt(r, 0, "d")
					if v.Outcome != Pass {
						return v
					}
					for _, e := range r.During(0) {
						if isRealSend(e) && inVendor(e, "d") && e.Binding != mockvendor.BindingGRPC {
							return Failf("%s: the task went to D's JSON-RPC interface, from a client that speaks gRPC", describe(e)).At(e.Seq).
								Want("the real send over gRPC to "+grpcTargetD, describe(e))
						}
					}
					return Passf("the first call to D and the task went over gRPC to %s; %s", grpcTargetD, v.Detail).At(v.Seq)
				},
			},
		},
	}
}
