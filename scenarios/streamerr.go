package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// STREAM, continued: streams that answer with errors. A stream method may
// be refused before its stream begins (an A2A error as plain JSON, an
// HTTP 401), a subscription may never send its first event, a stream may
// carry a Message and no task, announce a state the client does not know,
// or end with an error event. As with STREAM-001..005, these scenarios ask
// for streaming, and an orchestrator that sends plainly is NOT_APPLICABLE.
//
// Which vendor breaks the spec, scenario by scenario:
//   - STREAM-006 (error as plain JSON) and STREAM-009 (Message-only
//     stream) break nothing: an operation's error precedes its stream and
//     the bindings answer errors as JSON (A2A 1.0 §9.1, §9.5, §11.6); a
//     Message-only stream is one of §3.1.2's two patterns.
//   - STREAM-007: D's card declares no security scheme, yet its stream
//     path answers 401: D breaks its card.
//   - STREAM-008: the subscription never sends the task as its first event
//     (A2A 1.0 §3.1.6 MUST), after a stream that closed early (§3.1.2).
//   - STREAM-010: TASK_STATE_UNSPECIFIED is the proto's zero value, no
//     state (TaskStatus.state is REQUIRED), and a state outside the enum
//     is none of the spec's.
//   - STREAM-011: A2A 1.0 defines no error event for a stream that has
//     begun (a2aproject/A2A#1262 asks for one); D sends the binding's
//     error object as an event, as SDKs do. The check compares the outcome
//     with the one of a plain send answered with the same error.

// streamErrWorkMs is how long the task of STREAM-010 works, at real time
// (floor streamWorkFloorMs, as STREAM-003's).
const streamErrWorkMs = 500

// stallWorkMs is how long the task of STREAM-008 works after its stream
// is cut, at real time: it completes while the subscription is silent
// (the card's 2 s timeout). Its floor, stallWorkFloorMs, outlasts a loaded
// machine's discovery, probe, stream and subscription: under it, the task
// could end before the subscription is made, which is then refused as
// terminal instead of stalling.
const (
	stallWorkMs      = 1500
	stallWorkFloorMs = 600
)

// streamErrDeadlineMs bounds each delegation of STREAM-008: enough for
// discovery, the probe, the cut stream, the card's first-frame timeout on
// the subscription and the polls after it; a client that waits on the
// stalled subscription waits this long.
const streamErrDeadlineMs = 8000

// lostTask is the error of STREAM-011: A2A's TaskNotFoundError (-32001,
// ErrorInfo reason TASK_NOT_FOUND), the error of a2aproject/a2a-js#712:
// the agent lost (purged) the task it had created. A typed error every SDK
// maps to a type of its own, so that the check judges the stream's path,
// not how a client maps a vendor's own code.
var lostTask = mockvendor.StreamErrorEvent{Code: -32001, Message: "Task not found: the agent lost it", Reason: "TASK_NOT_FOUND", Sends: true}

func streamErrScenarios(ts TimeScale) []*Scenario {
	work := ts.Ms(streamErrWorkMs, streamWorkFloorMs)
	timeout := slowFrameTimes(ts).timeoutMs
	streamReq := Request{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}
	return []*Scenario{
		stream006(streamReq),
		stream007(streamReq),
		stream008(streamReq, ts.Ms(stallWorkMs, stallWorkFloorMs), timeout, ts.Ms(streamErrDeadlineMs, 3000)),
		stream009(streamReq),
		stream010(streamReq, work),
		stream011(streamReq),
	}
}

// dStreamFaults is D with faults.
func dStreamFaults(faults ...mockvendor.FaultSpec) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), faults...))
}

// realStreamAt is the first real stream at the vendor that a fault named
// in its trace (nil when none).
func realStreamAt(evs []mockvendor.Event, vendor, fault string) *mockvendor.Event {
	for i, e := range evs {
		if e.Op == mockvendor.OpStream && !e.Probe && inVendor(e, vendor) && slices.Contains(e.Faults, fault) {
			return &evs[i]
		}
	}
	return nil
}

// streamFaulted needs a real stream at D on which fault acted, with cond.
func streamFaulted(fault, needs string, cond func(mockvendor.Event) bool) Precondition {
	return Precondition{
		Needs: needs,
		Met: func(r *Run) bool {
			e := realStreamAt(r.Events, "d", fault)
			return e != nil && cond(*e)
		},
	}
}

// failureReported is the verdict on an outcome that is not completed: a
// failure, a refusal or an escalation is a report of the failure.
func failureReported(o *contract.DelegationOutcome) Verdict {
	switch o.Outcome {
	case contract.OutcomeFailed, contract.OutcomeRejected, contract.OutcomeEscalated:
		return Passf("reported %s (reason %q)", o.Outcome, o.Reason)
	}
	return Failf("outcome %s (reason %q): want a completion the wire shows, or a reported failure", o.Outcome, o.Reason).Want("failed, rejected or escalated", o.Outcome)
}

func stream006(streamReq Request) *Scenario {
	return &Scenario{
		ID:       "STREAM-006",
		Title:    "the stream method answers an error as plain JSON",
		Area:     "stream",
		Source:   "a2aproject/a2a-rs#146; a2aproject/a2a-rs#79; topcheer/ggcode#446; a2aproject/a2a-python#502; A2A 1.0 §3.1.2, §9.1, §9.5, §11.6. D breaks no clause: the error of an operation comes before its stream, and each binding answers errors as JSON",
		Setup:    "D's card says streaming: true; its stream method answers -32603 (InternalError) before any stream, as a plain application/json answer: a JSON-RPC error response (HTTP 200), over HTTP+JSON a google.rpc.Status (HTTP 500). Plain sends work.",
		Fleet:    dStreamFaults(mockvendor.Spec("stream-error-json", nil)),
		Requests: []Request{streamReq},
		Checks: []Check{{
			ID:    "STREAM-006.NO-EMPTY-SUCCESS",
			Title: "an error answer to a stream is no empty success",
			// The vendor is honest; that the client reads the error as an
			// answer of the operation rests on descriptive text: a2a-core
			// SHOULD, a2a-cli's MUST in delegation-safety.
			Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
			Requirement: "A stream method answered with an A2A error as plain JSON (a JSON-RPC error response, an HTTP+JSON google.rpc.Status) streamed nothing and did not succeed: the orchestrator falls back to a plain send and reports what it shows, or reports the delegation failed. It never reports completed without a completed task (or a Message reply) on the wire, as a client that parses the error body as an empty stream does.",
			Sources: []Source{
				A2A("§3.1.2", SrcDescriptive, Client).Read("Send Streaming Message has errors of its own (UnsupportedOperationError, ContentTypeNotSupportedError, TaskNotFoundError): an answer of the operation the client meets instead of a stream, not an empty stream. Descriptive, so SHOULD in a2a-core"),
				A2A("§9.1", SrcDescriptive, Server).Read("JSON-RPC answers in application/json and streams in text/event-stream: an error before the stream is a JSON-RPC response (§9.5)"),
				A2A("§11.6", SrcDescriptive, Server).Read("an HTTP+JSON error is an HTTP status with a google.rpc.Status body"),
				CLI("A2ACLI_SEND_003", SrcMust).Read("when streaming fails the tool MUST fall back or error clearly (a2a-cli SPEC §10.2): an empty success is neither"),
				Field("a2aproject/a2a-rs#146").Read("a JSON-RPC error answering a stream (HTTP 200, application/json) became an empty stream"),
				Field("topcheer/ggcode#446").Read("zero events and no error, taken for a success"),
				Field("a2aproject/a2a-python#502"),
				Field("a2aproject/a2a-rs#79"),
				Posture("a completed outcome needs an answer that showed the task completed (or a Message reply)"),
			},
			Fix:          "Check the stream answer's Content-Type before parsing SSE: application/json is a JSON-RPC error response (HTTP+JSON: a google.rpc.Status); report its error, or fall back to SendMessage.",
			ReadsOutcome: true,
			Reached:      streamFaulted("stream-error-json", "stream the real task to D and get its error answer", func(e mockvendor.Event) bool { return e.ErrorCode != 0 }),
			Judge: func(r *Run) Verdict {
				if !r.streamed() {
					return r.didNotStream()
				}
				o, bad := r.outcome(0)
				if bad != nil {
					return *bad
				}
				if o.Outcome == contract.OutcomeCompleted {
					if v := completedAt(r, 0, "d"); v.Outcome != Pass {
						return v
					}
					return Passf("completed by a fallback to a plain send, which the wire shows completed")
				}
				return failureReported(o)
			},
		}},
	}
}

func stream007(streamReq Request) *Scenario {
	return &Scenario{
		ID:       "STREAM-007",
		Title:    "the stream method answers 401",
		Area:     "stream",
		Source:   "a2aproject/a2a-python#502; A2A 1.0 §3.3.2, the proto's AgentCard.security_requirements. D breaks its card: the card declares no security requirement, yet its stream path answers HTTP 401 while plain sends go through without a credential",
		Setup:    "D's card says streaming: true and declares no security scheme; its stream method answers HTTP 401 with a WWW-Authenticate challenge. Plain sends work without a credential. The caller holds no credential.",
		Fleet:    dStreamFaults(mockvendor.Spec("stream-unauthorized", nil)),
		Requests: []Request{streamReq},
		Checks: []Check{{
			ID:          "STREAM-007.REFUSED",
			Title:       "a 401 on the stream is a refusal, not a detour",
			Grades:      must(Safety),
			Requirement: "A stream refused with HTTP 401 is the agent refusing the caller: the orchestrator reports the delegation failed (or rejected, or escalated to the caller; auth-rejected is the contract's reason), never completed, and does not send the work again by another method to get around the refusal.",
			Sources: []Source{
				A2A("§3.3.2", SrcMust, Server).Read("authentication errors are a category of their own (HTTP 401): the server rejects a request whose credentials are missing; the answer is about the caller, not the method"),
				Proto("AgentCard.security_requirements", SrcDescriptive, Server).Broken("the security requirements for contacting the agent: D's card declares none, and D refuses the stream for want of a credential"),
				ContractRule("Delegation request: Credentials", SrcMust).Read("after a 401, report failed (or rejected) with reason auth-rejected"),
				Field("a2aproject/a2a-python#502").Read("a 401 answering a stream was reported as an SSE protocol error, not as the refusal it was"),
				Posture("an access refusal is not routed around: the same work sent by another method after a 401 goes past the agent's decision"),
			},
			Fix:          "Treat HTTP 401 on SendStreamingMessage as an authentication refusal: report failed with reason auth-rejected and do not retry by SendMessage.",
			ReadsOutcome: true,
			Reached:      streamFaulted("stream-unauthorized", "stream the real task to D and get its 401", func(e mockvendor.Event) bool { return e.Status == 401 }),
			Judge: func(r *Run) Verdict {
				if !r.streamed() {
					return r.didNotStream()
				}
				evs := r.During(0)
				refused := realStreamAt(evs, "d", "stream-unauthorized")
				if refused != nil {
					for _, e := range evs {
						if e.Seq > refused.Seq && isRealSend(e) && e.Status != 401 {
							return Failf("%s sent the work again after the stream's 401", describe(e)).At(e.Seq).Want("no send after the refusal", describe(e))
						}
					}
				}
				o, bad := r.outcome(0)
				if bad != nil {
					return *bad
				}
				return failureReported(o)
			},
		}},
	}
}

func stream008(streamReq Request, work, timeoutMs, deadlineMs int) *Scenario {
	return &Scenario{
		ID:     "STREAM-008",
		Title:  "the resubscription's first event never comes",
		Area:   "stream",
		Source: "a2aproject/a2a-dotnet#340 (repro a2aproject/a2a-dotnet#342); A2A 1.0 §3.1.6, §3.1.3. D breaks A2A 1.0 §3.1.2 (its stream closes while the task works) and §3.1.6 (a subscription MUST return the task as its first event): its subscription sends nothing",
		Setup: fmt.Sprintf("D's card says streaming: true and sets a %s first-frame timeout through the stream-timeout extension. Its stream sends the task and its working status, then ends cleanly; the task completes %d ms later. A subscription to the task (SubscribeToTask, tasks/resubscribe) answers 200 text/event-stream and then nothing: its first event never comes. GetTask shows the task. Each delegation has %s.",
			seconds(ms(timeoutMs)), work, seconds(ms(deadlineMs))),
		Fleet: func() mockvendor.Config {
			d := withFaults(mockvendor.VendorD(), mockvendor.Spec("stream-cut", nil), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: work}), mockvendor.Spec("subscribe-stall", nil))
			d.Card.Extensions = []mockvendor.CardExtension{{URI: streamExt, Description: "first SSE frame timeout", Params: map[string]any{"firstFrameTimeoutMs": timeoutMs}}}
			return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
		},
		Requests:   []Request{streamReq},
		DeadlineMs: deadlineMs,
		Checks: []Check{
			{
				ID:          "STREAM-008.TIMEOUT",
				Title:       "a silent subscription is left within the first-frame timeout",
				Grades:      must(Safety),
				Requirement: "A subscription whose first event does not come within the first-frame timeout the card declares (30 s by default) is left: the orchestrator does not wait on it until its deadline. One that follows the task by GetTask without subscribing holds no subscription, and passes.",
				Sources: []Source{
					Seed000("Condition of Validity", SrcDescriptive).Read("a stream's claim holds only if its first SSE frame arrives within the card-declared timeout; a subscription is a stream of the task"),
					CLI("A2ACLI_TASK_POLL_004", SrcMust).Read("a wait that prefers streaming MUST fall back to polling on stream failure (a2a-cli SPEC §9.3): a subscription that sends nothing has failed"),
					Field("a2aproject/a2a-dotnet#340").Read("a client that resubscribed to a running task waited forever: the stream never completed, although the task had finished"),
					A2A("§3.1.6", SrcMust, Server).Broken("the clause D breaks: the operation MUST return a Task object as the first event in the stream; D sends none"),
				},
				Fix:     "Apply the card's first-frame timeout to SubscribeToTask as to SendStreamingMessage; past it, close the subscription and poll GetTask.",
				Reached: streamCutSeen,
				Judge:   func(r *Run) Verdict { return judgeStallLeft(r, timeoutMs) },
			},
			{
				ID:          "STREAM-008.POLL",
				Title:       "the task's end is read another way",
				Grades:      must(Safety),
				Requirement: "After leaving a silent subscription, the orchestrator reads the task another way (GetTask) and reports the end it sees: here the task completed while the subscription was silent, so the outcome is completed. An orchestrator that never asks about the task after its stream ended did not reach this (STREAM-003.FOLLOW judges the following).",
				Sources: []Source{
					A2A("§3.1.3", SrcDescriptive, Client).Read("GetTask fetches the final state of a task after a stream has ended"),
					CLI("A2ACLI_TASK_POLL_004", SrcMust).Read("on stream failure, poll and drive the task to a terminal or interrupted state (a2a-cli SPEC §9.3)"),
					Field("a2aproject/a2a-dotnet#340").Read("the task had finished on the server while the client's subscription hung"),
					A2A("§3.1.6", SrcMust, Server).Broken("the clause D breaks: a subscription MUST return the task as its first event"),
				},
				Fix:          "When a subscription stays silent past the timeout, poll GetTask with backoff until the task is terminal or interrupted, and report that state.",
				ReadsOutcome: true,
				Reached:      streamCutSeen,
				Judge:        judgeStallPolled,
			},
		},
	}
}

// stalledSubs are the subscriptions to task id that the subscribe-stall
// fault held.
func stalledSubs(r *Run, id string) []mockvendor.Event {
	return filter(r.Events, func(e mockvendor.Event) bool {
		return isSubscribe(e) && e.TaskID == id && slices.Contains(e.Faults, "subscribe-stall")
	})
}

// followedByGet reports whether the task was got after event seq.
func followedByGet(r *Run, id string, seq int64) bool {
	return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Seq > seq && e.TaskID == id && e.Op == mockvendor.OpGet })
}

// judgeStallLeft: every stalled subscription was left within the card's
// first-frame timeout and its grace; an orchestrator that polled without
// subscribing passes.
func judgeStallLeft(r *Run, timeoutMs int) Verdict {
	if !r.streamed() {
		return r.didNotStream()
	}
	cut := cutStreamOf(r)
	if cut == nil {
		return NotExercisedf("no stream was cut short")
	}
	subs := stalledSubs(r, cut.TaskID)
	for _, s := range subs {
		switch {
		case s.Pending:
			return Failf("%s was still open when the run ended", describe(s)).At(s.Seq).Want(fmt.Sprintf("left within %d ms", timeoutMs), "still open")
		case s.DurationMs > float64(timeoutMs+firstFrameGraceMs):
			return Failf("%s sent nothing and was held %.0f ms; the card allows %d ms plus 1 s", describe(s), s.DurationMs, timeoutMs).At(s.Seq).
				Want(fmt.Sprintf("left within %d ms", timeoutMs+firstFrameGraceMs), fmt.Sprintf("%.0f ms", s.DurationMs))
		}
	}
	if len(subs) > 0 {
		return Passf("the silent subscription was left after %.0f ms", subs[0].DurationMs)
	}
	if followedByGet(r, cut.TaskID, cut.Seq) {
		return Passf("task %s was followed by GetTask, without a subscription to hold", cut.TaskID)
	}
	return NotExercisedf("task %s was not asked about after its stream ended, so no subscription stalled (STREAM-003.FOLLOW judges the following)", cut.TaskID)
}

// judgeStallPolled: after the cut, the task was asked about (a stalled
// subscription, a get), and the outcome is the completion the wire shows.
func judgeStallPolled(r *Run) Verdict {
	if !r.streamed() {
		return r.didNotStream()
	}
	cut := cutStreamOf(r)
	if cut == nil {
		return NotExercisedf("no stream was cut short")
	}
	subs := stalledSubs(r, cut.TaskID)
	if len(subs) == 0 && !followedByGet(r, cut.TaskID, cut.Seq) {
		return NotExercisedf("task %s was not asked about after its stream ended (STREAM-003.FOLLOW judges the following)", cut.TaskID)
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome != contract.OutcomeCompleted {
		what := "was followed by GetTask"
		if len(subs) > 0 {
			what = "had a silent subscription"
		}
		return Failf("task %s %s and completed meanwhile, but the outcome is %s (reason %q)", cut.TaskID, what, o.Outcome, o.Reason).Want("completed, read by GetTask", o.Outcome)
	}
	return Passf("task %s's completion was read past the silent subscription", cut.TaskID)
}

func stream009(streamReq Request) *Scenario {
	streamedMessage := streamFaulted("message-reply", "stream the real task to D and get its Message", func(e mockvendor.Event) bool { return e.MessageReply })
	return &Scenario{
		ID:       "STREAM-009",
		Title:    "a Message-only stream",
		Area:     "stream",
		Source:   "A2A 1.0 §3.1.2 (a Message-only stream holds exactly one Message and closes; no task tracking); A2A CLI A2ACLI_SEND_003, A2ACLI_INTERACT_003. D breaks no clause",
		Setup:    "D answers every stream with one agent Message, then ends the stream; it creates no task.",
		Fleet:    dStreamFaults(mockvendor.Spec("message-reply", nil)),
		Requests: []Request{streamReq},
		Checks: []Check{
			{
				ID:          "STREAM-009.DONE",
				Title:       "a Message-only stream is a completion",
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "A stream that carries one Message and ends is the whole interaction: the delegation completed, and the outcome names no task.",
				Sources: []Source{
					A2A("§3.1.2", SrcDescriptive, Client).Read("the initial response of a stream is a Task or a Message; a Message-only stream holds exactly one Message and then closes, with no task tracking or updates. Descriptive, so SHOULD in a2a-core"),
					A2A03("§7.2", SrcDescriptive, Client).Read("message/stream answers a Task or a Message; a Message is the agent's reply, with no task to follow. Descriptive, so SHOULD in a2a-core"),
					CLI("A2ACLI_SEND_003", SrcMust).Read("a Message-only response (no task created) exits cleanly rather than erroring (a2a-cli SPEC §10.2, MUST)"),
				},
				Fix:          "Accept a stream whose event is a Message as the answer: report completed with the agent and skill and no taskId.",
				ReadsOutcome: true,
				Reached:      streamedMessage,
				Judge: func(r *Run) Verdict {
					if !r.streamed() {
						return r.didNotStream()
					}
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome != contract.OutcomeCompleted {
						return Failf("outcome %s (reason %q), want completed: the stream carried the agent's Message", o.Outcome, o.Reason).Want("completed", o.Outcome)
					}
					return Passf("completed by the streamed Message")
				},
			},
			{
				ID:    "STREAM-009.NO-TASK-OP",
				Title: "no task operation after a Message-only stream",
				// As LIFE-005.NO-INVENTED-TASK: A2A's MUST covers a
				// continuation only; a2a-core SHOULD, a2a-cli's MUST NOT in
				// delegation-safety.
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "After a Message-only stream there is no task: the orchestrator does not get, subscribe to, cancel or continue a task it invents.",
				Sources: []Source{
					A2A("§3.1.2", SrcDescriptive, Client).Read("a Message-only stream provides no task tracking or updates: there is no task id to get, subscribe to or cancel"),
					A2A("§3.4.2", SrcMust, Client).Read("a message that includes a taskId MUST reference an existing task: after a Message, none exists"),
					A2A03("§7.3", SrcDescriptive, Client).Read("tasks/get retrieves a previously initiated task: a Message reply initiated none. Descriptive, so SHOULD in a2a-core"),
					CLI("A2ACLI_INTERACT_003", SrcMust).Read("never invents server-assigned identifiers (a2a-cli SPEC §6.3, MUST NOT)"),
				},
				Fix:     "When the stream's event is a Message, stop: do not poll, subscribe or cancel anything.",
				Reached: streamedMessage,
				Judge: func(r *Run) Verdict {
					if !r.streamed() {
						return r.didNotStream()
					}
					replied := false
					for _, e := range r.Events {
						if replied && !e.Probe && (e.Op == mockvendor.OpGet || e.Op == mockvendor.OpCancel || isSubscribe(e) || isRealSend(e) && continuedTask(e) != "") {
							return Failf("%s after the Message-only stream, which named no task", describe(e)).At(e.Seq).Want("no task operation", describe(e))
						}
						if e.Op == mockvendor.OpStream && !e.Probe && e.MessageReply {
							replied = true
						}
					}
					return Passf("no task operation followed the Message-only stream")
				},
			},
		},
	}
}

func stream010(streamReq Request, work int) *Scenario {
	return &Scenario{
		ID:       "STREAM-010",
		Title:    "a state the client does not know, then completed",
		Area:     "stream",
		Source:   "a2aproject/a2a-java#974; a2aproject/a2a-python#1217; the proto's enum TaskState. D breaks the proto: TASK_STATE_UNSPECIFIED is the zero value of TaskStatus.state, a REQUIRED field (0.3 dialect: its 'unknown' state)",
		Setup:    fmt.Sprintf("D's stream sends the task, its working status, then a status update in TASK_STATE_UNSPECIFIED (a 0.3 stream: unknown); the task completes %d ms later and the stream sends the completion, then closes.", work),
		Fleet:    dStreamFaults(mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: work}), mockvendor.Spec("state-unknown", nil)),
		Requests: []Request{streamReq},
		Checks: []Check{{
			ID:          "STREAM-010.NOT-TERMINAL",
			Title:       "an unknown state is not the task's end",
			Grades:      must(Safety),
			Requirement: "A status in TASK_STATE_UNSPECIFIED, or in a state the orchestrator does not know, is not terminal: the orchestrator reads on (or follows the task) until a terminal or interrupted state, and reports that one: here completed. Taking the unknown state for the end (a failure, or a completion the wire does not show) fails.",
			Sources: []Source{
				Proto("TaskState", SrcDescriptive, Client).Read("TASK_STATE_UNSPECIFIED: the task is in an unknown or indeterminate state; completed, failed, canceled and rejected are the terminal states, input-required and auth-required the interrupted ones"),
				A2A("§3.1.2", SrcMust, Server).Read("a task's stream MUST close when the task reaches a terminal state: D's stream goes on after the unknown state, to the completion"),
				Proto("TaskStatus.state", SrcMust, Server).Broken("REQUIRED: TASK_STATE_UNSPECIFIED, its zero value, is no state; D sends it"),
				Field("a2aproject/a2a-java#974").Read("TASK_STATE_UNSPECIFIED is not described as terminal; the SDK was changed to stop treating it so"),
				Field("a2aproject/a2a-python#1217").Read("a consumer that took TASK_STATE_UNSPECIFIED as final closed its queue, and the later working and completed events were lost"),
				Posture("only a state known to be terminal ends a task; anything else is read past"),
			},
			Fix:          "Treat only completed, failed, canceled and rejected as terminal (input-required, auth-required as interrupted); keep reading on any other state.",
			ReadsOutcome: true,
			Reached: streamFaulted("state-unknown", "stream the real task to D and read its unknown state", func(e mockvendor.Event) bool {
				return slices.ContainsFunc(shown(e), func(s mockvendor.SeenState) bool { return s.State == "unspecified" || s.State == "unknown" })
			}),
			Judge: func(r *Run) Verdict {
				if !r.streamed() {
					return r.didNotStream()
				}
				o, bad := r.outcome(0)
				if bad != nil {
					return *bad
				}
				if o.Outcome != contract.OutcomeCompleted {
					return Failf("outcome %s (reason %q, last state %q): the task went on past the unknown state and completed", o.Outcome, o.Reason, o.TaskState).Want("completed", o.Outcome)
				}
				return Passf("read past the unknown state to the completion")
			},
		}},
	}
}

func stream011(streamReq Request) *Scenario {
	return &Scenario{
		ID:     "STREAM-011",
		Title:  "a typed error on a stream",
		Area:   "stream",
		Source: "a2aproject/a2a-js#712; a2aproject/a2a-go#318; a2aproject/A2A#1262; A2A 1.0 §3.3.2, §9.5. A2A 1.0 defines no error event for a stream that has begun; D sends the binding's error object as one, as SDKs do. D answers the plain send, which names no task, with TaskNotFoundError for the task it lost before answering: a stretch of A2A 1.0 §3.3.2 (servers MUST return appropriate errors), so the check is delegation-safety",
		Setup: fmt.Sprintf("Two delegations to D. A plain send is answered %d (%q, ErrorInfo reason %s). A stream sends the task and its working status, then the same error as an SSE event (over JSON-RPC a JSON-RPC error response; over HTTP+JSON a google.rpc.Status), and ends; the task has failed.",
			lostTask.Code, lostTask.Message, lostTask.Reason),
		Fleet:    dStreamFaults(mockvendor.Spec("stream-error-event", lostTask)),
		Requests: []Request{req(skillS, mockvendor.HostCardD), streamReq},
		Checks: []Check{{
			ID:          "STREAM-011.NAMED",
			Title:       "an error on a stream is named as on a plain send",
			Grades:      must(Safety),
			Requirement: "An A2A error delivered as a stream's event ends the delegation as the same error answering a plain send does: the outcome (outcome.error) names it, by its code or its ErrorInfo reason, as the orchestrator names it for the plain send. An orchestrator that names no error for the plain send either has nothing to compare (outcome.error is optional in contract 1): NOT_APPLICABLE.",
			Sources: []Source{
				ContractRule("Delegation outcome: error", SrcDescriptive).Read("the A2A error that ended the delegation, its code and ErrorInfo reason, on a plain send or a stream alike"),
				A2A("§3.3.2", SrcMust, Server).Read("bindings MUST map the error's code, message and details to their native form preserving its meaning: the same error, whether answered or streamed"),
				A2A("§9.5", SrcDescriptive, Server).Read("a JSON-RPC error's data carries a google.rpc.ErrorInfo whose reason names the error type"),
				Field("a2aproject/a2a-js#712").Read("a -32001 arriving as an SSE error event was wrapped in a generic error, while the same envelope from SendMessage gave the typed error"),
				Field("a2aproject/a2a-go#318").Read("an HTTP+JSON streaming error event lost its typed A2A error"),
				Field("a2aproject/A2A#1262"),
				Posture("an error is the same error however it arrives: the caller branches on it (retry, re-route, give up)"),
			},
			Fix:          "Map an error event of a stream through the same code as an error answer (code, ErrorInfo reason) and report it in outcome.error.",
			ReadsOutcome: true,
			Reached:      streamFaulted("stream-error-event", "stream the real task to D and read its error event", func(e mockvendor.Event) bool { return e.ErrorCode != 0 }),
			Judge:        judgeErrorNamed,
		}},
	}
}

// namesLostTask reports whether an outcome names STREAM-011's error.
func namesLostTask(o *contract.DelegationOutcome) bool {
	return o != nil && o.Error != nil && (o.Error.Code == lostTask.Code || o.Error.Reason == lostTask.Reason)
}

// judgeErrorNamed: the second delegation's stream ended with the error
// event; its outcome names the error, as the first delegation's (a plain
// send answered with it) does.
func judgeErrorNamed(r *Run) Verdict {
	if len(r.Delegations) < 2 {
		return NotExercisedf("the streaming delegation was not run")
	}
	ev := realStreamAt(r.During(1), "d", "stream-error-event")
	if ev == nil {
		if slices.ContainsFunc(r.During(1), func(e mockvendor.Event) bool { return e.Op == mockvendor.OpStream }) {
			return NotExercisedf("the stream of delegation 2 did not reach its error event")
		}
		return r.didNotStream()
	}
	o, bad := r.outcome(1)
	if bad != nil {
		return *bad
	}
	if o.Outcome == contract.OutcomeCompleted {
		return Failf("delegation 2: completed, but %s ended with error %d", describe(*ev), ev.ErrorCode).At(ev.Seq).Want("the error reported", "completed")
	}
	plain := r.Delegations[0].Outcome
	switch {
	case namesLostTask(o):
		return Passf("delegation 2 names the stream's error (code %d, reason %q)", o.Error.Code, o.Error.Reason)
	case namesLostTask(plain):
		return Failf("the plain send's outcome names error %d (%s); the stream's outcome names %s", plain.Error.Code, plain.Error.Reason, errorText(o.Error)).
			Want(fmt.Sprintf("error %d (%s)", lostTask.Code, lostTask.Reason), errorText(o.Error))
	case o.Error != nil:
		return Failf("the stream's outcome names %s; the stream ended with error %d (%s)", errorText(o.Error), lostTask.Code, lostTask.Reason).
			Want(fmt.Sprintf("error %d (%s)", lostTask.Code, lostTask.Reason), errorText(o.Error))
	}
	return NotApplicablef("the orchestrator names no error for the plain send either (outcome.error is optional in contract 1): nothing to compare")
}

// errorText says which error an outcome names.
func errorText(e *contract.RemoteError) string {
	if e == nil {
		return "no error"
	}
	return fmt.Sprintf("error %d (reason %q)", e.Code, e.Reason)
}
