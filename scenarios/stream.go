package scenarios

import (
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// STREAM: streaming claims [seed 000, Condition of Validity]. An orchestrator
// that never calls a stream method gets NOT_APPLICABLE here. Both vendors
// break A2A 1.0 §3.1.2 on purpose, so both checks are delegation-safety.
// STREAM-002's timings are staged at scale ts (slowFrameTimes).
func streamScenarios(ts TimeScale) []*Scenario {
	sf := slowFrameTimes(ts)
	return []*Scenario{
		{
			ID:       "STREAM-001",
			Title:    "content type lie",
			Area:     "stream",
			Source:   "seed 000, Condition of Validity. D breaks A2A 1.0 §3.1.2 (the stream operation MUST establish a streaming connection) and §9.4.2 (a stream answers text/event-stream) while its card claims streaming",
			Setup:    "D's card says streaming: true; its stream method answers application/json.",
			Fleet:    fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("stream-content-type-lie", nil))),
			Requests: []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}},
			Checks: []Check{
				{
					ID:          "STREAM-001.FALLBACK",
					Title:       "falls back to a plain send; the card is a hint",
					Grades:      must(Safety),
					Requirement: "A card's streaming claim holds only if the stream method answers text/event-stream; when it does not, the card is a hint and the task still completes by a plain send.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcDescriptive).Read("the card may be treated as authoritative only when its streaming claim holds (the stream answers text/event-stream); if a condition fails, the card is a hint"),
						CLI("A2ACLI_SEND_003", SrcMust).Read("when streaming is unsupported the tool MUST fall back or error clearly (a2a-cli SPEC §10.2); the check wants the fallback, which the seed's hint leaves open"),
						Posture("a false streaming claim costs the delegation nothing: the task still goes by a plain send"),
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: the stream operation MUST establish a streaming connection"),
						A2A("§9.4.2", SrcDescriptive, Server).Read("a JSON-RPC stream answers HTTP 200 with Content-Type text/event-stream; D answers application/json"),
					},
					Fix:          "Check the stream response's Content-Type; if it is not text/event-stream, fall back to a plain send and report cardTrust hint.",
					ReadsOutcome: true,
					Reached:      cardFetched("d"),
					Judge: func(r *Run) Verdict {
						if !r.streamed() {
							return r.didNotStream()
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome != contract.OutcomeCompleted {
							return Failf("outcome %s (reason %q), want completed by fallback", o.Outcome, o.Reason)
						}
						if o.CardTrust != contract.CardTrustHint {
							return Failf("completed, but cardTrust is %q, want hint", o.CardTrust)
						}
						if v := completedAt(r, 0, "d"); v.Outcome != Pass {
							return v
						}
						return Passf("completed by fallback, cardTrust hint")
					},
				},
			},
		},
		{
			ID:     "STREAM-002",
			Title:  "first frame late",
			Area:   "stream",
			Source: "seed 000, Condition of Validity. D breaks A2A 1.0 §3.1.2 (a stream MUST provide immediate feedback on progress) and the first-frame timeout its own card declares",
			Setup:  fmt.Sprintf("D's card says streaming: true and sets a %s first-frame timeout through the stream-timeout extension; the endpoint holds the stream %s before its first frame.", seconds(ms(sf.timeoutMs)), seconds(ms(sf.delayMs))),
			Fleet: func() mockvendor.Config {
				d := withFaults(mockvendor.VendorD(), mockvendor.Spec("slow-first-frame", mockvendor.SlowFirstFrame{DelayMs: sf.delayMs}))
				d.Card.Extensions = []mockvendor.CardExtension{{URI: streamExt, Description: "first SSE frame timeout", Params: map[string]any{"firstFrameTimeoutMs": sf.timeoutMs}}}
				return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
			},
			Requests: []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, PreferStreaming: true}},
			Checks: []Check{
				{
					ID:          "STREAM-002.TIMEOUT",
					Title:       "the stream is abandoned within the declared timeout",
					Grades:      must(Safety),
					Requirement: "The first SSE frame must arrive within the timeout the card declares (30 s by default; a capabilities.extensions entry may override it); past it the stream is abandoned.",
					Sources: []Source{
						Seed000("Condition of Validity", SrcDescriptive).Read("the streaming claim holds only if the first SSE frame arrives within the card-declared timeout (30 s by default; the card may override it through capabilities.extensions); past it the card is a hint"),
						CLI("A2ACLI_SEND_003", SrcMust).Read("--stream never hangs (a2a-cli SPEC §10.2, MUST NOT hang): a stream held past its declared first-frame timeout is left"),
						Posture("a stream whose first frame comes later than the card allows is abandoned; the task goes by a plain send, or the delegation fails as stream-timeout"),
						A2A("§3.1.2", SrcMust, Server).Broken("the clause D breaks: the implementation MUST provide immediate feedback on progress; D holds the stream " + seconds(ms(sf.delayMs)) + " before its first frame"),
					},
					Fix:          "Read the first-frame timeout from the card; close the stream when it passes and fall back to a plain send.",
					ReadsOutcome: true,
					Reached:      cardFetched("d"),
					Judge: func(r *Run) Verdict {
						streams := filter(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpStream })
						if len(streams) == 0 {
							return r.didNotStream()
						}
						for _, s := range streams {
							if s.DurationMs > float64(sf.timeoutMs+firstFrameGraceMs) {
								return Failf("%s was held %.0f ms; the card allows %d ms plus 1 s", describe(s), s.DurationMs, sf.timeoutMs).At(s.Seq)
							}
						}
						o, bad := r.outcome(0)
						if bad != nil {
							return *bad
						}
						if o.Outcome == contract.OutcomeCompleted {
							if v := completedAt(r, 0, "d"); v.Outcome != Pass {
								return v
							}
						}
						if o.Outcome == contract.OutcomeCompleted || (o.Outcome == contract.OutcomeFailed && o.Reason == contract.ReasonStreamTimeout) {
							return Passf("stream abandoned after %.0f ms; outcome %s", streams[0].DurationMs, o.Outcome)
						}
						return Failf("stream abandoned in time, but outcome %s (reason %q): want completed by fallback, or failed with stream-timeout", o.Outcome, o.Reason)
					},
				},
			},
		},
	}
}

// firstFrameGraceMs is how long past the card's first-frame timeout a
// stream may still be held before STREAM-002.TIMEOUT fails: the harness's
// jitter (the vendor's clock starts before the client's, and a loaded
// machine is late to close). It is not scaled: jitter does not shrink with
// the scenario.
const firstFrameGraceMs = 1000

// slowFrame are STREAM-002's timings: the first-frame timeout D's card
// declares and how late D's first frame comes.
type slowFrame struct{ timeoutMs, delayMs int }

// slowFrameTimes stages STREAM-002 at scale ts: a 2 s timeout (floor
// 100 ms, under which a client's own connection set-up would eat it) and a
// 10 s delay, which must outlast the timeout and its grace by a second
// more (the floor), or a client that waits for the frame would be held no
// longer than the check allows and pass.
func slowFrameTimes(ts TimeScale) slowFrame {
	timeout := ts.Ms(2000, 100)
	return slowFrame{timeoutMs: timeout, delayMs: ts.Ms(10_000, timeout+firstFrameGraceMs+1000)}
}

// ms is a duration of n milliseconds.
func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// didNotStream is the verdict of a STREAM check on a run without a stream
// call: NOT_APPLICABLE when the orchestrator chose a plain send (streaming
// is the caller's preference, not a requirement), NOT_EXERCISED when it
// sent no task at all.
func (r *Run) didNotStream() Verdict {
	if slices.ContainsFunc(r.Events, isRealSend) {
		return NotApplicablef("did not stream (sent the task by a plain send)")
	}
	return NotExercisedf("sent no task, so never chose whether to stream")
}
