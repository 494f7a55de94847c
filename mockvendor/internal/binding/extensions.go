package binding

import (
	"net/http"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// Extensions (A2A 1.0.1 §3.2.6, §3.3.4, §4.6): a client activates the
// extensions it wants for a request by listing their URIs, comma-separated,
// in a request header: A2A-Extensions in 1.0 (§3.2.6, §9.2; HTTP+JSON
// alike), X-A2A-Extensions in 0.3 (its docs/topics/extensions.md, which 1.0
// renamed). Each request is read by its own dialect's name: the other name
// activates nothing. The vendor activates the requested extensions its
// card declares (capabilities.extensions) and names them in the same
// header of its answer (1.0's extensions topic: the response SHOULD list
// the activated extensions; 0.3's likewise). A request that does not
// activate every extension the card marks required: true is refused with
// ExtensionSupportRequiredError (-32008, §3.3.4 MUST, HTTP 400 over
// HTTP+JSON, §5.4). A2A 0.3 defines no code for it (its extensions topic
// says only that the agent should reject the request with an appropriate
// error): the fleet answers -32008 there too, the code 1.0 gave it.

// Extension header names, as each generation spells them.
const (
	// ExtensionsHeader is A2A 1.0's A2A-Extensions.
	ExtensionsHeader = "A2A-Extensions"
	// LegacyExtensionsHeader is A2A 0.3's X-A2A-Extensions.
	LegacyExtensionsHeader = "X-A2A-Extensions"
)

// maxRequestedExtensions bounds how many URIs of a request's header are
// read: a card declares a handful, and a hostile header is not split
// without end.
const maxRequestedExtensions = 64

// ExtensionsHeaderFor is the header that carries extension URIs in
// dialect d: A2A-Extensions for 1.0, X-A2A-Extensions for the 0.x
// dialects.
func ExtensionsHeaderFor(d a2a.Dialect) string {
	if d == a2a.Dialect10 {
		return ExtensionsHeader
	}
	return LegacyExtensionsHeader
}

// activateExtensions is the extensions stage: it records in q.Activated
// the requested extensions the card declares, and refuses a request that
// leaves out one the card marks required (-32008).
func activateExtensions(q *Request) error {
	declared, required := q.Host.Extensions()
	if len(declared) == 0 {
		return nil
	}
	name := ExtensionsHeaderFor(q.Dialect)
	asked := RequestedExtensions(q.Header, name)
	q.Activated = nil
	for _, u := range declared {
		if slices.Contains(asked, u) {
			q.Activated = append(q.Activated, u)
		}
	}
	var missing []string
	for _, u := range required {
		if !slices.Contains(asked, u) {
			missing = append(missing, u)
		}
	}
	if len(missing) > 0 {
		return a2a.ExtensionSupportRequired(missing, name)
	}
	return nil
}

// RequestedExtensions are the extension URIs header name of h lists, in
// order, every line of it read and each comma-separated entry trimmed
// (empty entries skipped); at most maxRequestedExtensions.
func RequestedExtensions(h http.Header, name string) []string {
	var out []string
	for _, line := range h.Values(name) {
		for _, u := range strings.Split(line, ",") {
			if u = strings.TrimSpace(u); u != "" && len(out) < maxRequestedExtensions {
				out = append(out, u)
			}
		}
	}
	return out
}

// echoExtensions names the activated extensions in the answer's header of
// the request's dialect (none activated: no header).
func echoExtensions(hdr http.Header, q *Request) {
	if len(q.Activated) > 0 {
		hdr.Set(ExtensionsHeaderFor(q.Dialect), strings.Join(q.Activated, ","))
	}
}
