package main

import (
	"strings"
	"testing"
)

// TestSelectionCommands checks the test-tool habits of the CLI: what a
// filter selects, before a run (list --label-filter, run --dry-run); ids
// in any case; the profiles' short and long names.
func TestSelectionCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		code    int
		want    []string // each on stdout (or stderr for a non-zero exit)
		notWant []string
	}{
		{"list a filter", []string{"list", "--label-filter", "card-001 && MUST"}, 0,
			[]string{"CARD-001.REFETCH", "CARD-001.ROUTE", "1 scenarios,"}, []string{"CARD-001.BOUNDED", "CARD-002"}},
		{"list a filter that selects nothing", []string{"list", "--label-filter", "no-such-label"}, 2,
			[]string{"selects no check"}, nil},
		{"dry run with a short profile name", []string{"run", "--dry-run", "--profile", "core", "--label-filter", "IFACE-005"}, 0,
			[]string{"IFACE-005.TENANT", "a2a-core MUST"}, []string{"G-NO-ESCAPE", "CARD-001"}},
		{"dry run of a shard", []string{"run", "--dry-run", "--shard", "1/40"}, 0,
			[]string{"CARD-001.REFETCH"}, []string{"CARD-002"}},
		{"an unknown profile", []string{"run", "--dry-run", "--profile", "strict"}, 2,
			[]string{"unknown profile \"strict\""}, nil},
		{"explain in lower case", []string{"explain", "card-001.refetch"}, 0,
			[]string{"CARD-001.REFETCH [delegation-safety MUST]"}, nil},
		{"fleet up print-config in lower case", []string{"fleet", "up", "--scenario", "card-001", "--print-config"}, 0,
			[]string{"vendors"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tc.code, r.stdout, r.stderr)
			}
			out := r.stdout
			if tc.code != 0 {
				out = r.stderr
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
