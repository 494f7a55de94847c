package ops

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// extendedCard answers GetExtendedAgentCard and
// agent/getAuthenticatedExtendedCard: -32004 UnsupportedOperation when the
// card does not declare the extended card (A2A 1.0.1 §3.3.4), -32007
// ExtendedAgentCardNotConfigured when it declares one it does not have,
// else the extended card in the request's generation (1.0: the 1.0
// members only; 0.3: the card as 0.3 clients read it), as the vendor
// builds and signs it (Vendor.ExtendedCardDocument).
func extendedCard(v Vendor, q *Request) (Result, error) {
	ec, ok := v.ExtendedCard()
	if !ok {
		return Result{}, a2a.Unsupported(q.Method + ": the card does not declare an extended agent card (capabilities.extendedAgentCard)")
	}
	if ec.Unconfigured {
		return Result{}, a2a.ExtendedCardNotConfigured()
	}
	card, err := v.ExtendedCardDocument(q.Dialect)
	if err != nil {
		return Result{}, err
	}
	return Result{Value: card}, nil
}
