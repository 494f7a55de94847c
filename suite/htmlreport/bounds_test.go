package htmlreport_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/htmlreport"
)

// TestPageBounds: a scenario of 2,000 requests, each with fields full of
// what HTML escapes and a body nested too deep to indent, gives a page
// within htmlreport.WorstPage that draws its first steps, says how many
// it leaves out, shows the deep body as it came, and whose every link
// points into the page (a check decided by a step not drawn links to its
// scenario).
func TestPageBounds(t *testing.T) {
	s, _ := scenarios.Find("CARD-002")
	deep := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", 9_990) + strings.Repeat("]", 9_990) + `}}`
	field := strings.Repeat(`"`, mockvendor.MaxTracedField)
	evs := make([]mockvendor.Event, 2000)
	for i := range evs {
		evs[i] = mockvendor.Event{Seq: int64(i + 1), Op: mockvendor.OpSend, Host: "rpc.agent-b.example", Path: field, Method: field,
			Skill: field, CacheControl: field, TaskID: field, Note: field, ErrorMessage: field, Status: 200,
			RequestText: deep, RequestSize: len(deep), RequestNotKept: "nested deeper than 32 levels: kept as text in requestText"}
	}
	var checks []suite.CheckResult
	for i, c := range s.Checks {
		checks = append(checks, suite.CheckResult{ID: c.ID, Scenario: s.ID, Title: c.Title, Grades: c.Grades, Profile: c.Grades[0].Profile,
			Level: c.Grades[0].Level, Result: scenarios.Fail, Detail: "failed", Seq: []int64{3, 1900}[i%2]})
	}
	res := suite.ScenarioResult{ID: s.ID, Title: s.Title, Area: s.Area, Trace: evs, TraceLeftOut: 3000}
	r := suite.NewReport(suite.Config{Orchestrator: "exec:hostile", Scenarios: []*scenarios.Scenario{s}}, evs[0].Time, true, checks, []suite.ScenarioResult{res})
	page, err := htmlreport.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	steps := strings.Count(string(page), `<details class="step`)
	if bound := htmlreport.WorstPage([]*scenarios.Scenario{s}); len(page) > bound || steps == 0 || steps > 500 {
		t.Errorf("the page is %d bytes (bound %d) and draws %d steps", len(page), bound, steps)
	}
	if want := fmt.Sprintf("The first %d of the 5000 requests the fleet saw; report.json keeps 2000 of them.", steps); !strings.Contains(string(page), want) {
		t.Errorf("the page does not say %q", want)
	}
	if !strings.Contains(string(page), strings.Repeat("[", 1000)) || strings.Contains(string(page), "\n"+strings.Repeat(" ", 40)) {
		t.Errorf("the deep body is not shown as it came")
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllSubmatch(page, -1) {
		ids[string(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllSubmatch(page, -1) {
		if !ids[string(m[1])] {
			t.Errorf("link #%s points at nothing in the page", m[1])
		}
	}
	t.Logf("%d steps drawn, %d bytes", steps, len(page))
}
