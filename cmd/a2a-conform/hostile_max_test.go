//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
	"github.com/a2a-conform/a2a-conform/suite/htmlreport"
)

// TestHostileMaxReport runs the whole default catalog with the CLI against
// an orchestrator that sends the most the contract lets it everywhere
// (suite/testdata/hostile -mode max: hello and outcome fields as large as
// the 1 MiB line allows, in text every format escapes, 80 KiB of stderr
// a delegation, 250 over-long notes, five requests nested 9,990 deep and
// 20 with every traced field past its bound, and in the last scenario
// 5,000 such requests and 70 bodies of 60 KiB). The run ends with
// verdicts (exit 1, not a harness error) under 1 GiB of RSS; each
// scenario's part of report.json, and each report, stays within the
// worst case the README's Bounds table states (suite.WorstScenarioJSON,
// WorstRunJSON, WorstRunJUnit, htmlreport.WorstPage); everything the
// orchestrator sent is kept within its bound; and Python's json and jq
// read report.json at their defaults.
func TestHostileMaxReport(t *testing.T) {
	testenv.Long(t, "the worst-case hostile orchestrator over the whole catalog")
	cli, _ := built(t)
	hostile := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", hostile, "../../suite/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("building suite/testdata/hostile: %v\n%s", err, out)
	}
	all := defaultScenarios()
	dir := t.TempDir()
	files := map[string]string{"json": filepath.Join(dir, "report.json"), "junit": filepath.Join(dir, "junit.xml"), "html": filepath.Join(dir, "report.html")}
	cmd := exec.Command(cli, "run", "--orchestrator", "exec:"+hostile+" -mode max -flood-scenario "+all[len(all)-1].ID,
		"--json-report", files["json"], "--junit-report", files["junit"], "--html-report", files["html"])
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if code := exitCodeOf(t, err); code != 1 {
		t.Fatalf("exit %d, want 1 (verdicts, no harness error):\n%s", code, tail(out.String(), 2000))
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	if rss > 1<<30 {
		t.Errorf("peak RSS %d MiB, budget 1 GiB", rss>>20)
	}
	size := map[string]int{}
	for k, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size[k] = int(fi.Size())
	}
	for k, bound := range map[string]int{"json": suite.WorstRunJSON(all), "junit": suite.WorstRunJUnit(all), "html": htmlreport.WorstPage(all)} {
		if size[k] > bound {
			t.Errorf("the %s report is %d bytes, worst case %d", k, size[k], bound)
		}
	}
	b, err := os.ReadFile(files["json"])
	if err != nil {
		t.Fatal(err)
	}
	most := checkScenarioParts(t, b, all)
	// The report, its scenarios, a scenario, its trace, an event: five
	// levels over what an event keeps.
	if d := testenv.JSONDepth(t, b); d > mockvendor.MaxTracedDepth+5 {
		t.Errorf("report.json is nested %d deep, more than %d", d, mockvendor.MaxTracedDepth+5)
	}
	testenv.JSONReaders(t, files["json"])
	checkREADME(t, all)
	t.Logf("%d scenarios in %v, peak RSS %d MiB; report.json %d bytes (largest scenario %d), JUnit %d, HTML %d",
		len(all), elapsed.Round(100*time.Millisecond), rss>>20, size["json"], most, size["junit"], size["html"])
}

// defaultScenarios are the scenarios a run selects by default (not slow).
func defaultScenarios() []*scenarios.Scenario {
	var out []*scenarios.Scenario
	for _, s := range scenarios.All() {
		if !s.HasLabel("slow") {
			out = append(out, s)
		}
	}
	return out
}

// scenarioPart is what checkScenarioParts reads of a scenario result.
type scenarioPart struct {
	ID          string `json:"id"`
	Hello       suite.Orchestrator
	Delegations []suite.DelegationResult
	Transcript  driver.Transcript
}

// checkScenarioParts checks that each scenario's part of report.json (its
// result and its own checks' results) is within suite.WorstScenarioJSON,
// and that what the orchestrator sent is kept within its bounds, cut with
// a marker; it returns the largest part.
func checkScenarioParts(t *testing.T, report []byte, all []*scenarios.Scenario) int {
	t.Helper()
	var r struct {
		Orchestrator suite.Orchestrator `json:"orchestrator"`
		Scenarios    []json.RawMessage  `json:"scenarios"`
		Checks       []json.RawMessage  `json:"checks"`
	}
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatal(err)
	}
	part := map[string]int{}
	for _, raw := range r.Checks {
		var c struct{ ID, Scenario string }
		_ = json.Unmarshal(raw, &c)
		if !strings.HasPrefix(c.ID, "G-") {
			part[c.Scenario] += len(raw)
		}
	}
	byID := map[string]*scenarios.Scenario{}
	for _, s := range all {
		byID[s.ID] = s
	}
	most, marked := 0, 0
	field := contract.MaxFieldBytes + contract.MaxClipMarker
	for _, raw := range r.Scenarios {
		var sc scenarioPart
		if err := json.Unmarshal(raw, &sc); err != nil {
			t.Fatal(err)
		}
		n := part[sc.ID] + len(raw)
		most = max(most, n)
		if bound := suite.WorstScenarioJSON(byID[sc.ID]); n > bound {
			t.Errorf("%s takes %d bytes of report.json, worst case %d", sc.ID, n, bound)
		}
		check := func(what string, s string, bound int) {
			if len(s) > bound || !utf8.ValidString(s) {
				t.Errorf("%s: %s of %d bytes (bound %d), valid UTF-8 %v", sc.ID, what, len(s), bound, utf8.ValidString(s))
			}
			if strings.Contains(s, " more bytes]") {
				marked++
			}
		}
		check("hello name", sc.Hello.Name, field)
		check("hello version", sc.Hello.Version, field)
		for _, d := range sc.Delegations {
			check("no-outcome reason", d.NoOutcome, suite.MaxCheckText+contract.MaxClipMarker)
			if o := d.Outcome; o != nil {
				for _, f := range []string{o.Agent, o.Skill, o.TaskID, o.TaskState, o.CardTrust, o.TrustMode, o.Reason} {
					check("outcome field", f, field)
				}
				check("detail", o.Detail, contract.MaxDetailBytes+contract.MaxClipMarker)
			}
		}
		check("stderr", sc.Transcript.Stderr, driver.DefaultStderrLimit+64)
		if len(sc.Transcript.Notes) > driver.MaxNotes+1 {
			t.Errorf("%s: %d notes", sc.ID, len(sc.Transcript.Notes))
		}
		for _, n := range sc.Transcript.Notes {
			check("note", n, driver.MaxNoteBytes+contract.MaxClipMarker)
		}
	}
	if len(r.Scenarios) != len(all) || marked == 0 || !strings.HasSuffix(r.Orchestrator.Name, " more bytes]") {
		t.Errorf("%d scenarios of %d, %d texts cut with a marker, the orchestrator named %.40q...", len(r.Scenarios), len(all), marked, r.Orchestrator.Name)
	}
	return most
}

// worstCases is how the README's Bounds table states the worst-case
// report sizes of a run of all.
func worstCases(all []*scenarios.Scenario) string {
	most := 0
	for _, s := range all {
		most = max(most, suite.WorstScenarioJSON(s))
	}
	mb := func(n int) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	return fmt.Sprintf("report.json %s a scenario, %s a run of the %d default scenarios; JUnit %s; HTML %s",
		mb(most), mb(suite.WorstRunJSON(all)), len(all), mb(suite.WorstRunJUnit(all)), mb(htmlreport.WorstPage(all)))
}

// checkREADME checks that the README states the worst cases the bounds
// add up to.
func checkREADME(t *testing.T, all []*scenarios.Scenario) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := worstCases(all); !bytes.Contains(b, []byte(want)) {
		t.Errorf("the README's Bounds table does not say %q", want)
	}
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
