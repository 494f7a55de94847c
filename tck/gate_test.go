package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gFindings renders a result's findings as "kind suite node" strings.
func gFindings(res Result) []string {
	out := []string{}
	for _, f := range res.Findings {
		out = append(out, strings.TrimSpace(f.Kind+" "+f.Suite+" "+f.NodeID))
	}
	return out
}

func gLoad(t *testing.T) (*Summary, []Expectation) {
	t.Helper()
	sf, err := os.Open("testdata/summary-fixture.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	s, err := ReadSummary(sf)
	if err != nil {
		t.Fatalf("ReadSummary: %v", err)
	}
	ef, err := os.Open("testdata/expect-fixture.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	exp, err := ReadExpectations(ef)
	if err != nil {
		t.Fatalf("ReadExpectations: %v", err)
	}
	return s, exp
}

// TestGate runs the gate over a fixture summary (no shared/ needed): per
// transport, which failures are unexpected and which entries are stale,
// and -strict ignoring the file.
func TestGate(t *testing.T) {
	s, exp := gLoad(t)
	if len(s.Rows) != 10 || !s.Counted["tck10"] || !s.Counted["tck03"] || len(s.Notes) != 1 {
		t.Fatalf("summary parsed as %d rows, counted %v, notes %q", len(s.Rows), s.Counted, s.Notes)
	}
	for _, tc := range []struct {
		name      string
		transport string
		strict    bool
		failed    int
		expected  int
		findings  []string
	}{
		{"jsonrpc", "jsonrpc", false, 3, 2, []string{
			"stale tck10 tests/a.py::test_fixed",   // listed for jsonrpc, now PASS
			"stale tck10 tests/a.py::test_skipped", // listed, now SKIP
			"unexpected tck10 tests/a.py::test_new[jsonrpc]",
		}},
		{"http_json", "http_json", false, 3, 2, []string{
			"stale tck10 tests/a.py::test_rest_only", // listed for http_json, not in the run
			"unexpected tck10 tests/a.py::test_new[jsonrpc]",
		}},
		{"grpc", "grpc", false, 3, 2, []string{
			"stale tck10 tests/a.py::test_grpc", // listed for grpc, N/A in this summary
			"unexpected tck10 tests/a.py::test_new[jsonrpc]",
		}},
		{"strict", "jsonrpc", true, 3, 0, []string{
			"unexpected tck03 tests/b.py::test_notification",
			"unexpected tck10 tests/a.py::test_expected",
			"unexpected tck10 tests/a.py::test_new[jsonrpc]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Gate(s, exp, tc.transport, tc.strict)
			if res.Failed != tc.failed || res.Expected != tc.expected {
				t.Errorf("failed %d expected %d, want %d and %d", res.Failed, res.Expected, tc.failed, tc.expected)
			}
			if got := gFindings(res); !reflect.DeepEqual(got, tc.findings) {
				t.Errorf("findings\n got %q\nwant %q", got, tc.findings)
			}
		})
	}
}

// TestGateClean is a run whose failures are all listed and whose listed
// tests all failed: no finding.
func TestGateClean(t *testing.T) {
	s, _ := gLoad(t)
	exp := []Expectation{
		{Suite: "tck10", Transport: "jsonrpc", NodeID: "tests/a.py::test_expected", Reason: "r"},
		{Suite: "tck10", Transport: "*", NodeID: "tests/a.py::test_new[jsonrpc]", Reason: "r"},
		{Suite: "tck03", Transport: "*", NodeID: "tests/b.py::test_notification", Reason: "r"},
	}
	res := Gate(s, exp, "jsonrpc", false)
	if len(res.Findings) != 0 || res.Failed != 3 || res.Expected != 3 {
		t.Fatalf("got %+v", res)
	}
}

// TestGateGRPC is a run over gRPC: an entry for grpc or * applies, one
// for another transport does not (neither expected nor stale), and
// -transport grpc is accepted by the command.
func TestGateGRPC(t *testing.T) {
	const summary = "# tck10: passed=1 failed=2 skipped=0\n# tck03: passed=1 failed=0 skipped=0\n" +
		"suite\toutcome\tnodeid\trequirement\tdetail\n" +
		"tck10\tFAIL\tt::status[grpc]\tGRPC-ERR-001\tgot UNKNOWN\n" +
		"tck10\tFAIL\tt::card\tCARD-STRUCT-001\tschema\n" +
		"tck10\tPASS\tt::send[grpc]\tCORE-SEND-001\t\n" +
		"tck10\tN/A\tt::send[jsonrpc]\tCORE-SEND-001\tother transport\n" +
		"tck03\tPASS\tt::b\t\t\n"
	const expect = "tck10\tgrpc\tt::status[grpc]\tr §10.6\n" +
		"tck10\t*\tt::card\tr §5.7\n" +
		"tck10\thttp_json\tt::send[http_json]\tr §11\n" +
		"tck10\tjsonrpc\tt::send[jsonrpc]\tr §9\n"
	s, err := ReadSummary(strings.NewReader(summary))
	if err != nil {
		t.Fatal(err)
	}
	exp, err := ReadExpectations(strings.NewReader(expect))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		transport string
		expected  int
		findings  []string
	}{
		{"grpc", 2, []string{}},
		{"jsonrpc", 1, []string{"stale tck10 t::send[jsonrpc]", "unexpected tck10 t::status[grpc]"}},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			res := Gate(s, exp, tc.transport, false)
			if res.Failed != 2 || res.Expected != tc.expected {
				t.Errorf("failed %d expected %d, want 2 and %d", res.Failed, res.Expected, tc.expected)
			}
			if got := gFindings(res); !reflect.DeepEqual(got, tc.findings) {
				t.Errorf("findings\n got %q\nwant %q", got, tc.findings)
			}
		})
	}
	dir := t.TempDir()
	ef, sf := filepath.Join(dir, "expect.tsv"), filepath.Join(dir, "summary.tsv")
	if err := os.WriteFile(ef, []byte(expect), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sf, []byte(summary), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		transport string
		code      int
		out       string
	}{
		{"grpc", 0, "tckgate (grpc): passes: 2 failed, 2 of them expected, 0 findings"},
		{"websocket", 2, ""},
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"-expect", ef, "-transport", tc.transport, sf}, &out, &errb); code != tc.code {
			t.Errorf("-transport %s: exit %d, want %d\nstdout: %s\nstderr: %s", tc.transport, code, tc.code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), tc.out) {
			t.Errorf("-transport %s: stdout lacks %q:\n%s", tc.transport, tc.out, out.String())
		}
		if tc.code == 2 && !strings.Contains(errb.String(), "jsonrpc|http_json|grpc") {
			t.Errorf("-transport %s: usage does not name grpc: %s", tc.transport, errb.String())
		}
	}
}

// TestGateMissingSuite: a suite with no count line, or with nothing that
// passed or failed, did not run, whatever the expectations say.
func TestGateMissingSuite(t *testing.T) {
	for _, tc := range []struct {
		name, summary string
		want          []string
	}{
		{"no tck03 count line", "# tck10: passed=1 failed=0 skipped=0\nsuite\toutcome\tnodeid\trequirement\tdetail\ntck10\tPASS\tt::a\t\t\n",
			[]string{"missing tck03"}},
		{"tck03 only skipped", "# tck10: passed=1 failed=0 skipped=0\n# tck03: passed=0 failed=0 skipped=1\nsuite\toutcome\tnodeid\trequirement\tdetail\ntck10\tPASS\tt::a\t\t\ntck03\tSKIP\tt::b\t\tno\n",
			[]string{"missing tck03"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadSummary(strings.NewReader(tc.summary))
			if err != nil {
				t.Fatal(err)
			}
			if got := gFindings(Gate(s, nil, "jsonrpc", false)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadExpectationsErrors: malformed lines are errors, with the line.
func TestReadExpectationsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"three fields", "tck10\tjsonrpc\tt::a\n", "line 1: want 4"},
		{"unknown suite", "tck09\tjsonrpc\tt::a\tr\n", `suite "tck09"`},
		{"unknown transport", "tck10\twebsocket\tt::a\tr\n", `transport "websocket" is not * or one of jsonrpc, http_json, grpc`},
		{"empty node id", "tck10\tjsonrpc\t\tr\n", "empty node id"},
		{"empty reason", "# c\ntck10\tjsonrpc\tt::a\t \n", "line 2: t::a has no reason"},
		{"duplicate through *", "tck10\tjsonrpc\tt::a\tr\ntck10\t*\tt::a\tr\n", "line 2: t::a (tck10, jsonrpc) is already listed on line 1"},
		{"grpc duplicate through *", "tck10\tgrpc\tt::a\tr\ntck10\t*\tt::a\tr\n", "line 2: t::a (tck10, grpc) is already listed on line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadExpectations(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	if _, err := ReadSummary(strings.NewReader("# tck10: passed=1 failed=0\ntck10\tPASS\tt::a\n")); err == nil {
		t.Error("a summary without its column header parsed")
	}
	if _, err := ReadSummary(strings.NewReader("suite\toutcome\tnodeid\ntck10\tPASS\n")); err == nil {
		t.Error("a row without a node id parsed")
	}
}

// TestCommittedExpectations: the project's own file parses and every
// reason cites what it rests on (a spec section or the TCK's scenario SUT).
func TestCommittedExpectations(t *testing.T) {
	f, err := os.Open("expected-failures.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	exp, err := ReadExpectations(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(exp) == 0 {
		t.Fatal("no entries")
	}
	for _, e := range exp {
		if !strings.Contains(e.Reason, "§") && !strings.Contains(e.Reason, "scenario SUT") {
			t.Errorf("line %d (%s): the reason cites no clause: %s", e.Line, e.NodeID, e.Reason)
		}
	}
}

// TestRunExitCodes drives the command: 1 when the gate fails, 0 when it
// holds, 2 for a usage or input error.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.tsv")
	if err := os.WriteFile(clean, []byte("tck10\t*\ttests/a.py::test_expected\tr §1\ntck10\t*\ttests/a.py::test_new[jsonrpc]\tr §2\ntck03\t*\ttests/b.py::test_notification\tr §3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := "testdata/summary-fixture.tsv"
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"stale and unexpected", []string{"-expect", "testdata/expect-fixture.tsv", "-transport", "jsonrpc", sum}, 1, "UNEXPECTED FAIL tck10 tests/a.py::test_new[jsonrpc]"},
		{"clean", []string{"-expect", clean, "-transport", "jsonrpc", sum}, 0, "passes: 3 failed, 3 of them expected, 0 findings"},
		{"strict", []string{"-expect", clean, "-strict", "-transport", "jsonrpc", sum}, 1, "FAILS: 3 failed, 0 of them expected, 3 findings (strict"},
		{"no transport", []string{"-expect", clean, sum}, 2, ""},
		{"no summary", []string{"-expect", clean, "-transport", "jsonrpc", filepath.Join(dir, "none.tsv")}, 2, ""},
		{"bad expectations", []string{"-expect", sum, "-transport", "jsonrpc", sum}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out.String())
			}
		})
	}
}
