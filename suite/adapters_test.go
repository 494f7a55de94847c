package suite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// adaptersDir is examples/adapters, seen from this package's directory.
const adaptersDir = "../examples/adapters"

// adapter is one exec adapter around a real third-party A2A client.
type adapter struct {
	name string
	// dir is the adapter's directory under examples/adapters. Empty means
	// name (a variant of an adapter has a name of its own).
	dir string
	// argv builds (or locates) the adapter and returns its command line, or
	// skips t when a runtime it needs is missing.
	argv func(t *testing.T) []string
}

var adapters = []adapter{
	{name: "a2a-go", argv: goAdapter},
	{name: "a2a-js", argv: jsAdapter},
	{name: "python", argv: pythonAdapter},
	{name: "adk", argv: nodeAdapter("adk", "@google/adk", "undici")},
	{name: "beeai", argv: nodeAdapter("beeai", "beeai-framework", "@a2a-js/sdk", "undici")},
	{name: "mastra", argv: nodeAdapter("mastra", "@mastra/core", "undici")},
	{name: "mastra-1.0", dir: "mastra", argv: withArgs(nodeAdapter("mastra", "@mastra/core", "undici"), "--protocol-version", "1.0")},
	{name: "ai-sdk", argv: nodeAdapter("ai-sdk", "a2a-ai-provider", "ai", "undici")},
	{name: "a2a-sdk", argv: venvAdapter("a2a-sdk")},
	// a2a-sdk-grpc: the same SDK told it may speak every binding it
	// implements (ClientConfig.supported_protocol_bindings), gRPC among
	// them on the application's grpc_channel_factory.
	{name: "a2a-sdk-grpc", dir: "a2a-sdk", argv: withArgs(venvAdapter("a2a-sdk"), "--bindings", "JSONRPC,HTTP+JSON,GRPC")},
	{name: "strands", argv: venvAdapter("strands")},
	{name: "adk-python", argv: venvAdapter("adk-python")},
}

// goAdapter builds examples/adapters/a2a-go (github.com/a2aproject/a2a-go),
// a module of its own, from its directory.
func goAdapter(t *testing.T) []string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "adapter-a2a-go")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(adaptersDir, "a2a-go")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the a2a-go adapter: %v\n%s", err, out)
	}
	return []string{bin}
}

// jsAdapter locates node and the adapter's node_modules (@a2a-js/sdk,
// undici). Missing ones skip the test unless A2A_CONFORM_REQUIRE_NODE=1.
func jsAdapter(t *testing.T) []string {
	dir, err := filepath.Abs(filepath.Join(adaptersDir, "a2a-js"))
	if err != nil {
		t.Fatal(err)
	}
	fix := "run: npm ci --prefix examples/adapters/a2a-js (or make deps)"
	node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed: install it, then "+fix, "node")
	for _, pkg := range []string{"@a2a-js/sdk", "undici"} {
		testenv.File(t, "A2A_CONFORM_REQUIRE_NODE", filepath.Join(dir, "node_modules", pkg, "package.json"), fix)
	}
	return []string{node, filepath.Join(dir, "adapter.mjs")}
}

// nodeAdapter locates node and the node_modules of the framework adapter in
// examples/adapters/<dir> (adapter.mjs, sharing ../internal-node). Missing
// ones skip the test unless A2A_CONFORM_REQUIRE_NODE=1.
func nodeAdapter(dir string, pkgs ...string) func(t *testing.T) []string {
	return func(t *testing.T) []string {
		abs, err := filepath.Abs(filepath.Join(adaptersDir, dir))
		if err != nil {
			t.Fatal(err)
		}
		fix := "run: npm ci --prefix examples/adapters/" + dir + " (or make deps)"
		node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed: install it, then "+fix, "node")
		for _, pkg := range pkgs {
			testenv.File(t, "A2A_CONFORM_REQUIRE_NODE", filepath.Join(abs, "node_modules", pkg, "package.json"), fix)
		}
		return []string{node, filepath.Join(abs, "adapter.mjs")}
	}
}

// venvAdapter locates the virtual environment of the Python adapter in
// examples/adapters/<dir> (adapter.py, sharing ../internal-python) that
// make deps creates from its hashed requirements.txt. A missing one skips
// the test unless A2A_CONFORM_REQUIRE_PYTHON=1.
func venvAdapter(dir string) func(t *testing.T) []string {
	return func(t *testing.T) []string {
		abs, err := filepath.Abs(filepath.Join(adaptersDir, dir))
		if err != nil {
			t.Fatal(err)
		}
		fix := "run make deps (it creates examples/adapters/" + dir + "/.venv from requirements.txt)"
		testenv.File(t, "A2A_CONFORM_REQUIRE_PYTHON", filepath.Join(abs, ".venv", "installed"), fix)
		return []string{filepath.Join(abs, ".venv", "bin", "python"), filepath.Join(abs, "adapter.py")}
	}
}

// withArgs adds arguments to an adapter's command line (a variant).
func withArgs(argv func(t *testing.T) []string, args ...string) func(t *testing.T) []string {
	return func(t *testing.T) []string { return append(argv(t), args...) }
}

// pythonAdapter locates python3 for the standard-library adapter.
func pythonAdapter(t *testing.T) []string {
	py := testenv.Program(t, "A2A_CONFORM_REQUIRE_PYTHON", "python3 is needed: apt-get install -y python3", "python3")
	script, err := filepath.Abs(filepath.Join(adaptersDir, "python", "adapter.py"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{py, script}
}

// TestAdapters puts each real A2A client through every default scenario
// with the exec driver and compares its scorecard and the result of every
// check with testdata/adapters/<name>.golden (rewrite with -update). The
// goldens record what the SDKs do by default; a change means the harness,
// the fleet or an SDK changed behaviour, and the README's table with it.
func TestAdapters(t *testing.T) {
	testenv.Long(t, "every real SDK and framework client through the whole catalog")
	t.Parallel()
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			argv := a.argv(t)
			start := time.Now()
			// A startup grace keeps a framework's import out of the first
			// deadline (the Node adapters import after hello otherwise): on
			// a loaded machine it can take most of LIFE-004's 5 s.
			d := driver.NewExec(argv)
			d.StartupGrace = adapterStartupGrace
			got, problems, details := scoreAdapter(d)
			t.Logf("%s: every default scenario in %v", a.name, time.Since(start).Round(100*time.Millisecond))
			for _, p := range problems {
				t.Error(p)
			}
			golden := filepath.Join("testdata", "adapters", a.name+".golden")
			dir := a.dir
			if dir == "" {
				dir = a.name
			}
			header := fmt.Sprintf("# %s adapter (examples/adapters/%s): scorecard per profile, then every check.\n"+
				"# Rewrite with: go test ./suite -run 'TestAdapters/%s$' -update\n", a.name, dir, a.name)
			got = header + got
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./suite -run TestAdapters -update)", err)
			}
			switch {
			case got == string(want):
			case onlyDeadlineReach(string(want), got):
				t.Logf("%s adapter: only a deadline-bound check's reach differs from the golden (a loaded machine):\n%s", a.name, lineDiff(string(want), got))
			default:
				t.Errorf("%s adapter's scorecard changed:\n%s%s", a.name, lineDiff(string(want), got), changedDetails(string(want), got, details))
			}
		})
	}
}

// adapterStartupGrace is the time an adapter's process may take to start
// (the run command's --startup-grace).
const adapterStartupGrace = 20 * time.Second

// adapterSlots bounds the scenarios that run at once across every adapter
// of TestAdapters (each starts its adapter's process, some of which import
// a framework for seconds): on a loaded two-core machine more would push
// slow-starting adapters past their deadlines and make the goldens flaky.
var adapterSlots = make(chan struct{}, max(4, runtime.NumCPU()))

// scoreAdapter runs every default scenario concurrently against d and
// renders the scorecard (with delegations completed and NOT_EXERCISED per
// profile) and the report's "ID RESULT" lines, one per requirement.
// Problems are things that are not SDK behaviour: harness errors and
// delegations without an outcome (the adapters always answer).
func scoreAdapter(d driver.Driver) (string, []string, map[string]string) {
	var (
		mu       sync.Mutex
		checks   []suite.CheckResult
		scens    []suite.ScenarioResult
		problems []string
		wg       sync.WaitGroup
	)
	// The longest scenario (STREAM-002 holds its stream 10 s) starts first;
	// the rest share a few slots, so that a loaded two-core machine does
	// not push adapters past their deadlines.
	var all []*scenarios.Scenario
	for _, s := range scenarios.All() {
		if !s.HasLabel("slow") {
			all = append(all, s)
		}
	}
	order := slices.Clone(all)
	sort.SliceStable(order, func(i, j int) bool { return order[i].ID == "STREAM-002" && order[j].ID != "STREAM-002" })
	for _, s := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			adapterSlots <- struct{}{}
			defer func() { <-adapterSlots }()
			run, res, err := suite.Execute(context.Background(), s, d)
			var local []suite.CheckResult
			for _, c := range s.WithGlobals() {
				local = append(local, suite.Judge(run, err, s, c, nil))
			}
			mu.Lock()
			defer mu.Unlock()
			checks = append(checks, local...)
			scens = append(scens, res)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: harness error: %v", s.ID, err))
			}
			for i, dl := range run.Delegations {
				if dl.Outcome == nil && !dl.Unimplemented {
					problems = append(problems, fmt.Sprintf("%s delegation %d: no outcome (%s); stderr:\n%s",
						s.ID, i+1, dl.NoOutcome, res.Transcript.Stderr))
				}
			}
		}()
	}
	wg.Wait()
	sort.Strings(problems)
	rep := suite.NewReport(suite.Config{Scenarios: all}, time.Now(), true, checks, scens)
	details := map[string]string{}
	for _, c := range rep.Checks {
		details[c.ID] = c.Detail
	}
	return renderScorecard(rep), problems, details
}

// changedDetails gives, for each check whose "ID RESULT" line differs
// between want and got, the detail of its new result, so that a golden
// that changed in CI says why without a rerun.
func changedDetails(want, got string, details map[string]string) string {
	old := map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		old[l] = true
	}
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		id, _, ok := strings.Cut(l, " ")
		if d, known := details[id]; ok && known && !old[l] {
			fmt.Fprintf(&b, "  %s: %s\n", l, d)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "details of the changed results:\n" + b.String()
}

// renderScorecard is the golden form of a report: a line per profile
// (a2a-core's with the A2A versions its verdict judged),
// the delegation tally, then "ID RESULT" per requirement in catalog order.
func renderScorecard(rep *suite.Report) string {
	var b strings.Builder
	for _, p := range scenarios.Profiles {
		ps := rep.Profiles[p]
		conformant := "no"
		if ps.Conformant {
			conformant = "yes"
		}
		fmt.Fprintf(&b, "%-18s score %5.1f  MUST %d/%d  conformant %-3s  not exercised %d", p, ps.Score, ps.MustPassed, ps.MustApplicable, conformant, ps.NotExercised)
		if len(ps.Versions) > 0 {
			fmt.Fprintf(&b, "  judged A2A %s", strings.Join(ps.Versions, ","))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "delegations completed %d/%d\n\n", rep.Delegations.Completed, rep.Delegations.Attempted)
	for _, c := range rep.Checks {
		fmt.Fprintf(&b, "%s %s\n", c.ID, c.Result)
		if coreFailure(c) {
			fmt.Fprintf(&b, "  clause: %s\n  saw: %s\n  reproduce: %s\n", clientClauses(c.Sources), stableDetail(c.Detail), reproduceCommand(c.Scenario))
		}
	}
	return b.String()
}

// coreFailure reports whether c failed where it counts in a2a-core: the
// failures docs/real-clients.md lists for each client's maintainers.
func coreFailure(c suite.CheckResult) bool {
	if c.Result != scenarios.Fail {
		return false
	}
	if _, exempt := c.Exempt[scenarios.Core]; exempt {
		return false
	}
	return slices.ContainsFunc(c.Grades, func(g scenarios.Grade) bool { return g.Profile == scenarios.Core })
}

// clientClauses names the A2A clauses among sources that bind the client,
// each once with the levels its sources give ("A2A 1.0 §8.4.3 (SHOULD,
// MUST)").
func clientClauses(sources []scenarios.Source) string {
	var clauses []string
	levels := map[string][]string{}
	for _, s := range sources {
		if !s.IsSpec() || s.Binds != scenarios.Client {
			continue
		}
		c := s.Document + " " + s.Locator
		if _, seen := levels[c]; !seen {
			clauses = append(clauses, c)
		}
		if !slices.Contains(levels[c], string(s.Level)) {
			levels[c] = append(levels[c], string(s.Level))
		}
	}
	for i, c := range clauses {
		clauses[i] = c + " (" + strings.Join(levels[c], ", ") + ")"
	}
	return strings.Join(clauses, "; ")
}

// reproduceCommand starts the fleet as the scenario sets it up, for a
// client's maintainers to point their client at.
func reproduceCommand(scenario string) string {
	if scenario == "" || scenario == "global" {
		return "a2a-conform run --orchestrator 'exec:YOUR-CLIENT' (a global requirement: the detail names the scenario)"
	}
	return "a2a-conform fleet up --scenario " + scenario
}

var (
	// volatileID matches the ids a run mints afresh (UUIDs, hex task ids).
	volatileID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{16,}\b`)
	// volatileMs matches a duration the machine's speed decides.
	volatileMs = regexp.MustCompile(`\b\d+ ms\b`)
)

// stableDetail is a check's detail with what changes from run to run
// (minted ids, measured durations) replaced, so that a golden holds it.
func stableDetail(d string) string {
	d = volatileID.ReplaceAllString(d, "<id>")
	return volatileMs.ReplaceAllString(d, "N ms")
}

// deadlineBound are the checks whose reach depends on the machine's load:
// their scenario's deadline runs while the orchestrator discovers and
// sends, and a framework client starved of CPU may send after it (not
// exercised) where an unloaded run sees it held past it (failed) or
// cancelled (passed).
var deadlineBound = []string{"LIFE-004.", "SLOW-003."}

// onlyDeadlineReach reports whether want and got differ only in
// deadline-bound checks turning NOT_EXERCISED or back, and in the
// scorecard's head those flips move (scores, counts, the delegation
// tally). Any other change is a real one.
func onlyDeadlineReach(want, got string) bool {
	w, wh := checkLines(want)
	g, gh := checkLines(got)
	if len(w) != len(g) || wh == gh {
		return false // a flip moves the head; a head that did not move means another change
	}
	flips := 0
	for i := range w {
		if w[i] == g[i] {
			continue
		}
		wid, wres, _ := strings.Cut(w[i], " ")
		gid, gres, _ := strings.Cut(g[i], " ")
		bound := slices.ContainsFunc(deadlineBound, func(p string) bool { return strings.HasPrefix(wid, p) })
		if wid != gid || !bound || (wres != "NOT_EXERCISED" && gres != "NOT_EXERCISED") {
			return false
		}
		flips++
	}
	return flips > 0
}

// checkLines splits a golden into its "ID RESULT" lines (the indented
// lines under a core failure dropped: a flip adds or removes them) and
// its head (the profile lines and the delegation tally).
func checkLines(golden string) (checks []string, head string) {
	h, body, _ := strings.Cut(golden, "\n\n")
	for _, l := range strings.Split(body, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			checks = append(checks, l)
		}
	}
	return checks, h
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	count := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(got, "\n") {
		count[l]--
	}
	var out []string
	for _, l := range strings.Split(want, "\n") {
		if count[l] > 0 {
			out = append(out, "- "+l)
			count[l]--
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if count[l] < 0 {
			out = append(out, "+ "+l)
			count[l]++
		}
	}
	return strings.Join(out, "\n")
}

func TestOnlyDeadlineReach(t *testing.T) {
	head := func(ne int) string {
		return fmt.Sprintf("a2a-core  score 90.0  not exercised 0\ndelegation-safety  score 40.0  not exercised %d\ndelegations completed 3/9\n\n", ne)
	}
	want := head(1) + "LIFE-004.STOP NOT_EXERCISED\nSLOW-003.STOP FAIL\nCARD-001.ROUTE PASS\n"
	cases := []struct {
		name string
		got  string
		ok   bool
	}{
		{"a deadline-bound check reached", head(0) + "LIFE-004.STOP FAIL\nSLOW-003.STOP FAIL\nCARD-001.ROUTE PASS\n", true},
		{"another deadline-bound check not reached", head(2) + "LIFE-004.STOP NOT_EXERCISED\nSLOW-003.STOP NOT_EXERCISED\nCARD-001.ROUTE PASS\n", true},
		{"FAIL to PASS of a deadline-bound check", head(1) + "LIFE-004.STOP NOT_EXERCISED\nSLOW-003.STOP PASS\nCARD-001.ROUTE PASS\n", false},
		{"another check changed", head(0) + "LIFE-004.STOP FAIL\nSLOW-003.STOP FAIL\nCARD-001.ROUTE FAIL\n", false},
		{"the head alone changed", head(3) + "LIFE-004.STOP NOT_EXERCISED\nSLOW-003.STOP FAIL\nCARD-001.ROUTE PASS\n", false},
		{"a check missing", head(0) + "LIFE-004.STOP FAIL\nSLOW-003.STOP FAIL\n", false},
	}
	for _, tc := range cases {
		if got := onlyDeadlineReach(want, tc.got); got != tc.ok {
			t.Errorf("%s: onlyDeadlineReach = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
