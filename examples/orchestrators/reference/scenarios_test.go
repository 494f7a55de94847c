package reference_test

import (
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// delegation is one request of a scenario.
type delegation struct {
	skill  string
	cards  []string // card hosts, in preference order
	stream bool
}

// scenario is a fleet, the delegations to run against it, and the checks
// that must hold.
type scenario struct {
	name   string
	cfg    func() mockvendor.Config
	deleg  []delegation
	gap    time.Duration // fake time between delegations (reference clock)
	checks []check
	badTLS func(mockvendor.Event) bool
	// naiveFails: the naive orchestrator must fail at least one check.
	naiveFails bool
	// breaks: reference variants that must fail the check their tag names.
	breaks []string
}

const (
	hostE     = "agent-e.example"
	skillNext = mockvendor.SkillInvoice + "-next"
)

func fleet(vs ...mockvendor.VendorConfig) func() mockvendor.Config {
	return func() mockvendor.Config { return mockvendor.Config{Vendors: vs} }
}

func one(skill string, cards ...string) []delegation {
	return []delegation{{skill: skill, cards: cards}}
}

// vendorBWith is B with a card host and its eu-west-1 gateway only.
func vendorBWith(skills []string, faults ...mockvendor.FaultSpec) mockvendor.VendorConfig {
	var sc []mockvendor.SkillConfig
	for _, s := range skills {
		sc = append(sc, mockvendor.SkillConfig{ID: s})
	}
	return mockvendor.VendorConfig{
		ID: "b", Organization: "Vendor B",
		Hosts: []mockvendor.HostConfig{
			{Name: mockvendor.HostCardB, Card: true},
			{Name: mockvendor.HostRPCB, RPCPath: mockvendor.DefaultRPCPath, Region: mockvendor.RegionB},
		},
		Skills: sc,
		Faults: faults,
	}
}

func vendorDWith(mod func(*mockvendor.VendorConfig)) mockvendor.VendorConfig {
	v := mockvendor.VendorD()
	mod(&v)
	return v
}

func vendorAWith(mod func(*mockvendor.VendorConfig)) mockvendor.VendorConfig {
	v := mockvendor.VendorA()
	mod(&v)
	return v
}

func withFaults(fs ...mockvendor.FaultSpec) func(*mockvendor.VendorConfig) {
	return func(v *mockvendor.VendorConfig) { v.Faults = append(v.Faults, fs...) }
}

var scenarios = []scenario{
	{
		name:  "CARD-001 stale CDN card, renamed skill (default fleet)",
		cfg:   mockvendor.DefaultConfig,
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostCardB),
		checks: []check{
			refetchAfterSkillError("CARD-001.REFETCH", "b"),
			outcomeIs("CARD-001.ROUTE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoiceV2),
			bounded("CARD-001.BOUNDED", 6, 3),
		},
		naiveFails: true,
		breaks:     []string{"no-refetch", "refetch-with-etag", "escalate-on-skill-error", "extra-calls"},
	},
	{
		name: "PROBE-003 probe passes, real task gets -32004",
		cfg: fleet(vendorBWith([]string{mockvendor.SkillInvoice, mockvendor.SkillInvoiceV2},
			mockvendor.Spec("stale-card", mockvendor.StaleCard{Skills: []string{mockvendor.SkillInvoice}}),
			mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB,
				GatedSkills: []string{mockvendor.SkillInvoice}, AvailableSkills: []string{mockvendor.SkillInvoiceV2}}))),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostCardB),
		checks: []check{
			refetchAfterSkillError("PROBE-003.ROUTE", "b"),
			outcomeIs("PROBE-003.ROUTE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoiceV2),
			bounded("CARD-001.BOUNDED", 6, 3),
		},
		naiveFails: true,
		breaks:     []string{"extra-calls", "escalate-on-skill-error", "refetch-with-etag"},
	},
	{
		name:  "CARD-002 url host differs from card host (control)",
		cfg:   fleet(mockvendor.VendorD()),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostCardD),
		checks: []check{
			{"CARD-002.URL", func(ob *observation) error {
				sent := false
				for _, e := range ob.all {
					sent = sent || isTask(e)
				}
				if !sent {
					return errf("no task was sent")
				}
				for _, e := range ob.all {
					if isSend(e) && e.Host != mockvendor.HostRPCD {
						return errf("seq %d: send to %s", e.Seq, e.Host)
					}
				}
				return nil
			}},
			outcomeIs("CARD-002.DONE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
		},
		breaks: []string{"no-version-header", "bad-jsonrpc", "get-unknown-task", "escape", "send-to-card-host", "reject-cross-host-url"},
	},
	{
		name: "CARD-003 server-error range, then a healthy second delegation",
		cfg: fleet(
			vendorBWith([]string{mockvendor.SkillInvoice}, mockvendor.Spec("server-error", mockvendor.ServerError{
				Times: 1, Data: map[string]any{"retryAfterMs": 500, "vendorCode": "QUOTA"}})),
			mockvendor.VendorC()),
		deleg: []delegation{
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB, mockvendor.HostC}},
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB, mockvendor.HostC}},
		},
		checks: []check{
			{"CARD-003.NOT-FATAL", func(ob *observation) error {
				if o := ob.outs[0]; o.Outcome != contract.OutcomeCompleted || !strings.Contains(o.Agent, mockvendor.HostC) {
					return errf("first delegation: %s via %q (%s), want completed by C", o.Outcome, o.Agent, o.Detail)
				}
				return nil
			}},
			{"CARD-003.NOT-DEGRADED", func(ob *observation) error {
				for _, e := range ob.evs[1] {
					if isRPC(e) {
						if e.Vendor != "b" {
							return errf("second delegation went to %s first", e.Host)
						}
						break
					}
				}
				if o := ob.outs[1]; !strings.Contains(o.Agent, mockvendor.HostRPCB) {
					return errf("second delegation completed via %q", o.Agent)
				}
				return nil
			}},
		},
		naiveFails: true,
		breaks:     []string{"mark-degraded", "escalate-on-server-error"},
	},
	{
		name: "CARD-004 skill missing from the card",
		cfg: fleet(vendorDWith(func(v *mockvendor.VendorConfig) {
			v.Card.Skills = []string{mockvendor.SkillInvoice}
		})),
		deleg:      one(mockvendor.SkillFXHedging, mockvendor.HostCardD),
		checks:     []check{outcomeIs("CARD-004.NO-PREVALIDATE", 0, contract.OutcomeCompleted, mockvendor.SkillFXHedging)},
		naiveFails: true,
		breaks:     []string{"prevalidate-skill"},
	},
	{
		name:  "CARD-005 endpoint answers A2A-Version 0.3 for a signed 1.0 card",
		cfg:   fleet(vendorAWith(withFaults(mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{Version: "0.3"})))),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			cardTrustIs("CARD-005.HINT", 0, contract.CardTrustHint),
			outcomeIs("REF.DONE", 0, contract.OutcomeCompleted, mockvendor.SkillSummarize),
			trustModeIs("REF.FULL", 0, contract.TrustModeFull),
		},
		naiveFails: true,
		breaks:     []string{"always-authoritative"},
	},
	{
		name:  "CARD-005 endpoint answers without A2A-Version",
		cfg:   fleet(vendorAWith(withFaults(mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{})))),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			cardTrustIs("CARD-005.HINT", 0, contract.CardTrustHint),
		},
		naiveFails: true,
	},
	{
		name: "CARD-006 availability cache invalidation over three delegations",
		cfg: fleet(vendorBWith([]string{mockvendor.SkillInvoice, skillNext},
			mockvendor.Spec("region-gate", mockvendor.RegionGate{Region: mockvendor.RegionB, AfterSends: 1,
				GatedSkills: []string{mockvendor.SkillInvoice}, AvailableSkills: []string{skillNext}}))),
		deleg: []delegation{
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB}},
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB}},
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB}},
		},
		checks: []check{
			{"CARD-006.INVALIDATE", func(ob *observation) error {
				for i, e := range ob.all {
					if e.ErrorCode != -32004 || !isSend(e) {
						continue
					}
					for _, n := range ob.all[i+1:] {
						if n.Op == mockvendor.OpCardFetch && n.Vendor == e.Vendor && bypass(n) {
							break
						}
						if isTask(n) && n.Host == e.Host && n.Skill == e.Skill {
							return errf("seq %d: %s sent to %s again after the -32004 at seq %d, before a card re-fetch", n.Seq, n.Skill, n.Host, e.Seq)
						}
					}
				}
				return nil
			}},
			outcomeIs("CARD-006.RECOVER", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
			outcomeIs("CARD-006.RECOVER", 1, contract.OutcomeCompleted, skillNext),
			outcomeIs("CARD-006.RECOVER", 2, contract.OutcomeCompleted, skillNext),
			{"REF.STRAIGHT-TO-SUCCESSOR", func(ob *observation) error {
				for _, e := range ob.evs[2] {
					if isSend(e) && e.Skill == mockvendor.SkillInvoice {
						return errf("delegation 3 asked for %s again (seq %d)", e.Skill, e.Seq)
					}
				}
				return nil
			}},
		},
		naiveFails: true,
		breaks:     []string{"no-availability-cache-invalidation"},
	},
	{
		name: "CARD-007 authority window: two delegations 301 s apart",
		cfg:  fleet(mockvendor.VendorD()),
		deleg: []delegation{
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}},
			{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}},
		},
		gap: 301 * time.Second,
		checks: []check{
			{"CARD-007.REPROBE", func(ob *observation) error {
				for _, e := range ob.evs[1] {
					if e.Op == mockvendor.OpCardFetch || e.Probe {
						return nil
					}
					if isTask(e) {
						return errf("seq %d: real task without a probe or card re-fetch", e.Seq)
					}
				}
				return errf("second delegation sent nothing")
			}},
			{"REF.CARD-REFETCHED", func(ob *observation) error {
				for _, e := range ob.evs[1] {
					if e.Op == mockvendor.OpCardFetch && e.IfNoneMatch != "" {
						return nil
					}
				}
				return errf("card older than the window was not revalidated")
			}},
		},
		naiveFails: true,
		breaks:     []string{"reprobe-never"},
	},
	{
		name: "PROBE-001 stub endpoint E before D",
		cfg: fleet(mockvendor.VendorConfig{
			ID: "e", Organization: "Vendor E",
			Hosts:  []mockvendor.HostConfig{{Name: hostE, Card: true, RPCPath: mockvendor.DefaultRPCPath}},
			Skills: []mockvendor.SkillConfig{{ID: mockvendor.SkillInvoice}},
			Faults: []mockvendor.FaultSpec{mockvendor.Spec("stub-endpoint", nil)},
		}, mockvendor.VendorD()),
		deleg: one(mockvendor.SkillInvoice, hostE, mockvendor.HostCardD),
		checks: []check{
			noTaskAt("PROBE-001.NO-COMMIT", "e"),
			outcomeIs("PROBE-001.NO-COMMIT", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
			{"PROBE-001.PROBED", func(ob *observation) error {
				for _, e := range ob.all {
					if e.Vendor == "e" && e.Probe {
						return nil
					}
				}
				return errf("no probe reached E")
			}},
		},
		naiveFails: true,
		breaks:     []string{"no-probe", "commit-on-stub"},
	},
	{
		name:  "PROBE-002 probe accepted by D",
		cfg:   fleet(vendorDWith(withFaults(mockvendor.Spec("probe-accept", nil)))),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostCardD),
		checks: []check{
			{"PROBE-002.CANCEL", func(ob *observation) error {
				for _, evs := range ob.evs {
					for i, e := range evs {
						if !e.Probe || e.TaskID == "" || (e.State != "submitted" && e.State != "working") {
							continue
						}
						ok := false
						for _, n := range evs[i+1:] {
							if n.Op == mockvendor.OpCancel && n.TaskID == e.TaskID {
								ok = true
								break
							}
							if isTask(n) {
								break
							}
						}
						if !ok {
							return errf("probe task %s (%s) not cancelled before the real task", e.TaskID, e.State)
						}
					}
				}
				return nil
			}},
			{"PROBE-002.ONE", func(ob *observation) error {
				for i, evs := range ob.evs {
					probes, tasks := map[string]int{}, map[string]bool{}
					for _, e := range evs {
						if e.Probe {
							probes[e.Host]++
						}
						if isTask(e) {
							tasks[e.Host] = true
						}
					}
					for h := range tasks {
						if probes[h] != 1 {
							return errf("delegation %d: %d probes to %s", i+1, probes[h], h)
						}
					}
				}
				return nil
			}},
			outcomeIs("REF.DONE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
		},
		naiveFails: true,
		breaks:     []string{"no-probe-cancel", "probe-every-call"},
	},
	{
		name:  "STREAM-001 stream method answers application/json",
		cfg:   fleet(vendorDWith(withFaults(mockvendor.Spec("stream-content-type-lie", nil)))),
		deleg: []delegation{{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}, stream: true}},
		checks: []check{
			{"STREAM-001.FALLBACK", func(ob *observation) error {
				if _, err := streamed(ob); err != nil {
					return err
				}
				o := ob.outs[0]
				if o.Outcome != contract.OutcomeCompleted || o.CardTrust != contract.CardTrustHint {
					return errf("outcome %s cardTrust %s (%s)", o.Outcome, o.CardTrust, o.Detail)
				}
				return nil
			}},
		},
		naiveFails: true,
		breaks:     []string{"no-stream-fallback"},
	},
	{
		name: "STREAM-002 first frame after 3 s, card timeout 1 s",
		cfg: fleet(vendorDWith(func(v *mockvendor.VendorConfig) {
			v.Card.Extensions = []mockvendor.CardExtension{{URI: reference.StreamTimeoutExtension,
				Params: map[string]any{"firstFrameTimeoutMs": 1000}}}
			v.Faults = append(v.Faults, mockvendor.Spec("slow-first-frame", mockvendor.SlowFirstFrame{DelayMs: 3000}))
		})),
		deleg: []delegation{{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}, stream: true}},
		checks: []check{
			{"STREAM-002.TIMEOUT", func(ob *observation) error {
				e, err := streamed(ob)
				if err != nil {
					return err
				}
				if e.DurationMs > 2000 {
					return errf("stream held %.0f ms (timeout 1000 ms + 1 s)", e.DurationMs)
				}
				o := ob.outs[0]
				if o.Outcome != contract.OutcomeCompleted && !(o.Outcome == contract.OutcomeFailed && o.Reason == contract.ReasonStreamTimeout) {
					return errf("outcome %s reason %s", o.Outcome, o.Reason)
				}
				return nil
			}},
		},
		naiveFails: true,
		breaks:     []string{"no-stream-timeout"},
	},
	{
		name:  "STREAM control: honest stream",
		cfg:   fleet(mockvendor.VendorD()),
		deleg: []delegation{{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}, stream: true}},
		checks: []check{
			{"REF.STREAMED", func(ob *observation) error {
				if _, err := streamed(ob); err != nil {
					return err
				}
				for _, e := range ob.all {
					if e.Op == mockvendor.OpSend && !e.Probe {
						return errf("fell back to a plain send (seq %d)", e.Seq)
					}
				}
				return nil
			}},
			outcomeIs("REF.DONE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
		},
	},
	{
		name:  "MODE-001 C takes application/json and coerces text",
		cfg:   fleet(mockvendor.VendorC()),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostC),
		checks: []check{
			{"MODE-001.NO-COERCION", func(ob *observation) error {
				for _, e := range ob.all {
					if isTask(e) && len(e.Coercions) > 0 {
						return errf("seq %d: %s coerced %v", e.Seq, e.Host, e.Coercions)
					}
				}
				return nil
			}},
			outcomeIs("REF.DONE", 0, contract.OutcomeCompleted, mockvendor.SkillInvoice),
		},
		naiveFails: true,
		breaks:     []string{"ignore-input-modes"},
	},
	{
		name: "MODE-001 no part fits: candidate skipped",
		cfg: fleet(mockvendor.VendorConfig{
			ID: "c", Organization: "Vendor C",
			Hosts:  []mockvendor.HostConfig{{Name: mockvendor.HostC, Card: true, RPCPath: mockvendor.DefaultRPCPath}},
			Skills: []mockvendor.SkillConfig{{ID: mockvendor.SkillInvoice, InputModes: []string{"image/png"}}},
			Faults: []mockvendor.FaultSpec{mockvendor.Spec("input-mode-coercion", nil)},
		}),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostC),
		checks: []check{
			noTaskAt("MODE-001.NO-COERCION", "c"),
			{"REF.INPUT-MODE-MISMATCH", func(ob *observation) error {
				if o := ob.outs[0]; o.Outcome != contract.OutcomeRejected || o.Reason != contract.ReasonInputModeMismatch {
					return errf("outcome %s reason %s", o.Outcome, o.Reason)
				}
				return nil
			}},
		},
		naiveFails: true,
	},
	{
		name: "BIND-001 A's signed card names B's reseller gateway",
		cfg: fleet(vendorAWith(func(v *mockvendor.VendorConfig) {
			v.Card.URL = "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
		}), mockvendor.VendorB()),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			trustModeNot("BIND-001.NO-FULL", contract.TrustModeFull),
			{"BIND-001.NO-FULL", func(ob *observation) error {
				o := ob.outs[0]
				if o.TrustMode == contract.TrustModeReduced || o.Outcome == contract.OutcomeRejected && o.Reason == contract.ReasonSignerEndpointMismatch {
					return nil
				}
				return errf("outcome %s trustMode %s reason %s", o.Outcome, o.TrustMode, o.Reason)
			}},
			cardTrustIs("REF.HINT", 0, contract.CardTrustHint),
		},
		naiveFails: true,
		breaks:     []string{"trust-any-signature"},
	},
	{
		name:  "BIND-002 same operator (control)",
		cfg:   fleet(mockvendor.VendorA()),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			outcomeIs("BIND-002.FULL", 0, contract.OutcomeCompleted, mockvendor.SkillSummarize),
			trustModeIs("BIND-002.FULL", 0, contract.TrustModeFull),
			cardTrustIs("REF.AUTHORITATIVE", 0, contract.CardTrustAuthoritative),
		},
		breaks: []string{"never-full"},
	},
	{
		name:  "BIND-003 unsigned card",
		cfg:   fleet(mockvendor.VendorD()),
		deleg: one(mockvendor.SkillInvoice, mockvendor.HostCardD),
		checks: []check{
			trustModeIs("BIND-003.UNPINNED", 0, contract.TrustModeUnpinned),
			{"REF.UNSIGNED-DETAIL", func(ob *observation) error {
				if o := ob.outs[0]; o.Reason != contract.ReasonOK || !strings.Contains(o.Detail, "unsigned-card") {
					return errf("reason %s detail %q", o.Reason, o.Detail)
				}
				return nil
			}},
		},
		breaks: []string{"unsigned-as-full"},
	},
	{
		name: "BIND-004 bare-IP endpoint with a self-signed certificate",
		cfg: fleet(mockvendor.VendorConfig{
			ID: "a", Organization: "Vendor A",
			Hosts:   []mockvendor.HostConfig{{Name: mockvendor.HostVendorA, Card: true}, {RPCPath: mockvendor.VendorARPCPath}},
			Skills:  []mockvendor.SkillConfig{{ID: mockvendor.SkillSummarize}},
			Signing: &mockvendor.SigningConfig{KID: mockvendor.KIDVendorA},
			Faults:  []mockvendor.FaultSpec{mockvendor.Spec("self-signed", nil, "127.0.0.1")},
		}),
		deleg:  one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		badTLS: func(e mockvendor.Event) bool { return e.Vendor == "a" && strings.HasPrefix(e.Host, "127.0.0.1") },
		checks: []check{
			{"BIND-004.NO-FULL", func(ob *observation) error {
				for _, e := range ob.all {
					if isTask(e) && strings.HasPrefix(e.Host, "127.0.0.1") && ob.outs[0].TrustMode == contract.TrustModeFull {
						return errf("task sent to %s under full trust", e.Host)
					}
				}
				return nil
			}},
			rejectedFor("REF.TLS", 0, contract.ReasonTLSSANMismatch),
		},
		breaks: []string{"skip-tls-verify"},
	},
	{
		name:  "BIND-005 two keys share the kid",
		cfg:   fleet(vendorAWith(withFaults(mockvendor.Spec("duplicate-kid", nil)))),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			trustModeNot("BIND-005.NO-FULL", contract.TrustModeFull),
			rejectedFor("REF.KEY-AMBIGUOUS", 0, contract.ReasonKeyAmbiguous),
			noRPCAt("REF.NOT-CONTACTED", "a"),
		},
		naiveFails: true,
		breaks:     []string{"accept-ambiguous-kid"},
	},
	sigScenario("SIG-001 tampered card", "tampered-card", "SIG-001.REJECT", contract.ReasonSignatureInvalid, "ignore-signature-errors"),
	sigScenario("SIG-002 unknown kid", "unknown-kid", "SIG-002.REJECT", contract.ReasonKeyUnknown, "ignore-signature-errors"),
	sigScenario("SIG-004 alg none", "alg-none", "SIG-004.REJECT", contract.ReasonSignatureInvalid, "ignore-signature-errors"),
	sigScenario("SIG-004 HS256 with the public key as secret", "hs256-confusion", "SIG-004.REJECT", contract.ReasonSignatureInvalid, "ignore-signature-errors"),
	{
		name:  "SIG-003 key rotation",
		cfg:   fleet(vendorAWith(withFaults(mockvendor.Spec("key-rotation", nil)))),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			{"SIG-003.REFETCH-JWKS", func(ob *observation) error {
				n := 0
				for _, e := range ob.all {
					if e.Op == mockvendor.OpJWKSFetch {
						n++
					}
				}
				if n != 2 {
					return errf("%d JWKS fetches, want 2", n)
				}
				o := ob.outs[0]
				if o.Outcome != contract.OutcomeCompleted || o.TrustMode != contract.TrustModeFull {
					return errf("outcome %s trustMode %s reason %s (%s)", o.Outcome, o.TrustMode, o.Reason, o.Detail)
				}
				return nil
			}},
		},
		naiveFails: true,
		breaks:     []string{"no-jwks-refetch"},
	},
}

func sigScenario(name, fault, id, reason string, breaks ...string) scenario {
	return scenario{
		name:  name,
		cfg:   fleet(vendorAWith(withFaults(mockvendor.Spec(fault, nil)))),
		deleg: one(mockvendor.SkillSummarize, mockvendor.HostVendorA),
		checks: []check{
			noRPCAt(id, "a"),
			rejectedFor(id, 0, reason),
			trustModeIs("REF.UNPINNED", 0, contract.TrustModeUnpinned),
		},
		naiveFails: true,
		breaks:     breaks,
	}
}
