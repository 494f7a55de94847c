package driver_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// fakeOrch's behaviour is chosen by the request's skill.
type fakeOrch struct {
	instance int
	calls    int
	resets   *atomic.Int32
	release  chan struct{}
}

func (f *fakeOrch) Reset() {
	if f.resets != nil {
		f.resets.Add(1)
	}
	f.calls = 0
}

func (f *fakeOrch) Delegate(ctx context.Context, req contract.DelegationRequest, client *http.Client) contract.DelegationOutcome {
	f.calls++
	out := contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: "completed",
		TaskID: fmt.Sprintf("%d/%d", f.instance, f.calls)}
	switch req.Task.Skill {
	case "client":
		out.Detail = fmt.Sprint(client != nil && client.Timeout == 42*time.Second)
	case "panic":
		panic("orchestrator exploded")
	case "ignore-deadline":
		<-f.release // blocks past deadline and grace
	case "respect-deadline":
		<-ctx.Done()
		out.Outcome, out.Reason = "failed", "deadline"
	case "lazy":
		out.Contract, out.ID = 0, ""
	}
	return out
}

func withSkill(id, skill string, deadlineMs int) contract.DelegationRequest {
	r := request(id, deadlineMs)
	r.Task.Skill = skill
	return r
}

func TestGoDriver(t *testing.T) {
	var made atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	factory := func() driver.GoOrchestrator {
		return &fakeOrch{instance: int(made.Add(1)), release: release}
	}
	d := driver.NewGo("fake", factory).(*driver.Go)
	d.Grace = 100 * time.Millisecond
	if d.Name() != "builtin:fake" {
		t.Fatalf("name %q", d.Name())
	}
	client := &http.Client{Timeout: 42 * time.Second}

	// Fresh instance per session: call counters restart.
	s1 := open(t, d, driver.Env{Client: client})
	h, _ := s1.Hello(context.Background())
	a := s1.Delegate(context.Background(), withSkill("a", "client", 1000))
	b := s1.Delegate(context.Background(), withSkill("b", "", 1000))
	s1.Close()
	s2 := open(t, d, driver.Env{Client: client})
	c := s2.Delegate(context.Background(), withSkill("c", "", 1000))
	if h.Name != "fake" || a.Outcome.TaskID != "1/1" || b.Outcome.TaskID != "1/2" || c.Outcome.TaskID != "2/1" {
		t.Fatalf("hello %q, task ids %q %q %q", h.Name, a.Outcome.TaskID, b.Outcome.TaskID, c.Outcome.TaskID)
	}
	if a.Outcome.Detail != "true" {
		t.Fatal("orchestrator did not get Env.Client")
	}

	// A ctx-respecting orchestrator answers at its deadline, within grace.
	r := s2.Delegate(context.Background(), withSkill("d", "respect-deadline", 100))
	if r.Outcome == nil || r.Outcome.Reason != "deadline" {
		t.Fatalf("respect-deadline: %+v", r)
	}

	// Zero contract and id are filled in, with a note.
	r = s2.Delegate(context.Background(), withSkill("e", "lazy", 100))
	if r.Outcome == nil || r.Outcome.ID != "e" || r.Outcome.Contract != 1 {
		t.Fatalf("lazy: %+v", r)
	}

	// One that ignores its deadline is abandoned; the next call gets a fresh
	// orchestrator.
	r = s2.Delegate(context.Background(), withSkill("f", "ignore-deadline", 100))
	if r.NoOutcome != "timeout" || r.Elapsed < 190*time.Millisecond || r.Elapsed > time.Second {
		t.Fatalf("ignore-deadline: %+v", r)
	}
	r = s2.Delegate(context.Background(), withSkill("g", "", 100))
	if r.Outcome == nil || r.Outcome.TaskID != "3/1" {
		t.Fatalf("after timeout: %+v", r)
	}

	// A panic is a no-outcome; the next call gets a fresh orchestrator.
	r = s2.Delegate(context.Background(), withSkill("h", "panic", 100))
	if r.NoOutcome != "panic: orchestrator exploded" {
		t.Fatalf("panic: %+v", r)
	}
	r = s2.Delegate(context.Background(), withSkill("i", "", 100))
	if r.Outcome == nil || r.Outcome.TaskID != "4/1" {
		t.Fatalf("after panic: %+v", r)
	}
	tr := s2.Close()
	t.Logf("go driver notes: %q", tr.Notes)
	if !hasNote(tr, "goroutine may linger") || !hasNote(tr, "runtime/debug.Stack") || !hasNote(tr, "had no id") {
		t.Fatalf("notes %q", tr.Notes)
	}
}

func TestParse(t *testing.T) {
	var resets, made atomic.Int32
	builtins := map[string]func() driver.GoOrchestrator{"ref": func() driver.GoOrchestrator {
		made.Add(1)
		return &fakeOrch{resets: &resets}
	}}
	tests := []struct {
		spec    string
		name    string // Name() of the driver; "" when an error is expected
		wantErr string
	}{
		{spec: "exec:/bin/orch --flag 'a b' \"c\\\"d\" e\\ f", name: `exec:/bin/orch --flag 'a b' 'c"d' 'e f'`},
		{spec: "exec:  /usr/bin/env  FOO=1 orch ", name: "exec:/usr/bin/env FOO=1 orch"},
		{spec: "exec:", wantErr: "empty command"},
		{spec: "exec:'unterminated", wantErr: "unterminated single quote"},
		{spec: `exec:"unterminated`, wantErr: "unterminated double quote"},
		{spec: `exec:orch \`, wantErr: "trailing backslash"},
		{spec: "http://127.0.0.1:9000/a2a-conform", name: "http://127.0.0.1:9000/a2a-conform"},
		{spec: "https://orch.example/x", name: "https://orch.example/x"},
		{spec: "http://", wantErr: "no host"},
		{spec: "builtin:ref", name: "builtin:ref"},
		{spec: "builtin:nope", wantErr: `unknown builtin "nope" (known: ref)`},
		{spec: "ftp://x", wantErr: "want exec:COMMAND"},
		{spec: "", wantErr: "want exec:COMMAND"},
	}
	for _, tc := range tests {
		d, err := driver.Parse(tc.spec, builtins)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Parse(%q) = %v, want error containing %q", tc.spec, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", tc.spec, err)
		case d.Name() != tc.name:
			t.Errorf("Parse(%q).Name() = %q, want %q", tc.spec, d.Name(), tc.name)
		}
	}

	// A relative command path is made absolute.
	d, err := driver.Parse("exec:./bin/orch", nil)
	if err != nil || !strings.HasPrefix(d.(*driver.Exec).Argv[0], "/") {
		t.Fatalf("relative command: %v %v", d, err)
	}

	// A builtin gives every session an orchestrator of its own (reset
	// too, as any that implements Reset is), so sessions can run at once.
	d, _ = driver.Parse("builtin:ref", builtins)
	for i := 0; i < 2; i++ {
		open(t, d, driver.Env{}).Close()
	}
	if made.Load() != 2 || resets.Load() != 2 || driver.MaxSessions(d) != 0 {
		t.Fatalf("builtin: %d orchestrators made and %d resets over 2 sessions, session limit %d; want 2, 2, 0", made.Load(), resets.Load(), driver.MaxSessions(d))
	}
	if l := driver.MaxSessions(driver.NewHTTP("http://127.0.0.1:1/x")); l != 1 {
		t.Fatalf("http driver session limit %d, want 1", l)
	}
}
