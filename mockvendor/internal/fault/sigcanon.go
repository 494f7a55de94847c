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
// on. The card is signed honestly over its RFC 8785 form.
//
// With Tamper set, the card holds one trap only, and it is changed after
// signing into a value that a lossy canonicaliser does not tell apart from
// the signed one, while RFC 8785 does: a verifier that rounds numbers,
// normalises Unicode or decodes a lone surrogate as U+FFFD (as Go's
// encoding/json does) takes the changed card for the signed one. The
// vendor serves a card its signature was not computed over, as a card
// altered on its way would be.
type CanonTraps struct {
	// Tamper changes the signed card: "number" turns the params' limit
	// 0.3 into 0.30000000000000004; "unicode" re-spells the description's
	// "Résumé" with combining accents (e + U+0301, NFC-equal); "surrogate"
	// replaces its U+FFFD with the escape of a lone surrogate (\ud800).
	// Empty puts every trap on the card and leaves it as signed.
	Tamper string `json:"tamper,omitempty" doc:"one trap changed after signing: number, unicode, surrogate; empty: every trap, unchanged"`
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

// tamperings are the single traps of each Tamper: what OnCard puts on
// the card (a description prefix, a params member) and what SignCard
// changes in the signed JSON.
var tamperings = map[string]struct {
	prefix, params, from, to string
}{
	"number":    {params: `{"limit":0.3}`, from: `"limit":0.3}`, to: `"limit":0.30000000000000004}`},
	"unicode":   {prefix: "Résumé: ", from: "Résumé: ", to: "Re\u0301sume\u0301: "},
	"surrogate": {prefix: "\ufffd ", from: "\ufffd ", to: `\ud800 `},
}

// OnCard adds the traps to the card: every one, or Tamper's (CardHook).
func (f *CanonTraps) OnCard(_ VendorView, card map[string]any, _ bool) {
	prefix, params := trapDescription, trapParams
	if f.Tamper != "" {
		t := tamperings[f.Tamper]
		prefix, params = t.prefix, t.params
	}
	desc, _ := card["description"].(string)
	card["description"] = prefix + desc
	caps, _ := card["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		card["capabilities"] = caps
	}
	if f.Tamper == "" {
		for _, name := range []string{"pushNotifications", "extendedAgentCard"} {
			if _, set := caps[name]; !set {
				caps[name] = false
			}
		}
	}
	if params == "" {
		return
	}
	ext := map[string]any{"uri": TrapsExtensionURI, "params": json.RawMessage(params)}
	if f.Tamper == "" {
		ext["description"] = "Paramètres de test ✓"
	}
	exts, _ := caps["extensions"].([]any)
	caps["extensions"] = append(exts, ext)
}

// SignCard signs the card honestly, then changes it as Tamper says
// (SignHook).
func (f *CanonTraps) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	signed, err := s.Sign(card)
	if err != nil || f.Tamper == "" {
		return signed, err
	}
	t, ok := tamperings[f.Tamper]
	if !ok {
		return nil, fmt.Errorf("canon-traps: tamper %q (number, unicode, surrogate or empty)", f.Tamper)
	}
	if !bytes.Contains(signed, []byte(t.from)) {
		return nil, fmt.Errorf("canon-traps: the signed card has no %q to change", t.from)
	}
	return bytes.Replace(signed, []byte(t.from), []byte(t.to), 1), nil
}
