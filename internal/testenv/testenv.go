// Package testenv holds the test helpers that decide whether a test's
// outside prerequisites (node and npm packages, python3, Chromium) are
// there. A missing one skips the test on a developer's machine, and fails
// it when the named environment variable is "1", as make test sets them, so
// CI cannot pass by skipping.
package testenv

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// Need reports a missing prerequisite: t is skipped, or fails when the
// environment variable env is "1". msg says what is missing and how to get it.
func Need(t testing.TB, env, msg string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		t.Fatalf("%s (%s=1 makes this a failure)", msg, env)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, env)
}

// Program returns the path of the first of names that exists, as a path
// or on PATH; if none does, it calls Need with hint.
func Program(t testing.TB, env, hint string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	Need(t, env, hint)
	return ""
}

// File checks that path exists; if not, it calls Need with hint.
func File(t testing.TB, env, path, hint string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Need(t, env, path+" is missing: "+hint)
	}
}

// ArtifactDir is where a test saves files for people to look at (browser
// screenshots): $A2A_CONFORM_ARTIFACTS, created if needed, or else the
// test's temporary directory.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("A2A_CONFORM_ARTIFACTS")
	if d == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// Chromium returns the headless browser the browser tests drive (Debian's
// chromium package), per Program with A2A_CONFORM_REQUIRE_CHROMIUM.
func Chromium(t testing.TB) string {
	t.Helper()
	return Program(t, "A2A_CONFORM_REQUIRE_CHROMIUM", "headless Chromium is needed: apt-get update && apt-get install -y chromium",
		"/usr/bin/chromium", "chromium", "/usr/bin/chromium-browser")
}

// JSONReaders reads the JSON file with Python's json module and with jq,
// each at its defaults (Python's recursion limit, jq's parsing depth), and
// fails t when either cannot. A reader that is not installed is logged and
// left out, or fails t when A2A_CONFORM_REQUIRE_PYTHON is "1" (CI installs
// both: .ci/run).
func JSONReaders(t testing.TB, file string) {
	t.Helper()
	readers := []struct {
		prog string
		args []string
	}{
		{"python3", []string{"-c", "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))", file}},
		{"jq", []string{"empty", file}},
	}
	for _, r := range readers {
		p, err := exec.LookPath(r.prog)
		if err != nil {
			msg := r.prog + " is needed to read the report: apt-get install -y " + r.prog
			if os.Getenv("A2A_CONFORM_REQUIRE_PYTHON") == "1" {
				t.Errorf("%s (A2A_CONFORM_REQUIRE_PYTHON=1 makes this a failure)", msg)
			} else {
				t.Logf("%s; not read with it", msg)
			}
			continue
		}
		if out, err := exec.Command(p, r.args...).CombinedOutput(); err != nil {
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			last := lines[len(lines)-1] // Python's exception, jq's parse error
			if len(last) > 300 {
				last = last[:300] + "..."
			}
			t.Errorf("%s cannot read %s: %v: %s", r.prog, file, err, last)
		}
	}
}

// JSONDepth is the deepest nesting of arrays and objects in the JSON text
// b, read by a streaming parser (which has no depth limit to stop at); t
// fails when b is not JSON.
func JSONDepth(t testing.TB, b []byte) int {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	most := 0
	for {
		if _, err := dec.ReadToken(); err != nil {
			if err != io.EOF {
				t.Fatalf("reading the JSON: %v", err)
			}
			return most
		}
		most = max(most, dec.StackDepth())
	}
}

// Long skips a test under go test -short (make test-short, the inner
// loop) saying what it would have run and where it does run: make test
// and CI run every test.
func Long(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s (make test runs it)", what)
	}
}
