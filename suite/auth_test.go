package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// TestReportHoldsNoCredential: an orchestrator that writes the credential
// it was handed into its outcome fails G-CREDENTIAL-REDACTED, and the
// report (request, trace, outcome) still holds no credential value.
func TestReportHoldsNoCredential(t *testing.T) {
	t.Parallel()
	s, _ := scenarios.Find("AUTH-001")
	run, res, err := suite.Execute(context.Background(), s, referenceDriver(reference.Breaks{LogCredential: true}))
	if err != nil {
		t.Fatal(err)
	}
	var checks []suite.CheckResult
	for _, c := range s.WithGlobals() {
		cr := suite.Judge(run, nil, s, c, nil)
		if c.ID == "G-CREDENTIAL-REDACTED" && cr.Result != scenarios.Fail {
			t.Errorf("G-CREDENTIAL-REDACTED = %s (%s), want FAIL", cr.Result, cr.Detail)
		}
		checks = append(checks, cr)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	r := suite.NewReport(suite.Config{Scenarios: []*scenarios.Scenario{s}}, time.Now(), true, checks, []suite.ScenarioResult{res})
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "a2ac-d-") || !strings.Contains(string(b), "redacted") {
		t.Errorf("the report holds D's credential value (or redacts nothing)")
	}
}
