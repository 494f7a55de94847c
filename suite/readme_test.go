package suite_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeRows names the README's "How real clients score" rows that a
// golden scorecard backs, by the row's first cell.
var readmeRows = []struct{ label, golden string }{
	{"built-in reference", "testdata/reference.golden"},
	{"built-in naive", "testdata/naive.golden"},
	{"a2a-go v0.3.3", "testdata/adapters/a2a-go.golden"},
	{"@a2a-js/sdk 1.3.0", "testdata/adapters/a2a-js.golden"},
	{"Python stdlib (A2A 0.3)", "testdata/adapters/python.golden"},
	{"@google/adk 2.0.0 (RemoteA2AAgent)", "testdata/adapters/adk.golden"},
	{"beeai-framework 0.1.30 (A2AAgent)", "testdata/adapters/beeai.golden"},
	{"@mastra/core 1.71.0 (A2AAgent, 0.3)", "testdata/adapters/mastra.golden"},
	{"@mastra/core 1.71.0 (A2AAgent, 1.0)", "testdata/adapters/mastra-1.0.golden"},
	{"a2a-ai-provider 0.5.0-alpha.1 (AI SDK)", "testdata/adapters/ai-sdk.golden"},
	{"does nothing (refuses everything)", "testdata/do-nothing.golden"},
}

var (
	profileLine   = regexp.MustCompile(`^(\S+)\s+score\s+(\S+)\s+MUST (\d+/\d+)\s+conformant (yes|no)\s+not exercised (\d+)`)
	delegatedLine = regexp.MustCompile(`^delegations completed (\d+/\d+)`)
)

// readmeRow renders the table row of a golden scorecard: per profile
// (a2a-core, delegation-safety) the score, MUSTs passed and verdict, then
// the delegations completed and the not-exercised counts.
func readmeRow(label, golden string) (string, error) {
	f, err := os.Open(golden)
	if err != nil {
		return "", err
	}
	defer f.Close()
	prof := map[string][]string{}
	var delegated string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := profileLine.FindStringSubmatch(sc.Text()); m != nil {
			prof[m[1]] = m[2:]
		} else if m := delegatedLine.FindStringSubmatch(sc.Text()); m != nil {
			delegated = m[1]
		}
	}
	core, safety := prof["a2a-core"], prof["delegation-safety"]
	if core == nil || safety == nil || delegated == "" {
		return "", fmt.Errorf("%s: no scorecard header (a2a-core, delegation-safety, delegations completed)", golden)
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |",
		label, core[0], core[1], core[2], safety[0], safety[1], safety[2], delegated, core[3], safety[3]), sc.Err()
}

// TestReadmeClientTable keeps the README's client table equal to the
// goldens (rewrite with -update): the scores there are measured, not typed.
func TestReadmeClientTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	changed := false
	for _, r := range readmeRows {
		want, err := readmeRow(r.label, r.golden)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i, l := range lines {
			if !strings.HasPrefix(l, "| "+r.label+" |") {
				continue
			}
			found = true
			if l != want {
				if *update {
					lines[i], changed = want, true
				} else {
					t.Errorf("README row for %s is out of date (rewrite with -update):\n got: %s\nwant: %s", r.label, l, want)
				}
			}
		}
		if !found {
			t.Errorf("README has no table row starting %q", "| "+r.label+" |")
		}
	}
	if changed {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
