package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// LIFE: the task after the send [A2A 1.0 §3.1.1 task states; A2A CLI
// specification/COMPLIANCE.md A2ACLI_TASK_POLL_001..004, A2ACLI_SEND_003,
// A2ACLI_INTERACT_003; issue 13]. A delegation is not over when the send
// is answered: the task may end badly, pause for the caller, work on for a
// while, or never exist (a Message reply).

// Timings of the LIFE scenarios: the work a polled task takes (LIFE-003),
// and the deadline of a delegation that must give up on a task (LIFE-004)
// with the work of that task. The deadline leaves the discovery, the probe
// and the send time enough on a loaded machine (2.5 s did not always,
// with the whole module's tests running on two cores, and 4 s did not
// once under the race detector); only the deadline costs wall time, since
// the task is cancelled there.
const (
	lifeWorkMs     = 3000
	lifeDeadlineMs = 5000
	lifeLongWorkMs = 8000
	// maxGetsPerSecond bounds the polling of one task: more gets than
	// this in any one-second window is a busy loop.
	maxGetsPerSecond = 5
)

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

func lifeScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:     "LIFE-001",
			Title:  "the task ends failed, rejected or canceled",
			Area:   "life",
			Source: "A2A 1.0 §3.1.1 (terminal states); A2A CLI A2ACLI_EXIT_002",
			Setup:  "Three delegations to D; its real task ends failed in the first, rejected in the second, canceled (by the agent) in the third.",
			Fleet:  lifeFleet("failed"),
			Requests: []Request{
				lifeRequest(nil),
				lifeRequest(lifeOutcome("rejected")),
				lifeRequest(lifeOutcome("canceled")),
			},
			Checks: []Check{{
				ID:           "LIFE-001.NOT-COMPLETED",
				Title:        "a task that ended failed, rejected or canceled is not reported completed",
				Grades:       must(Core),
				Requirement:  "Failed, rejected and canceled are terminal states that are not a completion: a delegation whose task ended in one of them reports a non-completed outcome (failed, rejected or escalated), never completed and never interrupted.",
				Source:       "A2A 1.0 §3.1.1 and the proto's enum TaskState; A2A CLI A2ACLI_EXIT_002 (the outcome is carried in the task state)",
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
			Source: "A2A 1.0 §3.1.1 (interrupted states); A2A CLI A2ACLI_TASK_POLL_003, A2ACLI_INTERACT_004",
			Setup:  "Two delegations to D; its real task stops at input-required in the first and at auth-required in the second, and stays there.",
			Fleet:  lifeFleet("input-required"),
			Requests: []Request{
				lifeRequest(nil),
				lifeRequest(lifeOutcome("auth-required")),
			},
			Checks: []Check{
				{
					ID:           "LIFE-002.INTERRUPTED",
					Title:        "an interrupted task is reported interrupted, with its state",
					Grades:       must(Core),
					Requirement:  "A task at input-required or auth-required is neither completed nor failed: it waits for the caller. The outcome says interrupted and names the task and the state it stopped at, so that the caller can continue it.",
					Source:       "A2A 1.0 §3.1.1 and the proto's enum TaskState (interrupted states); A2A CLI A2ACLI_INTERACT_004; driver contract, Interrupted tasks",
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
					ID:          "LIFE-002.STOP-POLLING",
					Title:       "an interrupted task is not polled further",
					Grades:      should(Core),
					Requirement: "Once an answer shows the task at input-required or auth-required, the orchestrator stops asking about it (get or subscribe): the task will not move until the caller acts.",
					Source:      "A2A CLI A2ACLI_TASK_POLL_003 (stop at once on interrupted states); A2A 1.0 §3.1.1",
					Fix:         "Treat input-required and auth-required like an end of the polling loop: report, do not get the task again.",
					Reached:     allOf(taskAnswered("d", "input-required"), taskAnswered("d", "auth-required")),
					Judge: func(r *Run) Verdict {
						seen := map[string]bool{}
						for _, e := range r.Events {
							if (e.Op == mockvendor.OpGet || isSubscribe(e)) && seen[e.TaskID] && !e.Probe {
								return Failf("%s asked about task %s after it was answered interrupted", describe(e), e.TaskID).At(e.Seq)
							}
							if e.TaskID != "" && (e.State == "input-required" || e.State == "auth-required") {
								seen[e.TaskID] = true
							}
						}
						return Passf("no interrupted task was asked about again")
					},
				},
			},
		},
		{
			ID:       "LIFE-003",
			Title:    "the task works 3 s before it completes",
			Area:     "life",
			Source:   "A2A CLI A2ACLI_TASK_POLL_001, A2ACLI_TASK_POLL_002; A2A 1.0 §3.1.3 (GetTask)",
			Setup:    "D answers the send at once with the task working; the task completes 3 s later.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: lifeWorkMs}))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:           "LIFE-003.DONE",
					Title:        "the working task is followed to its completion",
					Grades:       must(Core),
					Requirement:  "A send answered with a working task is not the end of the delegation: the orchestrator follows the task (GetTask, or a subscription) until it reaches a terminal state, and reports completed only when it saw it completed.",
					Source:       "A2A CLI A2ACLI_TASK_POLL_001; A2A 1.0 §3.1.3",
					Fix:          "Poll GetTask (or subscribe) with the id the agent gave until the state is terminal or interrupted.",
					ReadsOutcome: true,
					Reached:      taskAnswered("d", "working"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted {
							return Failf("outcome %s (reason %q), want completed: the task completed %d ms after the send", o.Outcome, o.Reason, lifeWorkMs)
						}
						return Passf("completed, as the wire shows")
					},
				},
				{
					ID:          "LIFE-003.BACKOFF",
					Title:       "polling is bounded: no busy loop",
					Grades:      should(Core),
					Requirement: fmt.Sprintf("Polling a working task backs off: at most %d gets of one task in any one-second window.", maxGetsPerSecond),
					Source:      "A2A CLI A2ACLI_TASK_POLL_002 (bounded backoff, no busy-loop)",
					Fix:         "Wait between gets and lengthen the wait (e.g. 200 ms doubling up to 2 s).",
					Reached:     taskAnswered("d", "working"),
					Judge:       judgeBackoff,
				},
			},
		},
		{
			ID:         "LIFE-004",
			Title:      "the deadline passes while the task works",
			Area:       "life",
			Source:     "A2A CLI A2ACLI_TASK_POLL_002 (--timeout honoured); seed 000, Decision Boundary; A2A 1.0 §3.1.5 (CancelTask)",
			Setup:      fmt.Sprintf("D answers the send at once with the task working; the task would complete %d ms later, but the delegation's deadline is %d ms.", lifeLongWorkMs, lifeDeadlineMs),
			Fleet:      fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: lifeLongWorkMs}))),
			Requests:   []Request{req(skillS, mockvendor.HostCardD)},
			DeadlineMs: lifeDeadlineMs,
			Checks: []Check{
				{
					ID:           "LIFE-004.STOP",
					Title:        "polling stops at the deadline",
					Grades:       must(Core),
					Requirement:  "The delegation's deadline ends the following of the task: no get of it after the deadline, and the outcome says the deadline ran out (failed, reason deadline), not completed.",
					Source:       "A2A CLI A2ACLI_TASK_POLL_002 (--timeout honoured); driver contract, deadlineMs",
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
					Source:      "seed 000, Decision Boundary; A2A 1.0 §3.1.5 (CancelTask)",
					Fix:         "When the deadline ends the wait, send CancelTask for the task before reporting.",
					Reached:     taskAnswered("d", "working"),
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
			Source:   "A2A 1.0 §3.1.1 (a send answers a Task or a Message); A2A CLI A2ACLI_SEND_003, A2ACLI_INTERACT_003",
			Setup:    "D answers every send with an agent Message and creates no task.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("message-reply", nil))),
			Requests: []Request{req(skillS, mockvendor.HostCardD)},
			Checks: []Check{
				{
					ID:           "LIFE-005.DONE",
					Title:        "a Message reply is a completion",
					Grades:       must(Core),
					Requirement:  "A send answered by a Message, with no task, is the whole interaction: the delegation completed, and the outcome names no task.",
					Source:       "A2A CLI A2ACLI_SEND_003; A2A 1.0 §3.1.1",
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
					ID:          "LIFE-005.NO-INVENTED-TASK",
					Title:       "no task operation after a Message reply",
					Grades:      must(Core),
					Requirement: "After a Message reply there is no task: the orchestrator does not invent a task id to get, subscribe to, cancel or continue.",
					Source:      "A2A CLI A2ACLI_INTERACT_003 (never invents server-assigned identifiers); A2A 1.0 §3.4.2",
					Fix:         "When the result is a Message, stop: do not poll or cancel anything.",
					Reached:     messageReplied("d"),
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
	}
}

// taskAnswered needs the vendor to have answered (send, stream, get or
// subscription) a real task in state (0.3 spelling).
func taskAnswered(vendor, state string) Precondition {
	return Precondition{
		Needs: "get a real task answered " + state + " by " + vendorName(vendor),
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && e.TaskID != "" && !e.Probe && e.State == state
			})
		},
	}
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
	if len(e.Request) == 0 {
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
	if json.Unmarshal(e.Request, &w) != nil {
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
	if n == 0 && slices.ContainsFunc(r.Events, isSubscribe) {
		return NotApplicablef("did not poll (followed the task by a subscription)")
	}
	if n == 0 {
		return NotExercisedf("never polled the working task")
	}
	return Passf("%d gets, never more than %d in a second", n, maxGetsPerSecond)
}

// deadlineGrace is how long after a delegation's deadline a get still
// counts as on time (the trace's clock starts at the first request, a
// little after the delegation does).
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
