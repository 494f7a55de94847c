// Package testenv holds the test helpers that decide whether a test's
// outside prerequisites (node and npm packages, python3, Chromium) are
// there. A missing one skips the test on a developer's machine, and fails
// it when the named environment variable is "1", as make test sets them, so
// CI cannot pass by skipping.
package testenv

import (
	"os"
	"os/exec"
	"testing"
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
