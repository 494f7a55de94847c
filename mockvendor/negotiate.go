package mockvendor

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
)

// Version negotiation (A2A 1.0 §3.6): a vendor serves the versions of
// VendorConfig.Versions; a request names its version in the A2A-Version
// header or query parameter, and none means 0.3. A request for a version
// the vendor does not serve gets -32009 with the versions it does; a
// method of another generation than the negotiated version's is not a
// method of that version (-32601). The 0.1 names (tasks/send, ...) predate
// the header: they are served with the 0.x generation, as 0.3 is.
//
// The first edition answered the source documents' mix (0.1 names with
// A2A-Version: 1.0) everywhere; the lenient-version fault (internal/fault)
// keeps that for the scenarios that ask for it: under it the method's own
// dialect wins over the header. The negotiation itself is a stage every
// binding shares (internal/binding: Handle); the vendor's facts it reads
// are here and in endpoint.go (endpointVersions).

// servedVersions are the versions the vendor serves, preferred first.
func (v *Vendor) servedVersions() []string {
	if len(v.cfg.Versions) > 0 {
		return v.cfg.Versions
	}
	if v.cfg.Card.ProtocolVersion == "0.3" {
		return []string{"0.3"}
	}
	return []string{"1.0", "0.3"}
}

// serves reports whether the vendor serves version (Major.Minor).
func (v *Vendor) serves(version string) bool {
	return slices.Contains(v.servedVersions(), version)
}

// lenient reports whether a lenient-version fault applies to the host.
func (v *Vendor) lenient(hostKey string) bool {
	if v.servesUpstreamCard() {
		return true // the agent's card, the agent's negotiation
	}
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.LenientHook); ok && af.appliesTo(hostKey) && h.Lenient() {
			return true
		}
	}
	return false
}
