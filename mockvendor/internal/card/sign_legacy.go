package card

import (
	"encoding/json"
	"fmt"
)

// LegacyMembers are the 0.3 members a hybrid card carries beside the 1.0
// ones; a 1.0 verifier that projects the card onto the 1.0 schema first
// (@a2a-js/sdk 1.3.0) never sees them. supportsAuthenticatedExtendedCard
// is there only when the card declares an extended card
// (Spec.ExtendedCard).
var LegacyMembers = []string{"url", "preferredTransport", "protocolVersion", "supportsAuthenticatedExtendedCard"}

// signHybrid signs a card that carries the 0.3 members (SigningSpec.
// LegacyFields) twice with the vendor's key: the first signature covers
// the card without them (the bytes @a2a-js/sdk checks after its
// projection), the second the whole card (what an RFC 8785 verifier over
// the document checks, and what protects url for a 0.3 client). A
// verifier succeeds on the first signature that verifies (A2A 1.0 §8.4:
// several signatures may be present), so both kinds accept the card, and
// neither accepts a card changed in what it reads.
func (s *Signer) signHybrid(card map[string]any) ([]byte, error) {
	proj := make(map[string]any, len(card))
	for k, val := range card {
		proj[k] = val
	}
	for _, k := range LegacyMembers {
		delete(proj, k)
	}
	pb, err := json.Marshal(proj)
	if err != nil {
		return nil, err
	}
	fb, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	var sigs []json.RawMessage
	for _, b := range [][]byte{pb, fb} {
		signed, err := s.Sign(b)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Signatures []json.RawMessage `json:"signatures"`
		}
		if err := json.Unmarshal(signed, &doc); err != nil || len(doc.Signatures) != 1 {
			return nil, fmt.Errorf("signed card without its signature: %v", err)
		}
		sigs = append(sigs, doc.Signatures[0])
	}
	out := make(map[string]any, len(card)+1)
	for k, val := range card {
		out[k] = val
	}
	out["signatures"] = sigs
	return json.Marshal(out)
}
