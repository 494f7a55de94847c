package suite_test

import (
	"os"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestSuite runs the catalog as a Ginkgo suite, against builtin:reference
// unless A2A_CONFORM_ORCHESTRATOR names another orchestrator
// (exec:..., http://..., builtin:naive). With the reference, every check
// must pass or be not applicable with a reason, in both profiles.
func TestSuite(t *testing.T) {
	testenv.Long(t, "the Ginkgo suite over the whole catalog")
	gomega.RegisterFailHandler(ginkgo.Fail)
	spec := os.Getenv("A2A_CONFORM_ORCHESTRATOR")
	if spec == "" {
		spec = "builtin:reference"
	}
	d, err := driver.Parse(spec, map[string]func() driver.GoOrchestrator{
		"reference": func() driver.GoOrchestrator { return reference.New(reference.Options{}) },
		"naive":     func() driver.GoOrchestrator { return naive.New() },
	})
	if err != nil {
		t.Fatal(err)
	}
	report, err := suite.Run(t, suite.Config{Driver: d, Orchestrator: spec, JSONReport: os.Getenv("A2A_CONFORM_JSON_REPORT")})
	if err != nil {
		t.Fatal(err)
	}
	if report == nil || spec != "builtin:reference" {
		return // a parallel process other than the first, or another orchestrator
	}
	if !report.Conformant(nil) {
		t.Errorf("the reference is not conformant: %+v", report.Profiles)
	}
	for _, c := range report.Checks {
		switch {
		case c.Result == scenarios.NotApplicable && c.Detail == "":
			t.Errorf("%s is NOT_APPLICABLE without a reason", c.ID)
		case c.Result != scenarios.Pass && c.Result != scenarios.NotApplicable:
			t.Errorf("%s: %s: %s", c.ID, c.Result, c.Detail)
		}
	}
}
