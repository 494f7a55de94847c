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
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/seqdiag"
	"github.com/a2a-conform/a2a-conform/suite"
)

//go:embed report.html.tmpl
var pageText string

var pageTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower":          func(o scenarios.Outcome) string { return strings.ToLower(string(o)) },
	"delegationLine": suite.DelegationLine,
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
	// Name is the profile; Label names it with the versions it judged
	// ("a2a-core (0.3)"); Needs counts what needed another version.
	Name, Label, Needs         string
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
	Diagram  *diagramView
	Trace    []string
	Outcomes []string
	Bad      int
}

// diagramView is a scenario's sequence diagram as rows (seqdiag.Rows): the
// lifelines' heads, then one <details> per step whose summary is the
// step's arrow and whose body is its request and answer.
type diagramView struct {
	Width int
	Head  template.HTML
	Steps []stepView
	// Note says how many requests the diagram leaves out (maxSteps, the
	// report's own caps); empty when it shows them all.
	Note string
}

// Bounds on a scenario's diagram: the page draws and lists its first
// maxSteps requests, fewer when their steps' text (arrow, request and
// answer fields, body and error data as shown) passes maxStepText bytes.
// A flooding orchestrator's thousands would make the page tens of MB to
// show what the first of them already show (report.json keeps more).
const (
	maxSteps    = 500
	maxStepText = 256 << 10
)

// stepView is one step of a diagram.
type stepView struct {
	Anchor string
	Class  string
	// Open is true for a step that decided a check that needs attention:
	// the page opens with its request and answer shown.
	Open            bool
	SVG             template.HTML
	Request, Answer []field
	// Body is the request body, pretty-printed and capped at bodyCap;
	// BodyNote says what was cut or why no body was kept.
	Body, BodyNote string
	// ErrorData is the answer's error data, pretty-printed and capped.
	ErrorData string
}

type field struct{ Name, Value string }

var resultOrder = []scenarios.Outcome{scenarios.Pass, scenarios.Fail, scenarios.ContractError, scenarios.NotExercised, scenarios.Error, scenarios.Waived, scenarios.NotApplicable, scenarios.Unimplemented}

func build(r *suite.Report) page {
	p := page{R: r, Title: "a2a-conform: " + r.Orchestrator.Spec, Incomplete: !r.Complete}
	for _, name := range profileNames(r) {
		ps := r.Profiles[scenarios.Profile(name)]
		row := profileRow{Name: name, Label: ps.Label(scenarios.Profile(name)), Needs: ps.NeedsText(), Score: fmt.Sprintf("%.1f", ps.Score), MustPassed: ps.MustPassed, MustApplicable: ps.MustApplicable, NotExercised: ps.NotExercised, Conformant: ps.Conformant}
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
	openSteps := map[string]bool{} // scenario NUL seq of steps that decided a bad check
	for _, c := range r.Checks {
		totals[c.Result]++
		global := isGlobal(c)
		row := checkRow{CheckResult: c, Anchor: CheckAnchor(c.ID), Grades: c.GradesText(), Mark: suite.Mark(c.Result), Bad: c.NeedsAttention()}
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
		if global {
			// A global requirement is one result for the run: it is listed
			// once (in the matrix and the failures), never again under the
			// scenario that decided it; its link still leads to that step.
			if row.Bad && c.Seq != 0 {
				openSteps[c.Scenario+"\x00"+fmt.Sprint(c.Seq)] = true
			}
			continue
		}
		byScenario[c.Scenario] = append(byScenario[c.Scenario], row)
	}
	for _, o := range resultOrder {
		if totals[o] > 0 {
			p.Totals = append(p.Totals, count{o, totals[o]})
		}
	}
	drawn := map[string]bool{} // the anchors of the steps the page draws
	for _, s := range r.Scenarios {
		v := section(r, s, byScenario[s.ID], openSteps)
		for _, st := range stepsOf(v.Diagram) {
			drawn[st.Anchor] = true
		}
		p.Scenarios = append(p.Scenarios, v)
	}
	// A check decided by a step the page does not draw links to its
	// scenario instead.
	relink(p.Checks, drawn)
	relink(p.Failed, drawn)
	for i := range p.Scenarios {
		relink(p.Scenarios[i].Checks, drawn)
	}
	return p
}

// section is scenario s's part of the page: its checks, outcomes, the
// diagram of its first steps (maxSteps, maxStepText) and its transcripts.
// It adds the steps its failed checks point at to open.
func section(r *suite.Report, s suite.ScenarioResult, checks []checkRow, open map[string]bool) scenarioView {
	trace := s.Trace[:min(len(s.Trace), maxSteps)]
	v := scenarioView{ScenarioResult: s, Anchor: ScenarioAnchor(s.ID), Checks: checks}
	var highlight int64
	for _, c := range v.Checks {
		if c.Bad {
			v.Bad++
			if highlight == 0 {
				highlight = c.Seq
			}
			if c.Seq != 0 {
				open[s.ID+"\x00"+fmt.Sprint(c.Seq)] = true
			}
		}
	}
	for _, d := range s.Delegations {
		v.Outcomes = append(v.Outcomes, suite.OutcomeLine(d))
	}
	if len(trace) > 0 {
		who := r.Orchestrator.Name
		if who == "" {
			who = "orchestrator"
		}
		v.Diagram = diagram(s, seqdiag.Rows(trace, seqdiag.Options{Highlight: highlight, Orchestrator: who}), open)
		trace = trace[:len(v.Diagram.Steps)]
		if n := len(s.Trace) + s.TraceLeftOut; n > len(trace) {
			v.Diagram.Note = fmt.Sprintf("The first %d of the %d requests the fleet saw; report.json keeps %d of them.", len(trace), n, len(s.Trace))
		}
	}
	v.Trace = suite.TraceLines(trace, 0)
	return v
}

// stepsOf is d's steps (none for a nil diagram).
func stepsOf(d *diagramView) []stepView {
	if d == nil {
		return nil
	}
	return d.Steps
}

// relink points each row whose step the page does not draw at its
// scenario.
func relink(rows []checkRow, drawn map[string]bool) {
	for i, r := range rows {
		if r.Seq != 0 && r.StepHref == "#"+StepAnchor(r.Scenario, r.Seq) && !drawn[StepAnchor(r.Scenario, r.Seq)] {
			rows[i].StepHref, rows[i].StepText = "#"+ScenarioAnchor(r.Scenario), "scenario"
		}
	}
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

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// safeID keeps the characters an id and a URL fragment may carry as they
// are; scenario ids ("CARD-001") pass unchanged.
func safeID(s string) string { return unsafeID.ReplaceAllString(s, "_") }

// isGlobal reports whether c is a global requirement's one result.
func isGlobal(c suite.CheckResult) bool {
	return strings.HasPrefix(c.ID, "G-") || len(c.Covered) > 0
}

// bodyCap is how much of a request body or of error data a step shows; the
// JSON report has the rest.
const bodyCap = 4 << 10

// diagram builds the rows of scenario s's diagram with each step's request
// and answer, as many as fit in maxStepText. open holds the steps to show
// open ("scenario NUL seq").
func diagram(s suite.ScenarioResult, d seqdiag.Diagram, open map[string]bool) *diagramView {
	v := &diagramView{Width: d.Width, Head: template.HTML(d.Head)}
	events := map[int64]mockvendor.Event{}
	for _, e := range s.Trace {
		events[e.Seq] = e
	}
	spent := 0
	for _, row := range d.Rows {
		e := events[row.Seq]
		st := stepView{
			Anchor: StepAnchor(s.ID, row.Seq),
			Class:  row.Class,
			Open:   open[s.ID+"\x00"+fmt.Sprint(row.Seq)],
			// seqdiag escapes every text it draws.
			SVG:     template.HTML(row.SVG),
			Request: requestFields(e),
			Answer:  answerFields(e),
		}
		switch {
		case len(e.Request) > 0:
			st.Body, st.BodyNote = pretty(e.Request)
		case e.RequestText != "":
			// Nested too deep to indent (each level would add its own
			// indentation to every line): shown as it came.
			var note string
			st.Body, note = capText(e.RequestText)
			st.BodyNote = strings.TrimSuffix(e.RequestNotKept+"; "+note, "; ")
		case e.RequestNotKept != "":
			st.BodyNote = fmt.Sprintf("body of %d bytes not kept: %s", e.RequestSize, e.RequestNotKept)
		}
		if len(e.ErrorData) > 0 {
			st.ErrorData, _ = pretty(e.ErrorData)
		}
		if spent += stepText(st); spent > maxStepText {
			break
		}
		v.Steps = append(v.Steps, st)
	}
	return v
}

// stepText is how many bytes of text a step shows, before HTML escaping.
func stepText(st stepView) int {
	n := len(st.SVG) + len(st.Body) + len(st.BodyNote) + len(st.ErrorData)
	for _, fs := range [][]field{st.Request, st.Answer} {
		for _, f := range fs {
			n += len(f.Name) + len(f.Value)
		}
	}
	return n
}

// pretty indents JSON and caps it at bodyCap bytes (on a line boundary
// when it can), saying what it left out.
func pretty(raw json.RawMessage) (text, note string) {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		b.Reset()
		b.Write(raw)
	}
	return capText(b.String())
}

// capText caps text at bodyCap bytes (on a line boundary when it can),
// saying what it left out.
func capText(text string) (string, string) {
	var note string
	if len(text) > bodyCap {
		cut := bodyCap
		if i := strings.LastIndexByte(text[:cut], '\n'); i > bodyCap/2 {
			cut = i
		}
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		note = fmt.Sprintf("first %d of %d bytes shown; the JSON report has the whole body", cut, len(text))
		text = text[:cut] + "\n…"
	}
	return text, note
}

// requestFields are the parts of a request the checks look at: where it
// went, the TLS server name, the headers that matter and the JSON-RPC call.
func requestFields(e mockvendor.Event) []field {
	var f []field
	add := func(name, value string) {
		if value != "" {
			f = append(f, field{name, value})
		}
	}
	if e.Op == mockvendor.OpRefused {
		add("request", "CONNECT "+e.Host)
		add("refused", "the fleet's proxy reaches fleet hosts only")
		return f
	}
	scheme := "https://"
	if e.ServerName == "" && e.Op == mockvendor.OpOther {
		scheme = ""
	}
	add("request", strings.TrimSpace(e.HTTPMethod+" "+scheme+e.Host+e.Path))
	sni := e.ServerName
	if sni == "" {
		sni = "(none)"
	}
	add("TLS server name", sni)
	switch {
	case e.HasA2AVersion:
		add("A2A-Version", fmt.Sprintf("%q", e.A2AVersion))
	case e.Method != "":
		add("A2A-Version", "(not sent)")
	}
	if e.A2AVersionQuery != "" {
		add("A2A-Version (query)", e.A2AVersionQuery)
	}
	add("A2A-Extensions", e.A2AExtensions)
	add("X-A2A-Extensions", e.XA2AExtensions)
	add("Cache-Control", e.CacheControl)
	add("Pragma", e.Pragma)
	add("If-None-Match", e.IfNoneMatch)
	if e.Authorization {
		add("Authorization", "sent")
	}
	if e.Method != "" {
		call := e.Method
		if e.Dialect != "" {
			call += " (dialect " + e.Dialect + ")"
		}
		if e.Binding != "" {
			call += " over " + e.Binding
		}
		add("method", call)
		add("id", string(e.RPCID))
	}
	switch {
	case e.Skill != "":
		add("skill", e.Skill)
	case e.Op == mockvendor.OpSend || e.Op == mockvendor.OpStream:
		add("skill", "(none sent: the default skill)")
	}
	if e.Probe {
		add("probe", "yes (the fleet counts no real task)")
	}
	if len(e.Clipped) > 0 {
		add("cut", strings.Join(e.Clipped, ", ")+" (cut to 256 bytes in the trace)")
	}
	return f
}

// answerFields are what the fleet answered: status, task, error, the copy
// of a card it served, the faults that changed the answer.
func answerFields(e mockvendor.Event) []field {
	var f []field
	add := func(name, value string) {
		if value != "" {
			f = append(f, field{name, value})
		}
	}
	if e.Pending {
		add("pending", "still being answered when the trace was read")
	}
	if e.Status != 0 {
		add("status", strings.TrimSpace(fmt.Sprintf("%d %s", e.Status, e.ContentType)))
	}
	if e.DurationMs > 0 {
		add("took", fmt.Sprintf("%.1f ms", e.DurationMs))
	}
	add("task", strings.TrimSpace(e.TaskID+" "+e.State))
	if e.ErrorCode != 0 {
		add("error", fmt.Sprintf("%d %s", e.ErrorCode, e.ErrorMessage))
	}
	add("served", e.Served)
	add("agent", e.Upstream.Summary()) // a real agent behind the vendor (run --upstream)
	add("faults", strings.Join(e.Faults, ", "))
	for _, c := range e.Coercions {
		add("coerced", fmt.Sprintf("part %d: %s → %s", c.Part, c.From, c.To))
	}
	add("note", e.Note)
	return f
}
