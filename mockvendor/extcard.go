package mockvendor

import (
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// doExtendedCard answers GetExtendedAgentCard and
// agent/getAuthenticatedExtendedCard: -32004 UnsupportedOperation when the
// card does not declare the extended card (A2A 1.0.1 §3.3.4), -32007
// ExtendedAgentCardNotConfigured when it declares one it does not have,
// else the extended card in the request's generation (1.0: the 1.0
// members only; 0.3: the card as 0.3 clients read it).
func (h *host) doExtendedCard(q *opRequest) (result, error) {
	v := h.vendor
	ec := v.cfg.Card.ExtendedCard
	if ec == nil {
		return result{}, a2a.Unsupported(q.method + ": the card does not declare an extended agent card (capabilities.extendedAgentCard)")
	}
	if ec.Unconfigured {
		return result{}, a2a.ExtendedCardNotConfigured()
	}
	card := v.cardDocument()
	desc, _ := card["description"].(string)
	card["description"] = or(ec.Description, strings.TrimSuffix(desc, ".")+" (extended card)")
	if q.dialect == Dialect10 {
		for _, k := range legacyMembers {
			delete(card, k)
		}
		delete(card, "supportsAuthenticatedExtendedCard")
	}
	return result{value: card}, nil
}
