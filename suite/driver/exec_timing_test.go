//go:build unix

package driver_test

import (
	"context"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestExecStartupGrace starts a helper that takes 1.5 s before it reads
// stdin (a framework's import time) and checks when the first delegation's
// deadline starts: without a startup grace the start-up eats the 400 ms
// deadline; with one the harness waits for the hello answer and the
// delegation has its whole deadline. A one-shot program started for the
// request, with no hello, gets the grace added to its wait.
func TestExecStartupGrace(t *testing.T) {
	t.Parallel()
	const startMs = "1500"
	for _, tc := range []struct {
		name      string
		behaviour string
		grace     time.Duration
		hello     bool // call Hello before Delegate
		wantName  string
		wantOK    bool
	}{
		{"no grace: start-up counts against the deadline", "slow-start", 0, true, "", false},
		{"grace: deadline starts at the hello answer", "slow-start", 3 * time.Second, true, "slow-out", true},
		{"grace shorter than start-up", "slow-start", 500 * time.Millisecond, true, "", false},
		{"one-shot without hello: grace added to the wait", "slow-oneshot", 3 * time.Second, false, "", true},
		{"one-shot without hello, no grace", "slow-oneshot", 0, false, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := helperDriver(t, tc.behaviour, startMs)
			d.StartupGrace = tc.grace
			s := open(t, d, driver.Env{})
			defer s.Close()
			helloStart := time.Now()
			if tc.hello {
				h, err := s.Hello(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if h.Name != tc.wantName {
					t.Errorf("hello name %q, want %q (after %v)", h.Name, tc.wantName, time.Since(helloStart))
				}
				if tc.wantName != "" && time.Since(helloStart) > 2*time.Second {
					t.Errorf("Hello took %v: it should return at the answer, not at the grace", time.Since(helloStart))
				}
			}
			r := s.Delegate(context.Background(), request("a", 400))
			if got := r.Outcome != nil; got != tc.wantOK {
				t.Fatalf("outcome %v (NoOutcome %q, elapsed %v), want outcome %v", got, r.NoOutcome, r.Elapsed, tc.wantOK)
			}
			if tc.wantOK && tc.hello && r.Elapsed > 400*time.Millisecond {
				t.Errorf("first delegation took %v after a hello: the start-up was counted", r.Elapsed)
			}
		})
	}
}

// TestDeadlineOverride checks that Deadline replaces every request's
// deadlineMs for the OUT, on each driver, and that the driver notes it.
func TestDeadlineOverride(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		deadline time.Duration
		want     string
	}{
		{"zero keeps the request's", 0, "2000"},
		{"override", 1500 * time.Millisecond, "1500"},
		{"rounded down to ms", 1500*time.Millisecond + 999*time.Microsecond, "1500"},
	} {
		t.Run("exec/"+tc.name, func(t *testing.T) {
			t.Parallel()
			d := helperDriver(t, "deadline")
			d.Deadline = tc.deadline
			s := open(t, d, driver.Env{})
			var details []string
			for _, id := range []string{"a", "b"} {
				r := s.Delegate(context.Background(), request(id, 2000))
				if r.Outcome == nil {
					t.Fatalf("result %+v", r)
				}
				details = append(details, r.Outcome.Detail)
			}
			tr := s.Close()
			for _, got := range details {
				if got != tc.want {
					t.Errorf("OUT saw deadlineMs %s, want %s", got, tc.want)
				}
			}
			if noted := hasNote(tr, "replaced by"); noted != (tc.deadline > 0) {
				t.Errorf("override noted %v; notes %q", noted, tr.Notes)
			}
		})
	}
}
