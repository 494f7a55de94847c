package scenarios

import (
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Fleet building blocks shared by the scenario files. Each returns a fresh
// value, so a scenario may change it freely.

const (
	skillS     = mockvendor.SkillInvoice
	skillV2    = mockvendor.SkillInvoiceV2
	skillNext  = "invoice-reconciliation-next"
	hostE      = "agent-e.example"
	streamExt  = "https://a2a-conform.dev/ext/stream-timeout/v1"
	defaultMsg = "reconcile INV-1042"
)

func fleetOf(vendors ...mockvendor.VendorConfig) func() mockvendor.Config {
	return func() mockvendor.Config { return mockvendor.Config{Vendors: vendors} }
}

// plainB is vendor B without faults, serving invoice-reconciliation.
func plainB() mockvendor.VendorConfig {
	b := mockvendor.VendorB()
	b.Faults = nil
	b.Skills = []mockvendor.SkillConfig{{ID: skillS, Name: "Invoice reconciliation"}}
	return b
}

// plainC is vendor C taking text, without coercion.
func plainC() mockvendor.VendorConfig {
	c := mockvendor.VendorC()
	c.Faults = nil
	c.Skills = []mockvendor.SkillConfig{{ID: skillS, Name: "Invoice reconciliation"}}
	return c
}

// vendorE has a card that looks fine and an endpoint that is a stub.
func vendorE() mockvendor.VendorConfig {
	return mockvendor.VendorConfig{
		ID:           "e",
		Organization: "Vendor E",
		Hosts:        []mockvendor.HostConfig{{Name: hostE, Card: true, RPCPath: mockvendor.DefaultRPCPath}},
		Skills:       []mockvendor.SkillConfig{{ID: skillS, Name: "Invoice reconciliation"}},
		Faults:       []mockvendor.FaultSpec{mockvendor.Spec("stub-endpoint", nil)},
	}
}

// withFaults returns v with the faults appended.
func withFaults(v mockvendor.VendorConfig, faults ...mockvendor.FaultSpec) mockvendor.VendorConfig {
	v.Faults = append(append([]mockvendor.FaultSpec(nil), v.Faults...), faults...)
	return v
}

func req(skill string, candidates ...string) Request {
	return Request{Skill: skill, Candidates: candidates}
}
