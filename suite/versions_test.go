package suite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// undeclared hides what an orchestrator declares it speaks: the verdicts
// then rest on what the whole run saw it send.
type undeclared struct{ o driver.GoOrchestrator }

func (u undeclared) Delegate(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
	return u.o.Delegate(ctx, req, c)
}

// TestVersionVerdicts runs the smallest changes to the reference that
// speak one A2A version through the whole catalog: a 0.3-only client that
// does everything right is "a2a-core (0.3): conformant", the 1.0-only
// scenarios saying "needs 1.0"; a 1.0-only client that refuses the pure
// 0.3 card is "a2a-core (1.0): conformant", IFACE-002 saying "needs 0.3";
// the reference itself is judged for both.
func TestVersionVerdicts(t *testing.T) {
	testenv.Long(t, "the reference speaking 0.3, 1.0 and both over the whole catalog")
	t.Parallel()
	cases := []struct {
		name     string
		alt      reference.Alternatives
		versions []string
		needs    map[string][]string // version -> checks that need it
	}{
		{"only-0.3", reference.Alternatives{Only03: true}, []string{"0.3"}, map[string][]string{
			"1.0": {"IFACE-004.SKIP-UNSPOKEN", "IFACE-004.NEXT-ON-FAIL", "IFACE-005.TENANT", "IFACE-005.DONE", "AUTH-001.ATTACH",
				"IFACE-007.FIRST", "IFACE-007.NO-TENANT", "IFACE-008.EXACT", "AUTH-007.ATTACH", "AUTH-008.PRESENTED", "AUTH-009.ATTACH",
				"IFACE-009.GRPC-FIRST", "IFACE-009.ADDRESS", "IFACE-010.METADATA", "AUTH-013.ATTACH"}}},
		{"only-1.0", reference.Alternatives{Only10: true}, []string{"1.0"}, map[string][]string{
			"0.3": {"IFACE-002.FALLBACK", "IFACE-002.VERSION"}}},
		{"both", reference.Alternatives{}, []string{"0.3", "1.0"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := runCatalog(t, driver.NewGo("reference-"+c.name, func() driver.GoOrchestrator { return reference.New(reference.Options{Alt: c.alt}) }), harnessScale)
			core := rep.Profiles[scenarios.Core]
			if !core.Conformant || !rep.Profiles[scenarios.Safety].Conformant {
				for _, cr := range rep.Checks {
					if cr.NeedsAttention() {
						t.Errorf("%s %s: %s", cr.ID, cr.Result, cr.Detail)
					}
				}
				t.Fatalf("not conformant: %+v", rep.Profiles)
			}
			if !slices.Equal(core.Versions, c.versions) {
				t.Errorf("a2a-core judged %v, want %v", core.Versions, c.versions)
			}
			want := "a2a-core (" + strings.Join(c.versions, ", ") + ")"
			if got := core.Label(scenarios.Core); got != want {
				t.Errorf("label %q, want %q", got, want)
			}
			for v, ids := range c.needs {
				for _, id := range ids {
					cr := checkOf(t, rep, id)
					if cr.Result != scenarios.NotApplicable || cr.Needs != v || !strings.HasPrefix(cr.GradesText(), "no grade: needs A2A "+v) {
						t.Errorf("%s: %s needs %q grades %q (%s), want NOT_APPLICABLE needing %s and no grade", id, cr.Result, cr.Needs, cr.GradesText(), cr.Detail, v)
					}
				}
				if core.Needs[v] != len(ids) {
					t.Errorf("a2a-core needs %s: %d, want %d", v, core.Needs[v], len(ids))
				}
			}
			var sc bytes.Buffer
			suite.WriteScorecard(&sc, rep)
			if !strings.Contains(sc.String(), want) {
				t.Errorf("the scorecard does not name %q:\n%s", want, sc.String())
			}
		})
	}
}

// TestWholeRunDecidesSupportedFirst: a client that speaks 1.0 everywhere
// else but takes a hybrid card's legacy url in 0.3, and declares nothing,
// looks like a 0.3 client in IFACE-003 alone (NOT_APPLICABLE there); the
// whole run shows it speaking 1.0, so the report FAILs IFACE-003's MUST
// (A2A 1.0 §8.3.2 rule 1), and so does a merge of two shards whose own
// reports each saw one of the scenarios.
func TestWholeRunDecidesSupportedFirst(t *testing.T) {
	t.Parallel()
	d := driver.NewGo("hybrid-legacy", func() driver.GoOrchestrator {
		return undeclared{reference.New(reference.Options{Alt: reference.Alternatives{Only10: true}, Break: reference.Breaks{HybridLegacy03: true}})}
	})
	alone := runScenarios(t, d, "IFACE-003")
	if cr := checkOf(t, alone, "IFACE-003.SUPPORTED-FIRST"); cr.Result != scenarios.NotApplicable {
		t.Fatalf("IFACE-003 alone: %s (%s), want NOT_APPLICABLE (nothing there shows 1.0)", cr.Result, cr.Detail)
	}
	whole := runScenarios(t, d, "IFACE-003", "IFACE-005")
	cr := checkOf(t, whole, "IFACE-003.SUPPORTED-FIRST")
	if cr.Result != scenarios.Fail || !strings.Contains(cr.Detail, "speaks A2A 1.0") || cr.Seq == 0 {
		t.Errorf("whole run: %s (%s), want FAIL naming the 1.0 the run showed", cr.Result, cr.Detail)
	}
	if whole.Profiles[scenarios.Core].Conformant {
		t.Error("whole run: a2a-core conformant, want not")
	}
	// Shards: each report saw one scenario; the merge sees both.
	var reports []*suite.Report
	for _, id := range []string{"IFACE-003", "IFACE-005"} {
		r := runScenarios(t, d, id)
		var b bytes.Buffer
		if err := suite.WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		var back suite.Report
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, &back)
	}
	if got := checkOf(t, reports[0], "IFACE-003.SUPPORTED-FIRST").Result; got != scenarios.NotApplicable {
		t.Errorf("shard with IFACE-003 alone: %s, want NOT_APPLICABLE", got)
	}
	merged, err := suite.Merge(reports, suite.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := checkOf(t, merged, "IFACE-003.SUPPORTED-FIRST"); got.Result != scenarios.Fail {
		t.Errorf("merged: %s (%s), want FAIL", got.Result, got.Detail)
	}
	if v := merged.Profiles[scenarios.Core].Versions; !slices.Equal(v, []string{"0.3", "1.0"}) {
		t.Errorf("merged a2a-core judged %v, want [0.3 1.0]", v)
	}
}

// TestJSONGradesApplyOnly: the JSON report lists under grades only the
// grades that apply to the run; the others go under gradesNotApplied with
// the reason, and reading the report back gives the check all of them.
func TestJSONGradesApplyOnly(t *testing.T) {
	t.Parallel()
	cr := suite.CheckResult{
		ID: "AUTH-001.ATTACH", Result: scenarios.NotApplicable, Needs: "1.0",
		Grades: []scenarios.Grade{{Profile: scenarios.Core, Level: scenarios.Should}, {Profile: scenarios.Safety, Level: scenarios.Must}},
		Exempt: map[scenarios.Profile]string{scenarios.Core: "needs A2A 1.0, which the client does not speak"},
	}
	b, err := json.Marshal(cr)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Grades     []scenarios.Grade `json:"grades"`
		NotApplied []struct {
			Profile scenarios.Profile `json:"profile"`
			Why     string            `json:"why"`
		} `json:"gradesNotApplied"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Grades) != 1 || raw.Grades[0].Profile != scenarios.Safety || len(raw.NotApplied) != 1 || raw.NotApplied[0].Profile != scenarios.Core || raw.NotApplied[0].Why == "" {
		t.Errorf("JSON grades %s", b)
	}
	var back suite.CheckResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Grades) != 2 || back.GradesText() != "delegation-safety MUST" {
		t.Errorf("read back: grades %v, text %q", back.Grades, back.GradesText())
	}
}
