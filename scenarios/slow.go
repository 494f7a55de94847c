package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// SLOW: slow and lost answers. An honest agent may hold a blocking send as
// long as its task works (A2A 1.0 §3.2.2), may never finish a task, and
// the network may lose a send's answer after the task was created. A
// client that gives up on a held send and sends the work again, or
// retries a lost send as new work, has the agent do it twice.
//
// The area is "slow-answer", not "slow": "slow" is the label that keeps a
// scenario out of a default run (Scenario.Labels), and an area is a label
// too.

// Timings of the SLOW scenarios at real time.
const (
	// slowHoldMs is how long SLOW-001's task works, holding a blocking
	// send: longer than the common 30 s HTTP client timeout.
	slowHoldMs = 40_000
	// slowDeadlineMs is SLOW-001's deadline: the hold with room for the
	// discovery, the probe and a poll or a stream's last frame.
	slowDeadlineMs = 60_000
	// foreverDeadlineMs is SLOW-003's deadline: room for a framework
	// client that takes seconds to import and discover on a loaded
	// machine to have sent before it runs out (a client that had not
	// sent yet would not be exercised).
	foreverDeadlineMs = 8000
)

// Floors of the SLOW timings at a scale below 1 (TimeScale).
const (
	// slowHoldFloorMs keeps the hold longer than a short client timeout a
	// test stages (a second) with a margin, so that a client that gives up
	// early is still told from one that waits.
	slowHoldFloorMs = 2500
	// slowRoomMs is the least room the deadline leaves past the hold: the
	// discovery, the probe and the send on a loaded machine (see
	// lifeDeadlineFloorMs).
	slowRoomMs = 2500
)

// slowTimes are the SLOW timings staged at one scale.
type slowTimes struct{ holdMs, deadlineMs, foreverDeadlineMs int }

func slowTimings(ts TimeScale) slowTimes {
	hold := ts.Ms(slowHoldMs, slowHoldFloorMs)
	return slowTimes{
		holdMs:            hold,
		deadlineMs:        ts.Ms(slowDeadlineMs, hold+slowRoomMs),
		foreverDeadlineMs: ts.Ms(foreverDeadlineMs, lifeDeadlineFloorMs),
	}
}

func slowScenarios(ts TimeScale) []*Scenario {
	t := slowTimings(ts)
	return []*Scenario{longSendScenario(t), lostAnswerScenario(), foreverScenario(t)}
}

// longSendScenario is SLOW-001: an honest D holds a blocking send while
// its task works.
func longSendScenario(t slowTimes) *Scenario {
	return &Scenario{
		ID:    "SLOW-001",
		Title: "a blocking send is held " + seconds(ms(t.holdMs)) + " while the task works",
		Area:  "slow-answer",
		Source: "A2A 1.0 §3.2.2 (a blocking send MUST wait until the task is terminal or interrupted); NousResearch/hermes-agent#78008, i-am-bee/beeai-framework#1183 (clients whose HTTP timeout ended a long send). " +
			"D breaks no MUST of §3.2.2 (on §3.1.1's reading, which says a send MUST return immediately, the held answer is late)",
		Setup: fmt.Sprintf("D is honest; its real task works %d ms, longer than the common 30 s HTTP client timeout at real time. A blocking send is answered when the task completes; one that asks to return immediately is answered at once with the task working; a stream sends the task and its working status at once and the completed status at the end. "+
			"The deadline (%d ms) leaves room to wait. A resend of the same message (same messageId) is answered with its task; a send under a new messageId is new work.", t.holdMs, t.deadlineMs),
		Labels:     []string{"slow"},
		Fleet:      fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("long-task", mockvendor.LongTask{WorkMs: t.holdMs}))),
		Requests:   []Request{req(skillS, mockvendor.HostCardD)},
		DeadlineMs: t.deadlineMs,
		Checks: []Check{{
			ID:     "SLOW-001.DONE",
			Title:  "a long task is waited for, followed or streamed to its completion",
			Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
			Requirement: "A task that works longer than an HTTP client's usual timeout completes within the delegation's deadline: the orchestrator keeps its blocking send open until the answer comes, or asks to return immediately and polls (or subscribes), or streams, and reports completed as the wire shows it. " +
				"Giving up on the held send and sending the work again creates a second task (G-ONE-TASK judges that) and does not complete.",
			Sources: []Source{
				A2A("§3.2.2", SrcMust, Server).Read("a blocking send (the default) MUST wait until the task is terminal or interrupted, with the latest state and every artifact: the held answer is the spec's, and the client that sent blocking is owed it. D keeps this clause"),
				A2A("§3.2.2", SrcDescriptive, Client).Read("with return_immediately the caller polls, subscribes or takes push notifications: the other way to follow a long task. Descriptive of the client, and blocking is the default, not a choice the client made: SHOULD in a2a-core"),
				A2A03("§7.1", SrcDescriptive, Client).Read("message/send with configuration.blocking (the default) answers when the task is done: a 0.3 client that sent it is owed that answer and waits for it, or polls with tasks/get. Descriptive, so SHOULD in a2a-core"),
				Field("NousResearch/hermes-agent#78008").Read("a client's HTTP timeout ended a long A2A send before its answer"),
				Field("i-am-bee/beeai-framework#1183").Read("a client's request timeout was shorter than the agent's work"),
			},
			Fix:          "Bound a blocking send by the delegation's deadline, not by a fixed HTTP client timeout; or send with returnImmediately and poll GetTask with backoff (or stream). Never resend the work under a new messageId because an answer is slow.",
			ReadsOutcome: true,
			Reached:      sentRealTask("d"),
			Judge: func(r *Run) Verdict {
				o, bad := r.outcome(0)
				if bad != nil {
					return *bad
				}
				if o.Outcome != contract.OutcomeCompleted {
					return Failf("outcome %s (reason %q), want completed: the task completed %d ms after the send, within the %d ms deadline", o.Outcome, o.Reason, t.holdMs, t.deadlineMs).
						Want("completed", o.Outcome)
				}
				return Passf("completed, as the wire shows (%s)", delegationSummary(r, 0))
			},
		}},
	}
}

// lostAnswerScenario is SLOW-002: D creates the task of the first real
// send and drops the connection before answering.
func lostAnswerScenario() *Scenario {
	return &Scenario{
		ID:    "SLOW-002",
		Title: "the answer to the send is lost after the task was created",
		Area:  "slow-answer",
		Source: "A2A 1.0 §3.3.1 (Send Message MAY be idempotent: agents may use the messageId to detect duplicates); a2aproject/A2A#1987, a2aproject/A2A#928. " +
			"D breaks no clause: the dropped connection is a network failure to the client",
		Setup: "D creates the task of the first real send (probes pass) and closes the connection before answering: the task exists, the client never learns its id. " +
			"D answers a resend of the same message (same messageId, parts, skill and blocking mode) with that task; a send under a new messageId creates a second task.",
		Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("lost-answer", nil))),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks: []Check{
			{
				ID:     "SLOW-002.SAME-MESSAGE-ID",
				Title:  "a retry of a lost send reuses its messageId",
				Grades: must(Safety),
				Requirement: "A send whose answer was lost may have created its task: a retry sends the same message with the same messageId, so that an agent that deduplicates answers with that task instead of doing the work twice. " +
					"A retry under a new messageId fails; not retrying at all is no retry (NOT_APPLICABLE here; SLOW-002.REPORTED judges the outcome).",
				Sources: []Source{
					A2A("§3.3.1", SrcDescriptive, Server).Read("Send Message MAY be idempotent: agents may use the messageId to detect duplicate messages. Only a retry that keeps the messageId lets one do so"),
					Proto("Message.message_id", SrcDescriptive, Client).Read("the unique identifier of the message, created by the message creator: a retry of the same message is the same message"),
					Field("a2aproject/A2A#1987").Read("a retried send after a lost answer created the work twice"),
					Posture("a delegation creates at most one real task; a retry after a lost answer reuses its messageId (G-ONE-TASK)"),
				},
				Fix:     "Keep the params of the real send; when its answer is lost (the connection closed or reset before the answer), resend them as they were, messageId included, at most once or twice within the deadline.",
				Reached: lostAnswer("d"),
				Judge:   judgeSameMessageID,
			},
			{
				ID:           "SLOW-002.REPORTED",
				Title:        "the outcome after a lost answer is what the wire shows",
				Grades:       must(Safety),
				Requirement:  "After a lost answer the delegation reports completed only with the task's id and only when the wire shows the task completed (a retry with the same messageId gets it); a client that does not retry reports failed. A completion assumed from a send whose answer never came fails.",
				Sources:      []Source{ContractRule("Delegation outcome: outcome words", SrcDescriptive).Read("completed is for a remote agent that finished the task; an answer that never came shows no such thing"), Field("a2aproject/A2A#928").Read("a send whose answer was lost left the client unsure whether the task ran")},
				Fix:          "Report completed only from an answer (or a get) that shows the task completed; after a lost answer, retry with the same messageId or report failed.",
				ReadsOutcome: true,
				Reached:      lostAnswer("d"),
				Judge: func(r *Run) Verdict {
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome == contract.OutcomeCompleted {
						return Passf("completed with task %s, as the wire shows", o.TaskID)
					}
					if o.Outcome == contract.OutcomeInterrupted {
						return Failf("outcome interrupted: the lost send's task was never shown interrupted").Want("completed (from the wire) or failed", o.Outcome)
					}
					return Passf("outcome %s (reason %q): the answer was lost and no completion claimed", o.Outcome, o.Reason)
				},
			},
		},
	}
}

// foreverScenario is SLOW-003: an honest D's task works for ever and D
// refuses to cancel it.
func foreverScenario(t slowTimes) *Scenario {
	return &Scenario{
		ID:    "SLOW-003",
		Title: "the task works for ever and cannot be cancelled",
		Area:  "slow-answer",
		Source: "kagent-dev/kagent#2447 (GetTask answered working for ever); A2A 1.0 §3.2.2 (a blocking send waits for the task's end), §3.1.5 (a cancel may fail). " +
			"D breaks no clause: no clause bounds a task's work, and a cancel's success is not guaranteed. LIFE-004 judges a task that outlives the deadline against a D that answers early and honours the cancel",
		Setup:      fmt.Sprintf("D is honest; its real task works until cancelled and D refuses the cancel (-32002): the task never ends. A blocking send is held for ever, one that asks to return immediately is answered working (and GetTask says working for ever), a stream stays open after its working status. The deadline is %d ms.", t.foreverDeadlineMs),
		Fleet:      fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("long-task", mockvendor.LongTask{Forever: true, RefuseCancel: true}))),
		Requests:   []Request{req(skillS, mockvendor.HostCardD)},
		DeadlineMs: t.foreverDeadlineMs,
		Checks: []Check{{
			ID:     "SLOW-003.STOP",
			Title:  "a task that never ends is left at the deadline",
			Grades: must(Safety),
			Requirement: "The delegation's deadline ends the wait for a task that never ends, whatever way the orchestrator waits: no blocking send or stream held past it, no get or subscription of the task after it, and the outcome says the deadline ran out (failed, reason deadline). " +
				"A refused cancel does not extend the wait.",
			Sources: []Source{
				CLI("A2ACLI_TASK_POLL_002", SrcMust).Read("--timeout is honoured: on expiry the tool MUST report a timeout (a2a-cli SPEC §9.3); the delegation's deadline is that timeout, for a held send as for polling"),
				ContractRule("Delegation request: deadlineMs", SrcDescriptive).Read("the time the orchestrator has to report; the reason deadline says it ran out"),
				A2A("§3.1.5", SrcDescriptive, Server).Read("the server attempts to cancel; success is not guaranteed: a refused cancel is an honest answer, not a reason to keep waiting"),
				Field("kagent-dev/kagent#2447").Read("GetTask answered working for ever: a client that polls until a terminal state never returns"),
			},
			Fix:          "Bound every wait (the blocking send, the stream, the polling loop) by the request's deadline; cancel once, then report failed with reason deadline whatever the cancel answered.",
			ReadsOutcome: true,
			Reached:      sentRealTask("d"),
			Judge:        judgeStopAtDeadline,
		}},
	}
}

// sentRealTask needs a real task created at the vendor (by a send or a
// stream the vendor accepted), whether or not its answer reached the
// client.
func sentRealTask(vendor string) Precondition {
	return Precondition{
		Needs: "send " + vendorName(vendor) + " the real task",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return inVendor(e, vendor) && createdTask(e) })
		},
	}
}

// lostAnswer needs a real send at the vendor whose answer the lost-answer
// fault dropped.
func lostAnswer(vendor string) Precondition {
	return Precondition{
		Needs: "send " + vendorName(vendor) + " the real task (whose answer is lost)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return inVendor(e, vendor) && lostSend(e) })
		},
	}
}

// lostSend reports whether the event is a real send whose answer the
// lost-answer fault dropped.
func lostSend(e mockvendor.Event) bool {
	return isRealSend(e) && slices.Contains(e.Faults, "lost-answer")
}

// messageIDOf is the messageId of a send's message (JSON-RPC params or an
// HTTP+JSON body), or "".
func messageIDOf(e mockvendor.Event) string {
	body := e.Body()
	if len(body) == 0 {
		return ""
	}
	type msg struct {
		MessageID string `json:"messageId"`
	}
	var w struct {
		Params struct {
			Message msg `json:"message"`
		} `json:"params"`
		Message msg `json:"message"`
	}
	if json.Unmarshal(body, &w) != nil {
		return ""
	}
	if w.Params.Message.MessageID != "" {
		return w.Params.Message.MessageID
	}
	return w.Message.MessageID
}

// judgeSameMessageID: in each delegation, every real send that starts
// new work after a lost answer carries the lost send's messageId.
func judgeSameMessageID(r *Run) Verdict {
	retries := 0
	for i := range r.Delegations {
		lost := ""
		var lostEv mockvendor.Event
		for _, e := range r.During(i) {
			switch {
			case lostSend(e) && lost == "":
				lost, lostEv = messageIDOf(e), e
			case lost != "" && isRealSend(e) && continuedTask(e) == "":
				retries++
				if id := messageIDOf(e); id != lost {
					return Failf("delegation %d: %s retried the lost %s under messageId %q, not %q: new work for the agent", i+1, describe(e), describe(lostEv), id, lost).At(e.Seq).
						Want("the retry under messageId "+lost, "messageId "+id)
				}
			}
		}
	}
	if !slices.ContainsFunc(r.Events, lostSend) {
		return NotExercisedf("no real send's answer was lost")
	}
	if retries == 0 {
		return NotApplicablef("the lost send was not retried: no retry to judge (SLOW-002.REPORTED judges the outcome)")
	}
	return Passf("%d retries of the lost send, each under its messageId", retries)
}
