package cardsig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gowebpki/jcs"
)

// Form names the canonical form a signature was verified against.
type Form string

const (
	// FormJCS is the card minus "signatures", canonicalized with RFC 8785
	// and nothing else removed. This is what Signer produces.
	FormJCS Form = "jcs"
	// FormJCSDropEmpty is FormJCS after recursively removing every empty
	// string, null, empty array and empty object. @a2a-js/sdk and
	// a2a-python canonicalize this way.
	FormJCSDropEmpty Form = "jcs-drop-empty"
)

// signaturesMember is the top-level card member that holds signatures and is
// excluded from the signed payload.
const signaturesMember = "signatures"

// Canonicalize returns the bytes a card signature covers: the card with its
// top-level "signatures" member removed, in RFC 8785 canonical form. Numbers
// are kept as written until JCS formats them. A card that is not a single
// JSON object, or that repeats a member name in any object, is refused,
// because two parsers could then disagree on what was signed.
func Canonicalize(card []byte) ([]byte, error) {
	doc, err := parseCard(card)
	if err != nil {
		return nil, err
	}
	return canonicalForm(doc, FormJCS)
}

// CanonicalizeDropEmpty is Canonicalize after removing, at every depth,
// each member or array element whose value is "", null, [] or {} (removals
// cascade: an object left empty is removed in turn). This matches the
// cleanup @a2a-js/sdk 1.3.0 and a2a-python apply before JCS.
func CanonicalizeDropEmpty(card []byte) ([]byte, error) {
	doc, err := parseCard(card)
	if err != nil {
		return nil, err
	}
	return canonicalForm(doc, FormJCSDropEmpty)
}

// canonicalForm renders a parsed card (signatures already present or not)
// in the requested form.
func canonicalForm(doc map[string]any, form Form) ([]byte, error) {
	body := make(map[string]any, len(doc))
	for k, v := range doc {
		if k != signaturesMember {
			body[k] = v
		}
	}
	var value any = body
	if form == FormJCSDropEmpty {
		value = dropEmpty(body)
		if value == nil {
			value = map[string]any{}
		}
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("encode card: %w", err)
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonicalize card: %w", err)
	}
	return out, nil
}

// dropEmpty returns v with empty values removed recursively, or nil when v
// itself is empty after cleaning.
func dropEmpty(v any) any {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		if t == "" {
			return nil
		}
		return t
	case []any:
		kept := make([]any, 0, len(t))
		for _, e := range t {
			if c := dropEmpty(e); c != nil {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			return nil
		}
		return kept
	case map[string]any:
		kept := make(map[string]any, len(t))
		for k, e := range t {
			if c := dropEmpty(e); c != nil {
				kept[k] = c
			}
		}
		if len(kept) == 0 {
			return nil
		}
		return kept
	default:
		return v
	}
}

// parseCard decodes a card into generic values, keeping numbers as
// json.Number, and rejects duplicate member names, trailing data, bytes
// that are not UTF-8 and lone surrogates (checkText).
func parseCard(card []byte) (map[string]any, error) {
	if err := checkText(card); err != nil {
		return nil, fmt.Errorf("parse card: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(card))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("parse card: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("parse card: trailing data after the card object")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("parse card: card is not a json object")
	}
	return obj, nil
}

// maxDepth bounds nesting so a hostile card cannot exhaust the stack.
const maxDepth = 128

// decodeValue reads one JSON value from dec token by token.
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("nesting too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				if _, dup := obj[key]; dup {
					return nil, fmt.Errorf("duplicate member %q", key)
				}
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj[key] = val
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		default:
			return nil, fmt.Errorf("unexpected delimiter %q", rune(t))
		}
	default:
		// string, json.Number, bool or nil
		return t, nil
	}
}
