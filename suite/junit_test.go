package suite

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// sampleReport has one check of every result state in two scenarios.
func sampleReport() *Report {
	full := func(id string, res scenarios.Outcome, g scenarios.Grade) CheckResult {
		c := cr(id, res, g)
		c.Scenario = strings.SplitN(id, ".", 2)[0]
		c.Title = "title of " + id
		c.Clause = "the clause of " + id
		c.Source = "seed 000, Decision Boundary"
		c.Fix = "the fix of " + id
		c.Detail = "observed " + id
		return c
	}
	fail := full("CARD-001.REFETCH", scenarios.Fail, safetyMust)
	fail.Seq = 2
	fail.Trace = []string{"#1 card-fetch GET agent-b.example/.well-known/agent-card.json -> 200 cdn", "=> #2 send message/send rpc.agent-b.example/a2a/v1 skill=invoice-reconciliation -> 200 error -32004"}
	waived := full("CARD-001.ROUTE", scenarios.Waived, safetyMust)
	waived.Waiver = "known: we escalate on purpose"
	errc := full("CARD-002.URL", scenarios.Error, coreMust)
	na := full("CARD-002.DONE", scenarios.NotApplicable, safetyMust)
	na.Detail = "did not stream"
	un := full("CARD-002.G-JSONRPC", scenarios.Unimplemented, coreMust)
	pass := full("CARD-001.BOUNDED", scenarios.Pass, safetyShd)
	r := &Report{
		Schema:       Schema,
		Tool:         Tool{Name: "a2a-conform", Version: "v0.1.0"},
		Orchestrator: Orchestrator{Spec: "exec:./orch"},
		StartedAt:    time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		DurationMs:   1234,
		Complete:     true,
		Checks:       []CheckResult{fail, waived, pass, errc, na, un},
		Scenarios: []ScenarioResult{
			{ID: "CARD-001", DurationMs: 300, Reproduce: "a2a-conform explain CARD-001",
				Delegations: []DelegationResult{{Request: contract.DelegationRequest{Task: contract.Task{Skill: "invoice-reconciliation"}},
					Outcome: &contract.DelegationOutcome{Outcome: "escalated", Reason: "other", Detail: "gave up"}, FirstSeq: 1, LastSeq: 2}},
				Transcript: driver.Transcript{Stderr: "orch: <boom> & \x01bell\n", Exits: []string{"pid 7: exited with status 0"}, Notes: []string{"restarted"}}},
			{ID: "CARD-002", DurationMs: 100, HarnessErr: "starting the fleet: no port"},
		},
	}
	r.Finish(Baseline{"CARD-001.ROUTE": "known: we escalate on purpose", "CARD-009.*": "gone"})
	return r
}

func TestWriteJUnit(t *testing.T) {
	r := sampleReport()
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want 1", len(doc.Suites))
	}
	ts := doc.Suites[0]
	// 6 checks + the stale baseline entry.
	if ts.Tests != 7 || ts.Failures != 2 || ts.Errors != 1 || ts.Skipped != 2 || doc.Tests != 7 {
		t.Errorf("counts: tests %d failures %d errors %d skipped %d; want 7 2 1 2", ts.Tests, ts.Failures, ts.Errors, ts.Skipped)
	}
	cases := map[string]junitCase{}
	for _, c := range ts.Cases {
		cases[c.Name] = c
	}
	f := cases["CARD-001.REFETCH"]
	if f.Classname != "CARD-001" || f.Failure == nil || f.Error != nil {
		t.Fatalf("CARD-001.REFETCH: %+v", f)
	}
	for _, want := range []string{"the clause of CARD-001.REFETCH", "seed 000, Decision Boundary", "observed CARD-001.REFETCH", "the fix of CARD-001.REFETCH",
		"=> #2 send message/send", "escalated (reason=other): gave up", "exit: pid 7: exited with status 0", "note: restarted", "orch: <boom> &", "a2a-conform explain CARD-001"} {
		if !strings.Contains(f.Failure.Text, want) {
			t.Errorf("the failure text lacks %q:\n%s", want, f.Failure.Text)
		}
	}
	if f.Failure.Message != "observed CARD-001.REFETCH" {
		t.Errorf("failure message %q", f.Failure.Message)
	}
	if e := cases["CARD-002.URL"]; e.Error == nil || e.Failure != nil || !strings.Contains(e.Error.Text, "harness error: starting the fleet") {
		t.Errorf("CARD-002.URL is not an <error> with the harness error: %+v", e)
	}
	if s := cases["CARD-002.DONE"]; s.Skipped == nil || s.Skipped.Message != "NOT_APPLICABLE: did not stream" {
		t.Errorf("CARD-002.DONE: %+v", s.Skipped)
	}
	if s := cases["CARD-002.G-JSONRPC"]; s.Skipped == nil || !strings.HasPrefix(s.Skipped.Message, "UNIMPLEMENTED") {
		t.Errorf("CARD-002.G-JSONRPC: %+v", s.Skipped)
	}
	w := cases["CARD-001.ROUTE"]
	if w.Failure != nil || w.Error != nil || w.Skipped != nil || !strings.Contains(w.SystemOut, "WAIVED by the baseline: known: we escalate on purpose") {
		t.Errorf("CARD-001.ROUTE is not a waived pass: %+v", w)
	}
	// The scenario's driver transcript is told once, under its first
	// failed (or waived) check; the others name that check.
	if !strings.Contains(w.SystemOut, "driver transcript: under CARD-001.REFETCH") || strings.Contains(w.SystemOut, "note: restarted") {
		t.Errorf("CARD-001.ROUTE repeats the driver transcript, or does not say where it is:\n%s", w.SystemOut)
	}
	var waivedProp bool
	for _, p := range w.Properties {
		waivedProp = waivedProp || p.Name == "waived" && p.Value == "known: we escalate on purpose"
	}
	if !waivedProp {
		t.Errorf("CARD-001.ROUTE has no waived property: %+v", w.Properties)
	}
	if p := cases["CARD-001.BOUNDED"]; p.Failure != nil || p.Error != nil || p.Skipped != nil || p.SystemOut != "" {
		t.Errorf("CARD-001.BOUNDED is not a plain pass: %+v", p)
	}
	if bl := cases["baseline"]; bl.Failure == nil || !strings.Contains(bl.Failure.Text, `"CARD-009.*" matches no check`) {
		t.Errorf("the stale baseline entry is not a failure: %+v", bl)
	}
	if strings.ContainsRune(b.String(), '\x01') {
		t.Errorf("a control character reached the XML")
	}
}

func TestWriteJUnitIncomplete(t *testing.T) {
	r := sampleReport()
	r.Complete = false
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	last := doc.Suites[0].Cases[len(doc.Suites[0].Cases)-1]
	if last.Name != "complete" || last.Error == nil || doc.Errors != 2 {
		t.Errorf("an interrupted run is not reported as an error: %+v (errors %d)", last, doc.Errors)
	}
}
