package suite

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// TestJudgeUnderLimits: over a run that reached the fleet's limits, a FAIL
// that a kept request proves stands (naming the limits), and so does a
// Local check's when the trace lost events; every other verdict becomes
// ERROR, saying what the kept evidence alone would have said.
func TestJudgeUnderLimits(t *testing.T) {
	bodies := &LimitError{Hits: []mockvendor.LimitHit{{Limit: "MaxTaskBytes", Count: 9, What: "9 tasks forgotten past Limits.MaxTaskBytes"}}}
	events := &LimitError{Hits: []mockvendor.LimitHit{{Limit: "MaxTraceEvents", Count: 9, What: "9 trace events dropped past Limits.MaxTraceEvents", EventsLost: true}}}
	failAt := func(*scenarios.Run) scenarios.Verdict { return scenarios.Failf("request 5 broke the rule").At(5) }
	failUnseen := func(*scenarios.Run) scenarios.Verdict { return scenarios.Failf("no completion") }
	pass := func(*scenarios.Run) scenarios.Verdict { return scenarios.Passf("held") }
	cases := []struct {
		name   string
		limits *LimitError
		judge  func(*scenarios.Run) scenarios.Verdict
		local  bool
		want   scenarios.Outcome
		detail string
	}{
		{"a request proves the FAIL", bodies, failAt, false, scenarios.Fail, "proven by the kept evidence; the run also reached the fleet's limits: 9 tasks forgotten"},
		{"an absence proves nothing", bodies, failUnseen, false, scenarios.Error, "would say FAIL: no completion"},
		{"a PASS may be what the limit hid", bodies, pass, false, scenarios.Error, "would say PASS: held"},
		{"events lost: a FAIL that earlier events could answer", events, failAt, false, scenarios.Error, "9 trace events dropped"},
		{"events lost: a Local FAIL", events, failAt, true, scenarios.Fail, "proven by the kept evidence"},
		{"another harness error", nil, failAt, true, scenarios.Error, "fleet did not start"},
	}
	s := &scenarios.Scenario{ID: "UNIT-001"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := scenarios.Check{ID: "UNIT-001.X", Grades: []scenarios.Grade{{Profile: scenarios.Safety, Level: scenarios.Must}},
				Reached: scenarios.Precondition{Needs: "do it", Met: func(*scenarios.Run) bool { return true }}, Judge: tc.judge, Local: tc.local}
			var err error = errors.New("the fleet did not start")
			if tc.limits != nil {
				err = tc.limits
			}
			cr := Judge(&scenarios.Run{Scenario: s.ID}, err, s, c, nil)
			if cr.Result != tc.want || !strings.Contains(cr.Detail, tc.detail) {
				t.Errorf("got %s (%s)\nwant %s with %q", cr.Result, cr.Detail, tc.want, tc.detail)
			}
		})
	}
}

// TestGradesTextLeavesOutExempt: a grade whose condition the run did not
// meet (SIG-004.REJECT's a2a-core MUST, for a client that does not claim
// to verify) is not printed as if it applied, in the console's failure
// message, JUnit's grades property and the HTML page alike (all three use
// GradesText).
func TestGradesTextLeavesOutExempt(t *testing.T) {
	gs := []scenarios.Grade{{Profile: scenarios.Safety, Level: scenarios.Must}, {Profile: scenarios.Core, Level: scenarios.Must}}
	cases := []struct {
		exempt map[scenarios.Profile]string
		want   string
	}{
		{nil, "delegation-safety MUST, a2a-core MUST"},
		{map[scenarios.Profile]string{scenarios.Core: "applies only to an orchestrator that did claim to verify"}, "delegation-safety MUST"},
	}
	for _, tc := range cases {
		cr := CheckResult{ID: "SIG-004.REJECT", Grades: gs, Exempt: tc.exempt}
		if got := cr.GradesText(); got != tc.want {
			t.Errorf("exempt %v: GradesText %q, want %q", tc.exempt, got, tc.want)
		}
		if msg := FailureMessage(cr); !strings.Contains(msg, "["+tc.want+"]") {
			t.Errorf("exempt %v: failure message %q lacks [%s]", tc.exempt, msg, tc.want)
		}
	}
}

// TestJudgeBlamesABrokenAnswer: when an answer broke the driver contract,
// a check that could not judge (NOT_EXERCISED, or a FAIL nothing on the
// wire proves) is a CONTRACT_ERROR that says so, with the contract's fix
// instead of the scenario's;
// a FAIL a request proves keeps its own text; a silence (timeout) is not
// a broken answer.
func TestJudgeBlamesABrokenAnswer(t *testing.T) {
	notReached := func(*scenarios.Run) scenarios.Verdict { return scenarios.NotExercisedf("not reached") }
	failAt := func(*scenarios.Run) scenarios.Verdict { return scenarios.Failf("request 5 broke the rule").At(5) }
	failUnseen := func(*scenarios.Run) scenarios.Verdict { return scenarios.Failf("no completion") }
	broken := scenarios.Delegation{NoOutcome: `unknown outcome "success"`, BrokeContract: true}
	silent := scenarios.Delegation{NoOutcome: "timeout"}
	cases := []struct {
		name    string
		d       scenarios.Delegation
		judge   func(*scenarios.Run) scenarios.Verdict
		blamed  bool
		keeps   string
		outcome scenarios.Outcome
	}{
		{"not reached after a broken answer", broken, notReached, true, "not reached", scenarios.ContractError},
		{"an unproven FAIL after a broken answer", broken, failUnseen, true, "no completion", scenarios.ContractError},
		{"a proven FAIL keeps its own text", broken, failAt, false, "request 5 broke the rule", scenarios.Fail},
		{"a timeout is no broken answer", silent, notReached, false, "not reached", scenarios.NotExercised},
	}
	s := &scenarios.Scenario{ID: "UNIT-001"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := scenarios.Check{ID: "UNIT-001.X", Grades: []scenarios.Grade{{Profile: scenarios.Safety, Level: scenarios.Must}},
				Reached: scenarios.Precondition{Needs: "do it", Met: func(*scenarios.Run) bool { return true }}, Judge: tc.judge, Fix: "the scenario's fix"}
			cr := Judge(&scenarios.Run{Scenario: s.ID, Delegations: []scenarios.Delegation{tc.d}}, nil, s, c, nil)
			blamed := strings.Contains(cr.Detail, "broke the driver contract (delegation 1: "+tc.d.NoOutcome+")") && cr.Fix == ContractFix
			if cr.Result != tc.outcome || blamed != tc.blamed || !strings.Contains(cr.Detail, tc.keeps) {
				t.Errorf("got %s (%s; fix %q), want %s, blamed %v, keeping %q", cr.Result, cr.Detail, cr.Fix, tc.outcome, tc.blamed, tc.keeps)
			}
		})
	}
}
