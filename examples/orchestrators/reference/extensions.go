package reference

import (
	"net/http"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Extensions [A2A 1.0 §3.2.6, §3.3.4, §4.6; contract task.extensions]. The
// caller says which extensions it implements; the reference activates, on
// every request to an agent, the extensions that agent's card declares and
// the caller implements, in the header the interface's version names
// (A2A-Extensions for 1.0, X-A2A-Extensions for 0.3). A card that requires
// an extension the caller does not implement is refused from the card,
// before any request (clients SHOULD check the card first, §3.3.4), with
// reason extension-unsupported naming it; the next candidate is tried. A
// -32008 (which the reference does not provoke) ends the attempt the same
// way, never retried.

// Extension header names.
const (
	extensionsHeader       = "A2A-Extensions"
	legacyExtensionsHeader = "X-A2A-Extensions"
)

// missingExtensions are the extensions the card requires and the caller
// does not implement.
func (r *run) missingExtensions(c *agentCard) []string {
	var out []string
	for _, e := range c.Capabilities.Extensions {
		if e.Required && !slices.Contains(r.req.Task.Extensions, e.URI) {
			out = append(out, e.URI)
		}
	}
	return out
}

// extensionStep refuses a card that requires an extension the caller does
// not implement. False means the candidate is refused.
func (r *run) extensionStep(a *attempt) bool {
	if r.br.NoExtensionHeader || r.br.ActivateRequiredExtensions || r.br.ExtensionRetryLoop {
		return true
	}
	missing := r.missingExtensions(a.card)
	if len(missing) == 0 {
		return true
	}
	r.notef("%s: the card requires the extension %s, which the caller does not implement: extension-unsupported, nothing sent", a.cardURL, strings.Join(missing, ", "))
	a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonExtensionUnsupported
	return false
}

// activated are the extensions to activate at the attempt's agent: those
// its card declares that the caller implements (with the
// ActivateRequiredExtensions break, every required one too).
func (r *run) activated(a *attempt) []string {
	if a.card == nil || r.br.NoExtensionHeader || r.br.ExtensionRetryLoop {
		return nil
	}
	var out []string
	for _, e := range a.card.Capabilities.Extensions {
		if slices.Contains(r.req.Task.Extensions, e.URI) || e.Required && r.br.ActivateRequiredExtensions {
			out = append(out, e.URI)
		}
	}
	return out
}

// activate names the activated extensions on a request to the attempt's
// endpoint, in the header its version names.
func (r *run) activate(a *attempt, req *http.Request) {
	uris := r.activated(a)
	if len(uris) == 0 {
		return
	}
	name := extensionsHeader
	if !strings.HasPrefix(a.ep.Version, "1.") || r.br.LegacyExtensionHeader {
		name = legacyExtensionsHeader
	}
	req.Header.Set(name, strings.Join(uris, ","))
}

// extensionRefused ends the attempt on a -32008: the agent requires an
// extension the request did not activate. The ExtensionRetryLoop break
// sends the refused request five more times first.
func (r *run) extensionRefused(a *attempt, what string, e *wire.RPCError, again func()) {
	if r.br.ExtensionRetryLoop {
		for i := 0; i < 5; i++ {
			again()
		}
	}
	r.notef("%s of %s: %v: the agent requires an extension the request did not activate: extension-unsupported", what, a.ep.URL, e)
	a.reason = contract.ReasonExtensionUnsupported
}
