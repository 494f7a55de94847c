package suite

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// Judge evaluates one check over a scenario's run and turns the verdict
// into a result: ERROR when the harness failed (for a run that reached the
// fleet's limits, only where the lost evidence could change the verdict:
// see underLimits), UNIMPLEMENTED when the
// orchestrator declared it cannot run the scenario, NOT_EXERCISED when the
// run did not reach the check's situation (Check.Evaluate), WAIVED when the
// baseline lists a failing check, and PASS for a failing MAY check (a MAY
// informs; it never fails). A judge that panics is a harness ERROR. For a
// global check the result is one scenario's observation, reported under
// "<scenario>.<id>" and folded into the run's one result by NewReport.
func Judge(run *scenarios.Run, harnessErr error, s *scenarios.Scenario, c scenarios.Check, b Baseline) (cr CheckResult) {
	cr = CheckResult{
		ID:       s.CheckID(c),
		Scenario: s.ID,
		Title:    c.Title,
		Profile:  c.Grades[0].Profile,
		Level:    c.Grades[0].Level,
		Grades:   c.Grades,
		Clause:   c.Requirement,
		Source:   c.Cite(),
		Sources:  c.Sources,
		Fix:      c.Fix,
	}
	defer func() {
		if p := recover(); p != nil {
			cr.Result, cr.Detail = scenarios.Error, fmt.Sprintf("the check itself failed: %v", p)
		}
		cr.Trace = traceLines(run, cr.Seq)
		clipCheck(&cr)
	}()
	var limits *LimitError
	switch {
	case errors.As(harnessErr, &limits):
	case harnessErr != nil:
		cr.Result, cr.Detail = scenarios.Error, "harness error: "+harnessErr.Error()
		return cr
	case unimplemented(run):
		cr.Result, cr.Detail = scenarios.Unimplemented, "the orchestrator declared it cannot run "+s.ID
		return cr
	}
	run.ResetSpeechRead()
	cr.judge(run, c, limits)
	if run.ReadsSpeech() {
		cr.Alternatives = alternatives(run, cr, c, limits)
	}
	cr.Engaged = c.Global() && c.Reached.Met(run)
	if cr.Result == scenarios.Fail && !c.Global() {
		// A global's baseline entry names it once ("G-JSONRPC") and is
		// applied when the scenarios' observations are folded (foldGlobals).
		if reason, ok := b.Match(cr.ID); ok {
			cr.Result, cr.Waiver = scenarios.Waived, reason
		}
	}
	return cr
}

// judge evaluates c over run into cr's result fields: the verdict, the
// grades that do not apply (Exempt) and the first that does (Profile,
// Level), the missing outcome said in a FAIL's detail, and a MAY's FAIL
// turned into an informational PASS.
func (cr *CheckResult) judge(run *scenarios.Run, c scenarios.Check, limits *LimitError) {
	v, exempt := c.Evaluate(run)
	if limits != nil {
		v = underLimits(v, c, limits)
	}
	cr.Result, cr.Detail, cr.Seq, cr.Expected, cr.Actual, cr.Exempt, cr.Needs = v.Outcome, v.Detail, v.Seq, v.Expected, v.Actual, exempt, v.Needs
	cr.Profile, cr.Level = c.Grades[0].Profile, c.Grades[0].Level
	for _, g := range c.Grades {
		if _, ok := exempt[g.Profile]; !ok {
			cr.Profile, cr.Level = g.Profile, g.Level
			break
		}
	}
	if v.Outcome == scenarios.Fail && c.ReadsOutcome && len(run.Delegations) > 0 && run.Delegations[0].Outcome == nil {
		cr.Detail += " [no outcome: " + run.Delegations[0].NoOutcome + "]"
	}
	if cause := brokenAnswer(run); cause != "" && !c.Global() && (v.Outcome == scenarios.NotExercised || v.Outcome == scenarios.Fail && !v.Proven()) {
		blameContract(cr, cause)
	}
	if v.Outcome == scenarios.Fail && onlyMay(c.Grades) {
		cr.Result, cr.Detail = scenarios.Pass, "(MAY, informational) "+v.Detail
	}
}

// alternatives judges c again for every set of A2A versions the whole run
// may show the orchestrator speaking (scenarios.SpeaksCandidates of what
// is known now: the run's Speaks and this scenario's calls), each with its
// trace; nil when they all agree with cr.
func alternatives(run *scenarios.Run, cr CheckResult, c scenarios.Check, limits *LimitError) []Alternative {
	saved := run.Speaks
	defer func() { run.Speaks = saved }()
	base := scenarios.SpokenIn(run.Events)
	if saved != nil {
		base = base.Union(*saved)
	}
	var out []Alternative
	differ := false
	for _, sp := range scenarios.SpeaksCandidates(base) {
		run.Speaks = &sp
		alt := cr
		alt.judge(run, c, limits)
		alt.Trace = traceLines(run, alt.Seq)
		clipCheck(&alt)
		differ = differ || alt.Result != cr.Result || alt.Detail != cr.Detail || alt.Needs != cr.Needs || !maps.Equal(alt.Exempt, cr.Exempt)
		a := alt.alternative(sp.Key())
		if k := slices.IndexFunc(out, func(o Alternative) bool { return sameVerdict(o, a) }); k >= 0 {
			out[k].For = append(out[k].For, sp.Key())
			continue
		}
		out = append(out, a)
	}
	if !differ {
		return nil
	}
	return out
}

// sameVerdict reports whether two alternatives say the same (whatever
// they are for).
func sameVerdict(a, b Alternative) bool {
	return a.Result == b.Result && a.Detail == b.Detail && a.Seq == b.Seq && a.Needs == b.Needs && a.Expected == b.Expected &&
		a.Actual == b.Actual && a.Profile == b.Profile && a.Level == b.Level && maps.Equal(a.Exempt, b.Exempt)
}

// ContractFix is the fix a check prints when the orchestrator's answer
// broke the driver contract: the scenario's own fix would be beside the
// point.
const ContractFix = "Answer each delegate request with one JSON line of at most 1 MiB: " +
	`{"contract":1,"id":<the request's id>,"outcome":<completed, failed, rejected, escalated, interrupted or unimplemented>, ...}` +
	", nothing else on stdout (logs go to stderr); docs/driver-contract.md, \"Delegation outcome\"."

// brokenAnswer says which delegation of the run got an answer that broke
// the driver contract, and how ("delegation 1: wrong id"), or "".
func brokenAnswer(run *scenarios.Run) string {
	if run == nil {
		return ""
	}
	for i, d := range run.Delegations {
		if d.BrokeContract {
			return fmt.Sprintf("delegation %d: %s", i+1, d.NoOutcome)
		}
	}
	return ""
}

// blameContract makes a check that could not judge because an answer was
// unusable a CONTRACT_ERROR: the contract's rule, the offending answer, the
// contract's fix, before what the check itself saw.
func blameContract(cr *CheckResult, cause string) {
	cr.Result = scenarios.ContractError
	cr.Detail = "the orchestrator's answer broke the driver contract (" + cause + "), so the check had no usable answer; it saw: " + cr.Detail
	cr.Expected = "an outcome line the driver contract allows"
	cr.Actual = cause
	cr.Fix = ContractFix
}

// underLimits is the verdict v of check c over a run that reached the
// fleet's limits. A FAIL that kept evidence proves (Verdict.Proven: a
// request on the wire, an outcome the wire contradicts) stands, since
// nothing the limits took could make that request or that outcome right;
// when the trace lost its oldest events, only a Local check's FAIL
// stands, as another's may rest on what those events held. Any other
// verdict could be changed by the lost evidence and becomes ERROR, saying
// which limits took what and what the kept evidence alone would say.
func underLimits(v scenarios.Verdict, c scenarios.Check, limits *LimitError) scenarios.Verdict {
	if v.Proven() && (c.Local || !limits.EventsLost()) {
		v.Detail += " (proven by the kept evidence; the run also reached the fleet's limits: " + limits.What() + ")"
		return v
	}
	return scenarios.Verdict{
		Outcome:  scenarios.Error,
		Detail:   "harness error: " + limits.Error() + "; on the kept evidence alone the check would say " + string(v.Outcome) + ": " + v.Detail,
		Seq:      v.Seq,
		Expected: v.Expected,
		Actual:   v.Actual,
	}
}

func unimplemented(run *scenarios.Run) bool {
	if len(run.Delegations) == 0 {
		return false
	}
	for _, d := range run.Delegations {
		if !d.Unimplemented {
			return false
		}
	}
	return true
}

func onlyMay(gs []scenarios.Grade) bool {
	for _, g := range gs {
		if g.Level != scenarios.May {
			return false
		}
	}
	return true
}

// Bounds on the transcript a check result carries: a run of more events
// keeps the first traceHead and the traceAround on each side of the event
// that decided the verdict, with a line saying how many were left out (the
// report's scenario trace holds them, within its own budget).
const (
	traceHead   = 20
	traceAround = 20
)

// traceLines renders the run's events one line each, marking the event that
// decided the verdict.
func traceLines(run *scenarios.Run, mark int64) []string {
	if run == nil {
		return nil
	}
	evs := run.Events
	if len(evs) > traceHead+2*traceAround+1 {
		k := slices.IndexFunc(evs, func(e mockvendor.Event) bool { return e.Seq == mark })
		lo, hi := max(traceHead, k-traceAround), min(len(evs), k+traceAround+1)
		if k < 0 {
			lo, hi = traceHead, traceHead
		}
		out := renderEvents(evs[:traceHead], mark)
		if lo > traceHead {
			out = append(out, fmt.Sprintf("... %d events left out ...", lo-traceHead))
		}
		out = append(out, renderEvents(evs[lo:hi], mark)...)
		if hi < len(evs) {
			out = append(out, fmt.Sprintf("... %d more events ...", len(evs)-hi))
		}
		return out
	}
	return renderEvents(evs, mark)
}

// renderEvents renders events one line each, marking the event mark.
func renderEvents(evs []mockvendor.Event, mark int64) []string {
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		var b strings.Builder
		if e.Seq == mark {
			b.WriteString("=> ")
		}
		fmt.Fprintf(&b, "#%d %s", e.Seq, e.Op)
		if e.Method != "" {
			fmt.Fprintf(&b, " %s", e.Method)
		} else if e.HTTPMethod != "" {
			fmt.Fprintf(&b, " %s", e.HTTPMethod)
		}
		fmt.Fprintf(&b, " %s%s", e.Host, e.Path)
		if e.Skill != "" {
			fmt.Fprintf(&b, " skill=%s", e.Skill)
		}
		if e.Probe {
			b.WriteString(" probe")
		}
		if e.CacheControl != "" {
			fmt.Fprintf(&b, " cache-control=%q", e.CacheControl)
		}
		if e.IfNoneMatch != "" {
			fmt.Fprintf(&b, " if-none-match=%s", e.IfNoneMatch)
		}
		fmt.Fprintf(&b, " -> %d", e.Status)
		if e.Served != "" {
			fmt.Fprintf(&b, " %s", e.Served)
		}
		if e.ErrorCode != 0 {
			fmt.Fprintf(&b, " error %d", e.ErrorCode)
		}
		if e.TaskID != "" {
			fmt.Fprintf(&b, " task=%s", e.TaskID)
		}
		if e.State != "" {
			fmt.Fprintf(&b, " %s", e.State)
		}
		for _, c := range e.Coercions {
			fmt.Fprintf(&b, " coerced part %d %s->%s", c.Part, c.From, c.To)
		}
		if e.Note != "" {
			fmt.Fprintf(&b, " (%s)", e.Note)
		}
		out = append(out, traceLine(b.String()))
	}
	return out
}

// ReproduceCommand is the command that starts the fleet in a scenario's
// state, to reproduce a failure by hand.
func ReproduceCommand(scenario string) string {
	return "a2a-conform fleet up --scenario " + scenario
}

// FailureMessage is what the suite prints for a failed check: the
// requirement with its source, what was observed, and the fix.
func FailureMessage(cr CheckResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %s\n", cr.ID, cr.GradesText(), cr.Title)
	fmt.Fprintf(&b, "  requirement: %s [%s]\n", cr.Clause, cr.Source)
	fmt.Fprintf(&b, "  observed:    %s\n", cr.Detail)
	if cr.Expected != "" || cr.Actual != "" {
		fmt.Fprintf(&b, "  expected:    %s\n  actual:      %s\n", cr.Expected, cr.Actual)
	}
	if cr.Fix != "" {
		fmt.Fprintf(&b, "  fix:         %s\n", cr.Fix)
	}
	fmt.Fprintf(&b, "  reproduce:   %s\n", ReproduceCommand(cr.Scenario))
	if len(cr.Trace) > 0 {
		b.WriteString("  trace:\n")
		for _, l := range cr.Trace {
			b.WriteString("    " + l + "\n")
		}
	}
	return b.String()
}
