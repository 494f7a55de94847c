package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// seedScenarios are quick scenarios against builtin:reference (each runs in
// well under a second), enough that a shuffle shows.
var seedScenarios = []string{"CARD-001", "CARD-002", "CARD-004", "PROBE-001", "BIND-002", "BIND-003"}

// scenarioOrder is the order of the scenario lines a run printed.
func scenarioOrder(stdout string) []string {
	var ids []string
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && slices.Contains(seedScenarios, f[0]) {
			ids = append(ids, f[0])
		}
	}
	return ids
}

// TestSeedOrder checks that run keeps catalog order without --seed, that
// --seed N prints N and gives the same shuffled order every time (not the
// catalog's, for the seeds used here), that --seed random prints a seed
// that repeats its order, that the JSON report keeps catalog order either
// way, and that a bad seed is exit 2.
func TestSeedOrder(t *testing.T) {
	t.Parallel()
	filter := strings.Join(seedScenarios, " || ")
	dir := t.TempDir()
	run := func(name string, args ...string) (result, []string) {
		t.Helper()
		r := runCLI(t, append([]string{"run", "--label-filter", filter, "--json-report", filepath.Join(dir, name+".json")}, args...)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, r.code, r.stdout, r.stderr)
		}
		return r, scenarioOrder(r.stdout)
	}
	catalog := slices.Clone(seedScenarios) // seedScenarios is in catalog order
	plain, order := run("plain")
	if !slices.Equal(order, catalog) {
		t.Errorf("without --seed the order is %v, want catalog order %v", order, catalog)
	}
	if strings.Contains(plain.stdout, "--seed") {
		t.Errorf("a run without --seed mentions a seed:\n%s", plain.stdout)
	}
	for _, seed := range []string{"7", "-3"} {
		r1, o1 := run("seed"+seed+"a", "--seed", seed)
		_, o2 := run("seed"+seed+"b", "--seed", seed)
		if want := "--seed " + seed + " (repeat"; !strings.Contains(r1.stdout, want) {
			t.Errorf("--seed %s: stdout lacks %q:\n%s", seed, want, r1.stdout)
		}
		if !slices.Equal(o1, o2) || len(o1) != len(catalog) {
			t.Errorf("--seed %s gave %v, then %v", seed, o1, o2)
		}
		if slices.Equal(o1, catalog) {
			t.Errorf("--seed %s kept catalog order %v", seed, o1)
		}
		sorted := slices.Clone(o1)
		slices.SortFunc(sorted, func(a, b string) int { return slices.Index(catalog, a) - slices.Index(catalog, b) })
		if !slices.Equal(sorted, catalog) {
			t.Errorf("--seed %s ran %v, not the same scenarios as %v", seed, o1, catalog)
		}
		var ids []string
		for _, s := range readReport(t, filepath.Join(dir, "seed"+seed+"a.json")).Scenarios {
			ids = append(ids, s.ID)
		}
		if !slices.Equal(ids, catalog) {
			t.Errorf("--seed %s: the report's scenarios are in order %v, want catalog order", seed, ids)
		}
	}
	rr, ro := run("random", "--seed", "random")
	m := regexp.MustCompile(`--seed (-?\d+) \(repeat`).FindStringSubmatch(rr.stdout)
	if m == nil {
		t.Fatalf("--seed random printed no seed:\n%s", rr.stdout)
	}
	if _, again := run("random-again", "--seed", m[1]); !slices.Equal(again, ro) {
		t.Errorf("--seed random ran %v; its printed seed %s ran %v", ro, m[1], again)
	}
	if r := runCLI(t, "run", "--seed", "soon"); r.code != 2 || !strings.Contains(r.stderr, `invalid value "soon" for flag -seed: want an integer or random`) {
		t.Errorf("--seed soon: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestRunOrder checks suite.RunOrder itself: zero keeps the order, a seed
// permutes every scenario of the catalog, the same way each time.
func TestRunOrder(t *testing.T) {
	t.Parallel()
	all := scenarios.All()
	if got := suite.RunOrder(all, 0); !slices.Equal(got, all) {
		t.Error("seed 0 changed the order")
	}
	for _, seed := range []int64{1, 42, -9} {
		a, b := suite.RunOrder(all, seed), suite.RunOrder(all, seed)
		if !slices.Equal(a, b) {
			t.Errorf("seed %d: two different orders", seed)
		}
		if slices.Equal(a, all) {
			t.Errorf("seed %d: catalog order", seed)
		}
		if len(a) != len(all) {
			t.Errorf("seed %d: %d scenarios, want %d", seed, len(a), len(all))
		}
		seen := map[*scenarios.Scenario]bool{}
		for _, s := range a {
			seen[s] = true
		}
		if len(seen) != len(all) {
			t.Errorf("seed %d: a scenario is missing or twice", seed)
		}
	}
}

// TestConsoleStderrTail runs an exec orchestrator that writes 15 lines to
// stderr (the last with ANSI colour codes) and exits without answering: the
// scenario's checks are NOT_EXERCISED, and the console shows the last 10
// lines under the scenario line, escaped, after the line that says why the
// delegation has no outcome and the driver's notes; a passing run shows
// none.
func TestConsoleStderrTail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "noisy.sh")
	body := "#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do echo \"noisy: diagnostic $i\" >&2; done\n" +
		"printf 'noisy: \\033[31mgave up\\033[0m\\n' >&2\nexit 3\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "run", "--orchestrator", "exec:"+script, "--label-filter", "CARD-002")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "CARD-002 ") })
	if i < 0 || i+13 > len(lines) {
		t.Fatalf("no CARD-002 line with 12 lines after it:\n%s", r.stdout)
	}
	// First why the delegation has no outcome (the script exits without
	// reading its input: the driver sees the exit or, first, the broken
	// pipe of its write), then the stderr tail.
	if !regexp.MustCompile(`^  delegation 1: no outcome: (exited with status 3|cannot write request: .*broken pipe)$`).MatchString(lines[i+1]) {
		t.Errorf("line after the scenario: %q, want why delegation 1 got no outcome", lines[i+1])
	}
	i++
	// Then the driver's notes, then the stderr tail.
	if !strings.HasPrefix(lines[i+1], "  driver notes (") {
		t.Errorf("line after why: %q, want the driver notes", lines[i+1])
	}
	notesAt := i + 1
	for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "  driver notes (") || strings.HasPrefix(lines[i+1], "  · ")) {
		i++
	}
	if notes := lines[notesAt : i+1]; len(notes) < 2 || !strings.HasPrefix(notes[1], "  · started pid ") {
		// What follows the start (the exit, an ended hello, a broken
		// pipe) depends on which the driver saw first.
		t.Errorf("the driver notes do not begin with the orchestrator's start:\n%s", strings.Join(notes, "\n"))
	}
	if i+12 > len(lines) {
		t.Fatalf("no stderr tail after the notes:\n%s", r.stdout)
	}
	if !regexp.MustCompile(`^  orchestrator stderr \(last 10 of \d+ lines\):$`).MatchString(lines[i+1]) {
		t.Errorf("line after the scenario: %q", lines[i+1])
	}
	var want []string
	for n := 6; n <= 14; n++ {
		want = append(want, "  | noisy: diagnostic "+strconv.Itoa(n))
	}
	want = append(want, `  | noisy: \x1b[31mgave up\x1b[0m`)
	if got := lines[i+2 : i+12]; !slices.Equal(got, want) {
		t.Errorf("stderr tail:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.HasPrefix(lines[i+12], "  | ") {
		t.Errorf("more than 10 stderr lines: %q", lines[i+12])
	}
	if strings.Contains(r.stdout, "\x1b") {
		t.Error("the orchestrator's escape codes reached the console")
	}
	if ok := runCLI(t, "run", "--label-filter", "CARD-002"); ok.code != 0 || strings.Contains(ok.stdout, "orchestrator stderr") {
		t.Errorf("a passing run: exit %d, stdout:\n%s", ok.code, ok.stdout)
	}
}

// TestReadBuildFacts checks where version takes the revision from: an
// -X stamp wins (the build info of a worktree build can be another
// checkout's), else the build info's VCS settings, else none.
func TestReadBuildFacts(t *testing.T) {
	t.Parallel()
	vcs := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/a2a-conform/a2a-conform", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "b48ed22"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-01T20:00:00Z"}}}
	novcs := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/a2a-conform/a2a-conform", Version: "v0.2.0"}}
	for _, tc := range []struct {
		name  string
		bi    *debug.BuildInfo
		stamp string
		want  buildFacts
	}{
		{"build info", vcs, "", buildFacts{Module: "github.com/a2a-conform/a2a-conform (devel)", Revision: "b48ed22", Modified: true, Time: "2026-12-01T20:00:00Z", Go: "go1.26.8"}},
		{"stamp wins", vcs, "abc", buildFacts{Module: "github.com/a2a-conform/a2a-conform (devel)", Revision: "abc", Go: "go1.26.8"}},
		{"stamp only", novcs, "abc", buildFacts{Module: "github.com/a2a-conform/a2a-conform v0.2.0", Revision: "abc", Go: "go1.26.8"}},
		{"neither", novcs, "", buildFacts{Module: "github.com/a2a-conform/a2a-conform v0.2.0", Go: "go1.26.8"}},
	} {
		if got := readBuildFacts(tc.bi, tc.stamp); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestVersionCommand builds the CLI as GOFLAGS=-buildvcs=false builds it
// (no VCS settings in the build info), with and without the -X stamps the
// Makefile, the Action and the Dockerfile set, and reads `version`.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, ldflags string
		want          []string
	}{
		{"stamped", "-X main.version=v0.2.0-test -X main.revision=0123456789abcdef", []string{
			"a2a-conform v0.2.0-test\n", "  module:   github.com/a2a-conform/a2a-conform (devel)\n", "  revision: 0123456789abcdef\n", "  go:       go1."}},
		{"unstamped", "", []string{"a2a-conform dev\n", "  revision: unknown (no VCS stamp"}},
	} {
		bin := filepath.Join(dir, tc.name)
		cmd := exec.Command("go", "build", "-buildvcs=false", "-ldflags", tc.ldflags, "-o", bin, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", tc.name, err, out)
		}
		var out, errb bytes.Buffer
		v := exec.Command(bin, "version")
		v.Stdout, v.Stderr = &out, &errb
		if err := v.Run(); err != nil {
			t.Fatalf("%s: version: %v\n%s", tc.name, err, errb.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: version printed\n%s\nwant it to contain %q", tc.name, out.String(), w)
			}
		}
	}
	if r := runCLI(t, "version", "extra"); r.code != 2 {
		t.Errorf("version extra: exit %d", r.code)
	}
}

// TestTimeScaleFlag: run --time-scale takes 0 < F <= 1 and refuses
// anything else with exit 2 and one line; a scaled run records its scale
// in the JSON report and names it on the scorecard line, a run at 1 does
// neither on the scorecard; fleet up takes --time-scale with --scenario
// only.
func TestTimeScaleFlag(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"0", "-0.5", "1.5", "NaN", "fast"} {
		r := runCLI(t, "run", "--time-scale", bad)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "--time-scale") {
			t.Errorf("--time-scale %s: exit %d, stderr %q; want exit 2 and one line", bad, r.code, r.stderr)
		}
	}
	if r := runCLI(t, "fleet", "up", "--time-scale", "0.5", "--print-config"); r.code != 2 {
		t.Errorf("fleet up --time-scale without --scenario: exit %d, want 2 (%s)", r.code, r.stderr)
	}
	cases := []struct {
		scale, line string
		want        float64
	}{{"0.1", "time scale 0.1: not a real-time measurement", 0.1}, {"1", "", 1}}
	for _, c := range cases {
		rep := filepath.Join(t.TempDir(), "r.json")
		r := runCLI(t, "run", "--label-filter", "STREAM-002", "--time-scale", c.scale, "--json-report", rep)
		if r.code != 0 {
			t.Fatalf("--time-scale %s: exit %d\n%s%s", c.scale, r.code, r.stdout, r.stderr)
		}
		if got := readReport(t, rep).TimeScale; float64(got) != c.want {
			t.Errorf("--time-scale %s: report records %v", c.scale, got)
		}
		if named := strings.Contains(r.stdout, "time scale"); named != (c.line != "") || c.line != "" && !strings.Contains(r.stdout, c.line) {
			t.Errorf("--time-scale %s: scorecard line wrong (want %q):\n%s", c.scale, c.line, r.stdout)
		}
	}
}
