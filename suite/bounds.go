package suite

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// Bounds on what a scenario adds to the reports besides what the driver
// and the fleet already bound (contract.MaxFieldBytes and MaxDetailBytes
// for what the orchestrator reports, the transcript's notes and stderr
// tail, mockvendor.MaxTracedField per trace field):
const (
	// reportTraceBytes bounds the JSON of the events a scenario keeps
	// in the report, bodies included: 5,000 ordinary events and 4 MiB
	// of bodies take about 6.5 MiB, so it binds only when the events are
	// full of text JSON escapes (a control character takes six bytes).
	reportTraceBytes = 8 << 20
	// MaxCheckText bounds a check result's detail, expected and actual
	// (harness text that may quote what the orchestrator sent), and the
	// no-outcome reason of a delegation.
	MaxCheckText = 4 << 10
	// MaxFoldedText bounds a global requirement's folded detail, which
	// quotes each failing scenario's (up to MaxCheckText each).
	MaxFoldedText = 4 * MaxCheckText
	// MaxTraceLine bounds one rendered trace line (an ordinary one is
	// about 120 bytes; each field in it is already at most 256).
	MaxTraceLine = 512
	// runTraceBytes bounds the JSON of the traces all the scenarios of a
	// run keep together; past it a scenario keeps minTraceBytes, so that
	// every scenario shows how it started. Honest runs keep about 20 KiB a
	// scenario; it binds when many scenarios are floods.
	runTraceBytes = 64 << 20
	minTraceBytes = 256 << 10
)

// traceBudget is what is left of a run's runTraceBytes; safe for
// concurrent use.
type traceBudget struct {
	mu   sync.Mutex
	used int
}

// fit cuts res's trace to what is left of the run's budget (at least
// minTraceBytes), counting the events it cuts in TraceLeftOut.
func (b *traceBudget) fit(res *ScenarioResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	allow := max(runTraceBytes-b.used, minTraceBytes)
	size := 0
	for i, e := range res.Trace {
		n := encodedSize(e)
		if size+n > allow {
			res.TraceLeftOut += len(res.Trace) - i
			res.Trace = res.Trace[:i:i]
			break
		}
		size += n
	}
	b.used += size
}

// clipOutcomes cuts every outcome of the run to the contract's bounds
// (contract.DelegationOutcome.Clip). Execute calls it once it has looked
// for credentials in the whole text (redactReported).
func clipOutcomes(run *scenarios.Run) {
	for i := range run.Delegations {
		d := &run.Delegations[i]
		if d.Outcome != nil {
			d.Outcome.Clip()
		}
		d.NoOutcome = contract.ClipText(noControls(d.NoOutcome, ""), MaxCheckText)
	}
}

// clipCheck cuts a check result's detail, expected and actual to
// MaxCheckText bytes, and shows control characters in them as U+FFFD
// (noControls): they may quote what the orchestrator sent.
func clipCheck(cr *CheckResult) {
	for _, s := range []*string{&cr.Detail, &cr.Expected, &cr.Actual} {
		*s = contract.ClipText(noControls(*s, "\n\t"), MaxCheckText)
	}
}

// traceLine is a rendered trace line as the reports keep it: at most
// MaxTraceLine bytes, every control character shown as U+FFFD.
func traceLine(s string) string {
	return contract.ClipText(noControls(s, ""), MaxTraceLine)
}

// noControls replaces the control characters of s but those in keep, DEL,
// U+2028 and U+2029 (which JSON writes as six-byte escapes and XML 1.0
// cannot hold) and any byte that is not UTF-8 with U+FFFD, so that each
// byte of the result costs at most two in a JSON report (a quote, a
// backslash) and five in XML or HTML.
func noControls(s, keep string) string {
	bad := func(r rune) bool {
		return (r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError) && !strings.ContainsRune(keep, r)
	}
	if !strings.ContainsFunc(s, bad) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

// encodedSize is the size of e in report.json.
func encodedSize(e mockvendor.Event) int {
	var n countWriter
	_ = reportEncoder(&n).Encode(e)
	return int(n) - 1 // Encode's newline
}

// countWriter counts the bytes written to it.
type countWriter int

// Write implements io.Writer.
func (c *countWriter) Write(b []byte) (int, error) {
	*c += countWriter(len(b))
	return len(b), nil
}
