package suite_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	{"a2a-sdk 1.3.0 (Python)", "testdata/adapters/a2a-sdk.golden"},
	{"a2a-sdk 1.3.0 (Python, gRPC enabled)", "testdata/adapters/a2a-sdk-grpc.golden"},
	{"google-adk 2.13.0 (Python, RemoteA2aAgent)", "testdata/adapters/adk-python.golden"},
	{"strands-agents 1.62.0 (Python, A2AAgent)", "testdata/adapters/strands.golden"},
	{"does nothing (refuses everything)", "testdata/do-nothing.golden"},
}

var (
	profileLine   = regexp.MustCompile(`^(\S+)\s+score\s+(\S+)\s+MUST (\d+/\d+)\s+conformant (yes|no)\s+not exercised (\d+)(?:\s+judged A2A (\S+))?`)
	delegatedLine = regexp.MustCompile(`^delegations completed (\d+/\d+)`)
)

// judged is a2a-core's verdict with the A2A versions it judged ("yes
// (0.3)"), as the scorecard names them.
func judged(core []string) string {
	if len(core) > 4 && core[4] != "" {
		return core[2] + " (" + strings.ReplaceAll(core[4], ",", ", ") + ")"
	}
	return core[2]
}

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
		label, core[0], core[1], judged(core), safety[0], safety[1], safety[2], delegated, core[3], safety[3]), sc.Err()
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

// coreFailureEntry is one a2a-core failure as a golden records it.
type coreFailureEntry struct{ id, clause, saw, reproduce string }

// goldenCoreFailures reads a golden scorecard: its a2a-core line and the
// a2a-core failures with their clause, detail and reproduce command.
func goldenCoreFailures(golden string) (core []string, fails []coreFailureEntry, err error) {
	b, err := os.ReadFile(golden)
	if err != nil {
		return nil, nil, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m := profileLine.FindStringSubmatch(l); m != nil && m[1] == "a2a-core" {
			core = m[2:]
			continue
		}
		if !strings.HasPrefix(l, "  ") {
			if id, result, ok := strings.Cut(l, " "); ok && result == "FAIL" {
				fails = append(fails, coreFailureEntry{id: id})
			}
			continue
		}
		field, value, ok := strings.Cut(l[2:], ": ")
		if !ok || len(fails) == 0 {
			continue
		}
		f := &fails[len(fails)-1]
		switch field {
		case "clause":
			f.clause = value
		case "saw":
			f.saw = value
		case "reproduce":
			f.reproduce = value
		}
	}
	if core == nil {
		return nil, nil, fmt.Errorf("%s: no a2a-core scorecard line", golden)
	}
	// Only the FAIL lines a clause line follows are a2a-core failures.
	return core, slices.DeleteFunc(fails, func(f coreFailureEntry) bool { return f.saw == "" }), nil
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// realClientsDoc renders docs/real-clients.md from the real clients'
// goldens.
func realClientsDoc() (string, error) {
	var b strings.Builder
	b.WriteString("# What the real clients break in a2a-core\n\n" +
		"<!-- Generated from suite/testdata/adapters/*.golden by\n" +
		"     go test ./suite -run TestRealClientsDoc -update; do not edit. -->\n\n" +
		"For each client in the README's table, every a2a-core failure: the A2A\n" +
		"clause that binds the client (with the level the clause gives), what the\n" +
		"fleet saw the client do, and the command that starts the fleet as the\n" +
		"scenario sets it up, so the client's maintainers can point the client at it\n" +
		"(`a2a-conform explain ID` prints the whole requirement and its sources).\n" +
		"The clients run through the adapters in `examples/adapters/`, which do\n" +
		"what each library does by default.\n")
	for _, r := range readmeRows {
		if !strings.HasPrefix(r.golden, filepath.Join("testdata", "adapters")) {
			continue
		}
		core, fails, err := goldenCoreFailures(r.golden)
		if err != nil {
			return "", err
		}
		conformant := "not conformant"
		if core[2] == "yes" {
			conformant = "conformant"
		}
		profile := "a2a-core"
		if len(core) > 4 && core[4] != "" {
			profile += " (A2A " + strings.ReplaceAll(core[4], ",", ", ") + ")"
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s score %s, MUST %s, %s (golden: `suite/%s`).\n\n", r.label, profile, core[0], core[1], conformant, filepath.ToSlash(r.golden))
		if len(fails) == 0 {
			if core[2] != "yes" {
				fmt.Fprintf(&b, "No a2a-core failure: the verdict is held back by %s requirement(s) the client never reached (NOT_EXERCISED in its golden).\n", core[3])
			} else {
				b.WriteString("No a2a-core failure.\n")
			}
			continue
		}
		b.WriteString("| check | the clause it breaks | what the fleet saw | reproduce |\n|---|---|---|---|\n")
		for _, f := range fails {
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", f.id, mdCell(f.clause), mdCell(f.saw), mdCell(f.reproduce))
		}
	}
	return b.String(), nil
}

// TestRealClientsDoc keeps docs/real-clients.md equal to what the goldens
// say (rewrite with -update).
func TestRealClientsDoc(t *testing.T) {
	got, err := realClientsDoc()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "real-clients.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (rewrite with go test ./suite -run TestRealClientsDoc -update)", err)
	}
	if string(want) != got {
		t.Errorf("docs/real-clients.md is out of date (rewrite with go test ./suite -run TestRealClientsDoc -update):\n%s", lineDiff(string(want), got))
	}
}
