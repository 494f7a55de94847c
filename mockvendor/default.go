package mockvendor

import "encoding/json"

// Host names of the default fleet (catalog, "Default fleet hosts").
const (
	HostVendorA      = "agent.vendor-a.example"
	HostCardB        = "agent-b.example"
	HostRPCB         = "rpc.agent-b.example"
	HostResellerB    = "gateway.vendor-b.example"
	HostC            = "agent-c.example"
	HostCardD        = "agent-d.example"
	HostRPCD         = "rpc.agent-d.example"
	HostAuthD        = "auth.agent-d.example"
	KIDVendorA       = "a-prod-2026-11"
	RegionB          = "eu-west-1"
	SkillInvoice     = "invoice-reconciliation"
	SkillInvoiceV2   = "invoice-reconciliation-v2"
	SkillFXHedging   = "fx-hedging"
	SkillLedgerWrite = "ledger-write"
	SkillSummarize   = "summarize"
	DefaultRPCPath   = "/a2a/v1"
	DefaultRESTPath  = "/a2a/rest"
	VendorARPCPath   = "/a2a"
	ResellerRPCPath  = "/a2a"
)

// Spec builds a FaultSpec from a fault config value (marshalled to JSON).
func Spec(typ string, config any, hosts ...string) FaultSpec {
	var raw json.RawMessage
	if config != nil {
		raw, _ = json.Marshal(config)
	}
	return FaultSpec{Type: typ, Hosts: hosts, Config: raw}
}

// DefaultConfig is the fleet `fleet up` starts with no config: every host of
// the catalog, with B in the CARD-001 state (stale CDN card listing
// invoice-reconciliation; the eu-west-1 gateway serves only -v2), C with the
// MODE-001 coercion, D well behaved, A signing its card, and B's reseller
// gateway.
func DefaultConfig() Config {
	return Config{Vendors: []VendorConfig{
		VendorA(),
		VendorB(),
		VendorC(),
		VendorD(),
	}}
}

// VendorA signs its card with kid a-prod-2026-11 and serves tasks at
// https://agent.vendor-a.example/a2a; its card is a hybrid one (the 0.3
// members too, signed twice: see SigningConfig.LegacyFields), so 0.3
// clients can use it.
func VendorA() VendorConfig {
	return VendorConfig{
		ID:           "a",
		Organization: "Vendor A",
		Hosts:        []HostConfig{{Name: HostVendorA, Card: true, RPCPath: VendorARPCPath}},
		Card:         CardConfig{Description: "Vendor A's summarizing and ledger agent"},
		Skills:       []SkillConfig{{ID: SkillSummarize}, {ID: SkillLedgerWrite}},
		Signing:      &SigningConfig{KID: KIDVendorA, LegacyFields: true},
	}
}

// VendorB has its card behind a CDN at agent-b.example, a regional gateway
// rpc.agent-b.example in eu-west-1 that rolled out invoice-reconciliation-v2,
// and the reseller gateway gateway.vendor-b.example.
func VendorB() VendorConfig {
	return VendorConfig{
		ID:           "b",
		Organization: "Vendor B",
		Hosts: []HostConfig{
			{Name: HostCardB, Card: true},
			{Name: HostRPCB, RPCPath: DefaultRPCPath, Region: RegionB},
			{Name: HostResellerB, RPCPath: ResellerRPCPath},
		},
		Card:   CardConfig{Streaming: true, URL: "https://" + HostRPCB + DefaultRPCPath},
		Skills: []SkillConfig{{ID: SkillInvoiceV2, Name: "Invoice reconciliation v2"}},
		Faults: []FaultSpec{
			Spec("stale-card", StaleCard{Skills: []string{SkillInvoice}}),
			Spec("region-gate", RegionGate{Region: RegionB, GatedSkills: []string{SkillInvoice}, AvailableSkills: []string{SkillInvoiceV2}}),
			Spec("reseller-gateway", ResellerGateway{RefusedTools: []string{SkillLedgerWrite}}, HostResellerB),
		},
	}
}

// VendorC lists invoice-reconciliation with input modes application/json
// and silently coerces text parts.
func VendorC() VendorConfig {
	return VendorConfig{
		ID:           "c",
		Organization: "Vendor C",
		Hosts:        []HostConfig{{Name: HostC, Card: true, RPCPath: DefaultRPCPath}},
		Skills:       []SkillConfig{{ID: SkillInvoice, Name: "Invoice reconciliation", InputModes: []string{"application/json"}}},
		Faults:       []FaultSpec{Spec("input-mode-coercion", nil)},
	}
}

// VendorD is well behaved: card at agent-d.example naming
// https://rpc.agent-d.example/a2a/v1 (JSON-RPC, 1.0 and 0.3),
// https://rpc.agent-d.example/a2a/rest (HTTP+JSON, 1.0) and, last,
// rpc.agent-d.example:443 (gRPC, 1.0: A2AService on the same host), skills
// invoice-reconciliation and fx-hedging, streaming, push notifications
// (delivered to loopback webhooks: push_deliver.go).
func VendorD() VendorConfig {
	return VendorConfig{
		ID:           "d",
		Organization: "Vendor D",
		Hosts: []HostConfig{
			{Name: HostCardD, Card: true},
			{Name: HostRPCD, RPCPath: DefaultRPCPath, RESTPath: DefaultRESTPath, GRPC: true},
		},
		Card:   CardConfig{Streaming: true, PushNotifications: true},
		Skills: []SkillConfig{{ID: SkillInvoice, Name: "Invoice reconciliation"}, {ID: SkillFXHedging, Name: "FX hedging"}},
	}
}
