package suite

import (
	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Worst-case report sizes (README, "Bounds"), added up from the bounds on
// each part of a report. A report's trace is bounded as it is written
// (reportTraceBytes, runTraceBytes); every other part is counted at the
// most its text may take once escaped: text kept as the orchestrator sent
// it (outcomes, hello, stderr, notes) at six bytes a byte in JSON (a
// control character is written \u00XX), text the harness cleaned of
// control characters (check details, trace lines, no-outcome reasons:
// noControls) at two (a quote is \"), and any text at five in XML and HTML
// (a quote is &#34;).
const (
	rawJSON   = 6
	cleanJSON = 2
	// Markup is what a byte of text may take in XML or HTML.
	Markup = 5
	// CatalogJSON bounds what a check result holds that the catalog and
	// the harness wrote (id, title, clause, sources, fix, grades, the
	// scenarios a global covered, JSON keys): 1,251 bytes at most in
	// today's catalog; TestWorstCaseParts holds it.
	CatalogJSON = 4 << 10
	// MaxTraceLines is the most lines a check result's trace has (traceLines:
	// the head, the events around the one that decided, two "left out"
	// lines).
	MaxTraceLines = traceHead + 2*traceAround + 1 + 2
	// requestJSON bounds a delegation's request as the harness wrote it
	// (998 bytes at most in today's catalog).
	requestJSON = 8 << 10
	// scenarioMisc bounds a scenario result's own fields (id, title, area,
	// durations, counters, the command to reproduce it, untrusted hosts,
	// a harness error naming the fleet's limits).
	scenarioMisc = 8 << 10
	// reportHeader bounds what a report holds besides its checks and
	// scenarios (tool, orchestrator spec, profiles, tallies); the baseline
	// file a run is given comes on top.
	reportHeader = 64 << 10
)

// MaxOutcomeText is the most text an outcome keeps (contract's bounds:
// nine fields and a detail, each with its marker).
func MaxOutcomeText() int {
	return 9*(contract.MaxFieldBytes+contract.MaxClipMarker) + contract.MaxDetailBytes + contract.MaxClipMarker
}

// MaxTranscriptText is the most text a driver transcript keeps for a
// scenario of the given number of delegations: the stderr tail and its
// marker, MaxNotes notes and the line saying how many more were dropped,
// one exit line per process (at most two a delegation, and the first).
func MaxTranscriptText(delegations int) int {
	return driver.DefaultStderrLimit + 64 + (driver.MaxNotes+1)*(driver.MaxNoteBytes+contract.MaxClipMarker) + (2*delegations+1)*256
}

// maxHelloText is the most text a hello keeps (name and version).
const maxHelloText = 2 * (contract.MaxFieldBytes + contract.MaxClipMarker)

// maxCheckJSON is the most one check result takes in report.json.
func maxCheckJSON() int {
	return CatalogJSON + cleanJSON*(3*(MaxCheckText+contract.MaxClipMarker)+MaxTraceLines*(MaxTraceLine+contract.MaxClipMarker+3))
}

// maxGlobalJSON is the most a global requirement's folded result takes in
// report.json: its detail quotes the failing scenarios' details, up to
// MaxFoldedText.
func maxGlobalJSON() int {
	return maxCheckJSON() + cleanJSON*(MaxFoldedText-MaxCheckText)
}

// maxDelegationJSON is the most one delegation takes in report.json.
func maxDelegationJSON() int {
	return requestJSON + rawJSON*MaxOutcomeText() + cleanJSON*(MaxCheckText+contract.MaxClipMarker) + 512
}

// scenarioRestJSON is the most scenario s adds to report.json besides its
// trace.
func scenarioRestJSON(s *scenarios.Scenario) int {
	d := len(s.Requests)
	return len(s.WithGlobals())*maxCheckJSON() + d*maxDelegationJSON() + rawJSON*(MaxTranscriptText(d)+maxHelloText) + scenarioMisc
}

// WorstScenarioJSON is the most scenario s adds to report.json (its
// result, and its checks' results), whatever the orchestrator sends.
func WorstScenarioJSON(s *scenarios.Scenario) int {
	return reportTraceBytes + scenarioRestJSON(s)
}

// WorstRunJSON is the most report.json of a run of all may hold, whatever
// the orchestrator sends (the baseline file the run is given on top).
func WorstRunJSON(all []*scenarios.Scenario) int {
	n := min(len(all)*reportTraceBytes, runTraceBytes+len(all)*minTraceBytes)
	n += reportHeader + len(scenarios.GlobalChecks())*maxGlobalJSON()
	for _, s := range all {
		n += scenarioRestJSON(s)
	}
	return n
}

// maxJUnitCase is the most one check's test case takes in the JUnit
// report, its scenario's driver transcript aside: the detail twice (the
// failure's message and text), expected, actual, the trace and the
// outcomes of a scenario of the given number of delegations.
func maxJUnitCase(delegations int) int {
	text := 4*(MaxCheckText+contract.MaxClipMarker) + MaxTraceLines*(MaxTraceLine+contract.MaxClipMarker+8) +
		delegations*(MaxOutcomeText()+MaxCheckText+contract.MaxClipMarker+256)
	return CatalogJSON + Markup*text + 1<<10
}

// WorstRunJUnit is the most the JUnit report of a run of all may hold,
// whatever the orchestrator sends: a test case per check and per global
// requirement, and each scenario's driver transcript once.
func WorstRunJUnit(all []*scenarios.Scenario) int {
	n, most := reportHeader, 0
	for _, s := range all {
		d := len(s.Requests)
		most = max(most, d)
		n += len(s.Checks)*maxJUnitCase(d) + Markup*MaxTranscriptText(d)
	}
	return n + len(scenarios.GlobalChecks())*(maxJUnitCase(most)+2*Markup*(MaxFoldedText-MaxCheckText))
}
