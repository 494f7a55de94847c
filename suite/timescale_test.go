package suite_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// harnessScale is the time scale of the tests that are about the harness
// (variants, alternatives, lying and hostile orchestrators), not about
// the timings a user's run measures: the scenarios' own waits at a tenth
// (scenarios.TimeScale). The goldens stay at scenarios.RealTime.
const harnessScale scenarios.TimeScale = 0.1

// catalogRuns memoizes the whole-catalog runs of the two example
// orchestrators, which the goldens and TestTimeScaleSameVerdicts share.
var catalogRuns struct {
	sync.Mutex
	runs map[string]*catalogRun
}

type catalogRun struct {
	once sync.Once
	rep  *suite.Report
}

// exampleDrivers are the example orchestrators by name.
var exampleDrivers = map[string]func() driver.Driver{
	"naive": func() driver.Driver {
		return driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() })
	},
	"reference": func() driver.Driver {
		return driver.NewGo("builtin:reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) })
	},
}

// catalogOf is the report of the example orchestrator name over the
// default catalog at scale ts, run once per test binary.
func catalogOf(t *testing.T, name string, ts scenarios.TimeScale) *suite.Report {
	t.Helper()
	key := fmt.Sprintf("%s@%s", name, ts)
	catalogRuns.Lock()
	if catalogRuns.runs == nil {
		catalogRuns.runs = map[string]*catalogRun{}
	}
	r, ok := catalogRuns.runs[key]
	if !ok {
		r = &catalogRun{}
		catalogRuns.runs[key] = r
	}
	catalogRuns.Unlock()
	r.once.Do(func() { r.rep = runCatalog(t, exampleDrivers[name](), ts) })
	if r.rep == nil {
		t.Fatalf("the %s run failed in another test", key)
	}
	return r.rep
}

// TestTimeScaleSameVerdicts: the reference and the naive orchestrators
// get the same result for every check (and every scenario's global
// observations) at real time and at harnessScale, and the report records
// the scale: what the scaled tests show of the harness holds at the
// scale users run.
func TestTimeScaleSameVerdicts(t *testing.T) {
	testenv.Long(t, "the whole catalog twice for two orchestrators")
	t.Parallel()
	for _, name := range []string{"reference", "naive"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			real, scaled := catalogOf(t, name, scenarios.RealTime), catalogOf(t, name, harnessScale)
			if real.TimeScale != scenarios.RealTime || scaled.TimeScale != harnessScale {
				t.Errorf("reports record time scales %v and %v, want 1 and %v", real.TimeScale, scaled.TimeScale, harnessScale)
			}
			want, got := resultsOf(real), resultsOf(scaled)
			for id, w := range want {
				if g, ok := got[id]; !ok || g.Result != w.Result {
					t.Errorf("%s: %s at scale 1 (%s), %s at %v (%s)", id, w.Result, w.Detail, g.Result, harnessScale, g.Detail)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d results at %v, %d at 1", len(got), harnessScale, len(want))
			}
		})
	}
}

// resultsOf keys a report's check results, and each scenario's global
// observations, by id.
func resultsOf(rep *suite.Report) map[string]suite.CheckResult {
	out := map[string]suite.CheckResult{}
	for _, c := range rep.Checks {
		out[c.ID] = c
	}
	for _, sc := range rep.Scenarios {
		for _, o := range sc.Globals {
			out[sc.ID+"."+o.ID] = o
		}
	}
	return out
}
