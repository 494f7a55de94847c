package scenarios

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// CONV: multi-turn tasks [A2A 1.0 §3.4.2, §3.4.3; A2A CLI
// specification/COMPLIANCE.md A2ACLI_INTERACT_002]. D's task asks the
// caller a question (input-required, the question in its status message)
// and goes on when the caller answers with a message that names the task:
// its taskId, and its contextId or none. The caller's answers come in the
// delegation request (contract task.replies); one it lacks makes the
// delegation interrupted. Each check judges the wire: which task the answer
// named, whether a reply created a task, what the outcome says against
// what the vendor answered.

// The caller's answers of the CONV scenarios.
const (
	convReply1 = "use ledger L-7"
	convReply2 = "the March entries only"
)

// convFleet is D whose real tasks ask turns times (with the task ending
// failed just before its last answer arrives when endsMeanwhile is set).
func convFleet(turns int, endsMeanwhile string) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("input-required-turns", mockvendor.InputRequiredTurns{Turns: turns, EndsMeanwhile: endsMeanwhile})))
}

// convRequest is a delegation of skill S to D with the caller's replies.
func convRequest(replies ...string) Request {
	r := req(skillS, mockvendor.HostCardD)
	r.Replies = replies
	return r
}

// sentMessage is what a send's message names: its taskId and contextId
// and the text of its text parts, read from the request body of any
// binding and any dialect (ok false when the body holds no message).
func sentMessage(e mockvendor.Event) (taskID, contextID, text string, ok bool) {
	var m struct {
		TaskID    string            `json:"taskId"`
		ContextID string            `json:"contextId"`
		Parts     []json.RawMessage `json:"parts"`
	}
	var body struct {
		Message json.RawMessage `json:"message"`
		Params  struct {
			Message json.RawMessage `json:"message"`
		} `json:"params"`
	}
	if json.Unmarshal(e.Body(), &body) != nil {
		return "", "", "", false
	}
	raw := body.Params.Message
	if bodyIsParams(e) {
		raw = body.Message
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return "", "", "", false
	}
	var texts []string
	for _, p := range m.Parts {
		var t struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(p, &t) == nil && t.Text != "" {
			texts = append(texts, t.Text)
		}
	}
	return m.TaskID, m.ContextID, strings.Join(texts, " "), true
}

// convTurn is a delegation's conversation as the wire shows it: its real
// task, the events that showed the task asking (input-required), and the
// real sends after the first of them, in order.
type convTurn struct {
	task  string
	asks  []mockvendor.Event
	after []mockvendor.Event
}

// conversation reads delegation i's conversation; a verdict when there is
// none to judge (no real task, or a task that never asked).
func conversation(r *Run, i int) (convTurn, *Verdict) {
	c := convTurn{task: firstRealTask(r, i)}
	if c.task == "" {
		v := NotExercisedf("no real task was created (%s)", delegationSummary(r, i))
		return c, &v
	}
	for _, e := range r.During(i) {
		if len(c.asks) > 0 && isRealSend(e) {
			c.after = append(c.after, e)
		}
		if e.TaskID == c.task && e.ErrorCode == 0 && showedState(e, "input-required") {
			c.asks = append(c.asks, e)
		}
	}
	if len(c.asks) == 0 {
		v := NotExercisedf("task %s was never seen asking (%s)", c.task, delegationSummary(r, i))
		return c, &v
	}
	return c, nil
}

// showedState reports whether e showed the client state.
func showedState(e mockvendor.Event, state string) bool {
	for _, s := range shown(e) {
		if s.State == state {
			return true
		}
	}
	return false
}

// continuations are the sends of c.after that name c.task.
func (c convTurn) continuations() []mockvendor.Event {
	var out []mockvendor.Event
	for _, e := range c.after {
		if id, _, _, _ := sentMessage(e); id == c.task {
			out = append(out, e)
		}
	}
	return out
}

// judgeAnswer judges the first send after the task asked: a continuation
// of that task the vendor took.
func judgeAnswer(c convTurn) Verdict {
	if len(c.after) == 0 {
		return Failf("task %s asked (%s) and the caller's answer was never sent", c.task, describe(c.asks[0])).Want("the answer sent with taskId "+c.task, "no send after the question")
	}
	e := c.after[0]
	id, ctx, _, _ := sentMessage(e)
	switch {
	case id == "":
		return Failf("%s sent the answer with no taskId (contextId %q): a new task, not the continuation of task %s", describe(e), ctx, c.task).At(e.Seq).Want("taskId "+c.task, "no taskId")
	case id != c.task:
		return Failf("%s sent the answer to task %q, not to task %s, which asked", describe(e), id, c.task).At(e.Seq).Want("taskId "+c.task, id)
	case e.ErrorCode == -32602:
		return Failf("%s named task %s with contextId %q, which is not the task's: refused (%d)", describe(e), c.task, ctx, e.ErrorCode).At(e.Seq).Want("the task's contextId, or none", ctx)
	case e.ErrorCode != 0:
		return Failf("%s: the continuation of task %s was refused (%d %s)", describe(e), c.task, e.ErrorCode, e.ErrorMessage).At(e.Seq)
	}
	return Passf("the answer went to task %s (contextId %q): %s", c.task, ctx, describe(e)).At(e.Seq)
}

// judgeNoNewTask: no send after the question created another task.
func judgeNoNewTask(c convTurn) Verdict {
	for _, e := range c.after {
		if createdTask(e) && e.TaskID != c.task {
			return Failf("%s created task %s after task %s asked: the answer started a new task", describe(e), e.TaskID, c.task).At(e.Seq).Want("no task but "+c.task, "task "+e.TaskID)
		}
	}
	return Passf("no task created after task %s asked (%d sends after the question)", c.task, len(c.after))
}

// convSources are the clauses every CONV check that judges the answer
// reads.
func convSources() []Source {
	return []Source{
		A2A("§3.4.3", SrcDescriptive, Client).Read("the client continues an input-required task with a new message of the same taskId and contextId; a contextId alone starts a new task. Descriptive: SHOULD in a2a-core"),
		A2A03("§9.4", SrcDescriptive, Client).Read("the client sends the requested input with the same task id: the same in 0.3"),
		A2A("§3.4.2", SrcMust, Client).Read("a taskId the client sends MUST name an existing task: the one the agent issued"),
		CLI("A2ACLI_INTERACT_002", SrcMust).Read("continue a task by its id; with a context id, the two MUST correspond"),
		Field("google/adk-python#4934").Read("the second turn went with contextId only: a new task every turn (fix in google/adk-python#4944)"),
		Field("google/adk-python#3765").Read("the follow-up carried the contextId, not the taskId the client held"),
		Field("langchain4j/langchain4j#5311").Read("a follow-up carried only the contextId: every turn a new task"),
		Field("IBM/mcp-context-forge#6703").Read("no way to answer a paused task: an agent that asks cannot be answered"),
		ContractRule("Delegation request: task.replies", SrcDescriptive).Read("each reply goes as a continuation: the task's taskId and contextId"),
	}
}

func convScenarios() []*Scenario {
	asked := taskAnswered("d", "input-required")
	return []*Scenario{
		{
			ID:       "CONV-001",
			Title:    "the agent asks once and the caller answers",
			Area:     "conv",
			Source:   "A2A 1.0 §3.4.3 (Input Required State), §3.4.2; A2A CLI A2ACLI_INTERACT_002. D breaks no clause: an agent may ask for more input, and a blocking send returns at input-required (§3.2.2)",
			Setup:    "D's real task pauses at input-required with a question in its status message; the caller has one reply, after which the task completes.",
			Fleet:    convFleet(1, ""),
			Requests: []Request{convRequest(convReply1)},
			Checks: []Check{
				{
					ID:          "CONV-001.CONTINUE",
					Title:       "the answer continues the task that asked",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "The caller's answer to a task at input-required goes to that task: a message with the task's taskId, and its contextId or none. Sent without taskId it starts a new task (the question is never answered); sent with another contextId the agent refuses it.",
					Sources:     convSources(),
					Fix:         "Keep the taskId and contextId of the task the agent answered; send each reply with both set (A2A 1.0 §3.4.3).",
					Reached:     asked,
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						return judgeAnswer(c)
					},
				},
				{
					ID:          "CONV-001.NO-NEW-TASK",
					Title:       "the answer creates no second task",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "Answering an agent's question creates no task: after the task asked, no send of the delegation starts another one (a reply sent with the contextId alone does, and leaves the first task waiting for ever).",
					Sources:     convSources(),
					Fix:         "Send the reply with the asking task's taskId; never drop the taskId of a task that is still waiting.",
					Reached:     asked,
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						return judgeNoNewTask(c)
					},
				},
				{
					ID:          "CONV-001.COMPLETED",
					Title:       "the answered task is reported completed, as the wire shows it",
					Grades:      must(Safety),
					Requirement: "Once the answered task completes, the delegation reports completed with that task's id: not interrupted at the question it no longer waits on, and not completed unless the wire shows the task completed.",
					Sources: []Source{
						ContractRule("Delegation request: task.replies", SrcDescriptive).Read("a task that asks is answered from the replies; interrupted only when they run out"),
						ContractRule("Delegation outcome: outcome words", SrcDescriptive).Read("completed is for a remote agent that finished the task"),
						A2A("§3.4.3", SrcDescriptive, Client).Read("after the answer the task goes on: its end is the delegation's end"),
					},
					Fix:          "After sending a reply, follow the task as after the first send (its answer, a stream or GetTask) and report its final state with its taskId.",
					ReadsOutcome: true,
					Reached:      asked,
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted || o.TaskID != c.task {
							return Failf("task %s asked and the caller had its reply; the outcome says %s (taskId %q, taskState %q)", c.task, o.Outcome, o.TaskID, o.TaskState).Want("completed, taskId "+c.task, fmt.Sprintf("%s, taskId %q", o.Outcome, o.TaskID))
						}
						return Passf("task %s reported completed, as the wire shows", c.task)
					},
				},
			},
		},
		{
			ID:       "CONV-002",
			Title:    "the agent asks twice",
			Area:     "conv",
			Source:   "A2A 1.0 §3.4.3 (Input Required State). D breaks no clause",
			Setup:    "D's real task pauses at input-required twice, each time with a question; the caller has two replies, after the second of which the task completes.",
			Fleet:    convFleet(2, ""),
			Requests: []Request{convRequest(convReply1, convReply2)},
			Checks: []Check{{
				ID:           "CONV-002.EVERY-TURN",
				Title:        "each question gets the caller's next reply, on the same task, to its completion",
				Grades:       []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement:  "A task may ask more than once: each question is answered with the caller's next reply, in order, as a continuation of the same task, until the task completes; the delegation reports it completed. A reply held back, or sent out of order, leaves the task waiting or answers the wrong question.",
				Sources:      convSources(),
				Fix:          "Loop: while the task is at input-required and a reply is left, send the next reply as a continuation and follow the task again.",
				ReadsOutcome: true,
				Reached:      asked,
				Judge: func(r *Run) Verdict {
					c, v := conversation(r, 0)
					if v != nil {
						return *v
					}
					want := []string{convReply1, convReply2}
					took := 0
					for _, e := range c.continuations() {
						if e.ErrorCode != 0 || took == len(want) {
							continue
						}
						if _, _, text, _ := sentMessage(e); !strings.Contains(text, want[took]) {
							return Failf("%s answered question %d with %q, want the caller's reply %d %q", describe(e), took+1, text, took+1, want[took]).At(e.Seq).Want(want[took], text)
						}
						took++
					}
					if took < len(want) {
						return Failf("task %s asked twice; %d of the caller's %d replies reached it (%s)", c.task, took, len(want), delegationSummary(r, 0)).Want("both replies, in order", fmt.Sprintf("%d", took))
					}
					o, bad := r.outcome(0)
					if bad != nil {
						return *bad
					}
					if o.Outcome != contract.OutcomeCompleted || o.TaskID != c.task {
						return Failf("both replies reached task %s; the outcome says %s (taskId %q)", c.task, o.Outcome, o.TaskID).Want("completed, taskId "+c.task, o.Outcome)
					}
					return Passf("both replies went to task %s in order, reported completed", c.task)
				},
			}},
		},
		{
			ID:       "CONV-003",
			Title:    "the agent asks and the caller has no reply",
			Area:     "conv",
			Source:   "A2A 1.0 §3.4.3, §3.2.2 (interrupted states); A2A CLI A2ACLI_INTERACT_004. D breaks no clause",
			Setup:    "D's real task pauses at input-required with a question; the caller has no reply.",
			Fleet:    convFleet(1, ""),
			Requests: []Request{convRequest()},
			Checks: []Check{
				{
					ID:          "CONV-003.INTERRUPTED",
					Title:       "the question is reported interrupted, with the task",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "With no reply to give, the delegation reports interrupted at input-required with the task's id, so that its caller can answer later on the same task.",
					Sources: []Source{
						A2A("§3.4.3", SrcDescriptive, Client).Read("the task waits for a message with its taskId: the caller needs the id"),
						A2A("§3.2.2", SrcDescriptive, Client).Read("input-required is an interrupted state, neither terminal nor a completion"),
						A2A03("§9.4", SrcDescriptive, Client).Read("the client answers input-required with the same task id: the caller needs it"),
						CLI("A2ACLI_INTERACT_004", SrcMust).Read("reports taskId, contextId and state on interruption"),
						ContractRule("Delegation request: task.replies", SrcDescriptive).Read("empty: the caller has none, a task that asks is reported interrupted"),
					},
					Fix:          `Report {"outcome":"interrupted","taskId":<the task>,"taskState":"input-required"} when the task asks and no reply is left.`,
					ReadsOutcome: true,
					Reached:      asked,
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeInterrupted || o.TaskID != c.task || normalTaskState(o.TaskState) != "input-required" {
							return Failf("task %s asks and the caller has no reply; the outcome says %s (taskId %q, taskState %q)", c.task, o.Outcome, o.TaskID, o.TaskState).
								Want("interrupted, taskId "+c.task+", input-required", fmt.Sprintf("%s, taskId %q, %q", o.Outcome, o.TaskID, o.TaskState))
						}
						return Passf("reported interrupted at input-required with task %s", c.task)
					},
				},
				{
					ID:          "CONV-003.NO-MADE-UP-REPLY",
					Title:       "nothing is sent for the caller after the question",
					Grades:      must(Safety),
					Requirement: "A caller with no reply gets the question: the orchestrator sends nothing in its place after the task asked, neither an answer of its own making to the task nor the work again as a new task.",
					Sources: []Source{
						ContractRule("Delegation request: task.replies", SrcDescriptive).Read("the replies are the caller's; with none, the task is reported interrupted"),
						CLI("A2ACLI_INTERACT_003", SrcMust).Read("never invents what the server or the user did not give; by analogy, no answer the caller did not give"),
						A2A("§3.4.3", SrcDescriptive, Client).Read("the answer to input-required is the user's additional input"),
					},
					Fix:     "When the replies run out, stop and report interrupted; do not resend the original message or answer for the caller.",
					Reached: asked,
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						if len(c.after) > 0 {
							e := c.after[0]
							_, _, text, _ := sentMessage(e)
							return Failf("%s sent %q after task %s asked, though the caller had no reply", describe(e), text, c.task).At(e.Seq).Want("no send after the question", describe(e))
						}
						return Passf("nothing sent after task %s asked", c.task)
					},
				},
			},
		},
		{
			ID:       "CONV-004",
			Title:    "the task ends before the answer arrives",
			Area:     "conv",
			Source:   "A2A 1.0 §3.1.1 (a message to a terminal task is refused with UnsupportedOperationError), §3.4.2; A2A CLI A2ACLI_INTERACT_002. D breaks no clause: an agent may end a task that waits, and it refuses the late answer as §3.1.1 says",
			Setup:    "D's real task pauses at input-required with a question, then ends failed just as the caller's answer arrives; D refuses the answer with -32004.",
			Fleet:    convFleet(1, "failed"),
			Requests: []Request{convRequest(convReply1)},
			Checks: []Check{
				{
					ID:          "CONV-004.NOT-COMPLETED",
					Title:       "a refused answer is not reported completed",
					Grades:      must(Safety),
					Requirement: "When the answer is refused because the task ended meanwhile, the delegation did not complete: it reports failed (or escalated), neither completed nor interrupted at a question the task no longer waits on.",
					Sources: []Source{
						A2A("§3.1.1", SrcMust, Server).Read("a message to a task in a terminal state is refused with UnsupportedOperationError: the refusal says the task is over"),
						CLI("A2ACLI_INTERACT_002", SrcMust).Read("a rejected identifier fails, surfacing the protocol error"),
						ContractRule("Delegation outcome: outcome words", SrcDescriptive).Read("completed is for a remote agent that finished the task"),
					},
					Fix:          "Treat a refused continuation as the end of the task: GetTask may tell its final state; report failed with the error.",
					ReadsOutcome: true,
					Reached:      refusedContinuation("d"),
					Judge: func(r *Run) Verdict {
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome == contract.OutcomeCompleted || o.Outcome == contract.OutcomeInterrupted {
							return Failf("the answer was refused and the task ended failed; the outcome says %s", o.Outcome).Want("failed or escalated", o.Outcome)
						}
						return Passf("reported %s after the refused answer", o.Outcome)
					},
				},
				{
					ID:          "CONV-004.NO-FRESH-TASK",
					Title:       "a refused answer is not retried as a new task",
					Grades:      must(Safety),
					Requirement: "A refused continuation is not silently retried as a fresh task (the reply or the work sent again without taskId): the new task would run without the conversation it belonged to, and the caller would never learn the first one failed.",
					Sources: []Source{
						CLI("A2ACLI_INTERACT_002", SrcMust).Read("a rejected identifier fails non-zero and creates no new task"),
						A2A("§3.4.3", SrcDescriptive, Client).Read("a message without taskId starts a new task: not the continuation the caller asked for"),
						Field("google/adk-python#4934").Read("a client whose turns start new tasks leaves the agent's tasks orphaned"),
					},
					Fix:     "After a refused continuation, report the failure; do not resend without taskId.",
					Reached: refusedContinuation("d"),
					Judge: func(r *Run) Verdict {
						c, v := conversation(r, 0)
						if v != nil {
							return *v
						}
						refused := false
						for _, e := range c.after {
							if id, _, _, _ := sentMessage(e); id == c.task && e.ErrorCode != 0 {
								refused = true
								continue
							}
							if refused && createdTask(e) {
								return Failf("%s created task %s after the answer to task %s was refused", describe(e), e.TaskID, c.task).At(e.Seq).Want("no new task", "task "+e.TaskID)
							}
						}
						if !refused {
							return NotExercisedf("no answer to task %s was refused (%s)", c.task, delegationSummary(r, 0))
						}
						return Passf("no task created after the refused answer to task %s", c.task)
					},
				},
			},
		},
	}
}

// refusedContinuation is the precondition of having sent a continuation
// of one of the vendor's tasks and had it refused.
func refusedContinuation(vendor string) Precondition {
	return Precondition{
		Needs: "send an answer to a task of " + vendorName(vendor) + " and see it refused",
		Met: func(r *Run) bool {
			for _, e := range r.Events {
				if id, _, _, _ := sentMessage(e); inVendor(e, vendor) && isRealSend(e) && id != "" && e.ErrorCode != 0 {
					return true
				}
			}
			return false
		},
	}
}
