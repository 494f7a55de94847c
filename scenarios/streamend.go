package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// STREAM, continued: streams that end badly [A2A 1.0 §3.1.2, §3.1.6, §11.7;
// A2A CLI A2ACLI_TASK_SUBSCRIBE_002, A2ACLI_TASK_POLL_004]. The stream of a
// task may end before the task does; the task is not over because its
// stream is. As with STREAM-001/002, these scenarios ask for streaming, and
// an orchestrator that sends plainly is NOT_APPLICABLE.
//
// A2A says a task's stream MUST close when the task reaches a terminal
// state (§3.1.2, §3.1.6), and elsewhere that it closes at a terminal or
// interrupted state (§11.7); §7.6.1 asks an agent to keep it open after
// auth-required (SHOULD). A client that waits for more events after an
// interrupted state and one that takes the close are both right. Each
// vendor here closes (or breaks off) the stream while the task is working,
// an early end on every reading: it breaks §3.1.2, so what these checks
// judge is delegation-safety.

// streamWorkMs is how long the task of a cut stream works on, at real
// time; streamEndScenarios scales it, no lower than streamWorkFloorMs.
const streamWorkMs = 500

// streamWorkFloorMs keeps a scaled cut stream's task working until the
// stream has sent the task and its working status and ended: under it, a
// loaded machine could see the task end before its stream does, and the
// scenario would no longer be a stream that ends while the task works.
const streamWorkFloorMs = 200

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

func streamEndScenarios(ts TimeScale) []*Scenario {
	work := ts.Ms(streamWorkMs, streamWorkFloorMs)
	streamReq := []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}}
	return []*Scenario{
		{
			ID:       "STREAM-003",
			Title:    "the stream ends cleanly while the task works",
			Area:     "stream",
			Source:   "redpanda-data/console#2406; a2aproject/a2a-rs#186; a2aproject/A2A#1503; google/adk-python#6585; A2A 1.0 §3.1.6; A2A CLI A2ACLI_TASK_SUBSCRIBE_002. D breaks A2A 1.0 §3.1.2 (a task's stream MUST close when the task reaches a terminal state; §11.7: at a terminal or interrupted one): its stream closes while the task is working",
			Setup:    fmt.Sprintf("D's stream sends the task and its working status, then ends cleanly (a load balancer's idle timeout); the task completes %d ms later.", work),
			Fleet:    cutStream(false, work),
			Requests: streamReq,
			Checks: []Check{
				{
					ID:          "STREAM-003.FOLLOW",
					Title:       "the task is followed past the end of its stream",
					Grades:      must(Safety),
					Requirement: "A stream that ends while its task is still working has not reported the task's end: the orchestrator resubscribes (SubscribeToTask, tasks/resubscribe) or polls GetTask until the task ends, and reports the end it saw.",
					Sources: []Source{
						CLI("A2ACLI_TASK_POLL_004", SrcMust).Read("a wait that prefers streaming MUST fall back to polling on stream failure and drive the task to a terminal or interrupted state (a2a-cli SPEC §9.3); a stream closed before the task ended is such a failure"),
						CLI("A2ACLI_TASK_SUBSCRIBE_002", SrcShould).Read("stream resumption after a disconnect (a2a-cli SPEC §9.4, SHOULD): resubscribing is as good as polling"),
						Field("redpanda-data/console#2406").Read("a load balancer's idle timeout closed the stream of a task still running"),
						A2A("§3.1.6", SrcDescriptive, Client).Read("SubscribeToTask can be used with any task that is not in a terminal state; its first event is the task as it is now"),
						A2A("§3.1.3", SrcDescriptive, Client).Read("GetTask fetches the final state of a task after a stream has ended"),
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: a task's stream MUST close when the task reaches a terminal state (read: it lasts until then); D closes it at working"),
						A2A("§11.7", SrcDescriptive, Server).Read("a stream runs until the task reaches a terminal or interrupted state and closes there: working is neither, so the close is early on this reading too"),
					},
					Fix:          "When a stream closes and the last state was not terminal or interrupted, subscribe to the task again (or poll GetTask) until it ends.",
					ReadsOutcome: true,
					Reached:      streamCutSeen,
					Judge:        judgeFollowedToEnd,
				},
				{
					ID:          "STREAM-003.NOT-EARLY",
					Title:       "the end of a stream is not taken for the end of the task",
					Grades:      must(Safety),
					Requirement: "The orchestrator never reports completed for a task it last saw working: a completion needs an answer that showed the task completed. A stream's close ends the task only after a terminal state (A2A 1.0 §3.1.2, §3.1.6) or, on the reading of §11.7, an interrupted one; the check accepts both readings.",
					Sources: []Source{
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: a task's stream MUST close when the task reaches a terminal state, so a close after another state is not the task's end"),
						A2A("§3.1.6", SrcMust, Server).Read("a subscription's stream MUST terminate when the task reaches a terminal state"),
						A2A("§11.7", SrcDescriptive, Server).Read("where the spec states the interrupted close: a stream runs until the task reaches a terminal or interrupted state, then closes. §3.1.2 and §3.1.6 name terminal states only; the check takes either reading, and a close at working is early on both"),
						Field("a2aproject/A2A#1503").Read("a maintainer: a last state that is neither terminal nor interrupted means the task did not end; restart the stream"),
						Field("google/adk-python#6585"),
						Field("a2aproject/a2a-rs#186"),
						Posture("a completed outcome needs an answer that showed the task completed: a closed stream is no such answer"),
					},
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
			Source:   "A2A 1.0 §3.5.2 (a client reconnects to a task after a network interruption by opening a new stream), §3.1.6; A2A CLI A2ACLI_TASK_POLL_004. The connection of D's stream breaks off midway, as a network interruption does: no server clause is broken (a stream whose connection drops cannot reach its close at the terminal state, A2A 1.0 §3.1.2, and §3.5.2 makes the task's lifecycle independent of any one stream's)",
			Setup:    fmt.Sprintf("D's stream sends the task and its working status, then the connection breaks off (no clean end); the task completes %d ms later.", work),
			Fleet:    cutStream(true, work),
			Requests: streamReq,
			Checks: []Check{{
				ID:    "STREAM-004.FALLBACK",
				Title: "a broken stream falls back to following the task",
				// A network cut is no server violation, and A2A 1.0 §3.5.2
				// describes the client's remedy: a2a-core, at SHOULD (a
				// descriptive clause; the client did not ask for the cut, so
				// OnlyWhatItAsked does not lift it); a2a-cli's MUST in
				// delegation-safety.
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "When a stream fails midway, the orchestrator falls back to polling GetTask (or resubscribes) and drives the task it already has to its end; it does not send the work again.",
				Sources: []Source{
					A2A("§3.5.2", SrcDescriptive, Client).Read("among the uses of several streams per task: 'a client reconnecting to a task after a network interruption by opening a new stream'; and 'the task lifecycle is independent of any individual stream's lifecycle': the task outlives the broken stream and the client picks it up again. Descriptive, so SHOULD in a2a-core"),
					CLI("A2ACLI_TASK_POLL_004", SrcMust).Read("a wait that prefers streaming MUST fall back to polling on stream failure and drive the task to a terminal or interrupted state (a2a-cli SPEC §9.3)"),
					A2A("§3.1.6", SrcDescriptive, Client).Read("SubscribeToTask opens a stream for an existing task, its first event the task as it is now: the way back onto a task whose stream broke"),
					A2A03("§7.9", SrcDescriptive, Client).Read("tasks/resubscribe is how a client reconnects to the stream of an ongoing task after its connection (from message/stream) was interrupted: the task outlives the broken connection. Descriptive, so SHOULD in a2a-core"),
					A2A03("§7.3", SrcDescriptive, Client).Read("tasks/get fetches a task's state, among other times after an SSE stream has ended: the other way back onto the task"),
					A2A("§3.3.1", SrcMay, Server).Read("a send MAY be idempotent: a client cannot count on it, so sending the work again may run it twice"),
					A2A("§3.1.2", SrcMust, Server).Read("a task's stream closes when the task reaches a terminal state: a stream whose connection broke never got there, which is no fault of the server's"),
				},
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
			Source:   "a2aproject/A2A#174; a2aproject/a2a-dotnet#341; A2A 1.0 §3.1.6. D breaks A2A 1.0 §3.1.2: its stream closes after the working status without the task's terminal state, although the task has completed by then. Its refusal of the resubscription is honest (§3.1.6)",
			Setup:    "D's stream ends cleanly after the working status, but the task has completed by then: SubscribeToTask answers -32004 (a terminal task has no updates), GetTask shows it completed.",
			Fleet:    cutStream(false, 0),
			Requests: streamReq,
			Checks: []Check{
				{
					ID:     "STREAM-005.DONE",
					Title:  "the final state is accepted",
					Grades: must(Safety),
					Requirement: "A subscription refused because the task is terminal says the task has ended: the orchestrator reads its final state (GetTask) and reports it; it does not report the refusal as a failure. " +
						"An orchestrator that follows the task by GetTask without subscribing meets the final state there, and reports it the same way. One that never asks about the task after its stream ended never meets the final state: NOT_EXERCISED here (STREAM-003.FOLLOW judges the following).",
					Sources: []Source{
						Field("a2aproject/A2A#174").Read("a client took the refusal of a subscription to a finished task for an error"),
						Field("a2aproject/a2a-dotnet#341").Read("catch the refusal, then GetTask"),
						A2A("§3.1.6", SrcDescriptive, Server).Read("a subscription to a task in a terminal state is answered UnsupportedOperationError: the refusal says the task has ended, not which way"),
						A2A("§3.1.3", SrcDescriptive, Client).Read("GetTask fetches the final state of a task after a stream has ended"),
						CLI("A2ACLI_TASK_POLL_004", SrcMust).Read("on stream failure, drive the task to a terminal or interrupted state and report it (a2a-cli SPEC §9.3, MUST)"),
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: its stream closes without the task's terminal state, after the task completed"),
					},
					Fix:          "On -32004 from SubscribeToTask, get the task once and report the state it shows.",
					ReadsOutcome: true,
					Reached:      streamCutSeen,
					Judge:        judgeFinalStateRead,
				},
				{
					ID:          "STREAM-005.NO-LOOP",
					Title:       "no resubscription loop on a finished task",
					Grades:      must(Safety),
					Requirement: "A task whose subscription was refused as terminal is not subscribed to again and again: at most two subscriptions per task.",
					Sources: []Source{
						Field("a2aproject/A2A#174").Read("a client resubscribed again and again to a finished task"),
						CLI("A2ACLI_TASK_POLL_002", SrcMust).Read("MUST NOT busy-loop (a2a-cli SPEC §9.3): subscribing over and over to a task refused as terminal is one; the check allows two subscriptions per task"),
						A2A("§3.1.6", SrcDescriptive, Server).Read("a subscription to a task in a terminal state is refused, every time: asking again cannot succeed"),
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: its stream closes without the task's terminal state"),
					},
					Fix:     "Stop subscribing once SubscribeToTask answers -32004; get the task instead.",
					Reached: streamCutSeen,
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

// cutStreamOf is the first stream of a real task that the fleet cut short,
// or nil.
func cutStreamOf(r *Run) *mockvendor.Event {
	for i, e := range r.Events {
		if e.Op == mockvendor.OpStream && slices.Contains(e.Faults, "stream-cut") && e.TaskID != "" {
			return &r.Events[i]
		}
	}
	return nil
}

// judgeFollowedToEnd: the task of the cut stream was followed after the
// cut (get or subscription) and the outcome is completed, as the wire
// shows.
func judgeFollowedToEnd(r *Run) Verdict {
	if !r.streamed() {
		return r.didNotStream()
	}
	cut := cutStreamOf(r)
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

// judgeFinalStateRead: after the stream of a task that had already
// completed was cut, a subscription refused as terminal is followed by a
// get of the task, and the outcome is the completion that get showed. A
// client that read the final state otherwise (a get without subscribing,
// a subscription that came before the task ended and saw it end) is judged
// on that state; one that never asked about the task again did not reach
// the final state (STREAM-003.FOLLOW judges that).
func judgeFinalStateRead(r *Run) Verdict {
	if !r.streamed() {
		return r.didNotStream()
	}
	cut := cutStreamOf(r)
	if cut == nil {
		return NotExercisedf("no stream was cut short")
	}
	var refused, read *mockvendor.Event
	for i, e := range r.Events {
		switch {
		case e.Seq <= cut.Seq || e.TaskID != cut.TaskID || e.Probe:
		case isSubscribe(e) && e.ErrorCode != 0 && refused == nil:
			refused = &r.Events[i]
		case (e.Op == mockvendor.OpGet || isSubscribe(e)) && e.ErrorCode == 0 && terminal(e.State) && read == nil:
			read = &r.Events[i]
		}
	}
	switch {
	case refused == nil && read == nil:
		return NotExercisedf("task %s was not asked about after its stream ended at %s, so its final state was never met (STREAM-003.FOLLOW judges the following)", cut.TaskID, cut.State)
	case read == nil:
		return Failf("%s was refused (%d): the task has ended, and its final state was not read after", describe(*refused), refused.ErrorCode).
			Want("a GetTask of task "+cut.TaskID+" after the refusal", "none")
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome != contract.OutcomeCompleted {
		return Failf("%s showed task %s %s; the outcome is %s (reason %q)", describe(*read), cut.TaskID, read.State, o.Outcome, o.Reason).Want("completed", o.Outcome)
	}
	return Passf("the final state of task %s was read (%s) and reported", cut.TaskID, describe(*read))
}
