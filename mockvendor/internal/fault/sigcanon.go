package fault

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// CanonTraps puts into the card what canonicalisers get wrong (A2A 1.0
// §8.4.1 has the card canonicalised by RFC 8785 before it is signed; SDKs
// disagree on exactly these, a2aproject/A2A#2122): non-ASCII text in the
// description, an extension whose params hold keys that sort differently
// by UTF-16 code unit than by code point (non-BMP characters against
// U+FF01 and U+E000), precomposed and decomposed spellings of one word as
// two keys, numbers whose ECMAScript form differs from their spelling
// (1.0, -0.0, 1e21, 0.000001, 1e-7, 0.30000000000000004), and the
// capabilities' optional booleans set to false, which §8.4.1 rule 1 keeps
// in the signed form because they are set. It holds no empty string, list
// or object: whether those stay in the signed form is the open question of
// a2aproject/A2A#2122, and these traps are the ones every reading agrees
// on. The card is signed honestly over its RFC 8785 form; with Tamper set,
// one trap is changed after signing, into a value a canonicaliser that
// rounds numbers or normalises Unicode would not tell apart from the
// signed one.
type CanonTraps struct {
	// Tamper changes the signed card: "number" turns the params' ratio
	// 0.30000000000000004 into 0.3; "unicode" spells the description's
	// "Résumé" with combining accents (e + U+0301, NFC-equal). Empty
	// leaves the card as signed.
	Tamper string `json:"tamper,omitempty" doc:"change after signing: number, unicode, or empty for none"`
}

func init() {
	Register("canon-traps", "the card holds canonicalisation traps (non-ASCII, non-BMP keys, floats, optional false); tamper changes one after signing", func() any { return &CanonTraps{} })
}

// TrapsExtensionURI names the extension whose params carry the traps.
const TrapsExtensionURI = "https://a2a-conform.example/ext/canonicalisation-traps/v1"

// trapParams is the extension's params as the vendor writes them: its
// numbers keep their spelling until a canonicaliser formats them.
const trapParams = `{"ratio":0.30000000000000004,"big":1e21,"tiny":0.000001,"smaller":1e-7,` +
	`"one":1.0,"negZero":-0.0,"zero":0,"off":false,` +
	`"b😀key":"astral","b！key":"fullwidth","x𐀀end":1,"x` + "\ue000" + `end":2,` +
	`"café":"precomposed","cafe` + "\u0301" + `":"decomposed"}`

// trapDescription is the non-ASCII sentence put before the description.
const trapDescription = "Résumé des itinéraires, 中文摘要 and 😀 summaries. "

// OnCard adds the traps to the card (CardHook).
func (f *CanonTraps) OnCard(_ VendorView, card map[string]any, _ bool) {
	desc, _ := card["description"].(string)
	card["description"] = trapDescription + desc
	caps, _ := card["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		card["capabilities"] = caps
	}
	for _, name := range []string{"pushNotifications", "extendedAgentCard"} {
		if _, set := caps[name]; !set {
			caps[name] = false
		}
	}
	exts, _ := caps["extensions"].([]any)
	caps["extensions"] = append(exts, map[string]any{
		"uri":         TrapsExtensionURI,
		"description": "Paramètres de test ✓",
		"params":      json.RawMessage(trapParams),
	})
}

// SignCard signs the card honestly, then changes it as Tamper says
// (SignHook).
func (f *CanonTraps) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	signed, err := s.Sign(card)
	if err != nil {
		return nil, err
	}
	var from, to string
	switch f.Tamper {
	case "":
		return signed, nil
	case "number":
		from, to = `"ratio":0.30000000000000004`, `"ratio":0.3`
	case "unicode":
		from, to = "Résumé des", "Re\u0301sume\u0301 des"
	default:
		return nil, fmt.Errorf("canon-traps: tamper %q (number, unicode or empty)", f.Tamper)
	}
	if !bytes.Contains(signed, []byte(from)) {
		return nil, fmt.Errorf("canon-traps: the signed card has no %q to change", from)
	}
	return bytes.Replace(signed, []byte(from), []byte(to), 1), nil
}
