package mockvendor

import (
	"encoding/json"
	"errors"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// notJSON is the error for a body the JSON parsers refused: nested deeper
// than MaxBodyDepth, or not JSON from the byte offset where it stops
// being JSON (in the error's data).
func notJSON(body []byte) *RPCError {
	if trace.NestedDeeper(body, MaxBodyDepth) {
		return a2a.TooDeep(MaxBodyDepth)
	}
	e := a2a.ParseError("the body is not JSON")
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(body, new(json.RawMessage)), &se) {
		e.Data = map[string]any{"offset": se.Offset}
	}
	return e
}
