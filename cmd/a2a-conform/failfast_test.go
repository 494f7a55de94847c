package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunFailsFast checks the configuration errors that must stop run
// before any scenario: exit 2, nothing on stdout, one plain line (no ANSI
// escapes: stderr is a pipe here) naming the cause, and no time spent.
func TestRunFailsFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String() // nothing listens once closed
	l.Close()
	dir := t.TempDir()
	notExec := filepath.Join(dir, "orch.sh")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type failCase struct {
		name    string
		args    []string
		want    string        // in the one line on stderr
		atLeast time.Duration // the run waited this long (a grace)
	}
	var extra []failCase
	if st, err := os.Stat("/proc/self"); err == nil && st.IsDir() {
		// A directory nobody can create files in, root included (the tests
		// may run as root, for whom a mode 0555 directory is writable).
		extra = append(extra, failCase{"report in an unwritable directory", []string{"--junit-report", "/proc/junit.xml"},
			"--junit-report /proc/junit.xml: cannot write in /proc:", 0})
	}
	for _, tc := range append([]failCase{
		{"nothing listening", []string{"--orchestrator", "http://127.0.0.1:1/a2a-conform"},
			"a2a-conform: orchestrator http://127.0.0.1:1/a2a-conform: not reachable: dial tcp 127.0.0.1:1: connect: connection refused", 0},
		{"nothing listening within the startup grace", []string{"--orchestrator", "http://" + closed + "/x", "--startup-grace", "600ms"},
			"not reachable", 500 * time.Millisecond},
		{"missing program", []string{"--orchestrator", "exec:./bin/does-not-exist --x"},
			"/bin/does-not-exist does not exist", 0},
		{"missing bare name", []string{"--orchestrator", "exec:a2a-conform-no-such-orch"},
			`program "a2a-conform-no-such-orch" not found in PATH`, 0},
		{"not executable", []string{"--orchestrator", "exec:" + notExec},
			"is not executable", 0},
		{"label filter syntax", []string{"--label-filter", "CARD-001 &&"},
			`a2a-conform: --label-filter "CARD-001 &&": syntax error: Unexpected EOF.`, 0},
		{"label filter paren", []string{"--label-filter", "(CARD-001 || STREAM-001"},
			"syntax error: Mismatched '('", 0},
		{"negative deadline", []string{"--deadline", "-5s"}, "--deadline -5s: must not be negative", 0},
		{"report in a missing directory", []string{"--json-report", filepath.Join(dir, "no-such-dir", "r.json")},
			"--json-report " + filepath.Join(dir, "no-such-dir", "r.json") + ": cannot write in " + filepath.Join(dir, "no-such-dir") + ": no such file or directory", 0},
		{"report path is a directory", []string{"--html-report", dir}, "--html-report " + dir + ": is a directory", 0},
		{"bad duration", []string{"--hello-timeout", "soon"}, `invalid value "soon" for flag -hello-timeout`, 0},
		{"bad seed", []string{"--seed", "soon"}, `invalid value "soon" for flag -seed`, 0},
	}, extra...) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			r := runCLI(t, append([]string{"run"}, tc.args...)...)
			took := time.Since(start)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout not empty: a run started?\n%s", r.stdout)
			}
			if strings.Contains(r.stderr, "\x1b") {
				t.Errorf("ANSI escapes on a pipe: %q", r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tc.want)
			}
			if !strings.HasPrefix(tc.name, "bad ") && strings.Count(strings.TrimRight(r.stderr, "\n"), "\n") != 0 {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
			if took < tc.atLeast || took > 10*time.Second {
				t.Errorf("took %v, want at least %v and no whole run", took, tc.atLeast)
			}
		})
	}
}

// TestHelp checks that -h on every subcommand exits 0 and shows its flags
// or its usage (run: the timing flags too), and that a bad flag is exit 2.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "-h"}, []string{"-hello-timeout duration", "(default 2s)", "-startup-grace duration", "-deadline duration", "-label-filter"}},
		{[]string{"-h"}, []string{"--startup-grace"}}, // the top-level usage, on stdout
		{[]string{"list", "-h"}, nil},
		{[]string{"certs", "-h"}, []string{"-out"}},
		{[]string{"fleet", "up", "-h"}, []string{"-addr-file"}},
		{[]string{"soak", "-h"}, []string{"-delegations"}},
		{[]string{"report", "merge", "-h"}, []string{"-json-report"}},
		{[]string{"report", "-h"}, []string{"report merge"}},
		{[]string{"explain", "-h"}, []string{"usage: a2a-conform explain ID"}},
		{[]string{"score", "-h"}, []string{"usage: a2a-conform score REPORT.json"}},
		{[]string{"version", "-h"}, []string{"Usage of version"}},
		{[]string{"fleet", "-h"}, []string{"fleet up -h"}},
		{[]string{"help"}, []string{"usage:"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, tc.args...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			for _, f := range tc.want {
				if !strings.Contains(r.stderr+r.stdout, f) {
					t.Errorf("%v does not show %q:\n%s%s", tc.args, f, r.stdout, r.stderr)
				}
			}
		})
	}
	if r := runCLI(t, "list", "--no-such-flag"); r.code != 2 || !strings.Contains(r.stderr, "flag provided but not defined") {
		t.Errorf("bad flag: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestRunTimingFlags runs one scenario against an exec orchestrator that
// never answers hello, with --hello-timeout and --deadline, and finds both
// in the report's transcript.
func TestRunTimingFlags(t *testing.T) {
	t.Parallel()
	_, hang := built(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	r := runCLI(t, "run", "--orchestrator", "exec:"+hang+" -answer 100 -count "+filepath.Join(dir, "count"),
		"--label-filter", "CARD-001", "--hello-timeout", "150ms", "--deadline", "3s", "--json-report", report)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (hangorch fails every delegation)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	rep := readReport(t, report)
	if len(rep.Scenarios) == 0 {
		t.Fatal("no scenario in the report")
	}
	notes := strings.Join(rep.Scenarios[0].Transcript.Notes, "\n")
	for _, want := range []string{"hello: no answer within 150ms", "deadlineMs 20000 of the requests replaced by 3000"} {
		if !strings.Contains(notes, want) {
			t.Errorf("transcript notes lack %q:\n%s", want, notes)
		}
	}
}

// TestExplainAnyCase checks that explain finds ids in any case, as the
// label filter does, and that an unknown id is exit 2.
func TestExplainAnyCase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id   string
		code int
		want string
	}{
		{"CARD-001.REFETCH", 0, "CARD-001.REFETCH ["},
		{"card-001.refetch", 0, "CARD-001.REFETCH ["},
		{"Card-001", 0, "CARD-001 "},
		{"card-999", 2, `no scenario or check "card-999"`},
	} {
		r := runCLI(t, "explain", tc.id)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("explain %s: exit %d, want %d with %q:\n%s%s", tc.id, r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
	}
}
