package scenarios

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// readArtifact is the artifact D delivers in the synthetic READ runs.
const readArtifact = `{"artifactId":"a-t-1","name":"result","parts":[{"text":"Vendor D ran s on reconcile"}]}`

// readEvent is a real send answered by D with the named fault's change
// and (unless results is false) the artifact delivered.
func readEvent(seq int64, fault string, results bool) mockvendor.Event {
	e := mockvendor.Event{Seq: seq, Op: mockvendor.OpSend, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1",
		TaskID: fmt.Sprintf("t-%d", seq), Skill: "s", State: "completed", Faults: []string{fault}}
	if results {
		e.Results = &mockvendor.Results{Artifacts: []json.RawMessage{json.RawMessage(readArtifact)}}
	}
	return e
}

// readCardFetch is a fetch of D's card.
func readCardFetch(seq int64) mockvendor.Event {
	return mockvendor.Event{Seq: seq, Op: mockvendor.OpCardFetch, Vendor: "d", Host: "agent-d.example", Path: "/.well-known/agent-card.json"}
}

// readRun is a run of one delegation per outcome, delegation i's events
// numbered 10i+1..10i+9; evs are placed by their Seq.
func readRun(outcomes []*contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
	r := &Run{Events: evs}
	for i, o := range outcomes {
		if o != nil {
			o.Agent, o.Skill = resAgent, "s"
			if o.TaskID == "" && o.Outcome == contract.OutcomeCompleted {
				o.TaskID = fmt.Sprintf("t-%d", 10*i+2)
			}
		}
		r.Delegations = append(r.Delegations, Delegation{Outcome: o, FirstSeq: int64(10*i + 1), LastSeq: int64(10*i + 9)})
	}
	return r
}

// readDone is a completed outcome with the artifacts.
func readDone(t *testing.T, raws ...string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, TaskState: "completed", Artifacts: resSum(t, raws...)}
}

// readFailed is a failed outcome (other).
func readFailed() *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonOther}
}

// readCase is one synthetic run of a READ check and the verdict it gets.
type readCase struct {
	name   string
	run    *Run
	want   Outcome
	detail string // a substring of the verdict's detail
}

// TestReadCompleted: READ-001.COMPLETED and READ-002.COMPLETED pass when
// both delegations complete with D's artifact; fail when one refused the
// answer or reported no artifact; are NOT_EXERCISED when no changed
// answer arrived (a card refused, or never fetched).
func TestReadCompleted(t *testing.T) {
	for _, c := range []struct {
		check, fault string
	}{{"READ-001.COMPLETED", "unknown-fields"}, {"READ-002.COMPLETED", "unknown-role"}} {
		both := []mockvendor.Event{readCardFetch(1), readEvent(2, c.fault, true), readEvent(12, c.fault, true)}
		cases := []readCase{
			{"both completed", readRun([]*contract.DelegationOutcome{readDone(t, readArtifact), readDone(t, readArtifact)}, both...), Pass, ""},
			{"the stream's answer refused", readRun([]*contract.DelegationOutcome{readDone(t, readArtifact), readFailed()}, both...), Fail, "delegation 2 (asked to stream)"},
			{"no artifact reported", readRun([]*contract.DelegationOutcome{readDone(t), readDone(t, readArtifact)}, both...), Fail, "is not reported"},
		}
		if c.check == "READ-001.COMPLETED" {
			cases = append(cases,
				readCase{"the card refused (the cause cannot be told)", readRun([]*contract.DelegationOutcome{readFailed(), readFailed()}, readCardFetch(1), readCardFetch(11)), NotExercised, ""},
				readCase{"card never fetched", readRun([]*contract.DelegationOutcome{readFailed(), readFailed()}), NotExercised, ""})
		} else {
			cases = append(cases, readCase{"no changed answer", readRun([]*contract.DelegationOutcome{readFailed(), readFailed()}, readCardFetch(1)), NotExercised, ""})
		}
		for _, tc := range cases {
			v, _ := resCheck(t, c.check).Evaluate(tc.run)
			if v.Outcome != tc.want || !strings.Contains(v.Detail, tc.detail) {
				t.Errorf("%s, %s: %s (%s), want %s with %q", c.check, tc.name, v.Outcome, v.Detail, tc.want, tc.detail)
			}
		}
	}
}

// TestReadNothingInvented: READ-001.NOTHING-INVENTED passes on the honest
// artifacts and on a refusal; fails on the later version's artifact, on
// the marker in a part, in an artifact's text or in statusText; is
// NOT_EXERCISED when no changed answer arrived.
func TestReadNothingInvented(t *testing.T) {
	evs := []mockvendor.Event{readCardFetch(1), readEvent(2, "unknown-fields", true), readEvent(12, "unknown-fields", true)}
	later := fmt.Sprintf(`{"artifactId":%q,"parts":[{"text":%q}]}`, mockvendor.LaterArtifactID, readMarker)
	scraped := fmt.Sprintf(`{"artifactId":"a-t-1","name":"result","parts":[{"text":"Vendor D ran s on reconcile"},{"text":%q}]}`, readMarker)
	noted := readDone(t, readArtifact)
	noted.StatusText = readMarker
	done := func() *contract.DelegationOutcome { return readDone(t, readArtifact) }
	cases := []struct {
		name   string
		run    *Run
		want   Outcome
		detail string
	}{
		{"the honest artifacts", readRun([]*contract.DelegationOutcome{done(), done()}, evs...), Pass, ""},
		{"refused", readRun([]*contract.DelegationOutcome{readFailed(), readFailed()}, evs...), Pass, ""},
		{"outputs taken as an artifact", readRun([]*contract.DelegationOutcome{done(), readDone(t, readArtifact, later)}, evs...), Fail, "delegation 2: artifact \"a-later-version\""},
		{"marker scraped into the artifact", readRun([]*contract.DelegationOutcome{readDone(t, scraped), done()}, evs...), Fail, "holds the marker"},
		{"marker as statusText", readRun([]*contract.DelegationOutcome{done(), noted}, evs...), Fail, "statusText"},
		{"no changed answer", readRun([]*contract.DelegationOutcome{readFailed(), readFailed()}, readCardFetch(1)), NotExercised, ""},
	}
	for _, c := range cases {
		v, _ := resCheck(t, "READ-001.NOTHING-INVENTED").Evaluate(c.run)
		if v.Outcome != c.want || !strings.Contains(v.Detail, c.detail) {
			t.Errorf("%s: %s (%s), want %s with %q", c.name, v.Outcome, v.Detail, c.want, c.detail)
		}
	}
}

// TestReadTimestamps: READ-003.SPELLED judges delegations 1-3 and
// READ-003.PRECISE 4-5: each passes when its delegations complete (with
// D's artifact, or reporting none), fails naming the form of one that did
// not or reported another artifact, and is NOT_EXERCISED when none of its
// delegations got an answer of D.
func TestReadTimestamps(t *testing.T) {
	var all []mockvendor.Event
	for i := range readForms {
		all = append(all, readEvent(int64(10*i+2), "timestamp-form", true))
	}
	outcomes := func(fail int) []*contract.DelegationOutcome {
		var out []*contract.DelegationOutcome
		for i := range readForms {
			if i == fail {
				out = append(out, readFailed())
				continue
			}
			out = append(out, readDone(t, readArtifact))
		}
		return out
	}
	bare := outcomes(-1)
	for _, o := range bare {
		o.Artifacts = nil
	}
	lossy := outcomes(-1)
	lossy[1] = readDone(t, `{"artifactId":"a-t-1","name":"result","parts":[]}`)
	cases := []struct {
		check, name string
		run         *Run
		want        Outcome
		detail      string
	}{
		{"READ-003.SPELLED", "all read", readRun(outcomes(-1), all...), Pass, ""},
		{"READ-003.SPELLED", "no fraction refused", readRun(outcomes(0), all...), Fail, "form seconds"},
		{"READ-003.SPELLED", "completed, no artifacts reported", readRun(bare, all...), Pass, ""},
		{"READ-003.SPELLED", "completed, the zero-filled one's artifact lost a part", readRun(lossy, all...), Fail, "form zero-millis"},
		{"READ-003.SPELLED", "nanos refused only", readRun(outcomes(4), all...), Pass, ""},
		{"READ-003.SPELLED", "never answered", readRun([]*contract.DelegationOutcome{readFailed(), readFailed(), readFailed()}, readCardFetch(1)), NotExercised, ""},
		{"READ-003.PRECISE", "all read", readRun(outcomes(-1), all...), Pass, ""},
		{"READ-003.PRECISE", "nanos refused", readRun(outcomes(4), all...), Fail, "form nanos"},
		{"READ-003.PRECISE", "only the first three answered", readRun(append(outcomes(-1)[:3], readFailed(), readFailed()), all[:3]...), NotExercised, ""},
	}
	for _, c := range cases {
		v, _ := resCheck(t, c.check).Evaluate(c.run)
		if v.Outcome != c.want || !strings.Contains(v.Detail, c.detail) {
			t.Errorf("%s, %s: %s (%s), want %s with %q", c.check, c.name, v.Outcome, v.Detail, c.want, c.detail)
		}
	}
}
