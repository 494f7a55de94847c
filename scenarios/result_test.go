package scenarios

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

const resAgent = "https://rpc.agent-d.example/a2a/v1"

// The artifacts D delivers in the synthetic runs, as 1.0 JSON: a report of
// three text parts and a data part, and a log of two text parts.
var (
	resReport = json.RawMessage(`{"artifactId":"a-t-1-0","name":"report","parts":[{"text":"Q3 recon"},{"text":"ciliation: 41 matched, "},{"text":"2 open."},{"data":{"matched":41,"open":2}}]}`)
	resLog    = json.RawMessage(`{"artifactId":"a-t-1-1","name":"log","parts":[{"text":"checked 43 lines\n"},{"text":"2 lines open\n"}]}`)
)

// resSum summarises raw artifacts as an orchestrator that keeps them
// reports them.
func resSum(t *testing.T, raws ...string) []contract.Artifact {
	t.Helper()
	var out []contract.Artifact
	for _, raw := range raws {
		a, err := contract.SummarizeArtifact(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// resRun is a run of one delegation to D: events, then the outcome.
func resRun(o *contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
	if o != nil {
		o.Agent, o.Skill = resAgent, "s"
	}
	return &Run{Events: evs, Delegations: []Delegation{{Outcome: o, FirstSeq: 1, LastSeq: 99}}}
}

// resEvent is a real answer of D for task t-1 (op, state) that delivered
// results.
func resEvent(seq int64, op mockvendor.Op, state string, res *mockvendor.Results) mockvendor.Event {
	e := mockvendor.Event{Seq: seq, Op: op, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: "t-1", Skill: "s", State: state, Results: res}
	if op == mockvendor.OpStream {
		e.Seen = []mockvendor.SeenState{{State: "submitted"}, {State: "working"}, {State: state}}
	}
	return e
}

func completed(arts []contract.Artifact) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, TaskID: "t-1", TaskState: "completed", Artifacts: arts}
}

// resCheck finds a check of the catalog by id.
func resCheck(t *testing.T, id string) Check {
	t.Helper()
	_, c := Find(id)
	if c == nil {
		t.Fatalf("no check %s", id)
	}
	return *c
}

// TestResultArtifacts: RESULT-001.ARTIFACTS and RESULT-002's checks over
// synthetic runs: the artifacts whole pass, by any way the orchestrator
// got them (the send's task, a stream, a GetTask after the stream, a
// Message reply's parts); a duplicated first chunk, a separator, a part
// dropped, no artifacts at all fail and name the first difference; a run
// that never got the results is NOT_EXERCISED.
func TestResultArtifacts(t *testing.T) {
	both := &mockvendor.Results{Artifacts: []json.RawMessage{resReport, resLog}}
	plain := resEvent(1, mockvendor.OpSend, "completed", both)
	stream := resEvent(1, mockvendor.OpStream, "completed", both)
	get := resEvent(2, mockvendor.OpGet, "completed", both)
	reply := mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", Skill: "s", MessageReply: true,
		Results: &mockvendor.Results{Artifacts: []json.RawMessage{json.RawMessage(`{"parts":[{"text":"Vendor D answered"}]}`)}}}
	noResults := resEvent(1, mockvendor.OpStream, "working", nil)

	whole := resSum(t, string(resReport), string(resLog))
	dupFirst := resSum(t, `{"artifactId":"a-t-1-0","name":"report","parts":[{"text":"Q3 recon"},{"text":"Q3 recon"},{"text":"ciliation: 41 matched, "},{"text":"2 open."},{"data":{"matched":41,"open":2}}]}`, string(resLog))
	spaced := resSum(t, `{"artifactId":"a-t-1-0","name":"report","parts":[{"text":"Q3 recon ciliation: 41 matched,  2 open."},{"data":{"matched":41,"open":2}}]}`, string(resLog))
	noLog := resSum(t, string(resReport))
	dataLost := resSum(t, `{"artifactId":"a-t-1-0","name":"report","parts":[{"text":"Q3 recon"},{"text":"ciliation: 41 matched, "},{"text":"2 open."}]}`, string(resLog))
	replyArt := resSum(t, `{"parts":[{"text":"Vendor D answered"}]}`)
	failedNoLog := &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Artifacts: noLog}

	cases := []struct {
		check, name string
		run         *Run
		want        Outcome
		detail      string // a substring of a FAIL's detail
	}{
		{"RESULT-001.ARTIFACTS", "whole, from the send's task", resRun(completed(whole), plain), Pass, ""},
		{"RESULT-001.ARTIFACTS", "whole, by streaming instead", resRun(completed(whole), stream), Pass, ""},
		{"RESULT-001.ARTIFACTS", "a Message reply's parts as one artifact with no id", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Artifacts: replyArt}, reply), Pass, ""},
		{"RESULT-001.ARTIFACTS", "none reported", resRun(completed(nil), plain), Fail, "artifact 0 (\"a-t-1-0\", report) was produced and is not reported"},
		{"RESULT-001.ARTIFACTS", "the data part dropped", resRun(completed(dataLost), plain), Fail, "part 3 (data) was produced and is not reported"},
		{"RESULT-001.ARTIFACTS", "never got the results", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonDeadline}, noResults), NotExercised, ""},

		{"RESULT-002.JOINED", "joined as the flags say", resRun(completed(whole), stream), Pass, ""},
		{"RESULT-002.JOINED", "taken from a GetTask after the stream", resRun(completed(whole), stream, get), Pass, ""},
		{"RESULT-002.JOINED", "the first chunk twice", resRun(completed(dupFirst), stream), Fail, "part 1: text"},
		{"RESULT-002.JOINED", "chunks joined with spaces", resRun(completed(spaced), stream), Fail, "part 0: text"},
		{"RESULT-002.JOINED", "no artifacts", resRun(completed(nil), stream), Fail, "is not in the outcome"},
		{"RESULT-002.JOINED", "did not stream", resRun(completed(whole), plain), NotApplicable, ""},
		{"RESULT-002.JOINED", "streamed, the stream never delivered the results", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonStreamTimeout}, noResults), NotExercised, ""},

		{"RESULT-002.UNKNOWN-APPEND", "the log kept", resRun(completed(whole), stream), Pass, ""},
		{"RESULT-002.UNKNOWN-APPEND", "the log dropped, completed", resRun(completed(noLog), stream), Fail, "\"a-t-1-1\" (log) is not in the outcome"},
		{"RESULT-002.UNKNOWN-APPEND", "refused loudly", resRun(failedNoLog, stream), Pass, ""},
		{"RESULT-002.UNKNOWN-APPEND", "sent no task at all", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: contract.ReasonOther}), NotExercised, ""},
		{"RESULT-002.UNKNOWN-APPEND", "did not stream", resRun(completed(whole), plain), NotApplicable, ""},
	}
	for _, c := range cases {
		v, _ := resCheck(t, c.check).Evaluate(c.run)
		if v.Outcome != c.want || !strings.Contains(v.Detail, c.detail) {
			t.Errorf("%s, %s: %s (%s), want %s with %q", c.check, c.name, v.Outcome, v.Detail, c.want, c.detail)
		}
	}
}

// TestResultQuestion: RESULT-003.QUESTION passes on the question, fails on
// the artifact text or both run together or none, and is NOT_EXERCISED
// when the task was never seen at input-required.
func TestResultQuestion(t *testing.T) {
	res := &mockvendor.Results{Artifacts: []json.RawMessage{resReport}, StatusText: resultQuestion}
	asked := resEvent(1, mockvendor.OpStream, "input-required", res)
	working := resEvent(1, mockvendor.OpStream, "working", nil)
	interrupted := func(text string) *contract.DelegationOutcome {
		return &contract.DelegationOutcome{Outcome: contract.OutcomeInterrupted, TaskID: "t-1", TaskState: "input-required", StatusText: text}
	}
	cases := []struct {
		name string
		run  *Run
		want Outcome
	}{
		{"the question", resRun(interrupted(resultQuestion), asked), Pass},
		{"the question, 1.0 state spelling", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeInterrupted, TaskID: "t-1", TaskState: "TASK_STATE_INPUT_REQUIRED", StatusText: resultQuestion}, asked), Pass},
		{"the artifact text instead", resRun(interrupted("Q3 reconciliation: 41 matched, 2 open."), asked), Fail},
		{"artifact text and question run together", resRun(interrupted("Q3 reconciliation: 41 matched, 2 open."+resultQuestion), asked), Fail},
		{"no statusText", resRun(interrupted(""), asked), Fail},
		{"reported completed", resRun(completed(nil), asked), Fail},
		{"never reached input-required", resRun(&contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonDeadline}, working), NotExercised},
	}
	for _, c := range cases {
		v, _ := resCheck(t, "RESULT-003.QUESTION").Evaluate(c.run)
		if v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestResultClipBounds: a text past the contract's bound compares clipped
// on both sides (the harness clips the outcome before judging), and more
// artifacts than MaxArtifacts compare on the first MaxArtifacts.
func TestResultClipBounds(t *testing.T) {
	long := strings.Repeat("x", contract.MaxArtifactTextBytes+10)
	raw, _ := json.Marshal(map[string]any{"artifactId": "a-1", "parts": []any{map[string]any{"text": long}}})
	var raws []json.RawMessage
	for range contract.MaxArtifacts + 1 {
		raws = append(raws, raw)
	}
	ev := resEvent(1, mockvendor.OpSend, "completed", &mockvendor.Results{Artifacts: raws})
	kept := resSum(t, string(raw))
	var arts []contract.Artifact
	for range contract.MaxArtifacts + 1 {
		arts = append(arts, kept[0])
	}
	o := completed(arts)
	o.Clip()
	if v, _ := resCheck(t, "RESULT-001.ARTIFACTS").Evaluate(resRun(o, ev)); v.Outcome != Pass {
		t.Errorf("clipped whole: %s (%s)", v.Outcome, v.Detail)
	}
	o.Artifacts[3].Text = contract.ClipText(strings.Repeat("y", contract.MaxArtifactTextBytes+10), contract.MaxArtifactTextBytes)
	if v, _ := resCheck(t, "RESULT-001.ARTIFACTS").Evaluate(resRun(o, ev)); v.Outcome != Fail || !strings.Contains(v.Detail, "artifact 3") {
		t.Errorf("clipped, another text: %s (%s)", v.Outcome, v.Detail)
	}
}
