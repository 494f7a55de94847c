package trace

// MaxBodyDepth is the deepest a request body may nest arrays and objects
// (10,000, encoding/json's own bound, which the fleet's parsers share). A
// body nested deeper is valid JSON the fleet does not parse: it is
// answered -32700 (HTTP+JSON: 400) saying "nested deeper than 10000",
// not that it is not JSON.
const MaxBodyDepth = 10_000

// NestedDeeper reports whether b opens more than max arrays and objects
// at once (brackets inside strings aside). It reads bytes only, so it
// answers for a body that is not JSON too. The trace keeps a body nested
// deeper than MaxTracedDepth as text; the fleet does not parse one nested
// deeper than MaxBodyDepth.
func NestedDeeper(b []byte, max int) bool {
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
