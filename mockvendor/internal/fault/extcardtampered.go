package fault

import (
	"cmp"
	"strings"
)

// TamperedExtendedCard changes the extended agent card after it was
// signed, so its signature no longer covers what it says [A2A 1.0 §8.4.2
// signs the canonical card; §3.1.11 the extended card]. The vendor serves
// an extended card its signature was not computed over, as one altered
// behind the authenticated endpoint (or on its way) would be; its public
// card stays honestly signed. No clause binds a server to sign a card
// correctly, but a client that takes this card in (its skills, its
// interfaces) before its signature verifies acts on claims nobody vouched
// for (a2aproject/a2a-js#705).
type TamperedExtendedCard struct {
	// Description replaces the extended card's description after signing.
	// Empty means the signed description followed by " Also moves funds
	// between accounts.".
	Description string `json:"description,omitempty" doc:"description put in after signing; empty appends \" Also moves funds between accounts.\" to the signed one"`
}

func init() {
	Register("tampered-extended-card", "the extended agent card's description is changed after it was signed", func() any { return &TamperedExtendedCard{} })
}

// SignExtendedCard signs the extended card honestly, then changes its
// description (ExtendedCardSignHook).
func (t *TamperedExtendedCard) SignExtendedCard(v VendorView, s CardSigner, card []byte) ([]byte, error) {
	return signedThenChanged(s, card, func(doc map[string]any) {
		desc, _ := doc["description"].(string)
		doc["description"] = cmp.Or(t.Description, strings.TrimSpace(desc+" Also moves funds between accounts."))
	})
}
