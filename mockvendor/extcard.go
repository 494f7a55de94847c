package mockvendor

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
)

// The extended agent card (A2A 1.0 §3.1.11, §13.3; 0.3 §7.10): the public
// card with its own description and the skills ExtendedCardConfig.Skills
// adds, signed like the public card when the vendor signs. The vendor's
// Auth guards the methods that serve it (auth.go).

// extendedCard is the extended card a client of d's generation gets: a
// fresh map, signed by the vendor's key (or as its first extended-card
// sign fault signs it) when the vendor signs its cards.
func (v *Vendor) extendedCard(d a2a.Dialect) (map[string]any, error) {
	ec := v.cfg.Card.ExtendedCard
	spec := *v.cardSpec()
	if len(ec.Skills) > 0 && len(spec.Listed) > 0 {
		spec.Listed = append(slices.Clip(spec.Listed), ec.Skills...)
	}
	doc := spec.Document()
	if d == Dialect10 {
		for _, k := range card.LegacyMembers {
			delete(doc, k)
		}
	}
	desc, _ := doc["description"].(string)
	doc["description"] = ec.Description
	if ec.Description == "" {
		doc["description"] = strings.TrimSuffix(desc, ".") + " (extended card)"
	}
	if v.signer == nil {
		return doc, nil
	}
	signed, err := v.signExtendedCard(doc)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(signed, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// signExtendedCard signs the extended card honestly, or as the first
// attached extended-card sign fault does instead.
func (v *Vendor) signExtendedCard(doc map[string]any) ([]byte, error) {
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.ExtendedCardSignHook); ok {
			b, err := json.Marshal(doc)
			if err != nil {
				return nil, err
			}
			return h.SignExtendedCard(v.view(), v.signer, b)
		}
	}
	return v.signer.SignCard(doc)
}

// checkExtendedSkills refuses extended-card skills the vendor does not
// have, and any on a vendor whose public card lists every skill (nothing
// is left for the extended card to add).
func (v *Vendor) checkExtendedSkills() error {
	ec := v.cfg.Card.ExtendedCard
	if ec == nil || len(ec.Skills) == 0 {
		return nil
	}
	field := fmt.Sprintf("vendors[%d].card.extendedCard.skills", slices.Index(v.fleet.vendors, v))
	if len(v.cfg.Card.Skills) == 0 {
		return &ConfigError{Field: field, Msg: fmt.Sprintf("vendor %s: the public card lists every skill (card.skills is empty), so the extended card has none to add", v.cfg.ID)}
	}
	for _, id := range ec.Skills {
		if _, ok := v.skill(id); !ok {
			return &ConfigError{Field: field, Msg: fmt.Sprintf("vendor %s has no skill %q", v.cfg.ID, id)}
		}
	}
	return nil
}
