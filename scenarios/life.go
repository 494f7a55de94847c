package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// LIFE: the task after the send [A2A 1.0 §3.2.2 and the proto's enum
// TaskState (terminal and interrupted states); A2A CLI
// specification/COMPLIANCE.md A2ACLI_TASK_POLL_001..004, A2ACLI_SEND_003,
// A2ACLI_INTERACT_003]. A delegation is not over when the send is answered:
// the task may end badly, pause for the caller, work on for a while, or
// never exist (a Message reply).
//
// LIFE-003 and LIFE-004 make D answer a blocking send at once with the task
// working, which A2A 1.0 §3.2.2 forbids (a blocking send MUST wait until
// the task is terminal or interrupted): following such a task is judged as
// delegation-safety, not as what A2A asks of a client.

// Timings of the LIFE scenarios: the work a polled task takes (LIFE-003),
// and the deadline of a delegation that must give up on a task (LIFE-004)
// with the work of that task. The deadline leaves the discovery, the probe
// and the send time enough on a loaded machine (2.5 s did not always,
// with the whole module's tests running on two cores, 4 s did not once
// under the race detector, and 5 s did not for a framework client that
// imports for seconds); only the deadline costs wall time, since the task
// is cancelled there.
const (
	lifeWorkMs     = 3000
	lifeDeadlineMs = 8000
	lifeLongWorkMs = 12000
	// lifeHonestWorkMs is how long an honest D works on a task sent with
	// returnImmediately (LIFE-006) before it completes.
	lifeHonestWorkMs = 1500
	// maxGetsPerSecond bounds the polling of one task: more gets than
	// this in any one-second window is a busy loop.
	maxGetsPerSecond = 5
)

// Floors of the LIFE timings at a scale below 1 (TimeScale).
const (
	// lifeWorkFloorMs keeps LIFE-003's task working longer than the
	// one-second window LIFE-003.BACKOFF counts gets in: a task done
	// sooner could not show a busy loop.
	lifeWorkFloorMs = 1200
	// lifeDeadlineFloorMs leaves LIFE-004's discovery, probe and send time
	// enough on a loaded machine (see above): under it, a right
	// orchestrator could meet the deadline before it had a task to give
	// up, and the checks would not be exercised.
	lifeDeadlineFloorMs = 4000
	// lifeHonestFloorMs keeps LIFE-006's task unfinished until the send's
	// answer and the stream's first frames are out on a loaded machine.
	lifeHonestFloorMs = 300
)

// lifeTimes are the LIFE timings staged at one scale.
type lifeTimes struct {
	// workMs is LIFE-003's task's work; deadlineMs and longWorkMs are
	// LIFE-004's deadline and its task's work (longer than the deadline,
	// in the same ratio as at real time); honestWorkMs is LIFE-006's.
	workMs, deadlineMs, longWorkMs, honestWorkMs int
}

// lifeTimings stages the LIFE timings at scale ts, each no lower than its
// floor.
func lifeTimings(ts TimeScale) lifeTimes {
	deadline := ts.Ms(lifeDeadlineMs, lifeDeadlineFloorMs)
	return lifeTimes{
		workMs:       ts.Ms(lifeWorkMs, lifeWorkFloorMs),
		deadlineMs:   deadline,
		longWorkMs:   ts.Ms(lifeLongWorkMs, deadline*lifeLongWorkMs/lifeDeadlineMs),
		honestWorkMs: ts.Ms(lifeHonestWorkMs, lifeHonestFloorMs),
	}
}

// lifeOutcome is a Before hook that gives D's next real tasks the
// task-outcome fault with state (replacing any earlier one).
func lifeOutcome(state string) func(f *mockvendor.Fleet) error {
	return func(f *mockvendor.Fleet) error {
		fs, err := f.Faults("d")
		if err != nil {
			return err
		}
		for _, x := range fs {
			if x.Type == "task-outcome" {
				if err := f.RemoveFault("d", x.ID); err != nil {
					return err
				}
			}
		}
		_, err = f.AddFault("d", mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{State: state}))
		return err
	}
}

// lifeFleet is D whose real tasks end in state (the first delegation's;
// lifeOutcome switches it for the next ones), so that fleet up --scenario
// starts in the first delegation's state.
func lifeFleet(state string) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{State: state})))
}

// lifeRequest is a delegation of skill S to D, after before.
func lifeRequest(before func(f *mockvendor.Fleet) error) Request {
	return Request{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, Before: before}
}

func lifeScenarios(ts TimeScale) []*Scenario {
	t := lifeTimings(ts)
	return []*Scenario{
		{
			ID:     "LIFE-001",
			Title:  "the task ends failed, rejected or canceled",
			Area:   "life",
			Source: "A2A 1.0 proto enum TaskState (terminal states); A2A CLI A2ACLI_EXIT_002. D breaks no clause: a task may end failed, rejected or canceled, and D answers a blocking send at that terminal state (A2A 1.0 §3.2.2)",
			Setup:  "Three delegations to D; its real task ends failed in the first, rejected in the second, canceled (by the agent) in the third.",
			Fleet:  lifeFleet("failed"),
			Requests: []Request{
				lifeRequest(nil),
				lifeRequest(lifeOutcome("rejected")),
				lifeRequest(lifeOutcome("canceled")),
			},
			Checks: []Check{{
				ID:          "LIFE-001.NOT-COMPLETED",
				Title:       "a task that ended failed, rejected or canceled is not reported completed",
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "Failed, rejected and canceled are terminal states that are not a completion: a delegation whose task ended in one of them reports a non-completed outcome (failed, rejected or escalated), never completed and never interrupted.",
				Sources: []Source{
					Proto("TaskState", SrcDescriptive, Client).Read("FAILED (finished with an error), CANCELED (canceled before completion) and REJECTED (the agent decided not to perform the task) are each 'a terminal state', and none is COMPLETED: what a client reads from them. Descriptive, so SHOULD in a2a-core"),
					A2A03("§6.1", SrcDescriptive, Client).Read("completed, canceled, rejected and failed are the terminal states, after which a task cannot be restarted: three of them end it without completing it. Descriptive, so SHOULD in a2a-core"),
					CLI("A2ACLI_EXIT_002", SrcMust).Read("the agent's outcome is carried in the task state, kept apart from whether the tool did its job (a2a-cli SPEC §6.6: MUST NOT collapse the two)"),
					ContractRule("Delegation outcome: outcome words", SrcDescriptive).Read("completed is for a remote agent that finished the task; failed for one that tried and did not work"),
				},
				Fix:          "Read the task's state and map only completed (or a Message reply) to a completed outcome; report failed for failed, rejected and canceled.",
				ReadsOutcome: true,
				Reached:      allOf(taskAnswered("d", "failed"), taskAnswered("d", "rejected"), taskAnswered("d", "canceled")),
				Judge: func(r *Run) Verdict {
					for i, st := range []string{"failed", "rejected", "canceled"} {
						o, bad := r.outcome(i)
						if bad != nil {
							return *bad
						}
						if o.Outcome == contract.OutcomeCompleted || o.Outcome == contract.OutcomeInterrupted {
							return Failf("delegation %d: the task ended %s, the outcome says %s", i+1, st, o.Outcome).Want("failed, rejected or escalated", o.Outcome)
						}
					}
					return Passf("none of the failed, rejected and canceled tasks was reported completed")
				},
			}},
		},
		{
			ID:     "LIFE-002",
			Title:  "the task pauses at input-required or auth-required",
			Area:   "life",
			Source: "A2A 1.0 §3.2.2 and the proto's enum TaskState (interrupted states), §7.6.2 (auth-required); A2A CLI A2ACLI_TASK_POLL_003, A2ACLI_INTERACT_004. D breaks no MUST: it answers a blocking send at the interrupted state (§3.2.2), and its stream closes there (§11.7), at auth-required against §7.6.1's SHOULD keep it open",
			Setup:  "Two delegations to D; its real task stops at input-required in the first and at auth-required in the second, and stays there. The caller has no reply to give (task.replies is empty; CONV-001..004 hand one over).",
			Fleet:  lifeFleet("input-required"),
			Requests: []Request{
				lifeRequest(nil),
				lifeRequest(lifeOutcome("auth-required")),
			},
			Checks: []Check{
				{
					ID:          "LIFE-002.INTERRUPTED",
					Title:       "an interrupted task is reported interrupted, with its state",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "A task at input-required or auth-required is neither completed nor failed: it waits for the caller. The outcome says interrupted and names the task and the state it stopped at, so that the caller can continue it.",
					Sources: []Source{
						A2A("§3.2.2", SrcDescriptive, Client).Read("input-required and auth-required are the interrupted states, at which a blocking send returns like at a terminal one"),
						Proto("TaskState", SrcDescriptive, Client).Read("INPUT_REQUIRED (the agent requires additional user input to proceed) and AUTH_REQUIRED (authentication is required to proceed) are each 'an interrupted state', neither terminal"),
						A2A("§3.4.3", SrcDescriptive, Client).Read("the client continues an input-required task by sending a new message with the same taskId and contextId: the caller needs the task's id"),
						A2A("§7.6.2", SrcDescriptive, Client).Read("upon receiving a task in auth-required, a client is expected to take action to resolve the agent's request: the caller has to learn of it"),
						A2A03("§9.4", SrcDescriptive, Client).Read("after a task answered input-required, the client sends the requested input with the same task id: the caller needs the task's id and to know it waits for input"),
						A2A03("§4.5", SrcDescriptive, Client).Read("at auth-required the client obtains the further credentials out of band and provides them in a later message/send or message/stream: the caller has to learn of it"),
						CLI("A2ACLI_INTERACT_004", SrcMust).Read("reports taskId, contextId and state on interruption (a2a-cli SPEC §8.2, MUST)"),
						ContractRule("Delegation outcome: Interrupted tasks", SrcDescriptive).Read(`report "outcome": "interrupted" with the task's taskId and the state it stopped at`),
					},
					Fix:          `Report {"outcome":"interrupted","taskId":<the task>,"taskState":"input-required"} (or auth-required) when the task stops there.`,
					ReadsOutcome: true,
					Reached:      allOf(taskAnswered("d", "input-required"), taskAnswered("d", "auth-required")),
					Judge: func(r *Run) Verdict {
						for i, st := range []string{"input-required", "auth-required"} {
							o, bad := r.outcome(i)
							if bad != nil {
								return *bad
							}
							if o.Outcome != contract.OutcomeInterrupted || normalTaskState(o.TaskState) != st {
								return Failf("delegation %d: the task stopped at %s; the outcome says %s (taskState %q)", i+1, st, o.Outcome, o.TaskState).
									Want("interrupted at "+st, fmt.Sprintf("%s at %q", o.Outcome, o.TaskState))
							}
						}
						return Passf("both tasks reported interrupted at the state they stopped at")
					},
				},
				{
					ID:     "LIFE-002.STOP-POLLING",
					Title:  "an input-required task is not polled further",
					Grades: should(Safety),
					Requirement: "Once an answer shows the task at input-required, the orchestrator stops asking about it: the task will not move until the caller sends it more input. " +
						"A stream that closed there may be subscribed to once more (on A2A 1.0 §3.1.2's reading a stream closes only at a terminal state, and a client that waits for more events is as right as one that takes the close, §11.7). " +
						"auth-required is no such stop: the agent may receive credentials out of band and go on by itself, so polling, subscribing to or registering a push config for an auth-required task passes (A2A 1.0 §7.6.2 asks a client to do one of them).",
					Sources: []Source{
						CLI("A2ACLI_TASK_POLL_003", SrcMust).Read("stop waiting at once on an interrupted state (a2a-cli SPEC §9.1, MUST). Graded SHOULD here: one more get costs the agent a request, not the caller a wrong answer; and held for input-required only, since A2A 1.0 §7.6.2 asks the opposite for auth-required"),
						A2A("§3.4.3", SrcDescriptive, Client).Read("an input-required task goes on when the client sends a new message with its taskId: nothing else moves it"),
						A2A("§7.6.2", SrcShould, Client).Read("after auth-required a client SHOULD subscribe to the task, register a push config or begin polling it, so as not to miss the task resuming when the agent receives credentials out of band: the check exempts auth-required"),
						A2A("§3.1.2", SrcMust, Server).Read("a task's stream MUST close when the task reaches a terminal state: on this reading a stream that closed at input-required closed early, and one more subscription is allowed"),
						A2A("§11.7", SrcDescriptive, Server).Read("a stream closes at a terminal or interrupted state: on this reading the close at input-required is the end, and no subscription is needed"),
					},
					Fix:     "Treat input-required as an end of the polling loop: report the task interrupted and do not get it again. Keep following an auth-required task (subscribe, poll with backoff, or a push config) while you can.",
					Reached: allOf(taskAnswered("d", "input-required"), taskAnswered("d", "auth-required")),
					Judge:   judgeStopPolling,
				},
			},
		},
		{
			ID:       "LIFE-003",
			Title:    "the task works " + seconds(ms(t.workMs)) + " before it completes",
			Area:     "life",
			Source:   "A2A CLI A2ACLI_TASK_POLL_001, A2ACLI_TASK_POLL_002; A2A 1.0 §3.1.3 (GetTask). D breaks A2A 1.0 §3.2.2 (and the proto's SendMessageConfiguration.return_immediately): a blocking send, which a client gets unless it asks to return immediately, MUST wait until the task is terminal or interrupted, and D answers at once with the task working",
			Setup:    "D answers every send at once with the task working, whatever its blocking mode asks (for a blocking send, against A2A 1.0 §3.2.2); the task completes " + seconds(ms(t.workMs)) + " later.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: t.workMs}))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "LIFE-003.DONE",
					Title:       "the working task is followed to its completion",
					Grades:      must(Safety),
					Requirement: "A send answered with a working task is not the end of the delegation: the orchestrator follows the task (GetTask, or a subscription) until it reaches a terminal state, and reports completed only when it saw it completed. D owes a blocking send an answer at a terminal or interrupted state and answers early; following the task anyway is what keeps the delegation from failing on a vendor's shortcut.",
					Sources: []Source{
						CLI("A2ACLI_TASK_POLL_001", SrcMust).Read("a polling path that polls until a terminal or interrupted state (a2a-cli SPEC §9.3, MUST); the blocking wait is the default of a send"),
						A2A("§3.2.2", SrcMust, Server).Broken("the clause D breaks: a blocking send MUST wait until the task is terminal or interrupted; polling is the caller's responsibility only when it asked to return immediately"),
						Proto("SendMessageConfiguration.return_immediately", SrcMust, Server).Read("the same rule in the proto: false (the default) MUST wait until a terminal or interrupted state"),
						A2A("§3.1.1", SrcMust, Server).Read("says the send MUST return immediately with task information, against §3.2.2: on this reading D is honest; the check asks the same of the client on both"),
						A2A("§3.1.3", SrcDescriptive, Client).Read("GetTask is typically used for polling the status of a task initiated with Send Message"),
					},
					Fix:          "Poll GetTask (or subscribe) with the id the agent gave until the state is terminal or interrupted.",
					ReadsOutcome: true,
					Reached:      taskAnswered("d", "working"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted {
							return Failf("outcome %s (reason %q), want completed: the task completed %d ms after the send", o.Outcome, o.Reason, t.workMs)
						}
						return Passf("completed, as the wire shows")
					},
				},
				{
					ID:          "LIFE-003.BACKOFF",
					Title:       "polling is bounded: no busy loop",
					Grades:      should(Safety),
					Requirement: fmt.Sprintf("Polling a working task backs off: at most %d gets of one task in any one-second window.", maxGetsPerSecond),
					Sources: []Source{
						CLI("A2ACLI_TASK_POLL_002", SrcShould).Read(fmt.Sprintf("a2a-cli SPEC §9.3: a tool SHOULD apply bounded backoff and MUST NOT busy-loop; %d gets of one task a second is this project's measure of a loop, so the check is a SHOULD", maxGetsPerSecond)),
						A2A("§3.2.2", SrcMust, Server).Broken("the clause D breaks (see LIFE-003.DONE): answered at the task's end as a blocking send must be, the client would have had nothing to poll"),
					},
					Fix:     "Wait between gets and lengthen the wait (e.g. 200 ms doubling up to 2 s).",
					Reached: taskAnswered("d", "working"),
					Judge:   judgeBackoff,
				},
			},
		},
		{
			ID:         "LIFE-004",
			Title:      "the deadline passes while the task works",
			Area:       "life",
			Source:     "A2A CLI A2ACLI_TASK_POLL_002 (--timeout honoured); seed 000, Decision Boundary; A2A 1.0 §3.1.5 (CancelTask). D breaks A2A 1.0 §3.2.2 as in LIFE-003: it answers a blocking send at once with the task working",
			Setup:      fmt.Sprintf("D answers every send at once with the task working, whatever its blocking mode asks (for a blocking send, against A2A 1.0 §3.2.2); the task would complete %d ms later, but the delegation's deadline is %d ms.", t.longWorkMs, t.deadlineMs),
			Fleet:      fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: t.longWorkMs}))),
			Requests:   []Request{req(skillS, mockvendor.HostCardD)},
			DeadlineMs: t.deadlineMs,
			Checks: []Check{
				{
					ID:          "LIFE-004.STOP",
					Title:       "polling stops at the deadline",
					Grades:      must(Safety),
					Requirement: "The delegation's deadline ends the following of the task: no get of it after the deadline, and the outcome says the deadline ran out (failed, reason deadline), not completed.",
					Sources: []Source{
						CLI("A2ACLI_TASK_POLL_002", SrcMust).Read("--timeout is honoured: on expiry the tool MUST report a timeout (a2a-cli SPEC §9.3). A2A itself has no deadline: the delegation's deadline is that timeout"),
						ContractRule("Delegation request: deadlineMs", SrcDescriptive).Read("the time the orchestrator has to report; the reason deadline says it ran out"),
						A2A("§3.2.2", SrcMust, Server).Broken("the clause D breaks (see LIFE-003.DONE): it answers a blocking send with the task working"),
					},
					Fix:          "Bound the polling loop by the request's deadline; report failed with reason deadline when it runs out.",
					ReadsOutcome: true,
					Reached:      taskAnswered("d", "working"),
					Judge:        judgeStopAtDeadline,
				},
				{
					ID:          "LIFE-004.CANCEL",
					Title:       "the task given up at the deadline is cancelled",
					Grades:      should(Safety),
					Requirement: "A task the orchestrator walks away from at its deadline is cancelled, so the agent does not go on doing work nobody will read (the duty seed 000 puts on an accepted probe holds for any abandoned task). G-CANCEL-ABANDONED judges the other side: no cancel of a task seen finished.",
					Sources: []Source{
						Seed000("Decision Boundary", SrcMust).NotMust("the seed's must is for an accepted probe: cancel it at once. The check carries that duty to a real task the orchestrator walks away from, by analogy, so it is a SHOULD"),
						A2A("§3.1.5", SrcDescriptive, Client).Read("CancelTask requests the cancellation of an ongoing task"),
						A2A("§3.2.2", SrcMust, Server).Broken("the clause D breaks (see LIFE-003.DONE): it answers a blocking send with the task working"),
					},
					Fix:     "When the deadline ends the wait, send CancelTask for the task before reporting.",
					Reached: taskAnswered("d", "working"),
					Judge: func(r *Run) Verdict {
						id := firstRealTask(r, 0)
						if id == "" {
							return NotExercisedf("no real task was created (%s)", delegationSummary(r, 0))
						}
						for _, e := range r.Events {
							if e.Op == mockvendor.OpCancel && e.TaskID == id && e.ErrorCode == 0 {
								return Passf("task %s was cancelled (%s)", id, describe(e)).At(e.Seq)
							}
						}
						return Failf("task %s was left working after the deadline: no cancel of it", id).Want("a CancelTask for the abandoned task", "none")
					},
				},
			},
		},
		{
			ID:       "LIFE-005",
			Title:    "the reply is a Message, no task",
			Area:     "life",
			Source:   "A2A 1.0 §3.1.1 (a send answers a Task or a Message); A2A CLI A2ACLI_SEND_003, A2ACLI_INTERACT_003. D breaks no clause: an agent MAY answer with a Message (§3.1.1)",
			Setup:    "D answers every send with an agent Message and creates no task.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("message-reply", nil))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:          "LIFE-005.DONE",
					Title:       "a Message reply is a completion",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "A send answered by a Message, with no task, is the whole interaction: the delegation completed, and the outcome names no task.",
					Sources: []Source{
						A2A("§3.1.1", SrcDescriptive, Client).Read("a client receives either a task or a direct response message, for simple interactions that need no task tracking. Descriptive, so SHOULD in a2a-core"),
						A2A03("§7.1", SrcDescriptive, Client).Read("message/send answers a Task or a Message: a Message answer is the agent's reply, with no task to follow. Descriptive, so SHOULD in a2a-core"),
						CLI("A2ACLI_SEND_003", SrcMust).Read("a Message-only response (no task created) exits cleanly rather than erroring (a2a-cli SPEC §10.2, MUST)"),
					},
					Fix:          "Accept a Message result as the answer: report completed with the agent and skill and no taskId.",
					ReadsOutcome: true,
					Reached:      messageReplied("d"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted {
							return Failf("outcome %s (reason %q), want completed: the agent answered with a Message", o.Outcome, o.Reason).Want("completed", o.Outcome)
						}
						return Passf("completed by the Message reply")
					},
				},
				{
					ID:    "LIFE-005.NO-INVENTED-TASK",
					Title: "no task operation after a Message reply",
					// A2A's MUST covers a continuation only (§3.4.2); that no
					// task is got, subscribed to or cancelled follows from its
					// descriptive text, so a2a-core SHOULD, a2a-cli's MUST NOT
					// in delegation-safety.
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "After a Message reply there is no task: the orchestrator does not invent a task id to get, subscribe to, cancel or continue.",
					Sources: []Source{
						A2A("§3.4.2", SrcMust, Client).Read("when a client includes a taskId in a message it MUST reference an existing task (the continuation part); that task ids are server-generated is descriptive: after a Message reply, which creates none, there is no id to get, subscribe to or cancel either"),
						A2A("§3.1.1", SrcDescriptive, Client).Read("a direct Message response is for simple interactions that do not require task tracking"),
						A2A03("§7.3", SrcDescriptive, Client).Read("tasks/get retrieves a previously initiated task (§7.9: tasks/resubscribe an ongoing one): after a Message reply, which initiated none, there is no task to get, subscribe to or cancel. Descriptive, so SHOULD in a2a-core"),
						CLI("A2ACLI_INTERACT_003", SrcMust).Read("never invents server-assigned identifiers (a2a-cli SPEC §6.3, MUST NOT)"),
					},
					Fix:     "When the result is a Message, stop: do not poll or cancel anything.",
					Reached: messageReplied("d"),
					Judge: func(r *Run) Verdict {
						replied := false
						for _, e := range r.Events {
							if replied && !e.Probe && (e.Op == mockvendor.OpGet || e.Op == mockvendor.OpCancel || isSubscribe(e) || isRealSend(e) && continuedTask(e) != "") {
								return Failf("%s after the Message reply, which named no task", describe(e)).At(e.Seq).Want("no task operation", describe(e))
							}
							if isRealSend(e) && e.MessageReply {
								replied = true
							}
						}
						return Passf("no task operation followed the Message reply")
					},
				},
			},
		},
		{
			ID:     "LIFE-006",
			Title:  "the client asks to return immediately, or streams",
			Area:   "life",
			Source: "A2A 1.0 §3.2.2 (non-blocking execution: the caller polls, subscribes or takes push notifications; a stream always returns updates in real time) and the proto's SendMessageConfiguration.return_immediately; §3.1.2 (the stream closes at the task's terminal state). D breaks no clause: it answers a blocking send at the task's end, one that asks to return immediately at once, with the task in progress, and streams a task's states as they happen, closing at its end",
			Setup: fmt.Sprintf("D is honest: a task sent with returnImmediately (0.3: blocking false), or streamed, stays submitted, then working, for %d ms before it completes; a blocking send is answered with the completed task; a stream sends the task and its working status at once and the completed status when the work ends, then closes. "+
				"Two delegations to D: the second asks for streaming (preferStreaming).", t.honestWorkMs),
			Fleet: func() mockvendor.Config {
				c := fleetOf(mockvendor.VendorD())()
				c.Limits.WorkTime = ms(t.honestWorkMs)
				c.StreamsWork = true
				return c
			},
			Requests: []Request{req(skillS, mockvendor.HostCardD), {Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}},
			Checks: []Check{{
				ID:     "LIFE-006.DONE",
				Title:  "a task the client chose not to wait for is followed to its end",
				Grades: must(Core),
				Requirement: "An orchestrator that asks a send to return immediately takes the following of the task on itself: it polls GetTask, subscribes or takes push notifications until the task is terminal or interrupted, and reports completed only when it saw it completed. " +
					"One that sends blocking is owed the task's end in the answer, and one that streams is judged by LIFE-006.STREAM: NOT_APPLICABLE.",
				Sources: []Source{
					A2A("§3.2.2", SrcDescriptive, Client).OnlyWhatItAsked("non-blocking execution: 'it is the caller's responsibility to poll for updates using Get Task, subscribe via Subscribe to Task, or receive updates via push notifications'. The client chose not to wait, so following the task only achieves what it asked for"),
					Proto("SendMessageConfiguration.return_immediately", SrcDescriptive, Client).Read("true: the operation returns immediately after creating the task, even if processing is still in progress"),
					A2A("§3.1.3", SrcDescriptive, Client).Read("GetTask is typically used for polling the status of a task initiated with Send Message"),
					A2A03("§7.3", SrcDescriptive, Client).OnlyWhatItAsked("tasks/get is typically used for polling the status of a task initiated with message/send (§7.1: message/send suits a client for which polling with tasks/get is acceptable). A 0.3 client that sent blocking false chose not to wait, so polling the task to its end only achieves what it asked for"),
				},
				Fix:          "When you ask a send to return immediately, poll GetTask with backoff (or subscribe) until the task is terminal or interrupted, and report the state you saw.",
				ReadsOutcome: true,
				Reached:      returnedImmediately("d"),
				Judge:        func(r *Run) Verdict { return judgeFollowedWhatItAsked(r, t.honestWorkMs) },
			}, {
				ID:     "LIFE-006.STREAM",
				Title:  "a task the client chose to stream is read to its end",
				Grades: must(Core),
				Requirement: "An orchestrator that streams a send reads the stream until it closes at the task's terminal (or interrupted) state (or, having left it, follows the task to its end by a subscription or GetTask), and reports the state it saw last: completed only when it saw the task completed. " +
					"A working status is progress, not the end: taking the first working event for the task's end, and closing the stream there, fails. One that does not stream is judged by LIFE-006.DONE: NOT_APPLICABLE.",
				Sources: []Source{
					A2A("§3.2.2", SrcDescriptive, Client).OnlyWhatItAsked("return_immediately has no effect 'for streaming operations, which always return updates in real-time': a client that chose to stream chose to receive the task's updates as they happen, so reading them to the task's end only achieves what it asked for"),
					A2A("§3.1.2", SrcMust, Server).Read("a task lifecycle stream begins with the Task, is followed by status and artifact updates, and MUST close when the task reaches a terminal state: the close, not a working update, marks the end. D keeps this clause"),
					A2A("§3.5.1", SrcDescriptive, Client).Read("streaming is the real-time delivery of events as they occur, through Send Streaming Message or Subscribe to Task: one of the three ways a client follows a task"),
					A2A03("§7.2", SrcDescriptive, Client).OnlyWhatItAsked("message/stream sends the message and subscribes the client to the task's real-time updates: a 0.3 client that chose to stream chose to receive them, so reading them to the task's end only achieves what it asked for"),
					A2A03("§9.3", SrcDescriptive, Server).Read("the server closes the SSE connection after the event marked final: true, not after a working update"),
				},
				Fix:          "Read the stream until it closes (or delivers a terminal or interrupted state); keep the last state it delivered and report that, not the first working status.",
				ReadsOutcome: true,
				Reached:      streamedTask("d"),
				Judge:        func(r *Run) Verdict { return judgeStreamReadToEnd(r, t.honestWorkMs) },
			}},
		},
	}
}

// taskAnswered needs the vendor to have shown a real task in state (0.3
// spelling) to the client: in the answer of a send, get, cancel or
// subscription, or in any frame of a stream (a client that streams and
// sees working on the stream has met a working task as much as one whose
// send was answered working).
func taskAnswered(vendor, state string) Precondition {
	return Precondition{
		Needs: "get a real task answered " + state + " by " + vendorName(vendor) + " (on a send, a get, a stream or a subscription)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && e.TaskID != "" && !e.Probe && slices.ContainsFunc(shown(e), func(s mockvendor.SeenState) bool { return s.State == state })
			})
		},
	}
}

// followedByStream reports whether a real task was followed over a
// stream: a streamed send that created it, or a subscription to it.
func followedByStream(r *Run) bool {
	return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
		return !e.Probe && e.TaskID != "" && (e.Op == mockvendor.OpStream && createdTask(e) || isSubscribe(e))
	})
}

// returnedImmediately needs a real send to the vendor that asked to return
// immediately and was answered with a task.
func returnedImmediately(vendor string) Precondition {
	return Precondition{
		Needs: "send " + vendorName(vendor) + " the real task asking it to return immediately",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return isRealSend(e) && inVendor(e, vendor) && e.TaskID != "" && e.ErrorCode == 0 && askedToReturn(e)
			})
		},
	}
}

// sendConfig is the part of a send's configuration that sets its
// blocking mode: returnImmediately in 1.0, blocking in 0.3.
type sendConfig struct {
	ReturnImmediately bool  `json:"returnImmediately"`
	Blocking          *bool `json:"blocking"`
}

// askedToReturn reports whether a send asked to return immediately
// (1.0 configuration.returnImmediately, 0.3 configuration.blocking false),
// in JSON-RPC params or an HTTP+JSON body.
func askedToReturn(e mockvendor.Event) bool {
	if len(e.Request) == 0 {
		return false
	}
	var w struct {
		Params struct {
			Configuration sendConfig `json:"configuration"`
		} `json:"params"`
		Configuration sendConfig `json:"configuration"`
	}
	if json.Unmarshal(e.Request, &w) != nil {
		return false
	}
	nonBlocking := func(c sendConfig) bool { return c.ReturnImmediately || c.Blocking != nil && !*c.Blocking }
	return nonBlocking(w.Params.Configuration) || nonBlocking(w.Configuration)
}

// firstIn returns the first event of delegation i for which keep holds.
func firstIn(r *Run, i int, keep func(mockvendor.Event) bool) (mockvendor.Event, bool) {
	for _, e := range r.During(i) {
		if keep(e) {
			return e, true
		}
	}
	return mockvendor.Event{}, false
}

// judgeFollowedWhatItAsked: a task sent with returnImmediately is followed
// to its completion and reported completed (the wire must show it), in
// each delegation where the client asked so. workMs is how long the task
// worked, for the failure text.
func judgeFollowedWhatItAsked(r *Run, workMs int) Verdict {
	asked := func(e mockvendor.Event) bool {
		return isRealSend(e) && e.Op == mockvendor.OpSend && e.TaskID != "" && e.ErrorCode == 0 && askedToReturn(e)
	}
	n := 0
	var last Verdict
	for i := range r.Delegations {
		e, ok := firstIn(r, i, asked)
		if !ok {
			continue
		}
		n++
		if last = judgeAskedToReturn(r, i, e, workMs); last.Outcome != Pass {
			return last
		}
	}
	switch {
	case n > 0:
		return last
	case slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isRealSend(e) && e.Op == mockvendor.OpSend }):
		return NotApplicablef("did not ask to return immediately: a blocking send is owed the task's end in its answer")
	case slices.ContainsFunc(r.Events, isRealSend):
		return NotApplicablef("streamed every task: LIFE-006.STREAM judges that")
	}
	return NotExercisedf("sent no task")
}

// judgeAskedToReturn judges delegation i, whose send asked (the send that
// asked to return immediately); the task worked workMs.
func judgeAskedToReturn(r *Run, i int, asked mockvendor.Event, workMs int) Verdict {
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	if o.Outcome != contract.OutcomeCompleted {
		return Failf("%s asked to return immediately and was answered %s; the outcome is %s (reason %q): the task completed %d ms after the send", describe(asked), asked.State, o.Outcome, o.Reason, workMs).
			Want("the task followed to its completion", o.Outcome)
	}
	return Passf("task %s, sent with returnImmediately, was followed to its completion", asked.TaskID)
}

// streamedTask needs a real task created at the vendor by a stream.
func streamedTask(vendor string) Precondition {
	return Precondition{
		Needs: "stream " + vendorName(vendor) + " the real task (SendStreamingMessage)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return e.Op == mockvendor.OpStream && inVendor(e, vendor) && createdTask(e)
			})
		},
	}
}

// judgeStreamReadToEnd: in each delegation whose task the client streamed,
// the outcome is completed, borne out by the wire: the stream (or a later
// get or subscription) showed the task completed. A client that left the
// stream at working and reported anything fails, the outcome or
// Contradiction saying which. The task worked workMs.
func judgeStreamReadToEnd(r *Run, workMs int) Verdict {
	streamedHere := func(e mockvendor.Event) bool { return e.Op == mockvendor.OpStream && createdTask(e) }
	n := 0
	var last Verdict
	for i := range r.Delegations {
		s, ok := firstIn(r, i, streamedHere)
		if !ok {
			continue
		}
		n++
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		if o.Outcome != contract.OutcomeCompleted {
			return Failf("delegation %d: %s delivered %s and the outcome is %s (reason %q): the task completed %d ms after the send, and its stream would have delivered it", i+1, describe(s), seenText(s), o.Outcome, o.Reason, workMs).At(s.Seq).
				Want("the stream read to the task's end: completed", fmt.Sprintf("%s (stream left after %s)", o.Outcome, seenText(s)))
		}
		last = Passf("delegation %d: task %s was read to its end over its stream (%s)", i+1, s.TaskID, seenText(s)).At(s.Seq)
	}
	switch {
	case n > 0:
		return last
	case slices.ContainsFunc(r.Events, isRealSend):
		return NotApplicablef("did not stream a task: LIFE-006.DONE judges a send that asks to return immediately")
	}
	return NotExercisedf("sent no task")
}

// seenText lists the states a stream delivered ("submitted, working").
func seenText(e mockvendor.Event) string {
	var states []string
	for _, s := range shown(e) {
		states = append(states, s.State)
	}
	if len(states) == 0 {
		return "no state"
	}
	return strings.Join(states, ", ")
}

// messageReplied needs a real send answered by a Message at the vendor.
func messageReplied(vendor string) Precondition {
	return Precondition{
		Needs: "send " + vendorName(vendor) + " the real task (it answers a Message)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isRealSend(e) && inVendor(e, vendor) && e.MessageReply })
		},
	}
}

// isSubscribe reports whether the event is a subscription to a task
// (SubscribeToTask, tasks/resubscribe, or the HTTP+JSON route).
func isSubscribe(e mockvendor.Event) bool {
	return e.Method == "SubscribeToTask" || e.Method == "tasks/resubscribe"
}

// continuedTask is the task id a send's message continues (0.3 and 1.0
// message.taskId, in JSON-RPC params or an HTTP+JSON body), or "".
func continuedTask(e mockvendor.Event) string {
	body := e.Body()
	if len(body) == 0 {
		return ""
	}
	var w struct {
		Params struct {
			Message struct {
				TaskID string `json:"taskId"`
			} `json:"message"`
		} `json:"params"`
		Message struct {
			TaskID string `json:"taskId"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &w) != nil {
		return ""
	}
	if w.Params.Message.TaskID != "" {
		return w.Params.Message.TaskID
	}
	return w.Message.TaskID
}

// firstRealTask is the id of the first real task created in delegation i.
func firstRealTask(r *Run, i int) string {
	if i >= len(r.Delegations) {
		return ""
	}
	for _, e := range r.During(i) {
		if createdTask(e) {
			return e.TaskID
		}
	}
	return ""
}

// judgeStopPolling: no get of a task after an answer showed it
// input-required, and no subscription to it but one after a stream that
// closed there (the reading of A2A 1.0 §3.1.2 that a stream closes only at
// a terminal state). An auth-required task may be followed on (A2A 1.0
// §7.6.2).
func judgeStopPolling(r *Run) Verdict {
	stopped := map[string]bool{}   // answered input-required
	streamEnd := map[string]bool{} // ... on a stream, which closed there
	resubbed := map[string]bool{}  // the one subscription after that close
	for _, e := range r.Events {
		if stopped[e.TaskID] && !e.Probe {
			switch {
			case isSubscribe(e) && streamEnd[e.TaskID] && !resubbed[e.TaskID]:
				resubbed[e.TaskID] = true
			case e.Op == mockvendor.OpGet || isSubscribe(e):
				return Failf("%s asked about task %s after it was answered input-required", describe(e), e.TaskID).At(e.Seq).
					Want("no get or further subscription of an input-required task", describe(e))
			}
		}
		if e.TaskID != "" && e.State == "input-required" {
			stopped[e.TaskID] = true
			if e.Op == mockvendor.OpStream || isSubscribe(e) {
				streamEnd[e.TaskID] = true
			}
		}
	}
	return Passf("no input-required task was asked about again")
}

// judgeBackoff: no more than maxGetsPerSecond gets of one task in any
// one-second window.
func judgeBackoff(r *Run) Verdict {
	byTask := map[string][]mockvendor.Event{}
	n := 0
	for _, e := range r.Events {
		if e.Op != mockvendor.OpGet || e.Probe || e.TaskID == "" {
			continue
		}
		n++
		gets := append(byTask[e.TaskID], e)
		byTask[e.TaskID] = gets
		in := 0
		for _, g := range gets {
			if e.Time.Sub(g.Time) < time.Second {
				in++
			}
		}
		if in > maxGetsPerSecond {
			return Failf("%s is get number %d of task %s within one second (at most %d)", describe(e), in, e.TaskID, maxGetsPerSecond).At(e.Seq).
				Want(fmt.Sprintf("at most %d gets a second", maxGetsPerSecond), fmt.Sprintf("%d", in))
		}
	}
	if n == 0 && followedByStream(r) {
		return NotApplicablef("did not poll (followed the task over a stream: its own stream or a subscription)")
	}
	if n == 0 {
		return NotExercisedf("never polled the working task")
	}
	return Passf("%d gets, never more than %d in a second", n, maxGetsPerSecond)
}

// deadlineGrace is how long after a delegation's deadline a get still
// counts as on time (the trace's clock starts at the first request, a
// little after the delegation does). It is harness jitter, not part of the
// scenario, so it is not scaled (TimeScale): a scaled deadline keeps the
// full 250 ms.
const deadlineGrace = 250 * time.Millisecond

// judgeStopAtDeadline: no get of the task past the deadline, and the
// outcome says the deadline ran out.
func judgeStopAtDeadline(r *Run) Verdict {
	if len(r.Delegations) == 0 {
		return Failf("delegation 1 was not run")
	}
	evs := r.During(0)
	id := firstRealTask(r, 0)
	if len(evs) == 0 || id == "" {
		return NotExercisedf("no real task was created (%s)", delegationSummary(r, 0))
	}
	limit := evs[0].Time.Add(time.Duration(r.Delegations[0].Request.DeadlineMs)*time.Millisecond + deadlineGrace)
	for _, e := range r.Events {
		if (e.Op == mockvendor.OpGet || isSubscribe(e)) && e.TaskID == id && e.Time.After(limit) {
			return Failf("%s asked about task %s %d ms after the deadline", describe(e), id, e.Time.Sub(limit.Add(-deadlineGrace)).Milliseconds()).At(e.Seq)
		}
		if (e.Op == mockvendor.OpStream || isSubscribe(e)) && e.TaskID == id && (e.Pending || answeredAt(e).After(limit) || leftOpen(r, e)) {
			// A stream read past the deadline, or left open for the
			// harness to close after the orchestrator gave up, follows the
			// task as much as a get does (it ends at once when the task is
			// cancelled).
			return Failf("%s, a stream of task %s, was read %s after the deadline%s", describe(e), id, heldPast(e, limit), leftOpenText(r, e)).At(e.Seq).
				Want("the stream closed (or the task cancelled) at the deadline", "a stream still read "+heldPast(e, limit)+" after it"+leftOpenText(r, e))
		}
		if e.Op == mockvendor.OpSend && e.TaskID == id && (e.Pending || answeredAt(e).After(limit) || leftOpen(r, e)) {
			// A blocking send held by the agent (long-task) waits for the
			// task as much as a stream does.
			return Failf("%s, a blocking send of task %s, was held %s after the deadline%s", describe(e), id, heldPast(e, limit), leftOpenText(r, e)).At(e.Seq).
				Want("the held send closed at the deadline", "a send still held "+heldPast(e, limit)+" after it"+leftOpenText(r, e))
		}
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	d := r.Delegations[0]
	if dl := int64(d.Request.DeadlineMs); o.Outcome != contract.OutcomeCompleted && d.ElapsedMs < dl/2 {
		return NotExercisedf("gave the task up %d ms into a %d ms deadline (outcome %s, reason %q): never followed it to the deadline", d.ElapsedMs, dl, o.Outcome, o.Reason)
	}
	if o.Outcome == contract.OutcomeCompleted || o.Outcome == contract.OutcomeInterrupted || o.Reason != contract.ReasonDeadline {
		return Failf("outcome %s (reason %q): want failed with reason deadline", o.Outcome, o.Reason).Want("failed, deadline", o.Outcome+", "+o.Reason)
	}
	return Passf("stopped at the deadline; outcome %s, reason deadline", o.Outcome)
}

// leftOpen reports whether the stream e was still open when the harness
// began closing the orchestrator's session: the orchestrator never closed
// it, whatever it reported, and went on receiving the task's events until
// its process or connection was ended for it. This does not depend on how
// fast the orchestrator started, as a time measured from its first request
// would.
func leftOpen(r *Run, e mockvendor.Event) bool {
	return !r.SessionClosedAt.IsZero() && (e.Pending || !answeredAt(e).Before(r.SessionClosedAt))
}

// leftOpenText says, for a failure text, that the stream was left for the
// harness to close, or "".
func leftOpenText(r *Run, e mockvendor.Event) string {
	if leftOpen(r, e) {
		return " (it was still open when the harness closed the orchestrator's session: the orchestrator never closed it)"
	}
	return ""
}

// heldPast says how long past the deadline (limit less the grace) the
// stream e was held open.
func heldPast(e mockvendor.Event, limit time.Time) string {
	if e.Pending {
		return "until the end of the scenario"
	}
	return fmt.Sprintf("%d ms", answeredAt(e).Sub(limit.Add(-deadlineGrace)).Milliseconds())
}

// delegationSummary says in a few words what delegation i did: how long
// it took, how many requests it made, and the last of them.
func delegationSummary(r *Run, i int) string {
	if i >= len(r.Delegations) {
		return "the delegation was not run"
	}
	evs := r.During(i)
	d := r.Delegations[i]
	if len(evs) == 0 {
		return fmt.Sprintf("no request in %d ms", d.ElapsedMs)
	}
	return fmt.Sprintf("%d requests in %d ms, the last %s", len(evs), d.ElapsedMs, describe(evs[len(evs)-1]))
}
