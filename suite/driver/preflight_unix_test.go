//go:build unix

package driver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestExecPreflight checks the exec driver's pre-flight check on real
// files: a missing path, a missing bare name, a directory, a file without
// execute permission, and programs that exist.
func TestExecPreflight(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noExec := filepath.Join(dir, "orch.sh")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		spec    string
		wantErr string
	}{
		{"missing relative path", "exec:./bin/does-not-exist --flag", "program " + filepath.Join(mustWd(t), "bin/does-not-exist") + " does not exist"},
		{"missing bare name", "exec:a2a-conform-no-such-program", `program "a2a-conform-no-such-program" not found in PATH`},
		{"directory", "exec:" + dir, "is a directory"},
		{"not executable", "exec:" + noExec, "is not executable"},
		{"executable path", "exec:" + self + " -test.run=none", ""},
		{"bare name in PATH", "exec:sh -c true", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := driver.Parse(tc.spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = driver.Preflight(context.Background(), d)
			t.Logf("%v", err)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Preflight: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Preflight = %v, want an error containing %q", err, tc.wantErr)
			case err != nil && (strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "orchestrator exec:")):
				t.Fatalf("error is not one line naming the orchestrator: %q", err)
			}
		})
	}
}

func mustWd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
