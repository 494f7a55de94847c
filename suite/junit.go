package suite

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// JUnit XML, written from the Report (not from Ginkgo's spec tree) so that
// a CI system shows one test case per check, named by the check id, with
// the requirement, the observation, the fix and the wire transcript in the
// failure text. The shape is the common denominator that Jenkins, GitLab,
// GitHub test reporters and Azure read: <testsuites><testsuite><testcase>
// with <failure>, <error>, <skipped>, <properties>, <system-out>.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitResult    `xml:"failure,omitempty"`
	Error      *junitResult    `xml:"error,omitempty"`
	Skipped    *junitResult    `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML to file.
func (r *Report) WriteJUnit(file string) error { return WriteFile(file, r, WriteJUnit) }

// WriteJUnit writes the report as JUnit XML: one testsuite for the run,
// one testcase per check (name: the check id; classname: its scenario).
// FAIL is a <failure>, ERROR an <error> (a harness problem, not a verdict),
// NOT_EXERCISED is a <failure> for a MUST (it denies conformance) and
// <skipped> otherwise, NOT_APPLICABLE and UNIMPLEMENTED are <skipped> with
// the reason, WAIVED
// passes with a "waived" property and the waiver in <system-out>. The
// failure text holds the clause and its source, what was observed, the fix,
// the outcomes, the scenario's wire transcript and the driver transcript.
// A stale baseline and an interrupted run are test cases of their own
// (classname a2a-conform), so the CI shows why the run failed.
func WriteJUnit(w io.Writer, r *Report) error {
	scen := map[string]*ScenarioResult{}
	for i := range r.Scenarios {
		scen[r.Scenarios[i].ID] = &r.Scenarios[i]
	}
	perCheck := map[string]float64{}
	nChecks := map[string]int{}
	for _, c := range r.Checks {
		nChecks[c.Scenario]++
	}
	for id, n := range nChecks {
		if s := scen[id]; s != nil && n > 0 {
			perCheck[id] = float64(s.DurationMs) / 1000 / float64(n)
		}
	}
	name := "a2a-conform"
	if r.Orchestrator.Spec != "" {
		name += ": " + r.Orchestrator.Spec
	}
	ts := junitSuite{
		Name:       name,
		Time:       seconds(float64(r.DurationMs) / 1000),
		Properties: junitProperties(r),
	}
	if !r.StartedAt.IsZero() {
		ts.Timestamp = r.StartedAt.UTC().Format("2006-01-02T15:04:05")
	}
	told := map[string]string{} // scenario -> the check whose text holds its driver transcript
	for _, c := range r.Checks {
		tc := junitCaseOf(c, scen[c.Scenario], perCheck[c.Scenario], told)
		switch {
		case tc.Failure != nil:
			ts.Failures++
		case tc.Error != nil:
			ts.Errors++
		case tc.Skipped != nil:
			ts.Skipped++
		}
		ts.Cases = append(ts.Cases, tc)
	}
	if len(r.BaselineProblems) > 0 {
		ts.Cases = append(ts.Cases, junitCase{
			Name: "baseline", Classname: "a2a-conform", Time: seconds(0),
			Failure: &junitResult{
				Message: fmt.Sprintf("%d stale baseline entries", len(r.BaselineProblems)),
				Type:    "BASELINE",
				Text:    strings.Join(r.BaselineProblems, "\n") + "\n",
			},
		})
		ts.Failures++
	}
	if !r.Complete {
		ts.Cases = append(ts.Cases, junitCase{
			Name: "complete", Classname: "a2a-conform", Time: seconds(0),
			Error: &junitResult{
				Message: "the run was interrupted; the report covers the scenarios that finished",
				Type:    "INCOMPLETE",
			},
		})
		ts.Errors++
	}
	ts.Tests = len(ts.Cases)
	doc := junitSuites{
		Name: "a2a-conform", Tests: ts.Tests, Failures: ts.Failures, Errors: ts.Errors, Skipped: ts.Skipped,
		Time: ts.Time, Suites: []junitSuite{ts},
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func junitProperties(r *Report) []junitProperty {
	ps := []junitProperty{
		{"tool", strings.TrimSpace(r.Tool.Name + " " + r.Tool.Version)},
		{"orchestrator", r.Orchestrator.Spec},
		{"complete", fmt.Sprint(r.Complete)},
	}
	if r.Orchestrator.Name != "" {
		ps = append(ps, junitProperty{"orchestrator.name", strings.TrimSpace(r.Orchestrator.Name + " " + r.Orchestrator.Version)})
	}
	if r.Shard != nil {
		ps = append(ps, junitProperty{"shard", r.Shard.String()})
	}
	profiles := make([]string, 0, len(r.Profiles))
	for p := range r.Profiles {
		profiles = append(profiles, string(p))
	}
	sort.Strings(profiles)
	for _, p := range profiles {
		ps2 := r.Profiles[scenarios.Profile(p)]
		ps = append(ps,
			junitProperty{p + ".score", fmt.Sprintf("%.1f", ps2.Score)},
			junitProperty{p + ".must", fmt.Sprintf("%d/%d", ps2.MustPassed, ps2.MustApplicable)},
			junitProperty{p + ".conformant", fmt.Sprint(ps2.Conformant)},
		)
		if len(ps2.Versions) > 0 {
			ps = append(ps, junitProperty{p + ".versions", strings.Join(ps2.Versions, ", ")}, junitProperty{p + ".verdict", ps2.Label(scenarios.Profile(p))})
		}
		if n := ps2.NeedsText(); n != "" {
			ps = append(ps, junitProperty{p + ".needs", n})
		}
	}
	return ps
}

// junitCaseOf is the test case of one check; s is its scenario's result
// (nil for none), secs its share of the scenario's time and told the
// scenarios whose driver transcript an earlier case holds (junitText).
func junitCaseOf(c CheckResult, s *ScenarioResult, secs float64, told map[string]string) junitCase {
	class := c.Scenario
	if strings.HasPrefix(c.ID, "G-") {
		class = "global" // one requirement across the scenarios
	}
	tc := junitCase{Name: c.ID, Classname: class, Time: seconds(secs)}
	tc.Properties = append(tc.Properties, junitProperty{"grades", c.GradesText()}, junitProperty{"result", string(c.Result)})
	failure := func() *junitResult {
		return &junitResult{Message: c.Detail, Type: string(c.Result) + " " + string(c.Level), Text: junitText(c, s, told)}
	}
	skipped := func() *junitResult { return &junitResult{Message: string(c.Result) + ": " + c.Detail} }
	if c.Ungraded() && c.Result != scenarios.Error {
		// No profile grades it here (a 0.3-only orchestrator on an A2A 1.0
		// clause): CI skips it, saying why and what the wire showed.
		tc.Skipped = &junitResult{Message: c.GradesText() + " (" + string(c.Result) + ": " + c.Detail + ")"}
		return tc
	}
	switch c.Result {
	case scenarios.Fail, scenarios.ContractError:
		tc.Failure = failure()
	case scenarios.Error:
		tc.Error = &junitResult{Message: c.Detail, Type: string(c.Result), Text: junitText(c, s, told)}
	case scenarios.NotExercised:
		// A MUST that was not exercised denies conformance, so CI shows it
		// failed; anything less is skipped.
		if c.Level == scenarios.Must {
			tc.Failure = failure()
		} else {
			tc.Skipped = skipped()
		}
	case scenarios.NotApplicable, scenarios.Unimplemented:
		tc.Skipped = skipped()
	case scenarios.Waived:
		tc.Properties = append(tc.Properties, junitProperty{"waived", c.Waiver})
		tc.SystemOut = "WAIVED by the baseline: " + c.Waiver + "\n\n" + junitText(c, s, told)
	}
	return tc
}

// junitText is a failed (or waived) check's full story: FailureMessage
// (requirement, source, observation, fix, wire transcript), then the
// outcomes and the driver transcript of its scenario, given under the
// scenario's first such check (the others name it).
func junitText(c CheckResult, s *ScenarioResult, told map[string]string) string {
	var b strings.Builder
	b.WriteString(FailureMessage(c))
	if s == nil {
		return b.String()
	}
	if s.HarnessErr != "" {
		fmt.Fprintf(&b, "  harness error: %s\n", s.HarnessErr)
	}
	if len(s.Delegations) > 0 {
		b.WriteString("  outcomes:\n")
		for i, d := range s.Delegations {
			fmt.Fprintf(&b, "    %d. %s\n", i+1, OutcomeLine(d))
		}
	}
	t := s.Transcript
	if first, ok := told[s.ID]; ok {
		// Once per scenario: up to 200 notes and 64 KiB of stderr under
		// each of its failed checks would be most of the file.
		fmt.Fprintf(&b, "  driver transcript: under %s\n", first)
	} else if len(t.Exits) > 0 || len(t.Notes) > 0 || t.Stderr != "" {
		told[s.ID] = c.ID
		b.WriteString("  driver transcript:\n")
		for _, e := range t.Exits {
			b.WriteString("    exit: " + e + "\n")
		}
		for _, n := range t.Notes {
			b.WriteString("    note: " + n + "\n")
		}
		if t.Stderr != "" {
			b.WriteString("    stderr:\n")
			for _, l := range strings.Split(strings.TrimRight(t.Stderr, "\n"), "\n") {
				b.WriteString("      " + l + "\n")
			}
		}
	}
	fmt.Fprintf(&b, "  reproduce:   %s\n", s.Reproduce)
	return b.String()
}

// OutcomeLine describes what the orchestrator reported for one delegation
// ("completed via invoice-reconciliation-v2 at https://..., trust full").
func OutcomeLine(d DelegationResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "skill %q: ", d.Request.Task.Skill)
	switch {
	case d.Unimplemented && d.Outcome == nil:
		b.WriteString("unimplemented")
	case d.Outcome == nil:
		b.WriteString("no outcome")
		if d.NoOutcome != "" {
			b.WriteString(" (" + d.NoOutcome + ")")
		}
	default:
		o := d.Outcome
		b.WriteString(o.Outcome)
		if o.Skill != "" {
			b.WriteString(" via " + o.Skill)
		}
		if o.Agent != "" {
			b.WriteString(" at " + o.Agent)
		}
		var kv []string
		for _, f := range [][2]string{{"reason", o.Reason}, {"cardTrust", o.CardTrust}, {"trustMode", o.TrustMode}, {"taskState", o.TaskState}} {
			if f[1] != "" {
				kv = append(kv, f[0]+"="+f[1])
			}
		}
		if len(kv) > 0 {
			b.WriteString(" (" + strings.Join(kv, ", ") + ")")
		}
		if o.Detail != "" {
			b.WriteString(": " + o.Detail)
		}
	}
	fmt.Fprintf(&b, " [%d ms, events #%d-#%d]", d.ElapsedMs, d.FirstSeq, d.LastSeq)
	return b.String()
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
