package suite_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// variant is one reference variant and a check it must fail.
type variant struct{ check, breaks string }

// variants are generated from the check tags of reference.Breaks, the only
// map from breaks to checks: each break fails every check its tag names.
func variants() []variant {
	var out []variant
	for _, b := range reference.BreakList() {
		for _, id := range b.Checks {
			out = append(out, variant{check: id, breaks: b.Name})
		}
	}
	return out
}

// shortWindow makes the slow scenarios testable: the same checks, with the
// authority window (CARD-007) or the availability TTL (CARD-009) shrunk to
// one second and the pause to 1.5 s.
const shortWindow = time.Second

func scenarioFor(t *testing.T, id string) (*scenarios.Scenario, scenarios.Check) {
	t.Helper()
	s, c := scenarios.FindAt(harnessScale, id)
	if s == nil || c == nil {
		t.Fatalf("no check %s", id)
	}
	if s.ID == "CARD-007" || s.ID == "CARD-009" {
		for i := range s.Requests {
			if s.Requests[i].Wait > 0 {
				s.Requests[i].Wait = shortWindow + shortWindow/2
			}
		}
	}
	return s, *c
}

func referenceDriver(b reference.Breaks) driver.Driver {
	return driver.NewGo("reference", func() driver.GoOrchestrator {
		return reference.New(reference.Options{Break: b, AuthorityWindow: shortWindow})
	})
}

func judge(t *testing.T, id string, d driver.Driver) suite.CheckResult {
	t.Helper()
	s, c := scenarioFor(t, id)
	run, _, err := suite.Execute(context.Background(), s, d)
	if err != nil {
		t.Fatalf("%s: harness error: %v", id, err)
	}
	return suite.Judge(run, nil, s, c, nil)
}

// TestVariantsFailTheirChecks shows every check failing on a reference
// variant that breaks the behaviour it judges.
func TestVariantsFailTheirChecks(t *testing.T) {
	t.Parallel()
	for _, v := range variants() {
		t.Run(v.check+"/"+v.breaks, func(t *testing.T) {
			t.Parallel()
			b, err := reference.ParseBreaks(v.breaks)
			if err != nil {
				t.Fatal(err)
			}
			cr := judge(t, v.check, referenceDriver(b))
			if cr.Result != scenarios.Fail {
				t.Errorf("with --break %s, %s is %s (%s); want FAIL", v.breaks, v.check, cr.Result, cr.Detail)
			}
		})
	}
}

// TestSlowScenarioPassesWithShortWindow: CARD-007 is off in default runs;
// here the unmodified reference passes it with the shortened window.
func TestSlowScenarioPassesWithShortWindow(t *testing.T) {
	cr := judge(t, "CARD-007.REPROBE", referenceDriver(reference.Breaks{}))
	if cr.Result != scenarios.Pass {
		t.Fatalf("CARD-007.REPROBE = %s (%s), want PASS", cr.Result, cr.Detail)
	}
}

// TestAvailabilityExpiryPasses: CARD-009 is off in default runs; here the
// unmodified reference passes it, its availability TTL and the pause both
// shrunk, whether the entry has expired by the third delegation (it tries
// the refused skill again) or not (it keeps to the successor).
func TestAvailabilityExpiryPasses(t *testing.T) {
	for _, ttl := range []time.Duration{shortWindow, time.Hour} {
		d := driver.NewGo("reference", func() driver.GoOrchestrator {
			return reference.New(reference.Options{AvailabilityTTL: ttl})
		})
		cr := judge(t, "CARD-009.EXPIRY", d)
		if cr.Result != scenarios.Pass {
			t.Errorf("availability TTL %s: CARD-009.EXPIRY = %s (%s), want PASS", ttl, cr.Result, cr.Detail)
		}
		t.Logf("availability TTL %s: %s", ttl, cr.Detail)
	}
}

// TestEveryCheckHasAVariant keeps the break tags complete: a check (or a
// global requirement) that no break fails, or a tag that names no check,
// fails this test.
func TestEveryCheckHasAVariant(t *testing.T) {
	covered := map[string]bool{}
	for _, v := range variants() {
		if s, c := scenarios.Find(v.check); s == nil || c == nil {
			t.Errorf("break %s names %q, which is no scenario check or scenario-qualified global", v.breaks, v.check)
		}
		id := v.check
		if i := strings.Index(id, ".G-"); i >= 0 {
			id = id[i+1:]
		}
		covered[id] = true
	}
	for _, s := range scenarios.All() {
		for _, c := range s.Checks {
			if !covered[c.ID] {
				t.Errorf("%s has no reference break that makes it fail (add one with a check tag)", c.ID)
			}
		}
	}
	for _, c := range scenarios.GlobalChecks() {
		if !covered[c.ID] {
			t.Errorf("%s has no reference break that makes it fail (add one with a check tag)", c.ID)
		}
	}
}

// TestAlternativesPass shows each legitimate alternative to the
// reference's own choices passing: the checks it keeps pass, and the whole
// default catalog stays conformant in both profiles.
func TestAlternativesPass(t *testing.T) {
	testenv.Long(t, "the reference's alternative strategies over the whole catalog")
	t.Parallel()
	for _, a := range reference.AltList() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			alt, err := reference.ParseAlternatives(a.Name)
			if err != nil {
				t.Fatal(err)
			}
			d := driver.NewGo("reference+"+a.Name, func() driver.GoOrchestrator {
				return reference.New(reference.Options{Alt: alt, AuthorityWindow: shortWindow})
			})
			rep := runCatalog(t, d, harnessScale)
			got := map[string]suite.CheckResult{}
			for _, c := range rep.Checks {
				got[c.ID] = c
			}
			for _, sc := range rep.Scenarios {
				for _, o := range sc.Globals {
					got[o.ID] = o
				}
			}
			for _, id := range a.Keeps {
				if c, ok := got[id]; !ok || c.Result != scenarios.Pass {
					t.Errorf("with --alt %s, %s is %s (%s); want PASS", a.Name, id, c.Result, c.Detail)
				}
			}
			if !rep.Conformant(nil) {
				for _, c := range rep.Checks {
					if c.Result != scenarios.Pass && c.Result != scenarios.NotApplicable {
						t.Errorf("with --alt %s, %s is %s: %s", a.Name, c.ID, c.Result, c.Detail)
					}
				}
				t.Errorf("with --alt %s the reference is not conformant", a.Name)
			}
		})
	}
}

// runCatalog executes every default scenario, staged at scale ts, against
// d, judges each check and returns the scored report, as a run would.
func runCatalog(t *testing.T, d driver.Driver, ts scenarios.TimeScale) *suite.Report {
	t.Helper()
	var (
		mu     sync.Mutex
		checks []suite.CheckResult
		scens  []suite.ScenarioResult
		wg     sync.WaitGroup
	)
	var all []*scenarios.Scenario
	for _, s := range scenarios.Catalog(ts) {
		if !s.HasLabel("slow") {
			all = append(all, s)
		}
	}
	for _, s := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, res, err := suite.Execute(context.Background(), s, d)
			mu.Lock()
			defer mu.Unlock()
			scens = append(scens, res)
			for _, c := range s.WithGlobals() {
				checks = append(checks, suite.Judge(run, err, s, c, nil))
			}
		}()
	}
	wg.Wait()
	return suite.NewReport(suite.Config{Scenarios: all, TimeScale: ts}, time.Now(), true, checks, scens)
}

// TestNaiveGolden runs every default scenario against the naive
// orchestrator and compares its scorecard and every requirement's result
// with a golden file.
func TestNaiveGolden(t *testing.T) {
	testenv.Long(t, "the naive orchestrator over the whole catalog, against its golden")
	t.Parallel()
	checkGolden(t, "naive", renderScorecard(catalogOf(t, "naive", scenarios.RealTime)))
}

// TestReferenceGolden keeps the reference's scorecard (the README's first
// row) as a golden beside the naive one.
func TestReferenceGolden(t *testing.T) {
	testenv.Long(t, "the reference over the whole catalog, against its golden")
	t.Parallel()
	checkGolden(t, "reference", renderScorecard(catalogOf(t, "reference", scenarios.RealTime)))
}

// checkGolden compares a scorecard with testdata/NAME.golden (rewritten
// with -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./suite -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("the %s orchestrator's scorecard changed:\n%s", name, lineDiff(string(want), got))
	}
}
