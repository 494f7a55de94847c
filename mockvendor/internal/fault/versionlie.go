package fault

import "net/http"

// VersionHeaderLie answers with an A2A-Version header that differs from the
// version the card claims [card as claim, not contract: Condition of Validity:
// card version and header must agree]. A2A defines A2A-Version as a request
// parameter only (A2A 1.0 §3.6.1, §14.2.1), so the answer's header breaks no
// clause of the spec; and a 0.3 request (no header) answered 0.3 is what an
// honest vendor answers, so only a client that asked for 1.0 meets a
// disagreement.
type VersionHeaderLie struct {
	// Version is the A2A-Version the endpoint answers with. Empty means the
	// header is left out (a 0.x peer).
	Version string `json:"version,omitempty" doc:"A2A-Version answered; empty leaves the header out"`
}

func init() {
	Register("version-header-lie", "responses carry an A2A-Version other than the card's", func() any { return &VersionHeaderLie{} })
}

// OnResponseHeader sets A2A-Version to Version, or drops it (HeaderHook).
func (l *VersionHeaderLie) OnResponseHeader(h http.Header) {
	if l.Version == "" {
		h.Del("A2A-Version")
		return
	}
	h[versionHeaderKey] = []string{l.Version} // h.Set without canonicalizing the key each time
}

// versionHeaderKey is the A2A-Version header's canonical key.
var versionHeaderKey = http.CanonicalHeaderKey("A2A-Version")
