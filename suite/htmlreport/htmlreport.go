// Package htmlreport renders an a2a-conform report as one self-contained
// HTML page: the scorecard per profile, the matrix of checks, and for each
// scenario a sequence diagram of the exchange between the orchestrator and
// the vendors (package seqdiag), its outcomes and the driver transcript. A
// failed check links to the step of the diagram that decided it and shows
// the clause and the fix.
//
// The page loads nothing: no script, no font, no image, no stylesheet from
// elsewhere (its Content-Security-Policy forbids them). Everything the
// orchestrator under test wrote (stderr, outcome details, host names, paths)
// is escaped by html/template; the diagrams are inserted as markup because
// seqdiag escapes every text it draws.
package htmlreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/seqdiag"
	"github.com/a2a-conform/a2a-conform/suite"
)

//go:embed report.html.tmpl
var pageText string

var pageTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower": func(o scenarios.Outcome) string { return strings.ToLower(string(o)) },
}).Parse(pageText))

// Write renders r to file.
func Write(r *suite.Report, file string) error { return suite.WriteFile(file, r, WriteHTML) }

// WriteHTML writes the page of r to w (a suite.Writer).
func WriteHTML(w io.Writer, r *suite.Report) error {
	b, err := Render(r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Render returns the page of r.
func Render(r *suite.Report) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, build(r)); err != nil {
		return nil, fmt.Errorf("rendering the html report: %w", err)
	}
	return b.Bytes(), nil
}

// StepAnchor is the id of the diagram step of event seq in scenario id.
func StepAnchor(scenario string, seq int64) string {
	return safeID(scenario) + "-" + seqdiag.Anchor(seq)
}

// ScenarioAnchor is the id of a scenario's section.
func ScenarioAnchor(scenario string) string { return "sc-" + safeID(scenario) }

// CheckAnchor is the id of a check's row in the matrix.
func CheckAnchor(id string) string { return "check-" + safeID(id) }

type page struct {
	R          *suite.Report
	Title      string
	Profiles   []profileRow
	Totals     []count
	Failed     []checkRow
	Checks     []checkRow
	Scenarios  []scenarioView
	Incomplete bool
}

type profileRow struct {
	Name                       string
	Score                      string
	MustPassed, MustApplicable int
	NotExercised               int
	Conformant                 bool
	Counts                     []count
}

type count struct {
	Result scenarios.Outcome
	N      int
}

type checkRow struct {
	suite.CheckResult
	Anchor   string
	Grades   string
	Mark     string
	Bad      bool   // CheckResult.NeedsAttention
	StepHref string // the diagram step that decided the verdict, or the scenario
	StepText string
}

type scenarioView struct {
	suite.ScenarioResult
	Anchor   string
	Checks   []checkRow
	Diagram  template.HTML
	Trace    []string
	Outcomes []string
	Bad      int
}

var resultOrder = []scenarios.Outcome{scenarios.Pass, scenarios.Fail, scenarios.NotExercised, scenarios.Error, scenarios.Waived, scenarios.NotApplicable, scenarios.Unimplemented}

func build(r *suite.Report) page {
	p := page{R: r, Title: "a2a-conform: " + r.Orchestrator.Spec, Incomplete: !r.Complete}
	for _, name := range profileNames(r) {
		ps := r.Profiles[scenarios.Profile(name)]
		row := profileRow{Name: name, Score: fmt.Sprintf("%.1f", ps.Score), MustPassed: ps.MustPassed, MustApplicable: ps.MustApplicable, NotExercised: ps.NotExercised, Conformant: ps.Conformant}
		for _, o := range resultOrder {
			if n := ps.Counts[o]; n > 0 {
				row.Counts = append(row.Counts, count{o, n})
			}
		}
		p.Profiles = append(p.Profiles, row)
	}
	totals := map[scenarios.Outcome]int{}
	haveScenario := map[string]bool{}
	for _, s := range r.Scenarios {
		haveScenario[s.ID] = true
	}
	byScenario := map[string][]checkRow{}
	for _, c := range r.Checks {
		totals[c.Result]++
		row := checkRow{CheckResult: c, Anchor: CheckAnchor(c.ID), Grades: grades(c.Grades), Mark: suite.Mark(c.Result), Bad: c.NeedsAttention()}
		switch {
		case c.Seq != 0 && haveScenario[c.Scenario]:
			row.StepHref, row.StepText = "#"+StepAnchor(c.Scenario, c.Seq), fmt.Sprintf("step #%d", c.Seq)
		case row.Bad && haveScenario[c.Scenario]:
			row.StepHref, row.StepText = "#"+ScenarioAnchor(c.Scenario), "scenario"
		}
		p.Checks = append(p.Checks, row)
		if row.Bad {
			p.Failed = append(p.Failed, row)
		}
		byScenario[c.Scenario] = append(byScenario[c.Scenario], row)
	}
	for _, o := range resultOrder {
		if totals[o] > 0 {
			p.Totals = append(p.Totals, count{o, totals[o]})
		}
	}
	for _, s := range r.Scenarios {
		v := scenarioView{ScenarioResult: s, Anchor: ScenarioAnchor(s.ID), Checks: byScenario[s.ID], Trace: suite.TraceLines(s.Trace, 0)}
		var highlight int64
		for _, c := range v.Checks {
			if c.Bad {
				v.Bad++
				if highlight == 0 {
					highlight = c.Seq
				}
			}
		}
		for _, d := range s.Delegations {
			v.Outcomes = append(v.Outcomes, suite.OutcomeLine(d))
		}
		if len(s.Trace) > 0 {
			who := r.Orchestrator.Name
			if who == "" {
				who = "orchestrator"
			}
			svg := seqdiag.Render(s.Trace, seqdiag.Options{Highlight: highlight, Orchestrator: who})
			v.Diagram = template.HTML(scope(svg, safeID(s.ID)))
		}
		p.Scenarios = append(p.Scenarios, v)
	}
	return p
}

func profileNames(r *suite.Report) []string {
	var names []string
	seen := map[string]bool{}
	for _, p := range scenarios.Profiles {
		if _, ok := r.Profiles[p]; ok {
			names = append(names, string(p))
			seen[string(p)] = true
		}
	}
	var rest []string
	for p := range r.Profiles {
		if !seen[string(p)] {
			rest = append(rest, string(p))
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func grades(gs []scenarios.Grade) string {
	var out []string
	for _, g := range gs {
		out = append(out, string(g.Profile)+" "+string(g.Level))
	}
	return strings.Join(out, ", ")
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// safeID keeps the characters an id and a URL fragment may carry as they
// are; scenario ids ("CARD-001") pass unchanged.
func safeID(s string) string { return unsafeID.ReplaceAllString(s, "_") }

// idAttr matches the ids and id references seqdiag writes: id="…" and
// url(#…). Text seqdiag draws is escaped (a quote becomes &#34;), so these
// only occur in its markup.
var idAttr = regexp.MustCompile(`(id="|url\(#)([A-Za-z][A-Za-z0-9_.-]*)`)

// scope prefixes every id of one diagram with its scenario's id, so that
// the many diagrams of a page keep distinct ids: step anchors
// ("CARD-001-ev-2") and arrow-head markers alike. (seqdiag's ids are unique
// within one SVG only.)
func scope(svg []byte, prefix string) []byte {
	return idAttr.ReplaceAll(svg, []byte("${1}"+prefix+"-${2}"))
}
