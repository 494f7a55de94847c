package scenarios

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// CAP: optional capabilities the card honestly says the agent lacks. A2A
// 1.0 §3.3.4 makes the agent refuse an operation whose capability its card
// does not declare (streaming: UnsupportedOperationError; push
// notifications: PushNotificationNotSupportedError) and asks clients to
// check the card before they use such an operation (SHOULD). STREAM-001
// stages the opposite case, a card that claims streaming and a stream
// that does not hold the claim; CAP-001 is its honest counterpart: the
// card says streaming: false, the vendor refuses every stream method, as
// it must, and breaks nothing.
//
// A caller that prefers streaming meets an agent that does not stream. The
// client that reads the card sends plainly (CAP-001.NO-STREAM passes). One
// that streams anyway, gets -32004 and falls back to a plain send still
// completes the task (CAP-001.DONE passes) but skipped the card check the
// SHOULD asks for, at the cost of a refused request the card had
// announced: CAP-001.NO-STREAM fails it, at SHOULD, so the score shows it
// and conformance does not hang on it. A client that reads -32004 as "the
// skill is not here" and gives up fails CAP-001.DONE.
func capScenarios() []*Scenario {
	return []*Scenario{cap001()}
}

// noCapsD is D whose card honestly says streaming: false and
// pushNotifications: false; the vendor refuses the stream methods with
// -32004 and the push-config methods with -32003 (A2A 1.0 §3.3.4).
func noCapsD() mockvendor.Config {
	d := mockvendor.VendorD()
	d.Card.Streaming, d.Card.PushNotifications = false, false
	return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
}

// isStreamMethod reports whether the event is a stream method: a streamed
// send or a subscription to a task (every dialect and binding).
func isStreamMethod(e mockvendor.Event) bool {
	return e.Op == mockvendor.OpStream || e.Op == mockvendor.OpSubscribe
}

// taskSentTo needs a send or stream (probe or real) to the vendor: the
// orchestrator chose it and a way to send.
func taskSentTo(vendor string) Precondition {
	return Precondition{
		Needs: "send a message to " + vendorName(vendor),
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isTaskSend(e) && inVendor(e, vendor) })
		},
	}
}

// capCardRead is how CAP-001 reads A2A 1.0 §3.3.4's client clause.
var capCardRead = A2A("§3.3.4", SrcShould, Client).Read("clients SHOULD validate capability support by examining the Agent Card before attempting operations that require optional capabilities: a card whose capabilities.streaming is false (or absent) rules out SendStreamingMessage and SubscribeToTask")

func cap001() *Scenario {
	return &Scenario{
		ID:       "CAP-001",
		Title:    "the card honestly says streaming: false",
		Area:     "cap",
		Source:   "A2A 1.0 §3.3.4; A2ACLI_VER_003. D breaks no clause: its card says streaming: false and pushNotifications: false, and it refuses the stream methods with UnsupportedOperationError (-32004) as §3.3.4 says it MUST",
		Setup:    "D's card says capabilities.streaming: false and pushNotifications: false, in so many words. Every stream method (SendStreamingMessage, SubscribeToTask, message/stream, tasks/resubscribe, the HTTP+JSON routes) answers -32004; every push-config method -32003. Plain sends work. The caller prefers streaming.",
		Fleet:    noCapsD,
		Requests: []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}},
		Checks: []Check{
			{
				ID:          "CAP-001.NO-STREAM",
				Title:       "no stream method to an agent whose card says it does not stream",
				Grades:      should(Core),
				Requirement: "The card is read before a capability is used: to an agent whose card says streaming: false, the orchestrator sends no stream method (SendStreamingMessage, SubscribeToTask, or their 0.3 names), whatever the caller prefers. A stream tried anyway and refused with -32004 fails this, even when a plain send follows and completes the task.",
				Sources: []Source{
					capCardRead,
					A2A("§3.3.4", SrcMust, Server).Read("the agent MUST answer SendStreamingMessage and SubscribeToTask with UnsupportedOperationError when its card says streaming false: D does, so a stream tried costs a refused request the card announced"),
					A2A03("§7.2", SrcDescriptive, Client).Read("message/stream requires the server to have capabilities.streaming: true (tasks/resubscribe likewise, §7.9)"),
					CLI("A2ACLI_VER_003", SrcShould).Read("a tool verifies a capability on the Agent Card before invoking a capability-gated operation (streaming, push, extended card; a2a-cli SPEC §13.3)"),
				},
				Fix:     "Read capabilities.streaming from the card you selected; when it is false or absent, send with SendMessage (message/send) even if the caller prefers streaming, and follow the task by GetTask rather than SubscribeToTask.",
				Local:   true,
				Reached: taskSentTo("d"),
				Judge:   judgeNoStream,
			},
			{
				ID:          "CAP-001.DONE",
				Title:       "the task completes by a plain send",
				Grades:      must(Safety),
				Requirement: "A preference for streaming is no reason to fail: the task goes to the agent that does not stream by a plain send and completes, and the outcome says so (a completed task at D on the wire). A client that tried a stream first and fell back passes here; one that gives up, or reads the stream's -32004 as a missing skill and goes nowhere, fails.",
				Sources: []Source{
					capCardRead,
					CLI("A2ACLI_SEND_003", SrcMust).Read("--stream never hangs when streaming is unsupported (a2a-cli SPEC §10.2): the tool falls back or errors clearly; here a fallback is open, since the card says how the agent takes work"),
					ContractRule("Delegation request: task.preferStreaming", SrcDescriptive).Read("true: use the streaming method if the card says the agent streams; otherwise a plain send"),
					Posture("a caller's preference is not a requirement: an agent that honestly does not stream still gets the task, by SendMessage"),
				},
				Fix:          "When the card says streaming false, send with SendMessage; if a stream method answered -32004, do not take it for a missing skill: send plainly.",
				ReadsOutcome: true,
				Reached:      taskSentTo("d"),
				Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
			},
		},
	}
}

// judgeNoStream fails the first stream method that reached D.
func judgeNoStream(r *Run) Verdict {
	for _, e := range r.Events {
		if inVendor(e, "d") && isStreamMethod(e) {
			return Failf("%s: a stream method to an agent whose card says streaming: false", describe(e)).At(e.Seq).
				Want("no stream method (the card says streaming: false)", describe(e))
		}
	}
	n := count(r.Events, func(e mockvendor.Event) bool { return inVendor(e, "d") && isTaskSend(e) })
	return Passf("%s to D, and no stream method", plural(n, "plain send"))
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
