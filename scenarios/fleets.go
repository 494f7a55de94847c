package scenarios

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Fleet building blocks shared by the scenario files. Each returns a fresh
// value, so a scenario may change it freely.

const (
	skillS    = mockvendor.SkillInvoice
	skillV2   = mockvendor.SkillInvoiceV2
	skillNext = "invoice-reconciliation-next"
	hostE     = "agent-e.example"
	hostX     = "keys.vendor-x.example"
	// hostLookalike is a gateway B operates whose name contains A's host
	// (BIND-006).
	hostLookalike = "agent.vendor-a.example.gw-b.example"
	// regionD is the region of D's gateway in CARD-010.
	regionD    = "us-east-1"
	kidX       = "x-2026-12"
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

// vendorXKeyed is vendor X, an issuer of its own at keys.vendor-x.example
// that serves a key set (and a card) signed with keyPEM, and the jku of
// that key set.
func vendorXKeyed(keyPEM string) (mockvendor.VendorConfig, string) {
	return mockvendor.VendorConfig{
		ID:           "x",
		Organization: "Vendor X",
		Hosts:        []mockvendor.HostConfig{{Name: hostX, Card: true}},
		Signing:      &mockvendor.SigningConfig{KID: kidX, KeyPEM: keyPEM},
	}, "https://" + hostX + mockvendor.JWKSPath
}

// freshKeyPEM is a new ECDSA P-256 key in PKCS#8 PEM, or "" (and the
// fleet fails to start, saying so) when none can be made.
func freshKeyPEM() string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return ""
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return ""
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}
