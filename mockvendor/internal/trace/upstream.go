package trace

import (
	"fmt"
	"strings"
)

// Upstream is what a proxied vendor's event records of its exchange with
// the real agent it stands in front of (a vendor with an upstream): the
// request the fleet forwarded and what the agent answered. The rest of
// the event is the orchestrator's side, which the checks read; this is
// the agent's, which tells a fault the fleet injected from a failure of
// the agent itself.
type Upstream struct {
	// URL is the agent's endpoint the request went to.
	URL string `json:"url"`
	// Method is the JSON-RPC method forwarded ("" for a card fetch).
	Method string `json:"method,omitempty"`
	// Status is the agent's HTTP status; 0 when no answer came.
	Status int `json:"status,omitempty"`
	// A2AVersion is the A2A-Version header of the agent's answer.
	A2AVersion string `json:"a2aVersion,omitempty"`
	// DurationMs is how long the agent took to its answer's header.
	DurationMs float64 `json:"durationMs"`
	// Bytes is how many bytes of answer body the fleet read (a stream's
	// events together).
	Bytes int64 `json:"bytes,omitempty"`
	// Events is how many events of a stream the agent sent (0 for a
	// plain answer).
	Events int `json:"events,omitempty"`
	// ErrorCode is the A2A (JSON-RPC) error the agent answered, 0 when
	// none.
	ErrorCode int `json:"errorCode,omitempty"`
	// Error says why the exchange failed short of an answer (the agent
	// down, too slow, an answer that is not JSON-RPC, too large, a
	// stream that stalled); "" when it did not.
	Error string `json:"error,omitempty"`
}

// Summary says in a line what the agent answered, or why it did not: the
// method (a card fetch when none), then its status, A2A error, stream
// events and time, or the failure; the agent's URL last.
func (u *Upstream) Summary() string {
	if u == nil {
		return ""
	}
	what := u.Method
	if what == "" {
		what = "card"
	}
	if u.Error != "" {
		return fmt.Sprintf("%s: %s (%s)", what, u.Error, u.URL)
	}
	parts := []string{fmt.Sprintf("HTTP %d", u.Status)}
	if u.A2AVersion != "" {
		parts = append(parts, "A2A-Version "+u.A2AVersion)
	}
	if u.ErrorCode != 0 {
		parts = append(parts, fmt.Sprintf("error %d", u.ErrorCode))
	}
	if u.Events > 0 {
		parts = append(parts, fmt.Sprintf("%d events", u.Events))
	}
	parts = append(parts, fmt.Sprintf("%.1f ms", u.DurationMs))
	return fmt.Sprintf("%s → %s (%s)", what, strings.Join(parts, ", "), u.URL)
}
