package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// minimalScenarios are the scenarios the minimal orchestrators are scored
// on: two they pass (a card whose endpoint is on another host; a stale
// card's missing skill) and two they do not (a card that disagrees with its
// endpoint's version; a stub endpoint that needs a probe).
const minimalScenarios = "CARD-002 || CARD-004 || CARD-005 || PROBE-001"

// TestMinimalOrchestrators runs examples/orchestrators/minimal-python and
// minimal-node (each under 60 lines, using only the contract and the exec
// driver's environment) through the built CLI and the exec driver, and
// compares their scorecards and every check's result with
// testdata/minimal-<lang>.golden (rewrite with -update). A missing python3
// or node skips, unless A2A_CONFORM_REQUIRE_PYTHON / _NODE is 1.
func TestMinimalOrchestrators(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, env, hint, program, file string
	}{
		{"python", "A2A_CONFORM_REQUIRE_PYTHON", "python3 is needed: apt-get install -y python3", "python3", "minimal-python/orchestrator.py"},
		{"node", "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed", "node", "minimal-node/orchestrator.mjs"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			prog := testenv.Program(t, tc.env, tc.hint, tc.program)
			src := filepath.Join("..", "..", "examples", "orchestrators", tc.file)
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), "\n"); n >= 60 {
				t.Errorf("%s has %d lines; the contract promises a minimal orchestrator under 60", tc.file, n)
			}
			abs, err := filepath.Abs(src)
			if err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(t.TempDir(), "r.json")
			r := runCLI(t, "run", "--orchestrator", "exec:"+prog+" "+abs, "--label-filter", minimalScenarios, "--json-report", report)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (not conformant in delegation-safety)\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			rep := readReport(t, report)
			var got strings.Builder
			fmt.Fprintf(&got, "# minimal-%s (examples/orchestrators/%s) on %s\n# Rewrite with: go test ./cmd/a2a-conform -run 'TestMinimalOrchestrators/%s$' -update\n",
				tc.lang, tc.file, minimalScenarios, tc.lang)
			fmt.Fprintf(&got, "hello %s %s\n", rep.Orchestrator.Name, rep.Orchestrator.Version)
			for _, p := range scenarios.Profiles {
				ps := rep.Profiles[p]
				fmt.Fprintf(&got, "%-18s score %5.1f  MUST %d/%d  conformant %v  not exercised %d\n", p, ps.Score, ps.MustPassed, ps.MustApplicable, ps.Conformant, ps.NotExercised)
			}
			fmt.Fprintf(&got, "delegations completed %d/%d\n\n", rep.Delegations.Completed, rep.Delegations.Attempted)
			for _, c := range rep.Checks {
				fmt.Fprintf(&got, "%s %s\n", c.ID, c.Result)
			}
			for _, s := range rep.Scenarios {
				for i, d := range s.Delegations {
					if d.Outcome == nil {
						t.Errorf("%s delegation %d: no outcome (%s); stderr:\n%s", s.ID, i+1, d.NoOutcome, s.Transcript.Stderr)
					}
				}
			}
			golden := filepath.Join("testdata", "minimal-"+tc.lang+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("minimal-%s's scorecard changed:\n--- want\n%s--- got\n%s", tc.lang, want, got.String())
			}
		})
	}
}
