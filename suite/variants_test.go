package suite_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// variants maps each catalog check to reference variants that break exactly
// the behaviour it judges. Global checks are shown failing in one scenario.
var variants = []struct {
	check  string
	breaks string
}{
	{"CARD-001.REFETCH", "no-refetch"},
	{"CARD-001.REFETCH", "refetch-with-etag"},
	{"CARD-001.ROUTE", "escalate-on-skill-error"},
	{"CARD-001.BOUNDED", "extra-calls"},
	{"CARD-002.URL", "send-to-card-host"},
	{"CARD-002.DONE", "reject-cross-host-url"},
	{"CARD-003.NOT-FATAL", "escalate-on-server-error"},
	{"CARD-003.NOT-DEGRADED", "mark-degraded"},
	{"CARD-004.NO-PREVALIDATE", "prevalidate-skill"},
	{"CARD-005.HINT", "always-authoritative"},
	{"CARD-006.INVALIDATE", "no-availability-cache-invalidation"},
	{"CARD-006.RECOVER", "escalate-on-skill-error"},
	{"CARD-007.REPROBE", "reprobe-never"},
	{"PROBE-001.NO-COMMIT", "no-probe"},
	{"PROBE-001.NO-COMMIT", "commit-on-stub"},
	{"PROBE-001.PROBED", "no-probe"},
	{"PROBE-002.CANCEL", "no-probe-cancel"},
	{"PROBE-002.ONE", "probe-every-call"},
	{"PROBE-003.ROUTE", "no-refetch"},
	{"STREAM-001.FALLBACK", "no-stream-fallback"},
	{"STREAM-002.TIMEOUT", "no-stream-timeout"},
	{"MODE-001.NO-COERCION", "ignore-input-modes"},
	{"BIND-001.NO-FULL", "trust-any-signature"},
	{"BIND-002.FULL", "never-full"},
	{"BIND-003.UNPINNED", "unsigned-as-full"},
	{"BIND-004.NO-FULL", "skip-tls-verify"},
	{"BIND-005.NO-FULL", "accept-ambiguous-kid"},
	{"SIG-001.REJECT", "ignore-signature-errors"},
	{"SIG-002.REJECT", "ignore-signature-errors"},
	{"SIG-003.REFETCH-JWKS", "no-jwks-refetch"},
	{"SIG-004.REJECT", "ignore-signature-errors"},
	{"CARD-002.G-JSONRPC", "bad-jsonrpc"},
	{"CARD-002.G-VERSION-HEADER", "no-version-header"},
	{"CARD-002.G-NO-UNKNOWN-TASK", "get-unknown-task"},
	{"CARD-002.G-NO-ESCAPE", "escape"},
	{"BIND-004.G-TLS-VERIFIED", "skip-tls-verify"},
}

// shortWindow makes CARD-007 testable: the same check, with the authority
// window shrunk to one second and the pause to 1.5 s.
const shortWindow = time.Second

func scenarioFor(t *testing.T, id string) (*scenarios.Scenario, scenarios.Check) {
	t.Helper()
	s, c := scenarios.Find(id)
	if s == nil || c == nil {
		t.Fatalf("no check %s", id)
	}
	if s.ID == "CARD-007" {
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
	for _, v := range variants {
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

// TestEveryCheckHasAVariant keeps the table complete: a new check without
// a failing variant fails this test.
func TestEveryCheckHasAVariant(t *testing.T) {
	covered := map[string]bool{}
	for _, v := range variants {
		id := v.check
		if i := strings.Index(id, ".G-"); i >= 0 {
			id = id[i+1:]
		}
		covered[id] = true
	}
	for _, s := range scenarios.All() {
		for _, c := range s.WithGlobals() {
			if !covered[c.ID] {
				t.Errorf("%s has no reference variant that makes it fail", s.CheckID(c))
			}
		}
	}
}

// TestNaiveGolden runs every default scenario against the naive
// orchestrator and compares its failing checks with a golden list.
func TestNaiveGolden(t *testing.T) {
	t.Parallel()
	d := driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() })
	var (
		mu     sync.Mutex
		failed []string
		wg     sync.WaitGroup
	)
	for _, s := range scenarios.All() {
		if s.HasLabel("slow") {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, _, err := suite.Execute(context.Background(), s, d)
			for _, c := range s.WithGlobals() {
				cr := suite.Judge(run, err, s, c, nil)
				if cr.Result == scenarios.Fail || cr.Result == scenarios.Error {
					mu.Lock()
					failed = append(failed, cr.ID)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	sort.Strings(failed)
	got := strings.Join(failed, "\n") + "\n"
	golden := filepath.Join("testdata", "naive-failures.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./suite -run TestNaiveGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("naive failures changed; got:\n%s\nwant:\n%s", got, want)
	}
}
