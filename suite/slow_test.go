package suite_test

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestSlowScenariosPass: the reference passes every SLOW check end to end
// at harnessScale (SLOW-001, labelled slow, is off in default runs and in
// runCatalog), holding the blocking send; so does its stream-following
// alternative, which streams the long task instead.
func TestSlowScenariosPass(t *testing.T) {
	t.Parallel()
	drivers := map[string]driver.Driver{
		"reference": referenceDriver(reference.Breaks{}),
		"stream-follow": driver.NewGo("reference+stream-follow", func() driver.GoOrchestrator {
			return reference.New(reference.Options{Alt: reference.Alternatives{StreamFollow: true}})
		}),
	}
	for name, d := range drivers {
		for _, id := range []string{"SLOW-001.DONE", "SLOW-001.G-ONE-TASK", "SLOW-002.SAME-MESSAGE-ID", "SLOW-002.REPORTED", "SLOW-002.G-ONE-TASK", "SLOW-003.STOP"} {
			t.Run(name+"/"+id, func(t *testing.T) {
				t.Parallel()
				cr := judge(t, id, d)
				if cr.Result != scenarios.Pass {
					t.Errorf("%s: %s (%s), want PASS", id, cr.Result, cr.Detail)
				}
			})
		}
	}
}
