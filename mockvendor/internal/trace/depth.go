package trace

import (
	"encoding/json"
	"fmt"
)

// MaxTracedDepth is the deepest nesting of arrays and objects a JSON value
// the trace keeps as JSON may have (a request body, error data; a
// JSON-RPC id is kept only when it is a string, a number or null). Past
// it a body is kept as text (Event.RequestText) and error data is left
// out, so that every
// output made of the trace (/admin/trace, report.json, the HTML page) is
// at most MaxTracedDepth plus its own few levels deep: under the default
// limits of the common JSON readers (System.Text.Json and Json.NET 64,
// Ruby 100, jq before 1.8 256, Python's json about 1,000 with its default
// recursion limit). An A2A request is about six levels deep before the
// data of its parts.
const MaxTracedDepth = 32

// keepShallow moves a request body nested deeper than MaxTracedDepth from
// Request to RequestText, saying so in RequestNotKept.
func keepShallow(e *Event) {
	if len(e.Request) == 0 || !NestedDeeper(e.Request, MaxTracedDepth) {
		return
	}
	e.RequestText, e.RequestSize, e.Request = string(e.Request), len(e.Request), nil
	e.RequestNotKept = fmt.Sprintf("nested deeper than %d levels: kept as text in requestText", MaxTracedDepth)
}

// Body is the request body the event keeps, for the checks: Request, or
// the text of a body nested too deep to be kept as JSON (RequestText).
// Nil when the trace kept neither.
func (e *Event) Body() json.RawMessage {
	if len(e.Request) > 0 {
		return e.Request
	}
	if e.RequestText != "" {
		return json.RawMessage(e.RequestText)
	}
	return nil
}
