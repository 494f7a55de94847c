package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// TestServe checks the NDJSON loop without a fleet: hello and reset are
// answered, garbage is skipped, and a delegation with no candidates gets a
// failed outcome with its id echoed. The suite's TestAdapters runs the
// adapter against the fleet.
func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"contract":1,"type":"hello"}`,
		`not json`,
		``,
		`{"contract":1,"type":"reset"}`,
		`{"contract":1,"type":"delegate","id":"d-1","task":{"skill":"s","message":{"role":"user","messageId":"m-1","parts":[{"kind":"text","text":"hi"}]}},"candidates":[],"deadlineMs":2000}`,
	}, "\n") + "\n"
	var out, logw bytes.Buffer
	if err := serve(strings.NewReader(in), &out, &logw); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d answers, want 3:\n%s", len(lines), out.String())
	}
	var h contract.Hello
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil || h.Type != "hello" || h.Name != name || !strings.Contains(h.Version, "a2a-go@") {
		t.Errorf("hello answer %s (%v)", lines[0], err)
	}
	var r contract.Reset
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil || r.Type != "reset" || !r.OK {
		t.Errorf("reset answer %s (%v)", lines[1], err)
	}
	var o contract.DelegationOutcome
	if err := json.Unmarshal([]byte(lines[2]), &o); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate("d-1"); err != nil {
		t.Errorf("outcome %s: %v", lines[2], err)
	}
	if o.Outcome != contract.OutcomeFailed || o.CardTrust != contract.CardTrustAuthoritative || o.TrustMode != contract.TrustModeUnpinned || o.Skill != "s" {
		t.Errorf("outcome %+v", o)
	}
	if !strings.Contains(logw.String(), "not JSON") {
		t.Errorf("garbage not reported: %q", logw.String())
	}
}

// TestInvalidCard: a card the SDK's resolver could not decode is
// invalid-card, in the resolver's own words; no other error is.
func TestInvalidCard(t *testing.T) {
	for _, tc := range []struct {
		err  string
		want bool
	}{
		{"resolving https://a.example/card: card parsing failed: json: cannot unmarshal array into Go value of type a2a.AgentCard", true},
		{"client from card https://a.example/card: no compatible transports found: available transports - [JSONRPC]", false},
		{"card request failed: dial tcp: refused", false},
	} {
		if got := invalidCard(errors.New(tc.err)); got != tc.want {
			t.Errorf("invalidCard(%q) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
