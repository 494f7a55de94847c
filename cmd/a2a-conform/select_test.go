package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestSelectionCommands checks the test-tool habits of the CLI: what a
// filter selects, before a run (list --label-filter, run --dry-run); ids
// in any case; the profiles' short and long names.
func TestSelectionCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		code    int
		want    []string // each on stdout (or stderr for a non-zero exit)
		notWant []string
	}{
		{"list a filter", []string{"list", "--label-filter", "card-001 && MUST"}, 0,
			[]string{"CARD-001.REFETCH", "CARD-001.ROUTE", "1 scenarios,"}, []string{"CARD-001.BOUNDED", "CARD-002"}},
		{"list a filter that selects nothing", []string{"list", "--label-filter", "no-such-label"}, 2,
			[]string{"selects no check"}, nil},
		{"dry run with a short profile name", []string{"run", "--dry-run", "--profile", "core", "--label-filter", "IFACE-005"}, 0,
			[]string{"IFACE-005.TENANT", "a2a-core MUST"}, []string{"G-NO-ESCAPE", "CARD-001"}},
		{"dry run of a shard", []string{"run", "--dry-run", "--shard", "1/40"}, 0,
			[]string{"CARD-001.REFETCH"}, []string{"CARD-002"}},
		{"an unknown profile", []string{"run", "--dry-run", "--profile", "strict"}, 2,
			[]string{"unknown profile \"strict\""}, nil},
		{"a filtered run says what it left out", []string{"run", "--label-filter", "CARD-002"}, 0,
			[]string{"scenario(s) outside --label-filter"}, []string{"(slow"}},
		{"explain in lower case", []string{"explain", "card-001.refetch"}, 0,
			[]string{"CARD-001.REFETCH [delegation-safety MUST]"}, nil},
		{"fleet up print-config in lower case", []string{"fleet", "up", "--scenario", "card-001", "--print-config"}, 0,
			[]string{"vendors"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tc.code, r.stdout, r.stderr)
			}
			out := r.stdout
			if tc.code != 0 {
				out = r.stderr
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestRerunFailed runs two scenarios with the naive orchestrator, which
// fails CARD-001 and passes CARD-002, then asks --rerun-failed what it
// would run again: CARD-001 only; a report with nothing failed runs
// nothing and exits 0.
func TestRerunFailed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	failed := dir + "/naive.json"
	r := runCLI(t, "run", "--orchestrator", "builtin:naive", "--label-filter", "CARD-001 || CARD-002", "--json-report", failed)
	if r.code != 1 {
		t.Fatalf("naive run: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "run", "--rerun-failed", failed, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "CARD-001.REFETCH") || strings.Contains(r.stdout, "CARD-002") {
		t.Errorf("dry run of the failed: exit %d, want 0 with CARD-001 and without CARD-002:\n%s%s", r.code, r.stdout, r.stderr)
	}
	passed := dir + "/reference.json"
	if r = runCLI(t, "run", "--label-filter", "CARD-002", "--json-report", passed); r.code != 0 {
		t.Fatalf("reference run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "run", "--rerun-failed", passed)
	if r.code != 0 || !strings.Contains(r.stderr, "nothing to run again") || strings.Contains(r.stdout, "scorecard") {
		t.Errorf("re-run of a passed report: exit %d, want 0, no run, and a line saying so:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = runCLI(t, "run", "--rerun-failed", dir+"/missing.json"); r.code != 2 {
		t.Errorf("a missing report: exit %d, want 2", r.code)
	}
}

// TestEventsStream: --events writes one JSON line per scenario start,
// check result and scenario end as they happen, then the run's end with
// its verdicts; every line is valid JSON.
func TestEventsStream(t *testing.T) {
	t.Parallel()
	file := t.TempDir() + "/events.jsonl"
	if r := runCLI(t, "run", "--label-filter", "CARD-001 || CARD-002", "--events", file); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var last map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		last = nil
		if err := json.Unmarshal([]byte(l), &last); err != nil {
			t.Fatalf("not JSON: %q: %v", l, err)
		}
		kinds[last["event"].(string)]++
	}
	if kinds["scenario-start"] != 2 || kinds["scenario-end"] != 2 || kinds["check"] < 5 || kinds["run-end"] != 1 {
		t.Errorf("events %v: want 2 starts, 2 ends, the checks, one run-end", kinds)
	}
	if last["event"] != "run-end" || last["conformant"] == nil {
		t.Errorf("last event %v, want run-end with the verdicts", last)
	}
}
