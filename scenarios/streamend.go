package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// STREAM, continued: streams that end badly [A2A 1.0 §3.1.6, §3.3, §9.4;
// A2A CLI A2ACLI_TASK_SUBSCRIBE_002, A2ACLI_TASK_POLL_004; issue 13]. The
// stream of a task may end before the task does; the task is not over
// because its stream is. As with STREAM-001/002, these scenarios ask for
// streaming, and an orchestrator that sends plainly is NOT_APPLICABLE.

// streamWorkMs is how long the task of a cut stream works on.
const streamWorkMs = 500

// cutStream is D with a stream that ends (or, abort, breaks off) after the
// task and its working status, its task working workMs more (0: the task
// has completed by the time the stream ends).
func cutStream(abort bool, workMs int) func() mockvendor.Config {
	faults := []mockvendor.FaultSpec{mockvendor.Spec("stream-cut", mockvendor.StreamCut{Abort: abort})}
	if workMs > 0 {
		faults = append(faults, mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: workMs}))
	}
	return fleetOf(withFaults(mockvendor.VendorD(), faults...))
}

func streamEndScenarios() []*Scenario {
	streamReq := []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}}
	return []*Scenario{
		{
			ID:       "STREAM-003",
			Title:    "the stream ends cleanly while the task works",
			Area:     "stream",
			Source:   "redpanda-data/console PR 2406; a2aproject/a2a-rs issue 186; a2aproject/A2A issue 1503; google/adk-python issue 6585; A2A 1.0 §3.1.6; A2A CLI A2ACLI_TASK_SUBSCRIBE_002",
			Setup:    fmt.Sprintf("D's stream sends the task and its working status, then ends cleanly (a load balancer's idle timeout); the task completes %d ms later.", streamWorkMs),
			Fleet:    cutStream(false, streamWorkMs),
			Requests: streamReq,
			Checks: []Check{
				{
					ID:           "STREAM-003.FOLLOW",
					Title:        "the task is followed past the end of its stream",
					Grades:       must(Core),
					Requirement:  "A stream that ends while its task is still working has not reported the task's end: the orchestrator resubscribes (SubscribeToTask, tasks/resubscribe) or polls GetTask until the task ends, and reports the end it saw.",
					Source:       "A2A 1.0 §3.1.6 (SubscribeToTask re-attaches to a running task); A2A CLI A2ACLI_TASK_SUBSCRIBE_002, A2ACLI_TASK_POLL_004; redpanda-data/console PR 2406",
					Fix:          "When a stream closes and the last state was not terminal or interrupted, subscribe to the task again (or poll GetTask) until it ends.",
					ReadsOutcome: true,
					Reached:      streamCutSeen,
					Judge:        judgeFollowedToEnd,
				},
				{
					ID:           "STREAM-003.NOT-EARLY",
					Title:        "the end of a stream is not taken for the end of the task",
					Grades:       must(Core),
					Requirement:  "The orchestrator never reports completed for a task it last saw working: a completion needs an answer that showed the task completed.",
					Source:       "A2A 1.0 §3.1.2 (a stream closes at a terminal or interrupted state, so a close before one is no end); a2aproject/A2A issue 1503 (a maintainer: a last state that is not one of those means the task did not end; restart the stream); google/adk-python issue 6585; a2aproject/a2a-rs issue 186",
					Fix:          "Decide the outcome from the last task state received, not from the stream closing.",
					ReadsOutcome: true,
					Reached:      streamCutSeen,
					Judge: func(r *Run) Verdict {
						if !r.streamed() {
							return r.didNotStream()
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome == contract.OutcomeCompleted {
							return Passf("completed, and the wire shows the task completed")
						}
						return Passf("outcome %s: no completion claimed for a working task", o.Outcome)
					},
				},
			},
		},
		{
			ID:       "STREAM-004",
			Title:    "the stream breaks off midway",
			Area:     "stream",
			Source:   "A2A CLI A2ACLI_TASK_POLL_004; A2A 1.0 §3.1.6",
			Setup:    fmt.Sprintf("D's stream sends the task and its working status, then the connection breaks off (no clean end); the task completes %d ms later.", streamWorkMs),
			Fleet:    cutStream(true, streamWorkMs),
			Requests: streamReq,
			Checks: []Check{{
				ID:           "STREAM-004.FALLBACK",
				Title:        "a broken stream falls back to following the task",
				Grades:       must(Core),
				Requirement:  "When a stream fails midway, the orchestrator falls back to polling GetTask (or resubscribes) and drives the task it already has to its end; it does not send the work again.",
				Source:       "A2A CLI A2ACLI_TASK_POLL_004 (fall back to polling on stream failure); A2A 1.0 §3.1.6",
				Fix:          "Keep the task id from the stream's first event; on a stream error, poll GetTask (or SubscribeToTask) for it instead of re-sending the message.",
				ReadsOutcome: true,
				Reached:      streamCutSeen,
				Judge: func(r *Run) Verdict {
					if v := judgeFollowedToEnd(r); v.Outcome != Pass {
						return v
					}
					id := firstRealTask(r, 0)
					for _, e := range r.During(0) {
						if isRealSend(e) && e.TaskID != id && e.ErrorCode == 0 {
							return Failf("%s sent the work again after the stream broke", describe(e)).At(e.Seq).Want("the task "+id+" followed", "a second send")
						}
					}
					return Passf("the broken stream's task %s was followed to its completion", id)
				},
			}},
		},
		{
			ID:       "STREAM-005",
			Title:    "resubscribing to a task that has completed",
			Area:     "stream",
			Source:   "a2aproject/A2A issue 174; a2aproject/a2a-dotnet issue 341; A2A 1.0 §3.1.6",
			Setup:    "D's stream ends cleanly after the working status, but the task has completed by then: SubscribeToTask answers -32004 (a terminal task has no updates), GetTask shows it completed.",
			Fleet:    cutStream(false, 0),
			Requests: streamReq,
			Checks: []Check{
				{
					ID:           "STREAM-005.DONE",
					Title:        "the final state is accepted",
					Grades:       must(Core),
					Requirement:  "A subscription refused because the task is terminal says the task has ended: the orchestrator reads its final state (GetTask) and reports it; it does not report the refusal as a failure.",
					Source:       "A2A 1.0 §3.1.6 (SubscribeToTask on a terminal task is UnsupportedOperationError); a2aproject/A2A issue 174; a2aproject/a2a-dotnet issue 341 (catch it, then GetTask)",
					Fix:          "On -32004 from SubscribeToTask, get the task once and report the state it shows.",
					ReadsOutcome: true,
					Reached:      streamCutSeen,
					Judge:        judgeFollowedToEnd,
				},
				{
					ID:          "STREAM-005.NO-LOOP",
					Title:       "no resubscription loop on a finished task",
					Grades:      must(Core),
					Requirement: "A task whose subscription was refused as terminal is not subscribed to again and again: at most two subscriptions per task.",
					Source:      "a2aproject/A2A issue 174; A2A 1.0 §3.1.6",
					Fix:         "Stop subscribing once SubscribeToTask answers -32004; get the task instead.",
					Reached:     streamCutSeen,
					Judge: func(r *Run) Verdict {
						if !r.streamed() {
							return r.didNotStream()
						}
						n := map[string]int{}
						for _, e := range r.Events {
							if !isSubscribe(e) || e.TaskID == "" {
								continue
							}
							n[e.TaskID]++
							if n[e.TaskID] > 2 {
								return Failf("%s is subscription %d to task %s", describe(e), n[e.TaskID], e.TaskID).At(e.Seq).Want("at most 2", fmt.Sprint(n[e.TaskID]))
							}
						}
						return Passf("no task was subscribed to more than twice")
					},
				},
			},
		},
	}
}

// streamCutSeen needs a stream of a real task that the fleet cut short
// (stream-cut), the task still running.
var streamCutSeen = Precondition{
	Needs: "stream the real task to D and see the stream end before the task does",
	Met: func(r *Run) bool {
		return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
			return e.Op == mockvendor.OpStream && !e.Probe && slices.Contains(e.Faults, "stream-cut") && e.TaskID != ""
		})
	},
}

// judgeFollowedToEnd: the task of the cut stream was followed after the
// cut (get or subscription) and the outcome is completed, as the wire
// shows.
func judgeFollowedToEnd(r *Run) Verdict {
	if !r.streamed() {
		return r.didNotStream()
	}
	var cut *mockvendor.Event
	for i, e := range r.Events {
		if e.Op == mockvendor.OpStream && slices.Contains(e.Faults, "stream-cut") && e.TaskID != "" {
			cut = &r.Events[i]
			break
		}
	}
	if cut == nil {
		return NotExercisedf("no stream was cut short")
	}
	followed := slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
		return e.Seq > cut.Seq && e.TaskID == cut.TaskID && (e.Op == mockvendor.OpGet || isSubscribe(e))
	})
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if !followed {
		return Failf("the stream of task %s ended at %s and the task was not asked about again; outcome %s", cut.TaskID, cut.State, o.Outcome).Want("a subscription or get of the task until it ends", "none")
	}
	if o.Outcome != contract.OutcomeCompleted {
		return Failf("task %s was followed, but the outcome is %s (reason %q): the task completed", cut.TaskID, o.Outcome, o.Reason).Want("completed", o.Outcome)
	}
	return Passf("task %s followed past its stream to its completion", cut.TaskID)
}
