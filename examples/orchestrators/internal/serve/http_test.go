package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// counting is an orchestrator that says which instance it is and how many
// delegations it has seen, so a test can tell sessions apart.
type counting struct {
	n    int64
	seen int
}

func (c *counting) Delegate(_ context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
	c.seen++
	return contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Detail: fmt.Sprintf("instance %d, delegation %d", c.n, c.seen)}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	var made atomic.Int64
	s := &Sessions{Identity: Identity{Name: "t", Version: "1", Sessions: 2},
		New: func() Orchestrator { return &counting{n: made.Add(1)} }}
	srv := httptest.NewServer(s)
	defer srv.Close()
	post := func(body string) (int, map[string]any) {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	del := func(session string) string {
		return `{"contract":1,"type":"delegate","id":"r","session":"` + session + `"}`
	}
	for _, step := range []struct {
		name, body string
		status     int
		field      string // of the answer; "" checks the status only
		want       any
	}{
		{"hello declares the sessions (its orchestrator, instance 1, is not held)", `{"contract":1,"type":"hello"}`, 200, "sessions", 2.0},
		{"first session, first delegation", del("a"), 200, "detail", "instance 2, delegation 1"},
		{"second session has its own orchestrator", del("b"), 200, "detail", "instance 3, delegation 1"},
		{"first session keeps its state", del("a"), 200, "detail", "instance 2, delegation 2"},
		{"reset confirms", `{"contract":1,"type":"reset","session":"a"}`, 200, "ok", true},
		{"reset starts the session afresh", del("a"), 200, "detail", "instance 4, delegation 1"},
		{"close is answered", `{"contract":1,"type":"close","session":"b"}`, 200, "", nil},
		{"a closed session starts afresh", del("b"), 200, "detail", "instance 5, delegation 1"},
		{"a third session evicts the least recently used (a)", del("c"), 200, "detail", "instance 6, delegation 1"},
		{"b was kept", del("b"), 200, "detail", "instance 5, delegation 2"},
		{"a was dropped", del("a"), 200, "detail", "instance 7, delegation 1"},
		{"no session is a session too", del(""), 200, "detail", "instance 8, delegation 1"},
		{"not JSON", `hello`, 400, "", nil},
		{"unknown type", `{"contract":1,"type":"bye"}`, 400, "", nil},
	} {
		status, m := post(step.body)
		if status != step.status {
			t.Errorf("%s: status %d, want %d", step.name, status, step.status)
			continue
		}
		if step.field != "" && m[step.field] != step.want {
			t.Errorf("%s: %s = %v, want %v (answer %v)", step.name, step.field, m[step.field], step.want, m)
		}
	}
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: status %d, want 405", resp.StatusCode)
	}
}
