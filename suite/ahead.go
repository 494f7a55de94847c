package suite

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// DefaultParallel is how many scenarios run at once when Config.Parallel
// is zero: the scenarios wait (for a task that works, a late stream frame,
// a deadline) far more than they compute, so at least four, more on a
// machine with more cores. A driver's session limit caps it.
func DefaultParallel() int { return max(4, runtime.NumCPU()) }

// parallelism is how many scenarios a run executes at once: asked (zero:
// DefaultParallel), capped by the driver's session limit.
func parallelism(asked int, d driver.Driver) int {
	n := asked
	if n <= 0 {
		n = DefaultParallel()
	}
	if l := driver.MaxSessions(d); l > 0 {
		n = min(n, l)
	}
	return n
}

// ahead executes a run's scenarios ahead of the specs that judge them:
// at most n at once, started in run order, and at most 2n started and not
// yet taken, so the traces waiting for their judges are bounded. The
// specs take them in the same order, so the console keeps run order and
// every verdict is the one a one-at-a-time run gives: each scenario has
// its own fleet, CA, ports, trace and orchestrator session.
type ahead struct {
	futures map[string]*future
	window  chan struct{}
	cancel  context.CancelFunc
	// progress, when set, gets a line each every while take waits.
	progress io.Writer
	every    time.Duration
}

// ProgressEvery is how often a run that is waiting for a scenario says so
// on Config.Progress.
const ProgressEvery = 5 * time.Second

// future is one scenario's Execute, done or under way.
type future struct {
	done chan struct{}
	run  *scenarios.Run
	res  ScenarioResult
	err  error
}

// runFunc executes one scenario (Execute, with whatever the run adds).
type runFunc func(ctx context.Context, s *scenarios.Scenario) (*scenarios.Run, ScenarioResult, error)

// startAhead begins executing order (the scenarios the filter selected, in
// run order) with run, at most n at once, until ctx is done or stop is
// called.
func startAhead(ctx context.Context, order []*scenarios.Scenario, run runFunc, n int) *ahead {
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{futures: map[string]*future{}, window: make(chan struct{}, 2*n), cancel: cancel}
	slots := make(chan struct{}, n)
	for _, s := range order {
		a.futures[s.ID] = &future{done: make(chan struct{})}
	}
	go func() {
		for _, s := range order {
			f := a.futures[s.ID]
			select {
			case a.window <- struct{}{}:
			case <-ctx.Done():
				f.run, f.res, f.err = abandoned(s, ctx.Err())
				close(f.done)
				continue
			}
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				f.run, f.res, f.err = run(ctx, s)
				close(f.done)
			}()
		}
	}()
	return a
}

// take waits for scenario s's execution and frees its place in the
// window; ctx bounds the wait. A scenario that was never started (the
// filter did not select it) runs now, on its own.
func (a *ahead) take(ctx context.Context, s *scenarios.Scenario, run runFunc) (*scenarios.Run, ScenarioResult, error) {
	f, ok := a.futures[s.ID]
	if !ok {
		return run(ctx, s)
	}
	if err := a.wait(ctx, s, f); err != nil {
		return abandoned(s, err)
	}
	select {
	case <-a.window:
	default:
	}
	// The future lets go of the run: its full trace is the caller's to
	// drop once judged, and a run's futures live as long as the run.
	r, res, err := f.run, f.res, f.err
	f.run, f.res = nil, ScenarioResult{}
	return r, res, err
}

// wait waits for f, the execution of s, until ctx is done, saying every
// a.every on a.progress that it still waits ("… LIFE-004 still running
// (10s)"), so a long scenario does not look like a hung run.
func (a *ahead) wait(ctx context.Context, s *scenarios.Scenario, f *future) error {
	var tick <-chan time.Time
	if a.progress != nil && a.every > 0 {
		t := time.NewTicker(a.every)
		defer t.Stop()
		tick = t.C
	}
	start := time.Now()
	for {
		select {
		case <-f.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			fmt.Fprintf(a.progress, "  … %s still running (%s)\n", s.ID, time.Since(start).Round(time.Second))
		}
	}
}

// abandoned is the result of a scenario stopped before it ran.
func abandoned(s *scenarios.Scenario, err error) (*scenarios.Run, ScenarioResult, error) {
	res := ScenarioResult{ID: s.ID, Title: s.Title, Area: s.Area, Reproduce: ReproduceCommand(s.ID), HarnessErr: err.Error()}
	return &scenarios.Run{Scenario: s.ID, VendorHosts: map[string][]string{}}, res, err
}

// stop cancels the scenarios still under way or not started.
func (a *ahead) stop() { a.cancel() }
