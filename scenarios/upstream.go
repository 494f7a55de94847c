package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// A scenario run against a real agent (a2a-conform run --upstream): the
// agent takes the place of one fleet vendor, behind the fleet's proxy
// (mockvendor.UpstreamConfig with OwnCard): the vendor's card (its skills,
// hosts, signature) and its faults stay the scenario's, and every call is
// forwarded to the agent, whose answers (tasks, states, artifacts,
// streams, errors) the orchestrator gets through the faults. A scenario
// can be played so only when what it asks of the vendor is what a proxy
// can do to a real agent's traffic (Playable says why not otherwise).

// Upstream is a real agent in the place of a fleet vendor.
type Upstream struct {
	// Vendor is the fleet vendor's id ("b").
	Vendor string
	// Config reaches the agent; OwnCard is set by WithUpstream.
	Config mockvendor.UpstreamConfig
	// Versions are the A2A versions (Major.Minor) the agent speaks; the
	// vendor's card declares only those (a card that declared 1.0 in front
	// of a 0.3-only agent would fault the client for the agent's gap).
	// Empty keeps the scenario's.
	Versions []string
}

// judgesVendorLogic are the faults a proxy applies to a real agent whose
// scenarios judge the client against what the fleet's own vendor then
// does, which an honest agent may do otherwise: such a scenario would
// blame the client for the agent's choice.
var judgesVendorLogic = map[string]string{
	"lost-answer": "it judges a retry after a lost answer against the vendor's deduplication of a resent message, which A2A 1.0 §3.3.1 leaves to the agent (MAY)",
}

// Playable reports whether scenario s can run with a real agent that
// speaks versions (Major.Minor; empty: any) in the place of vendor id, and
// why not when it cannot.
func Playable(s *Scenario, id string, versions []string) (bool, string) {
	cfg := s.Fleet()
	i := slices.IndexFunc(cfg.Vendors, func(v mockvendor.VendorConfig) bool { return v.ID == id })
	if i < 0 {
		return false, fmt.Sprintf("vendor %s takes no part in it", id)
	}
	v := cfg.Vendors[i]
	for _, f := range v.Faults {
		if !mockvendor.UpstreamFaults[f.Type] {
			return false, fmt.Sprintf("its fault %s changes what the agent itself does with a task", f.Type)
		}
		if why, ok := judgesVendorLogic[f.Type]; ok {
			return false, why
		}
	}
	switch {
	case v.Auth != nil || v.MTLS != nil:
		return false, "the vendor issues and checks its own credentials, which the agent does not know"
	case slices.ContainsFunc(s.Requests, func(r Request) bool { return r.Push }):
		return false, "it judges push deliveries the vendor makes, which the agent would make to its own rules"
	case v.Card.ExtendedCard != nil:
		return false, "it judges the vendor's extended card, which the agent does not have"
	case len(v.Card.Extensions) > 0:
		return false, "it judges extensions the vendor's card declares, which the agent does not implement"
	}
	return declaresOnly(v, versions)
}

// declaresOnly refuses a vendor whose versions the scenario fixes (the
// versions it serves, a pure 0.3 card, interfaces declared one by one: the
// scenario judges those) where the agent does not speak them.
func declaresOnly(v mockvendor.VendorConfig, versions []string) (bool, string) {
	if len(versions) == 0 {
		return true, ""
	}
	for _, want := range v.Versions {
		if !slices.Contains(versions, want) {
			return false, fmt.Sprintf("the vendor serves A2A %s, which the agent does not speak", want)
		}
	}
	if (v.Card.Form == mockvendor.FormLegacy || v.Card.ProtocolVersion == V03) && !slices.Contains(versions, V03) {
		return false, "its card is a pure A2A 0.3 card, which the agent does not speak"
	}
	for _, i := range v.Card.Interfaces {
		pv := i.ProtocolVersion
		if pv == "" {
			pv = V10
		}
		if !slices.Contains(versions, pv) {
			return false, fmt.Sprintf("its card declares an A2A %s interface (%s), which the agent does not speak", pv, i.URL)
		}
	}
	return true, ""
}

// WithUpstream is a copy of s whose fleet puts agent u in the place of
// vendor u.Vendor (its card the scenario's, with the agent's versions).
func WithUpstream(s *Scenario, u Upstream) *Scenario {
	return withVendor(s, u.Vendor, u.Versions, func(v *mockvendor.VendorConfig) {
		uc := u.Config
		uc.OwnCard = true
		v.Upstream = &uc
	})
}

// WithVersions is a copy of s whose vendor id serves only versions (its
// card declaring them alone): the fleet's own vendor in the card a real
// agent of those versions gets (WithUpstream), to compare the two. Empty
// versions keep the scenario's.
func WithVersions(s *Scenario, id string, versions []string) *Scenario {
	return withVendor(s, id, versions, func(*mockvendor.VendorConfig) {})
}

// withVendor is a copy of s whose fleet has vendor id changed by change,
// and serving versions when some are given.
func withVendor(s *Scenario, id string, versions []string, change func(v *mockvendor.VendorConfig)) *Scenario {
	out := *s
	fleet := s.Fleet
	out.Fleet = func() mockvendor.Config {
		cfg := fleet()
		for i := range cfg.Vendors {
			v := &cfg.Vendors[i]
			if v.ID != id {
				continue
			}
			change(v)
			if len(versions) > 0 && len(v.Card.Interfaces) == 0 {
				v.Versions = versions // the card declares those versions
			}
		}
		return cfg
	}
	return &out
}
