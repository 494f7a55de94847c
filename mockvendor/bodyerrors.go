package mockvendor

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// notJSON is the error for a body the JSON parsers refused: nested deeper
// than MaxBodyDepth, or not JSON from the byte offset where it stops
// being JSON (in the error's data).
func notJSON(body []byte) *RPCError {
	if trace.NestedDeeper(body, MaxBodyDepth) {
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
