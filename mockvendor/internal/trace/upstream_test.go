package trace

import "testing"

func TestUpstreamSummary(t *testing.T) {
	const agent = "http://127.0.0.1:35273/"
	cases := []struct {
		name string
		u    *Upstream
		want string
	}{
		{"none", nil, ""},
		{"a send answered", &Upstream{URL: agent, Method: "message/send", Status: 200, DurationMs: 1.84},
			"message/send → HTTP 200, 1.8 ms (" + agent + ")"},
		{"a 1.0 stream", &Upstream{URL: agent, Method: "SendStreamingMessage", Status: 200, A2AVersion: "1.0", Events: 4, DurationMs: 12},
			"SendStreamingMessage → HTTP 200, A2A-Version 1.0, 4 events, 12.0 ms (" + agent + ")"},
		{"the agent's error", &Upstream{URL: agent, Method: "tasks/get", Status: 200, ErrorCode: -32001, DurationMs: 0.5},
			"tasks/get → HTTP 200, error -32001, 0.5 ms (" + agent + ")"},
		{"a card fetch that failed", &Upstream{URL: agent + ".well-known/agent-card.json", Error: "upstream: agent unreachable: connection refused"},
			"card: upstream: agent unreachable: connection refused (" + agent + ".well-known/agent-card.json)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.u.Summary(); got != c.want {
				t.Errorf("Summary() = %q\n want %q", got, c.want)
			}
		})
	}
}
