package suite

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// DefaultStopAfterBroken is how many scenarios in a row may go without a
// usable answer from the orchestrator before a run stops (see
// Config.StopAfterBroken): by then the set-up is broken, and going on
// would score the break 40 times over as non-conformance.
const DefaultStopAfterBroken = 3

// stopError is why the harness stopped a run early: the orchestrator gave
// no usable answer in Scenarios, one after another in run order.
type stopError struct {
	Scenarios []string
	// Cause is the first scenario's reason ("delegation 1: no outcome:
	// the orchestrator exited: exit status 1").
	Cause string
}

func (e *stopError) Error() string {
	return fmt.Sprintf("the orchestrator gave no usable answer in %d scenario(s) in a row (%s): %s", len(e.Scenarios), strings.Join(e.Scenarios, ", "), e.Cause)
}

// brokenStreak counts, in run order, the scenarios in a row in which the
// orchestrator gave no usable answer, and stops the run at the limit.
type brokenStreak struct {
	limit int
	stop  context.CancelCauseFunc
	run   stopError
}

// newBrokenStreak stops the run with stop after limit broken scenarios in
// a row (zero: DefaultStopAfterBroken; negative: never).
func newBrokenStreak(limit int, stop context.CancelCauseFunc) *brokenStreak {
	if limit == 0 {
		limit = DefaultStopAfterBroken
	}
	return &brokenStreak{limit: limit, stop: stop}
}

// record takes a finished scenario's result and stops the run when it
// completes the streak.
func (b *brokenStreak) record(res ScenarioResult) {
	why := unusable(res)
	if why == "" {
		b.run = stopError{}
		return
	}
	if len(b.run.Scenarios) == 0 {
		b.run.Cause = why
	}
	b.run.Scenarios = append(b.run.Scenarios, res.ID)
	if b.limit > 0 && len(b.run.Scenarios) >= b.limit {
		stopped := b.run
		b.stop(&stopped)
	}
}

// unusable says why a scenario got no usable answer from the orchestrator
// (its session could not start, or none of its delegations brought back
// an outcome: it crashed, hung, or answered nothing the contract allows),
// or "" when one delegation did (an "unimplemented" answer is usable).
func unusable(res ScenarioResult) string {
	if len(res.Delegations) == 0 {
		if res.HarnessErr != "" {
			return res.HarnessErr
		}
		return ""
	}
	for _, d := range res.Delegations {
		if d.Outcome != nil || d.Unimplemented {
			return ""
		}
	}
	return "delegation 1: no outcome: " + res.Delegations[0].NoOutcome
}

// StoppedEarly is why the harness stopped the run whose context is ctx
// before every scenario ran, or "" when it did not (an interrupt is not
// the harness's stop).
func stoppedEarly(ctx context.Context) string {
	var se *stopError
	if errors.As(context.Cause(ctx), &se) {
		return se.Error()
	}
	return ""
}
