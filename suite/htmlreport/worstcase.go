package htmlreport

import (
	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// Parts of the page whatever the orchestrator sends, for WorstPage: the
// markup of one step around its text (details, summary, tables, a row per
// field), and what a scenario's section holds besides its steps, checks,
// outcomes and transcript (its heading, chips, the lanes' heads, one of
// them the orchestrator's name).
const (
	stepMarkup      = 2 << 10
	scenarioMarkup  = 16 << 10
	wireLines       = suite.MaxTraceLines // suite.TraceLines: one per event up to 61, then 20 and two summaries
	pageMarkup      = 64 << 10
	checkRowMarkup  = 1 << 10
	perCheckEscaped = 3 * (suite.MaxCheckText + contract.MaxClipMarker) // detail, expected, actual
)

// WorstPage is the most the HTML report of a run of all may hold (README,
// "Bounds"): for each scenario its steps' text (maxStepText, every byte
// escaped at its worst) and markup, its wire transcript, its checks,
// outcomes and driver transcript; then every check once in the matrix
// and once more among the failures.
func WorstPage(all []*scenarios.Scenario) int {
	n := pageMarkup
	checks := len(scenarios.GlobalChecks())
	for _, s := range all {
		n += worstSection(s)
		checks += len(s.Checks)
	}
	n += 2 * checks * (suite.CatalogJSON + checkRowMarkup + suite.Markup*perCheckEscaped)
	// A global requirement's detail quotes its failing scenarios' (up to
	// MaxFoldedText).
	return n + 2*len(scenarios.GlobalChecks())*suite.Markup*(suite.MaxFoldedText-suite.MaxCheckText)
}

// worstSection is the most scenario s's section of the page may hold.
func worstSection(s *scenarios.Scenario) int {
	d := len(s.Requests)
	text := maxStepText + wireLines*(suite.MaxTraceLine+contract.MaxClipMarker) +
		d*(suite.MaxOutcomeText()+suite.MaxCheckText+contract.MaxClipMarker+256) + suite.MaxTranscriptText(d)
	return scenarioMarkup + maxSteps*stepMarkup + suite.Markup*text +
		len(s.Checks)*(suite.CatalogJSON+suite.Markup*perCheckEscaped)
}
