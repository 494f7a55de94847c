package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// The GitHub Action (action.yml at the repository root) builds the CLI and
// runs .github/action/run.sh. GitHub itself is not here, so these tests
// hold the action's file to its script and run the script as the action's
// last step would, with the inputs in the environment.

// actionFile is what the tests read of action.yml.
type actionFile struct {
	Inputs  map[string]struct{ Required bool } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }  `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID  string            `yaml:"id"`
			Run string            `yaml:"run"`
			Env map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func TestActionFileMatchesItsScript(t *testing.T) {
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	script, err := os.ReadFile("../../.github/action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" || !a.Inputs["orchestrator"].Required {
		t.Errorf("action.yml: runs.using %q, orchestrator required %v", a.Runs.Using, a.Inputs["orchestrator"].Required)
	}
	var run *struct {
		ID  string            `yaml:"id"`
		Run string            `yaml:"run"`
		Env map[string]string `yaml:"env"`
	}
	for i := range a.Runs.Steps {
		if a.Runs.Steps[i].ID == "run" {
			run = &a.Runs.Steps[i]
		}
	}
	if run == nil || !strings.Contains(run.Run, ".github/action/run.sh") {
		t.Fatal("no step with id run calls .github/action/run.sh")
	}
	// Every input reaches the script through the environment, and no step
	// splices an input into shell text.
	for name := range a.Inputs {
		if name == "go-version" {
			continue
		}
		v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if run.Env[v] != "${{ inputs."+name+" }}" {
			t.Errorf("input %s does not reach the script as %s", name, v)
		}
		if !strings.Contains(string(script), v) {
			t.Errorf("run.sh never reads %s", v)
		}
	}
	for _, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("a step splices an expression into shell: %q", s.Run)
		}
	}
	if a.Outputs["exit-code"].Value != "${{ steps.run.outputs.exit-code }}" {
		t.Errorf("output exit-code is %q", a.Outputs["exit-code"].Value)
	}
}

// TestActionScript runs the action's script against the built-in
// orchestrators: exit code, GITHUB_OUTPUT and the three reports.
func TestActionScript(t *testing.T) {
	cli, _ := built(t)
	script, err := filepath.Abs("../../.github/action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		env  []string
		code int
	}{
		{"reference is conformant", []string{"INPUT_ORCHESTRATOR=builtin:reference", "INPUT_LABEL_FILTER=CARD-002 || CARD-004"}, 0},
		{"naive is not", []string{"INPUT_ORCHESTRATOR=builtin:naive", "INPUT_PROFILE=delegation-safety, a2a-core", "INPUT_LABEL_FILTER=CARD-004"}, 1},
		{"a shard of the reference", []string{"INPUT_ORCHESTRATOR=builtin:reference", "INPUT_SHARD=2/8", "INPUT_LABEL_FILTER=CARD-002 || PROBE-001 || STREAM-001"}, 0},
		{"no orchestrator is a configuration error", []string{"INPUT_ORCHESTRATOR="}, 2},
		{"an input cannot inject shell", []string{"INPUT_ORCHESTRATOR=builtin:reference; touch INJECTED"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "github-output")
			cmd := exec.Command("bash", script)
			cmd.Dir = dir
			cmd.Env = append(append(os.Environ(), "A2A_CONFORM_BIN="+cli, "GITHUB_OUTPUT="+out, "INPUT_REPORTS=reports"), c.env...)
			b, err := cmd.CombinedOutput()
			code := exitCodeOf(t, err)
			if code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, b)
			}
			if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
				t.Fatal("an input ran as shell")
			}
			if c.code == 2 {
				return
			}
			// The outputs say what the JSON report says.
			rep := readReport(t, filepath.Join(dir, "reports", "report.json"))
			lines := []string{"exit-code=" + strconv.Itoa(c.code)}
			var conf []string
			for _, p := range scenarios.Profiles {
				ps := rep.Profiles[p]
				lines = append(lines, fmt.Sprintf("score-%s=%.1f", p, ps.Score))
				yes := "no"
				if ps.Conformant {
					yes = "yes"
				}
				conf = append(conf, string(p)+"="+yes)
			}
			got, _ := os.ReadFile(out)
			want := strings.Join(append(lines, "conformant="+strings.Join(conf, " ")), "\n")
			if strings.TrimSpace(string(got)) != want {
				t.Errorf("GITHUB_OUTPUT =\n%s\nwant\n%s", got, want)
			}
			if c.code == 0 && !strings.Contains(string(b), "a2a-conform scorecard: builtin:reference") {
				t.Errorf("the step log lacks the scorecard:\n%s", b)
			}
			for _, f := range []string{"report.json", "junit.xml", "report.html"} {
				if st, err := os.Stat(filepath.Join(dir, "reports", f)); err != nil || st.Size() == 0 {
					t.Errorf("reports/%s: %v", f, err)
				}
			}
		})
	}
}
