package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
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
	sameVerdicts(t, "builtin:reference")
}

// TestParallelSameVerdictsHTTP does the same over the http driver, with
// the reference served by its own command (-http) holding 8 sessions, as
// its pre-flight hello declares: four scenarios then run at once, each a
// session of its own.
func TestParallelSameVerdictsHTTP(t *testing.T) {
	testenv.Long(t, "the whole catalog over http at --parallel 1 and 4")
	t.Parallel()
	sameVerdicts(t, startReferenceService(t))
}

// startReferenceService builds the reference command, starts it with
// -http on a free loopback port, and returns its URL; it is stopped when
// the test ends.
func startReferenceService(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reference")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/orchestrators/cmd/reference").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-http", "127.0.0.1:0", "-sessions", "8")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	_, url, ok := strings.Cut(strings.TrimSpace(line), " on ")
	if err != nil || !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("reference -http said %q (%v), want its URL", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	return url
}

// sameVerdicts runs the whole default catalog against orch at --parallel
// 1 and 4 and compares every check's result and the console's scenario
// lines.
func sameVerdicts(t *testing.T, orch string) {
	t.Helper()
	dir := t.TempDir()
	type outcome struct {
		results map[string]string
		lines   []string
	}
	runAt := func(n string) outcome {
		rep := filepath.Join(dir, "p"+n+".json")
		r := runCLI(t, "run", "--orchestrator", orch, "--parallel", n, "--time-scale", "0.1", "--json-report", rep)
		if r.code != 0 {
			t.Fatalf("--parallel %s: exit %d\n%s%s", n, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "time scale 0.1: not a real-time measurement") {
			t.Errorf("--parallel %s: the scorecard line does not name the time scale:\n%s", n, r.stdout)
		}
		if !strings.Contains(r.stdout, "not run: CARD-007, CARD-009, SLOW-001 (slow: --slow runs them)") {
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
