package suite

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// TestSelect checks that Select picks what a run's label filter picks:
// by check id, scenario, area, profile and level, in any case, with slow
// scenarios out unless asked.
func TestSelect(t *testing.T) {
	all := scenarios.All()
	cases := []struct {
		name, filter string
		slow         bool
		wantScen     []string // every selected scenario, when set
		wantCheck    string   // a check that must be selected
		notCheck     string   // a check that must not be
	}{
		{name: "one check by id, any case", filter: "card-001.refetch", wantScen: []string{"CARD-001"}, wantCheck: "CARD-001.REFETCH", notCheck: "CARD-001.ROUTE"},
		{name: "a scenario", filter: "CARD-001", wantScen: []string{"CARD-001"}, wantCheck: "CARD-001.ROUTE"},
		{name: "slow left out", filter: "CARD-007", wantScen: []string{}},
		{name: "slow when asked", filter: "CARD-007", slow: true, wantScen: []string{"CARD-007"}, wantCheck: "CARD-007.REPROBE"},
		{name: "profile and level", filter: "a2a-core && MUST", wantCheck: "CARD-002.URL", notCheck: "CARD-001.REFETCH"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := Select(all, tc.filter, tc.slow)
			if err != nil {
				t.Fatal(err)
			}
			var scens, checks []string
			for _, s := range sel {
				scens = append(scens, s.Scenario.ID)
				checks = append(checks, s.Checks...)
			}
			if tc.wantScen != nil && !slices.Equal(scens, tc.wantScen) && !(len(scens) == 0 && len(tc.wantScen) == 0) {
				t.Errorf("scenarios %v, want %v", scens, tc.wantScen)
			}
			if tc.wantCheck != "" && !slices.Contains(checks, tc.wantCheck) {
				t.Errorf("%s not selected (got %v)", tc.wantCheck, checks)
			}
			if tc.notCheck != "" && slices.Contains(checks, tc.notCheck) {
				t.Errorf("%s selected, want not", tc.notCheck)
			}
		})
	}
	if _, err := Select(all, "((", false); err == nil {
		t.Error("a malformed filter gave no error")
	}
}

// TestAheadSaysItWaits: while the run waits for a scenario longer than the
// progress interval, it says which one it waits for, and says nothing
// once the scenario is done.
func TestAheadSaysItWaits(t *testing.T) {
	s := scenarios.All()[0]
	slow := func(context.Context, *scenarios.Scenario) (*scenarios.Run, ScenarioResult, error) {
		time.Sleep(150 * time.Millisecond)
		return &scenarios.Run{Scenario: s.ID}, ScenarioResult{ID: s.ID}, nil
	}
	var out bytes.Buffer
	a := startAhead(context.Background(), []*scenarios.Scenario{s}, slow, 1)
	defer a.stop()
	a.progress, a.every = &out, 40*time.Millisecond
	if _, res, err := a.take(context.Background(), s, slow); err != nil || res.ID != s.ID {
		t.Fatalf("take: %v, %+v", err, res)
	}
	if !strings.Contains(out.String(), "  … "+s.ID+" still running (") {
		t.Errorf("no progress line while waiting 150 ms at 40 ms intervals: %q", out.String())
	}
	n := out.Len()
	time.Sleep(100 * time.Millisecond)
	if out.Len() != n {
		t.Errorf("progress went on after the scenario was done: %q", out.String())
	}
}

// TestAheadWindow: with n at once, at most n scenarios run and at most 2n
// are started and not yet taken, so the traces waiting for their judges
// are bounded whatever the run's length; each take lets one more start.
func TestAheadWindow(t *testing.T) {
	const n = 2
	order := scenarios.All()[:10]
	var mu sync.Mutex
	started, running, maxRunning := 0, 0, 0
	run := func(_ context.Context, s *scenarios.Scenario) (*scenarios.Run, ScenarioResult, error) {
		mu.Lock()
		started++
		running++
		maxRunning = max(maxRunning, running)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return &scenarios.Run{Scenario: s.ID}, ScenarioResult{ID: s.ID}, nil
	}
	a := startAhead(context.Background(), order, run, n)
	defer a.stop()
	startedNow := func() int {
		time.Sleep(100 * time.Millisecond) // long enough for every start the window allows
		mu.Lock()
		defer mu.Unlock()
		return started
	}
	if got := startedNow(); got != 2*n {
		t.Fatalf("%d started before any take, want %d (2n)", got, 2*n)
	}
	for i, s := range order {
		if _, res, err := a.take(context.Background(), s, run); err != nil || res.ID != s.ID {
			t.Fatalf("take %s: %v, %+v", s.ID, err, res)
		}
		if i < 3 {
			if got, want := startedNow(), 2*n+i+1; got != want {
				t.Errorf("after %d takes %d started, want %d", i+1, got, want)
			}
		}
	}
	if maxRunning > n {
		t.Errorf("%d ran at once, want at most %d", maxRunning, n)
	}
	if started != len(order) {
		t.Errorf("%d started, want %d", started, len(order))
	}
}
