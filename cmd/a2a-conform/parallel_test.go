package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
)

// TestParallelSameVerdicts runs the whole default catalog against the
// reference one scenario at a time and four at a time, at time scale 0.1
// (the test is about the harness, not the timings): every check's
// result, the scorecard and the console's scenario lines (their order and
// marks) must be the same.
func TestParallelSameVerdicts(t *testing.T) {
	testenv.Long(t, "the whole catalog at --parallel 1 and 4")
	t.Parallel()
	dir := t.TempDir()
	type outcome struct {
		results map[string]string
		lines   []string
	}
	runAt := func(n string) outcome {
		rep := filepath.Join(dir, "p"+n+".json")
		r := runCLI(t, "run", "--parallel", n, "--time-scale", "0.1", "--json-report", rep)
		if r.code != 0 {
			t.Fatalf("--parallel %s: exit %d\n%s%s", n, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "time scale 0.1: not a real-time measurement") {
			t.Errorf("--parallel %s: the scorecard line does not name the time scale:\n%s", n, r.stdout)
		}
		if !strings.Contains(r.stdout, "not run: CARD-007, CARD-009 (slow: --slow runs them)") {
			t.Errorf("--parallel %s: no line naming the slow scenarios left out:\n%s", n, r.stdout)
		}
		got := outcome{results: map[string]string{}}
		for id, res := range results(readReport(t, rep)) {
			got.results[id] = string(res)
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && strings.Contains(f[0], "-") && !strings.Contains(f[0], ".") {
				got.lines = append(got.lines, f[0]+" "+f[1]) // scenario id and its marks
			}
		}
		return got
	}
	one, four := runAt("1"), runAt("4")
	if len(one.results) == 0 || len(one.lines) == 0 {
		t.Fatalf("no results or no scenario lines at --parallel 1")
	}
	for id, r := range one.results {
		if four.results[id] != r {
			t.Errorf("%s: %s at --parallel 1, %s at --parallel 4", id, r, four.results[id])
		}
	}
	if len(four.results) != len(one.results) {
		t.Errorf("%d results at --parallel 4, %d at 1", len(four.results), len(one.results))
	}
	if strings.Join(one.lines, "\n") != strings.Join(four.lines, "\n") {
		t.Errorf("scenario lines differ:\n--parallel 1:\n%s\n--parallel 4:\n%s", strings.Join(one.lines, "\n"), strings.Join(four.lines, "\n"))
	}
}
