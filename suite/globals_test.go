package suite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// obs is one scenario's observation of G-JSONRPC.
func obs(scenario string, res scenarios.Outcome, detail string) CheckResult {
	c := cr(scenario+".G-JSONRPC", res, coreMust)
	c.Scenario, c.Detail = scenario, detail
	return c
}

func TestFoldGlobals(t *testing.T) {
	cases := []struct {
		name     string
		obs      []CheckResult
		baseline Baseline
		want     scenarios.Outcome
		detail   string
	}{
		{"one failure fails it, naming the scenario", []CheckResult{obs("A-001", scenarios.Pass, ""), obs("B-001", scenarios.Fail, "#3 bad")}, nil, scenarios.Fail, "B-001: #3 bad"},
		{"passes where exercised", []CheckResult{obs("A-001", scenarios.Pass, ""), obs("B-001", scenarios.NotExercised, "no call")}, nil, scenarios.Pass, "held in all 1 scenarios"},
		{"never exercised", []CheckResult{obs("A-001", scenarios.NotExercised, "no call"), obs("B-001", scenarios.NotApplicable, "n/a")}, nil, scenarios.NotExercised, "no scenario exercised it"},
		{"all not applicable", []CheckResult{obs("A-001", scenarios.NotApplicable, "n/a")}, nil, scenarios.NotApplicable, "n/a"},
		{"not applicable where reached beats not exercised", []CheckResult{obs("A-001", scenarios.NotExercised, "no call"), func() CheckResult {
			o := obs("B-001", scenarios.NotApplicable, "a 0.3 client")
			o.Engaged = true
			return o
		}()}, nil, scenarios.NotApplicable, "a 0.3 client"},
		{"not exercised beats a scenario without the situation", []CheckResult{obs("A-001", scenarios.NotApplicable, "no such endpoint"), obs("B-001", scenarios.NotExercised, "not reached")}, nil, scenarios.NotExercised, "not reached"},
		{"harness error without a verdict", []CheckResult{obs("A-001", scenarios.Error, "boom"), obs("B-001", scenarios.NotExercised, "")}, nil, scenarios.Error, "boom"},
		{"baseline waives it by its own id", []CheckResult{obs("A-001", scenarios.Fail, "bad")}, Baseline{"G-JSONRPC": "known"}, scenarios.Waived, "A-001: bad"},
		{"a per-scenario baseline entry does not", []CheckResult{obs("A-001", scenarios.Fail, "bad")}, Baseline{"A-001.G-JSONRPC": "old"}, scenarios.Fail, "A-001: bad"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var scens []ScenarioResult
			for _, o := range c.obs {
				scens = append(scens, ScenarioResult{ID: o.Scenario, Globals: []CheckResult{o}})
			}
			r := &Report{Scenarios: scens}
			r.Finish(c.baseline)
			if len(r.Checks) != 1 || r.Checks[0].ID != "G-JSONRPC" {
				t.Fatalf("checks = %+v, want one G-JSONRPC", r.Checks)
			}
			if got := r.Checks[0]; got.Result != c.want || !strings.Contains(got.Detail, c.detail) {
				t.Errorf("G-JSONRPC = %s (%q), want %s containing %q", got.Result, got.Detail, c.want, c.detail)
			}
		})
	}
}

// TestReadReportUpgradesV1: a v1 report (a global's result per scenario
// among the checks) is read, folded and scored under the v2 model.
func TestReadReportUpgradesV1(t *testing.T) {
	v1 := map[string]any{
		"schema": SchemaV1,
		"checks": []CheckResult{
			cr("CARD-002.URL", scenarios.Pass, coreMust),
			func() CheckResult { c := obs("CARD-002", scenarios.Pass, ""); return c }(),
			func() CheckResult { c := obs("BIND-004", scenarios.Fail, "bad"); return c }(),
		},
		"scenarios": []ScenarioResult{{ID: "CARD-002"}, {ID: "BIND-004"}},
	}
	b, _ := json.Marshal(v1)
	file := filepath.Join(t.TempDir(), "v1.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadReport(file)
	if err != nil {
		t.Fatal(err)
	}
	if r.Schema != Schema || len(r.Checks) != 2 || r.Checks[1].ID != "G-JSONRPC" || r.Checks[1].Result != scenarios.Fail {
		t.Fatalf("upgraded report: schema %s, checks %+v", r.Schema, r.Checks)
	}
	if r.Profiles[scenarios.Core].Conformant {
		t.Error("a failed global left the profile conformant")
	}
}
