package card

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/credentials"
)

// Spec is what a vendor's card says of it, resolved by the root package
// from the vendor's configuration and hosts. Where a field's zero value
// has a meaning it is the one of the root's CardConfig field of that name.
type Spec struct {
	// ID is the vendor's id ("d").
	ID string
	// Organization is provider.organization. Empty means "Vendor " and the
	// id in upper case.
	Organization string
	// Name, Description and Version are the agent's. Empty means
	// "<Organization> agent", a generated sentence and "1.0.0".
	Name, Description, Version string
	// URL is the JSON-RPC endpoint the card names: the configured one, else
	// the first JSON-RPC endpoint of the vendor's hosts ("" for none).
	URL string
	// RESTURL is the vendor's HTTP+JSON endpoint ("" for none).
	RESTURL string
	// GRPCURL is the vendor's gRPC endpoint as host:port
	// ("rpc.agent-d.example:443", the proto's AgentInterface.url; "" for
	// none).
	GRPCURL string
	// ProviderURL is provider.url: the first card host's URL.
	ProviderURL string
	// Versions are the A2A versions (Major.Minor) the vendor serves, the
	// preferred first.
	Versions []string
	// Streaming, PushNotifications and ExtendedCard are the capabilities
	// the card declares (ExtendedCard: capabilities.extendedAgentCard and
	// the 0.3 supportsAuthenticatedExtendedCard).
	Streaming, PushNotifications, ExtendedCard bool
	// Extensions are capabilities.extensions.
	Extensions []Extension
	// DefaultInputModes and DefaultOutputModes are the card's. Empty means
	// ["text/plain"].
	DefaultInputModes, DefaultOutputModes []string
	// Skills are the skills the vendor's gateway serves.
	Skills []Skill
	// Listed are the ids of the skills the card lists. Empty means every
	// one of Skills; an id of none of them is listed by its id alone.
	Listed []string
	// Interfaces, Form and LegacyURL are the card's explicit interfaces
	// and form (iface.go). Zero: the honest card, one interface per
	// version served.
	Interfaces []Interface
	Form       string
	LegacyURL  string
	// Signed says the vendor signs its card; LegacyFields that the signed
	// card keeps the 0.3 members (then signed twice, SignCard).
	Signed, LegacyFields bool
	// Security is the vendor's credential issuer, whose scheme the card
	// declares. Nil means an open vendor.
	Security *credentials.Issuer
	// MTLS names the mutual TLS security scheme the card declares (its
	// key in securitySchemes; mtls.go). Empty means none.
	MTLS string
}

// Skill is one skill as a card lists it.
type Skill struct {
	// ID is the skill id ("invoice-reconciliation").
	ID string
	// Name is the human name. Empty means the id.
	Name string
	// Description. Empty means "Runs <id>.".
	Description string
	// InputModes and OutputModes the card declares for the skill. Empty
	// means the card's defaults apply (the entry has no such member).
	InputModes, OutputModes []string
}

// Extension is one capabilities.extensions entry; its fields are the
// entry's members, in this order.
type Extension struct {
	URI         string         `json:"uri"`
	Description string         `json:"description,omitempty"`
	Required    bool           `json:"required,omitempty"`
	Params      map[string]any `json:"params,omitempty"`
}

// serves reports whether the vendor serves version (Major.Minor).
func (s *Spec) serves(version string) bool { return slices.Contains(s.Versions, version) }

// listedSkills are the skills the card lists.
func (s *Spec) listedSkills() []Skill {
	if len(s.Listed) == 0 {
		return s.Skills
	}
	var out []Skill
	for _, id := range s.Listed {
		i := slices.IndexFunc(s.Skills, func(k Skill) bool { return k.ID == id })
		if i < 0 {
			out = append(out, Skill{ID: id})
			continue
		}
		out = append(out, s.Skills[i])
	}
	return out
}
