package suite

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// hostileEvent is an event whose every text field is at the trace's
// 256-byte cap, all control characters: six bytes each in JSON.
func hostileEvent(seq int64) mockvendor.Event {
	f := strings.Repeat("\x01", mockvendor.MaxTracedField)
	return mockvendor.Event{Seq: seq, Op: mockvendor.OpSend, Vendor: f, Host: f, ServerName: f, HTTPMethod: f, Path: f, Method: f,
		Dialect: f, A2AVersion: f, A2AVersionQuery: f, A2AExtensions: f, XA2AExtensions: f, CacheControl: f, Pragma: f, IfNoneMatch: f, Skill: f, TaskID: f,
		Tenant: f, ContentType: f, State: f, ErrorMessage: f, Served: f, Note: f, URL: f, DeliveryError: f, Status: 200}
}

// TestReportTraceEscapes: 5,000 events of text JSON escapes six times
// over are kept only as far as reportTraceBytes of JSON go (without the
// budget they took 170 MB), the rest counted as left out.
func TestReportTraceEscapes(t *testing.T) {
	evs := make([]mockvendor.Event, reportEvents)
	for i := range evs {
		evs[i] = hostileEvent(int64(i + 1))
	}
	kept, leftOut, _ := reportTrace(evs)
	var b bytes.Buffer
	if err := reportEncoder(&b).Encode(kept); err != nil {
		t.Fatal(err)
	}
	if b.Len() > reportTraceBytes+len(kept)+2 || len(kept)+leftOut != len(evs) || leftOut == 0 {
		t.Errorf("kept %d events in %d bytes of JSON (budget %d), left out %d", len(kept), b.Len(), reportTraceBytes, leftOut)
	}
	t.Logf("kept %d of %d events: %d bytes of JSON, %d each", len(kept), len(evs), b.Len(), encodedSize(evs[0]))
}

// TestRunTraceBudget: the scenarios of a run keep their traces together
// within runTraceBytes of JSON; past it each keeps minTraceBytes.
func TestRunTraceBudget(t *testing.T) {
	evs := make([]mockvendor.Event, 1000)
	for i := range evs {
		evs[i] = hostileEvent(int64(i + 1))
	}
	one := encodedSize(evs[0])
	var b traceBudget
	total := 0
	for i := 0; i < 30; i++ {
		res := ScenarioResult{Trace: append([]mockvendor.Event(nil), evs...), TraceLeftOut: 7}
		b.fit(&res)
		size := len(res.Trace) * one
		total += size
		if len(res.Trace)+res.TraceLeftOut != len(evs)+7 || size > max(runTraceBytes, minTraceBytes) {
			t.Fatalf("scenario %d keeps %d events (%d bytes), %d left out", i, len(res.Trace), size, res.TraceLeftOut)
		}
		if i == 29 && (size > minTraceBytes || size < minTraceBytes-one) {
			t.Errorf("past the run's budget a scenario keeps %d bytes, want %d", size, minTraceBytes)
		}
	}
	if total > runTraceBytes+30*minTraceBytes || total < runTraceBytes {
		t.Errorf("the run keeps %d bytes of traces, budget %d (+%d a scenario)", total, runTraceBytes, minTraceBytes)
	}
}

// TestTraceLineBounds: a rendered trace line is at most MaxTraceLine
// bytes and a marker, with no control character; an ordinary line is
// left as it was.
func TestTraceLineBounds(t *testing.T) {
	hostile := renderEvents([]mockvendor.Event{hostileEvent(1)}, 1)[0]
	if len(hostile) > MaxTraceLine+contract.MaxClipMarker || !strings.Contains(hostile, "more bytes]") || strings.ContainsFunc(hostile, func(r rune) bool { return r < 0x20 }) || !utf8.ValidString(hostile) {
		t.Errorf("a hostile line of %d bytes: %.80q", len(hostile), hostile)
	}
	e := mockvendor.Event{Seq: 3, Op: mockvendor.OpSend, Method: "SendMessage", Host: "rpc.agent-b.example", Path: "/a2a/v1", Skill: "invoice-reconciliation", Status: 200, TaskID: "t-1", State: "completed"}
	if got, want := renderEvents([]mockvendor.Event{e}, 0)[0], "#3 send SendMessage rpc.agent-b.example/a2a/v1 skill=invoice-reconciliation -> 200 task=t-1 completed"; got != want {
		t.Errorf("an ordinary line changed: %q, want %q", got, want)
	}
}

// TestJudgeClipsCheckText: a check whose verdict quotes 10 KiB of what the
// orchestrator sent gives a result whose detail, expected and actual are
// at most MaxCheckText bytes and a marker, without control characters
// (tabs and newlines kept).
func TestJudgeClipsCheckText(t *testing.T) {
	quoted := strings.Repeat("a\x1b[31m\u2028", 2<<10)
	s := &scenarios.Scenario{ID: "T-001", Title: "t", Area: "card", Checks: []scenarios.Check{{
		ID: "T-001.X", Title: "x", Grades: []scenarios.Grade{{Profile: scenarios.Profiles[0], Level: scenarios.Must}},
		Reached: scenarios.Precondition{Needs: "anything", Met: func(*scenarios.Run) bool { return true }},
		Judge: func(*scenarios.Run) scenarios.Verdict {
			return scenarios.Failf("the outcome said\t%s\n", quoted).Want(quoted, quoted)
		},
	}}}
	cr := Judge(&scenarios.Run{}, nil, s, s.Checks[0], nil)
	for name, v := range map[string]string{"detail": cr.Detail, "expected": cr.Expected, "actual": cr.Actual} {
		if len(v) > MaxCheckText+contract.MaxClipMarker || !strings.Contains(v, "more bytes]") || strings.ContainsAny(v, "\x1b\u2028") {
			t.Errorf("%s: %d bytes: %.60q", name, len(v), v)
		}
	}
	if !strings.HasPrefix(cr.Detail, "the outcome said\ta") {
		t.Errorf("the detail lost its tab: %.40q", cr.Detail)
	}
}

// TestReportJSONKeepsMarkup: report.json writes <, > and & as they are
// (as six-byte escapes, text full of them took six times its size).
func TestReportJSONKeepsMarkup(t *testing.T) {
	r := &Report{Schema: Schema, Checks: []CheckResult{{ID: "X", Detail: "a <b> & c"}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Checks[0].Detail != "a <b> & c" {
		t.Fatalf("the report does not read back (%v): %s", err, b.Bytes())
	}
	if !bytes.Contains(b.Bytes(), []byte(`"a <b> & c"`)) || bytes.Count(b.Bytes(), []byte("\n")) != 1 {
		t.Errorf("the report is not compact JSON with the text as it is: %s", b.Bytes())
	}
}

// TestWorstCaseParts holds the parts the worst-case sizes are added up
// from to today's catalog: what a check result holds besides its detail,
// expected, actual and trace is within CatalogJSON. Only a global
// requirement's result lists the scenarios it covered (globals.go), so
// only a global check is measured with every scenario in Covered.
func TestWorstCaseParts(t *testing.T) {
	for _, s := range scenarios.All() {
		for _, c := range s.WithGlobals() {
			cr := CheckResult{ID: s.CheckID(c), Scenario: s.ID, Title: c.Title, Profile: c.Grades[0].Profile, Level: c.Grades[0].Level,
				Grades: c.Grades, Clause: c.Requirement, Source: c.Cite(), Sources: c.Sources, Fix: c.Fix,
				Result: scenarios.NotExercised, Seq: 1 << 62, Exempt: map[scenarios.Profile]string{}, Engaged: true}
			for _, o := range scenarios.All() {
				if c.Global() {
					cr.Covered = append(cr.Covered, o.ID)
				}
			}
			for _, g := range c.Grades {
				cr.Exempt[g.Profile] = "a reason of some length, as a grade's When says it"
			}
			b, _ := json.Marshal(cr)
			if len(b) > CatalogJSON {
				t.Errorf("%s: %d bytes of catalog text, CatalogJSON %d", cr.ID, len(b), CatalogJSON)
			}
		}
	}
}

// TestFoldedDetailBounded: a global requirement failed in every scenario
// folds into one detail of at most MaxFoldedText bytes and a marker
// (quoting 43 details of 4 KiB took 176 KiB).
func TestFoldedDetailBounded(t *testing.T) {
	g := scenarios.GlobalChecks()[0]
	var obs []CheckResult
	for _, s := range scenarios.All() {
		obs = append(obs, CheckResult{ID: s.ID + "." + g.ID, Scenario: s.ID, Title: g.Title, Grades: g.Grades, Result: scenarios.Fail,
			Detail: strings.Repeat("d", MaxCheckText)})
	}
	cr := foldGlobal(g, obs)
	if cr.Result != scenarios.Fail || len(cr.Detail) > MaxFoldedText+contract.MaxClipMarker || !strings.HasSuffix(cr.Detail, "more bytes]") {
		t.Errorf("%s: %d bytes of detail", cr.Result, len(cr.Detail))
	}
}
