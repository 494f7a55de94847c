// Command tck gates a run of the official A2A TCK against vendor D
// (../shared/tck/run.sh, outside this project) on the project's list of
// expected failures, the way BoringSSL's test runner keeps a file of
// disabled tests with their reasons:
//
//	go build -o bin/tckgate ./tck
//	bin/tckgate [-expect tck/expected-failures.tsv] [-strict] -transport jsonrpc|http_json|grpc DIR/summary.tsv
//
// It reads the run's summary.tsv (one row per test: suite, outcome, node
// id, requirement, detail) and fails (exit 1) when
//
//   - a test FAILed that the expectations file does not list for this run
//     (an unexpected failure), or
//   - an entry of the file that applies to this run did not fail: the test
//     now passes, skips, or is gone (a stale entry, so the file cannot rot),
//     or
//   - a suite did not run (no count line for it, or no test passed or
//     failed in it).
//
// With -strict the expectations are ignored and every failure fails the
// run (the done-when: failed=0). Exit 2 is a usage or input error
// (unreadable or malformed files). Each finding is printed on its own line.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// Transports are the values of a run's TCK10_TRANSPORT that the gate
// knows: the three bindings of A2A 1.0.1 (§9 JSON-RPC, §10 gRPC, §11
// HTTP+JSON), spelled as the TCK's --transport option spells them. The
// 0.3 suite (tck03) runs over JSON-RPC in every run.
var Transports = []string{"jsonrpc", "http_json", "grpc"}

// Expectation is one line of the expected-failures file: a test that is
// known to fail against vendor D, and why D keeps its behaviour.
type Expectation struct {
	// Suite is the TCK suite: "tck10" or "tck03".
	Suite string
	// Transport is the run the entry applies to (TCK10_TRANSPORT: one
	// of Transports); "*" means every run.
	Transport string
	// NodeID is pytest's node id of the test, as summary.tsv has it.
	NodeID string
	// Reason says why the test fails and D is right, with the spec
	// section it rests on. It must not be empty.
	Reason string
	// Line is the entry's line in its file (for messages).
	Line int
}

// applies reports whether the entry is for the run over transport.
func (e Expectation) applies(transport string) bool {
	return e.Transport == "*" || e.Transport == transport
}

// Row is one test of a summary.tsv.
type Row struct {
	Suite, Outcome, NodeID, Requirement, Detail string
}

// Summary is a parsed summary.tsv.
type Summary struct {
	// Rows are the tests, in file order.
	Rows []Row
	// Counted are the suites with a count line ("# tck10: passed=...").
	Counted map[string]bool
	// Notes are the "# NOTE ..." header lines, without the prefix.
	Notes []string
}

// ReadExpectations parses an expected-failures file: tab-separated lines
// of suite, transport, node id and reason; blank lines and lines starting
// with # are ignored. A duplicate entry, an unknown transport or an empty
// field is an error.
func ReadExpectations(r io.Reader) ([]Expectation, error) {
	var out []Expectation
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields (suite, transport, node id, reason), got %d", n, len(f))
		}
		e := Expectation{Suite: f[0], Transport: f[1], NodeID: f[2], Reason: strings.TrimSpace(f[3]), Line: n}
		switch {
		case e.Suite != "tck10" && e.Suite != "tck03":
			return nil, fmt.Errorf("line %d: suite %q is not tck10 or tck03", n, e.Suite)
		case e.Transport != "*" && !knownTransport(e.Transport):
			return nil, fmt.Errorf("line %d: transport %q is not * or one of %s", n, e.Transport, strings.Join(Transports, ", "))
		case e.NodeID == "":
			return nil, fmt.Errorf("line %d: empty node id", n)
		case e.Reason == "":
			return nil, fmt.Errorf("line %d: %s has no reason", n, e.NodeID)
		}
		for _, tr := range Transports {
			if !e.applies(tr) {
				continue
			}
			key := e.Suite + "\t" + tr + "\t" + e.NodeID
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("line %d: %s (%s, %s) is already listed on line %d", n, e.NodeID, e.Suite, tr, prev)
			}
			seen[key] = n
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

func knownTransport(t string) bool {
	for _, k := range Transports {
		if t == k {
			return true
		}
	}
	return false
}

// countLine matches a suite's count header line in summary.tsv.
var countLine = regexp.MustCompile(`^# (tck10|tck03): passed=\d+ failed=\d+`)

// ReadSummary parses run.sh's summary.tsv: # header lines (counts, NOTEs),
// the column header, then one row per test with at least suite, outcome
// and node id.
func ReadSummary(r io.Reader) (*Summary, error) {
	s := &Summary{Counted: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	header := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "# NOTE "):
			s.Notes = append(s.Notes, strings.TrimPrefix(line, "# NOTE "))
			continue
		case strings.HasPrefix(line, "#"):
			if m := countLine.FindStringSubmatch(line); m != nil {
				s.Counted[m[1]] = true
			}
			continue
		case !header && strings.HasPrefix(line, "suite\toutcome\tnodeid"):
			header = true
			continue
		}
		f := strings.SplitN(line, "\t", 5)
		if len(f) < 3 || f[2] == "" {
			return nil, fmt.Errorf("summary line %d: want suite, outcome, node id, ...: %q", n, line)
		}
		for len(f) < 5 {
			f = append(f, "")
		}
		s.Rows = append(s.Rows, Row{Suite: f[0], Outcome: f[1], NodeID: f[2], Requirement: f[3], Detail: f[4]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !header {
		return nil, errors.New("summary has no column header line (suite, outcome, nodeid, ...)")
	}
	return s, nil
}

// Finding is one reason a run does not pass the gate.
type Finding struct {
	// Kind is "unexpected" (a failure the file does not list), "stale"
	// (a listed test that did not fail) or "missing" (a suite that did
	// not run).
	Kind string
	// Suite and NodeID name the test ("" for a missing suite).
	Suite, NodeID string
	// Text says what was seen.
	Text string
}

func (f Finding) String() string {
	switch f.Kind {
	case "unexpected":
		return fmt.Sprintf("UNEXPECTED FAIL %s %s: %s", f.Suite, f.NodeID, f.Text)
	case "stale":
		return fmt.Sprintf("STALE expected failure %s %s: %s (remove it from the expected-failures file)", f.Suite, f.NodeID, f.Text)
	}
	return fmt.Sprintf("MISSING %s: %s", f.Suite, f.Text)
}

// Result is the gate's verdict on one run.
type Result struct {
	// Failed counts the FAIL rows; Expected those the file lists.
	Failed, Expected int
	// Findings are what fails the gate, sorted; none means it passes.
	Findings []Finding
}

// Gate checks a run over transport against the expectations. With strict
// the expectations are ignored: every FAIL row is a finding.
func Gate(s *Summary, exp []Expectation, transport string, strict bool) Result {
	var res Result
	for _, suite := range []string{"tck10", "tck03"} {
		ran := false
		for _, r := range s.Rows {
			if r.Suite == suite && (r.Outcome == "PASS" || r.Outcome == "XPASS" || r.Outcome == "FAIL") {
				ran = true
				break
			}
		}
		switch {
		case !s.Counted[suite]:
			res.Findings = append(res.Findings, Finding{Kind: "missing", Suite: suite, Text: "no count line: the suite did not run"})
		case !ran:
			res.Findings = append(res.Findings, Finding{Kind: "missing", Suite: suite, Text: "no test passed or failed"})
		}
	}
	want := map[string]Expectation{}
	if !strict {
		for _, e := range exp {
			if e.applies(transport) {
				want[e.Suite+"\t"+e.NodeID] = e
			}
		}
	}
	outcome := map[string]string{}
	for _, r := range s.Rows {
		key := r.Suite + "\t" + r.NodeID
		outcome[key] = r.Outcome
		if r.Outcome != "FAIL" {
			continue
		}
		res.Failed++
		if _, ok := want[key]; ok {
			res.Expected++
			continue
		}
		res.Findings = append(res.Findings, Finding{Kind: "unexpected", Suite: r.Suite, NodeID: r.NodeID, Text: clip(r.Detail, 300)})
	}
	for key, e := range want {
		got, ok := outcome[key]
		switch {
		case !ok:
			res.Findings = append(res.Findings, Finding{Kind: "stale", Suite: e.Suite, NodeID: e.NodeID, Text: "not in this run's summary"})
		case got != "FAIL":
			res.Findings = append(res.Findings, Finding{Kind: "stale", Suite: e.Suite, NodeID: e.NodeID, Text: "now " + got})
		}
	}
	sort.Slice(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i], res.Findings[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Suite != b.Suite {
			return a.Suite < b.Suite
		}
		return a.NodeID < b.NodeID
	})
	return res
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit: 0 the run passes the gate, 1 it does not,
// 2 a usage or input error.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tckgate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	expect := fs.String("expect", "tck/expected-failures.tsv", "the expected-failures file")
	transport := fs.String("transport", "", "the run's TCK10_TRANSPORT: one of "+strings.Join(Transports, ", "))
	strict := fs.Bool("strict", false, "ignore the expected failures: any failure fails the run")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || !knownTransport(*transport) {
		fmt.Fprintf(stderr, "usage: tckgate [-expect FILE] [-strict] -transport %s SUMMARY.tsv\n", strings.Join(Transports, "|"))
		return 2
	}
	ef, err := os.Open(*expect)
	if err != nil {
		fmt.Fprintln(stderr, "tckgate:", err)
		return 2
	}
	exp, err := ReadExpectations(ef)
	ef.Close()
	if err != nil {
		fmt.Fprintf(stderr, "tckgate: %s: %v\n", *expect, err)
		return 2
	}
	sf, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "tckgate:", err)
		return 2
	}
	sum, err := ReadSummary(sf)
	sf.Close()
	if err != nil {
		fmt.Fprintf(stderr, "tckgate: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	for _, n := range sum.Notes {
		fmt.Fprintf(stdout, "tckgate (%s): note from the run: %s\n", *transport, n)
	}
	res := Gate(sum, exp, *transport, *strict)
	for _, f := range res.Findings {
		fmt.Fprintf(stdout, "tckgate (%s): %s\n", *transport, f)
	}
	mode := "expected failures from " + *expect
	if *strict {
		mode = "strict: no expected failures"
	}
	verdict := "passes"
	if len(res.Findings) > 0 {
		verdict = "FAILS"
	}
	fmt.Fprintf(stdout, "tckgate (%s): %s: %d failed, %d of them expected, %d findings (%s)\n", *transport, verdict, res.Failed, res.Expected, len(res.Findings), mode)
	if len(res.Findings) > 0 {
		return 1
	}
	return 0
}
