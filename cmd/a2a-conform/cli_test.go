package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// The CLI runs Ginkgo, which runs once per process: these tests build the
// binary and run it as a subprocess.

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// built returns the paths of the CLI and of testdata/hangorch, built once.
func built(t *testing.T) (cli, hangorch string) {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "a2a-conform-cli-")
		if buildErr != nil {
			return
		}
		for pkg, out := range map[string]string{".": "a2a-conform", "./testdata/hangorch": "hangorch"} {
			if b, err := exec.Command("go", "build", "-o", filepath.Join(binDir, out), pkg).CombinedOutput(); err != nil {
				buildErr = errors.New(string(b))
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatalf("building the CLI: %v", buildErr)
	}
	return filepath.Join(binDir, "a2a-conform"), filepath.Join(binDir, "hangorch")
}

// exitCodeOf is the exit code a finished command's error says (0 for nil);
// an error that is not an exit fails the test.
func exitCodeOf(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	cli, _ := built(t)
	cmd := exec.Command(cli, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitCodeOf(t, cmd.Run())
	return result{code, out.String(), errb.String()}
}

func writeJSON(t *testing.T, dir, name string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readReport(t *testing.T, file string) *suite.Report {
	t.Helper()
	r, err := suite.ReadReport(file)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func results(r *suite.Report) map[string]scenarios.Outcome {
	m := map[string]scenarios.Outcome{}
	for _, c := range r.Checks {
		m[c.ID] = c.Result
	}
	return m
}

// TestBaselineCLI: the naive orchestrator fails CARD-001.REFETCH and
// CARD-001.ROUTE. Listed in a baseline they are WAIVED and the run passes;
// a listed check that passes, or an entry that matches nothing, fails it.
func TestBaselineCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	known := map[string]string{"CARD-001.REFETCH": "naive never re-fetches", "CARD-001.ROUTE": "naive escalates"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range known {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name     string
		baseline map[string]string // nil: no --baseline
		code     int
		stdout   string
	}{
		{"no baseline", nil, 1, "✗ CARD-001.REFETCH"},
		{"failures waived", known, 0, "conformant: yes"},
		{"glob", map[string]string{"CARD-001.R*": "both"}, 0, "conformant: yes"},
		{"listed check passes", with(map[string]string{"CARD-001.BOUNDED": "stale"}), 1, `baseline: baseline entry "CARD-001.BOUNDED" lists CARD-001.BOUNDED, which now passes: remove it`},
		{"entry matches nothing", with(map[string]string{"NOPE-999.*": "typo"}), 1, `baseline: baseline entry "NOPE-999.*" matches no check that ran`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			slug := strings.ReplaceAll(c.name, " ", "-")
			report := filepath.Join(dir, slug+".json")
			args := []string{"run", "--orchestrator", "builtin:naive", "--label-filter", "CARD-001", "--json-report", report}
			if c.baseline != nil {
				args = append(args, "--baseline", writeJSON(t, dir, slug+"-baseline.json", c.baseline))
			}
			res := runCLI(t, args...)
			if res.code != c.code || !strings.Contains(res.stdout, c.stdout) {
				t.Fatalf("exit %d, want %d; stdout lacks %q?\n%s\n%s", res.code, c.code, c.stdout, res.stdout, res.stderr)
			}
			got := results(readReport(t, report))
			want := scenarios.Fail
			if c.baseline != nil {
				want = scenarios.Waived
			}
			if got["CARD-001.REFETCH"] != want || got["CARD-001.ROUTE"] != want {
				t.Errorf("REFETCH %s, ROUTE %s; want %s", got["CARD-001.REFETCH"], got["CARD-001.ROUTE"], want)
			}
		})
	}
}

// TestShardAndMerge runs the card scenarios in two shards, with a baseline
// whose entries live in different shards, merges the reports and compares
// them with an unsharded run.
func TestShardAndMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bl := writeJSON(t, dir, "baseline.json", map[string]string{"CARD-001.REFETCH": "shard 1", "CARD-004.NO-PREVALIDATE": "shard 2"})
	common := []string{"run", "--orchestrator", "builtin:naive", "--label-filter", "card", "--baseline", bl}
	var (
		wg   sync.WaitGroup
		runs = map[string]result{}
		mu   sync.Mutex
	)
	for _, name := range []string{"1/2", "2/2", "all"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			file := filepath.Join(dir, strings.ReplaceAll(name, "/", "-of-")+".json")
			args := append(append([]string(nil), common...), "--json-report", file)
			if name != "all" {
				args = append(args, "--shard", name)
			}
			res := runCLI(t, args...)
			mu.Lock()
			runs[name] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	for name, res := range runs {
		// naive fails other card checks: each run exits 1, none 2, and no
		// shard calls the other shard's baseline entry stale.
		if res.code != 1 || strings.Contains(res.stdout, "baseline:") {
			t.Fatalf("run %s: exit %d\n%s\n%s", name, res.code, res.stdout, res.stderr)
		}
	}
	s1, s2 := readReport(t, filepath.Join(dir, "1-of-2.json")), readReport(t, filepath.Join(dir, "2-of-2.json"))
	all := readReport(t, filepath.Join(dir, "all.json"))
	ids := func(r *suite.Report) (out []string) {
		for _, s := range r.Scenarios {
			out = append(out, s.ID)
		}
		return out
	}
	if got := strings.Join(ids(s1), " "); got != "CARD-001 CARD-003 CARD-005 CARD-008" {
		t.Errorf("shard 1/2 ran %s", got)
	}
	if got := strings.Join(ids(s2), " "); got != "CARD-002 CARD-004 CARD-006 CARD-010" {
		t.Errorf("shard 2/2 ran %s", got)
	}

	merged, junit, html := filepath.Join(dir, "merged.json"), filepath.Join(dir, "merged.xml"), filepath.Join(dir, "merged.html")
	res := runCLI(t, "report", "merge", filepath.Join(dir, "2-of-2.json"), "--json-report", merged, filepath.Join(dir, "1-of-2.json"), "--junit-report", junit, "--html-report", html)
	if res.code != 1 || !strings.Contains(res.stdout, "a2a-conform scorecard: builtin:naive") {
		t.Fatalf("merge: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	m := readReport(t, merged)
	if got, want := results(m), results(all); len(got) != len(want) {
		t.Errorf("merged %d checks, the unsharded run %d", len(got), len(want))
	} else {
		for id, r := range want {
			if got[id] != r {
				t.Errorf("%s: merged %s, unsharded %s", id, got[id], r)
			}
		}
	}
	if results(m)["CARD-004.NO-PREVALIDATE"] != scenarios.Waived || len(m.BaselineProblems) != 0 || !m.Complete {
		t.Errorf("merged: CARD-004.NO-PREVALIDATE %s, problems %q, complete %v", results(m)["CARD-004.NO-PREVALIDATE"], m.BaselineProblems, m.Complete)
	}
	for p, ps := range all.Profiles {
		if mp := m.Profiles[p]; mp.Score != ps.Score || mp.MustPassed != ps.MustPassed || mp.MustApplicable != ps.MustApplicable {
			t.Errorf("%s: merged %+v, unsharded %+v", p, mp, ps)
		}
	}
	if b, err := os.ReadFile(junit); err != nil || xml.Unmarshal(b, new(struct{})) != nil {
		t.Errorf("merged JUnit unreadable: %v", err)
	}
	if b, err := os.ReadFile(html); err != nil || !bytes.Contains(b, []byte(`id="sc-CARD-006"`)) {
		t.Errorf("merged HTML lacks CARD-006: %v", err)
	}

	// The same shard twice is refused (exit 2); so is a missing shard.
	if res := runCLI(t, "report", "merge", filepath.Join(dir, "1-of-2.json"), filepath.Join(dir, "1-of-2.json")); res.code != 2 || !strings.Contains(res.stderr, "both shard 1/2") {
		t.Errorf("merging a shard twice: exit %d\n%s", res.code, res.stderr)
	}
	if res := runCLI(t, "report", "merge", filepath.Join(dir, "1-of-2.json")); res.code != 2 || !strings.Contains(res.stderr, "shard 2/2 missing") {
		t.Errorf("merging one shard of two: exit %d\n%s", res.code, res.stderr)
	}
	// A merge judged with a baseline that waives nothing that fails: the
	// entries match nothing, so the run fails on the baseline too.
	other := writeJSON(t, dir, "other.json", map[string]string{"SIG-001.REJECT": "not in these shards"})
	res = runCLI(t, "report", "merge", filepath.Join(dir, "1-of-2.json"), filepath.Join(dir, "2-of-2.json"), "--baseline", other, "--json-report", merged)
	if res.code != 1 || !strings.Contains(res.stdout, `"SIG-001.REJECT" matches no check that ran`) {
		t.Errorf("merge --baseline: exit %d\n%s", res.code, res.stdout)
	}
	if results(readReport(t, merged))["CARD-001.REFETCH"] != scenarios.Fail {
		t.Errorf("merge --baseline kept the shards' waiver of CARD-001.REFETCH")
	}
}

// TestInterruptWritesPartialReport runs the CLI against an orchestrator
// that answers three requests and then hangs, sends SIGINT (or SIGTERM)
// once the hang has begun, and expects exit code 2 with every requested
// report written, marked incomplete, holding the scenarios that finished.
func TestInterruptWritesPartialReport(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			interruptRun(t, sig)
		})
	}
}

func interruptRun(t *testing.T, sig syscall.Signal) {
	cli, hang := built(t)
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	jsonFile, junit, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.html")
	// One scenario at a time: the orchestrator answers three requests and
	// hangs on the fourth, so the scenarios before it have finished (run
	// in parallel, the three answers could all go to later scenarios).
	cmd := exec.Command(cli, "run", "--parallel", "1", "--orchestrator", "exec:"+hang+" -answer 3 -count "+count,
		"--json-report", jsonFile, "--junit-report", junit, "--html-report", html)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(30 * time.Second)
	for hung := false; !hung; {
		select {
		case err := <-done:
			t.Fatalf("the run ended before the orchestrator hung: %v\n%s\n%s", err, out.String(), errb.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("the orchestrator never hung\n%s", errb.String())
		case <-time.After(50 * time.Millisecond):
			b, _ := os.ReadFile(count)
			n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			hung = n > 3
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the run did not end within 20 s of %v\n%s\n%s", sig, out.String(), errb.String())
	}
	t.Logf("ended %v after %v; the report holds what finished before", time.Since(sent).Round(time.Millisecond), sig)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v, want code 2\n%s\n%s", err, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "INCOMPLETE") || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("the output does not say the run was interrupted:\n%s\n%s", out.String(), errb.String())
	}
	r := readReport(t, jsonFile)
	if r.Complete || len(r.Checks) == 0 || len(r.Scenarios) == 0 {
		t.Fatalf("report: complete %v, %d checks, %d scenarios; want an incomplete report with checks", r.Complete, len(r.Checks), len(r.Scenarios))
	}
	if len(r.Scenarios) >= len(scenarios.All())-1 {
		t.Errorf("the report has %d scenarios: the run was not cut short", len(r.Scenarios))
	}
	for _, c := range r.Checks {
		if c.Result == scenarios.Error {
			t.Errorf("%s is an ERROR: the interrupted scenario must be left out, not scored", c.ID)
		}
	}
	if b, err := os.ReadFile(junit); err != nil || !bytes.Contains(b, []byte(`name="complete"`)) {
		t.Errorf("the JUnit report does not say the run is incomplete: %v", err)
	}
	if b, err := os.ReadFile(html); err != nil || !bytes.Contains(b, []byte(`id="incomplete"`)) {
		t.Errorf("the HTML report does not say the run is incomplete: %v", err)
	}
}

// TestVerdictExitUnderHarnessErrors: a harness ERROR is exit 2, unless a
// MUST of a selected profile FAILed beside it (a flood whose failure the
// wire proves): no harness error could make that run conformant, so it is
// exit 1. A failed SHOULD, or a MUST of a profile not selected, does not
// decide the verdict.
func TestVerdictExitUnderHarnessErrors(t *testing.T) {
	must := func(p scenarios.Profile) []scenarios.Grade {
		return []scenarios.Grade{{Profile: p, Level: scenarios.Must}}
	}
	errCheck := suite.CheckResult{ID: "CARD-002.URL", Result: scenarios.Error, Grades: must(scenarios.Core), Detail: "the run reached the fleet's limits"}
	cases := []struct {
		name     string
		failed   suite.CheckResult
		profiles []scenarios.Profile
		want     int
	}{
		{"a MUST failed", suite.CheckResult{ID: "G-ONE-TASK", Result: scenarios.Fail, Grades: must(scenarios.Safety)}, nil, 1},
		{"only a SHOULD failed", suite.CheckResult{ID: "G-CANCEL-ABANDONED", Result: scenarios.Fail, Grades: []scenarios.Grade{{Profile: scenarios.Safety, Level: scenarios.Should}}}, nil, 2},
		{"the failed MUST is in another profile", suite.CheckResult{ID: "G-ONE-TASK", Result: scenarios.Fail, Grades: must(scenarios.Safety)}, []scenarios.Profile{scenarios.Core}, 2},
		{"the MUST passed", suite.CheckResult{ID: "G-ONE-TASK", Result: scenarios.Pass, Grades: must(scenarios.Safety)}, nil, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checks := []suite.CheckResult{errCheck, tc.failed}
			r := &suite.Report{Checks: checks, Complete: true, Profiles: suite.Score(checks)}
			err := verdictExit(r, tc.profiles)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != tc.want {
				t.Fatalf("verdictExit = %v, want exit %d", err, tc.want)
			}
			if !strings.Contains(ee.Error(), "harness error in CARD-002.URL") {
				t.Errorf("message %q does not name the harness error", ee.Error())
			}
		})
	}
}
