package mockvendor

import (
	"encoding/json"
	"errors"
	"fmt"
)

// MaxBodyDepth is the deepest a request body may nest arrays and objects
// (10,000, encoding/json's own bound, which the fleet's parsers share). A
// body nested deeper is valid JSON the fleet does not parse: it is
// answered -32700 (HTTP+JSON: 400) saying "nested deeper than 10000",
// not that it is not JSON.
const MaxBodyDepth = 10_000

// notJSON is the error for a body the JSON parsers refused: nested deeper
// than MaxBodyDepth, or not JSON from the byte offset where it stops
// being JSON (in the error's data).
func notJSON(body []byte) *RPCError {
	if nestedDeeper(body, MaxBodyDepth) {
		return errTooDeep()
	}
	e := errParse("the body is not JSON")
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(body, new(json.RawMessage)), &se) {
		e.Data = map[string]any{"offset": se.Offset}
	}
	return e
}

// errTooDeep is a body nested deeper than MaxBodyDepth. Its code is
// JSON-RPC 2.0's -32700 Parse error, "an error occurred on the server
// while parsing the JSON text" (§5.1): the server stopped parsing at its
// bound, before there was any request object to judge, which -32600
// Invalid Request ("not a valid Request object") would claim; the message
// says the body is JSON.
func errTooDeep() *RPCError {
	return &RPCError{
		Code:    -32700,
		Message: fmt.Sprintf("Parse error: the body is nested deeper than %d levels of arrays and objects, the fleet's limit; it was not parsed", MaxBodyDepth),
		Data:    map[string]any{"maxDepth": MaxBodyDepth},
		Reason:  "PARSE_ERROR",
	}
}

// nestedDeeper reports whether b opens more than max arrays and objects
// at once (brackets inside strings aside). It reads bytes only, so it
// answers for a body that is not JSON too.
func nestedDeeper(b []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}
