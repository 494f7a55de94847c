package suite

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// lineWriter prints whole lines from concurrent scenarios.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Mark is the one-character sign of a result in the console lines and the
// HTML report's matrix.
func Mark(o scenarios.Outcome) string { return marks[o] }

var marks = map[scenarios.Outcome]string{
	scenarios.Pass:          "✓",
	scenarios.Fail:          "✗",
	scenarios.NotApplicable: "-",
	scenarios.NotExercised:  "○",
	scenarios.Waived:        "w",
	scenarios.Error:         "E",
	scenarios.Unimplemented: "u",
	scenarios.ContractError: "!",
}

// ConsoleNotes is how many of a scenario's driver notes (lines that were
// not JSON, answers with a wrong id or an unknown word, exits) the console
// prints under a scenario with a FAIL, ERROR or NOT_EXERCISED.
const ConsoleNotes = 8

// StderrTailLines is how many of the orchestrator's last stderr lines the
// console prints under a scenario with a check FAIL, ERROR or
// NOT_EXERCISED.
const StderrTailLines = 10

// scenarioLine prints a scenario's line: its id, a mark per check, its time
// and title; under a scenario with a FAIL or ERROR, the last
// StderrTailLines lines of the orchestrator's stderr (the report keeps
// more), so that the reason an orchestrator gave up is on the console.
func (lw *lineWriter) scenarioLine(s *scenarios.Scenario, results []scenarios.Outcome, res ScenarioResult) {
	if len(results) == 0 {
		return
	}
	var b strings.Builder
	failed := false
	for _, r := range results {
		b.WriteString(marks[r])
		failed = failed || r == scenarios.Fail || r == scenarios.Error || r == scenarios.NotExercised || r == scenarios.ContractError
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	fmt.Fprintf(lw.w, "%-10s %-12s %6.2fs  %s\n", s.ID, b.String(), float64(res.DurationMs)/1000, s.Title)
	if !failed {
		return
	}
	for _, l := range whyLines(res) {
		fmt.Fprintf(lw.w, "  %s\n", l)
	}
	if notes := res.Transcript.Notes; len(notes) > 0 {
		fmt.Fprintf(lw.w, "  driver notes (%d; the JSON report's transcript.notes has them all):\n", len(notes))
		for i, n := range notes {
			if i == ConsoleNotes {
				fmt.Fprintf(lw.w, "  · %d more\n", len(notes)-i)
				break
			}
			fmt.Fprintf(lw.w, "  · %s\n", clip(printable(n), 200))
		}
	}
	tail, total := StderrTail(res.Transcript.Stderr, StderrTailLines)
	if len(tail) == 0 {
		return
	}
	fmt.Fprintf(lw.w, "  orchestrator stderr (last %d of %d lines):\n", len(tail), total)
	for _, l := range tail {
		fmt.Fprintf(lw.w, "  | %s\n", l)
	}
}

// DelegationLine says in words what came of a run's delegations: how many
// completed as the wire shows, how many of the others ended as their
// scenario wanted (a right refusal), and how many brought back no usable
// answer.
func DelegationLine(t DelegationTally) string {
	line := fmt.Sprintf("%d/%d completed (as the wire shows)", t.Completed, t.Attempted)
	if others := t.Attempted - t.Completed; others > 0 {
		line += fmt.Sprintf("; of the %d others, %d ended as their scenario wants (a right refusal or interruption)", others, t.EndedAsWanted)
	}
	if t.Attempted > 0 && t.Answered < t.Attempted {
		line += fmt.Sprintf("; %d brought back no usable answer", t.Attempted-t.Answered)
	}
	if t.Attempted > 0 && t.Answered == 0 {
		line += ": no answer was usable, so the run is conformant in no profile"
	}
	return line
}

// whyLines says, for the console, which delegations of a scenario got no
// outcome and the driver's reason ("timeout", "http status 307, a
// redirect to ..."), one line each, clipped to 200 characters with
// control characters quoted.
func whyLines(res ScenarioResult) []string {
	var out []string
	for i, d := range res.Delegations {
		if d.Outcome == nil && d.NoOutcome != "" {
			out = append(out, clip(printable(fmt.Sprintf("delegation %d: no outcome: %s", i+1, d.NoOutcome)), 200))
		}
	}
	return out
}

// StderrTail returns the last n non-blank lines of stderr, each clipped to
// 200 characters with control characters (ANSI colour codes among them)
// shown as \x.. escapes, and how many non-blank lines there were.
func StderrTail(stderr string, n int) ([]string, int) {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimRight(l, "\r \t"); l != "" {
			lines = append(lines, l)
		}
	}
	total := len(lines)
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = clip(printable(l), 200)
	}
	return lines, total
}

// printable quotes the control characters of s, so an orchestrator's
// output cannot move the cursor or colour the console.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("  ")
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// WriteScorecard prints the scorecard of a report: per profile the score,
// MUST passed/applicable, conformant yes/no and the result counts; then
// the failed checks and baseline problems.
func WriteScorecard(w io.Writer, r *Report) {
	fmt.Fprintf(w, "\na2a-conform scorecard: %s (%d checks", r.Orchestrator.Spec, len(r.Checks))
	if !r.TimeScale.IsReal() {
		fmt.Fprintf(w, ", time scale %s: not a real-time measurement", r.TimeScale)
	}
	switch {
	case r.StoppedEarly != "":
		fmt.Fprint(w, ", INCOMPLETE: stopped early")
	case !r.Complete:
		fmt.Fprint(w, ", INCOMPLETE: the run was interrupted")
	}
	fmt.Fprintln(w, ")")
	for _, p := range scenarios.Profiles {
		ps, ok := r.Profiles[p]
		if !ok {
			continue
		}
		conf := "no"
		if ps.Conformant {
			conf = "yes"
		}
		var counts []string
		keys := make([]string, 0, len(ps.Counts))
		for k := range ps.Counts {
			keys = append(keys, string(k))
		}
		sort.Strings(keys)
		for _, k := range keys {
			counts = append(counts, fmt.Sprintf("%s %d", k, ps.Counts[scenarios.Outcome(k)]))
		}
		if n := ps.NeedsText(); n != "" {
			counts = append(counts, n)
		}
		fmt.Fprintf(w, "  %-20s score %5.1f  MUST %d/%d  conformant: %-3s  not exercised %d  (%s)\n", ps.Label(p), ps.Score, ps.MustPassed, ps.MustApplicable, conf, ps.NotExercised, strings.Join(counts, ", "))
	}
	fmt.Fprintf(w, "  %-20s %s\n", "delegations", DelegationLine(r.Delegations))
	if r.Speaks != nil {
		how := "as the run's requests show"
		if r.Speaks.Declared {
			how = "as its hello declares and the run's requests show"
		}
		fmt.Fprintf(w, "  %-20s A2A %s over %s (%s)\n", "speaks", r.Speaks, strings.Join(r.Speaks.Bindings, ", "), how)
	}
	var globals []string
	for _, c := range r.Checks {
		if strings.HasPrefix(c.ID, "G-") {
			globals = append(globals, fmt.Sprintf("  %s %-22s %-6s %s", marks[c.Result], c.ID, c.Level, clip(c.Detail, 108)))
		}
	}
	if len(globals) > 0 {
		fmt.Fprintln(w, "global requirements (one result each, across the scenarios):")
		for _, g := range globals {
			fmt.Fprintln(w, g)
		}
	}
	var failed []string
	for _, c := range r.Checks {
		if c.Result == scenarios.Fail || c.Result == scenarios.Error {
			level := string(c.Level)
			if c.Ungraded() && c.Result == scenarios.Fail {
				level = "no grade (" + c.GradesText() + ")"
			}
			failed = append(failed, fmt.Sprintf("  %s %-26s %s: %s", marks[c.Result], c.ID, level, c.Detail))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintln(w, "failed:")
		for _, f := range failed {
			fmt.Fprintln(w, f)
		}
	}
	for _, p := range r.BaselineProblems {
		fmt.Fprintln(w, "baseline: "+p)
	}
}

// clip shortens s to n runes for a console line.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}
