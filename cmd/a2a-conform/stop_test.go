package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
)

// brokenOrch is an orchestrator that exits with status 1 (a traceback on
// stderr) on a delegation of any scenario named in its arguments, and
// answers every other one failed/other: a usable answer.
const brokenOrch = `import json, sys
crash = set(sys.argv[1:])
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "hello":
        print(json.dumps({"contract": 1, "type": "hello", "name": "broken"}), flush=True)
        continue
    if m.get("type") != "delegate":
        continue
    if m.get("scenario") in crash:
        print("Traceback (most recent call last): boom", file=sys.stderr)
        sys.exit(1)
    print(json.dumps({"contract": 1, "id": m["id"], "outcome": "failed", "reason": "other"}), flush=True)
`

// TestStopAfterBrokenScenarios: a run stops, exit 2 with one line naming
// the cause, after three scenarios in a row without a usable answer (one
// with --fail-fast), and its report says so; crashes that a usable answer
// interrupts do not stop it.
func TestStopAfterBrokenScenarios(t *testing.T) {
	t.Parallel()
	py := testenv.Program(t, "A2A_CONFORM_REQUIRE_PYTHON", "python3 is needed: apt-get install -y python3", "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "broken.py")
	if err := os.WriteFile(script, []byte(brokenOrch), 0o644); err != nil {
		t.Fatal(err)
	}
	const four = "CARD-001 || CARD-002 || CARD-003 || CARD-004"
	cases := []struct {
		name      string
		crash     string // scenarios the orchestrator crashes in
		extra     []string
		code      int
		scenarios int    // in the report
		stopped   string // in StoppedEarly and the exit line; "" for none
	}{
		{"crashes everywhere", "CARD-001 CARD-002 CARD-003 CARD-004", nil, 2, 3, "in 3 scenario(s) in a row (CARD-001, CARD-002, CARD-003)"},
		{"fail fast", "CARD-001 CARD-002 CARD-003 CARD-004", []string{"--fail-fast"}, 2, 1, "in 1 scenario(s) in a row (CARD-001)"},
		{"crashes not in a row", "CARD-001 CARD-002 CARD-004", nil, 1, 4, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"run", "--orchestrator", "exec:" + py + " " + script + " " + tc.crash, "--label-filter", four, "--json-report", rep}, tc.extra...)
			r := runCLI(t, args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			got := readReport(t, rep)
			if len(got.Scenarios) != tc.scenarios {
				t.Errorf("%d scenarios in the report, want %d", len(got.Scenarios), tc.scenarios)
			}
			if tc.stopped == "" {
				if got.StoppedEarly != "" || !got.Complete {
					t.Errorf("stopped %q, complete %v; want a whole run", got.StoppedEarly, got.Complete)
				}
				return
			}
			if got.Complete || !strings.Contains(got.StoppedEarly, tc.stopped) || !strings.Contains(got.StoppedEarly, "exited with status 1") {
				t.Errorf("report: complete %v, stoppedEarly %q; want incomplete, stopped %s, exited with status 1", got.Complete, got.StoppedEarly, tc.stopped)
			}
			if !strings.Contains(r.stderr, "stopped early") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("stderr should be one line naming the cause:\n%s", r.stderr)
			}
		})
	}
}
