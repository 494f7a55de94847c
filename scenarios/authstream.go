package scenarios

import (
	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// AUTH-007: the credential on the streaming path [A2A 1.0 §7.3: the
// credential goes in every A2A request; a2aproject/a2a-java#708: a client
// whose plain sends authenticated sent its stream without the credential
// and got "Authentication failed"]. D demands a bearer token on every call
// and streams; the stream's connection breaks off while the task works (a
// network interruption, A2A 1.0 §3.5.2: no server clause is broken), so
// the client that streamed also follows the task (SubscribeToTask or
// GetTask), and each of those calls needs the token too.

// authStreamScenarios are the AUTH scenarios that stream.
func authStreamScenarios(ts TimeScale) []*Scenario {
	work := ts.Ms(streamWorkMs, streamWorkFloorMs)
	d := withFaults(protectedD(mockvendor.AuthConfig{}, true),
		mockvendor.Spec("stream-cut", mockvendor.StreamCut{Abort: true}), mockvendor.Spec("task-outcome", mockvendor.TaskOutcome{WorkingMs: work}))
	r := authReq(skillS, []string{"d"}, mockvendor.HostCardD)
	r.PreferStreaming = true
	return []*Scenario{{
		ID:     "AUTH-007",
		Title:  "the bearer token on the stream and on what follows it",
		Area:   "auth",
		Source: "A2A 1.0 §7.3 (the credential goes in every A2A request); a2aproject/a2a-java#708; a2a-cli COMPLIANCE.md A2ACLI_AUTH_001",
		Setup: "D serves A2A 1.0 only; its card declares an HTTP bearer scheme and streaming: true, and every call without D's token (the stream and a subscription included) gets 401. " +
			"The caller prefers streaming and holds D's token for https://rpc.agent-d.example. D's stream sends the task and its working status, then its connection breaks off (a network interruption); the task completes soon after, " +
			"so a client that streamed follows it by SubscribeToTask or GetTask.",
		Fleet:    fleetOf(d),
		Requests: []Request{r},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "AUTH-007.ATTACH",
				Title:  "the stream and every call after it carry the token",
				Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "The credential goes on every request to the agent, not only on plain sends: SendStreamingMessage, SubscribeToTask and GetTask carry Authorization: Bearer <token> as SendMessage does. " +
					"A client that chose not to stream is not judged here (AUTH-001 judges its plain calls). " +
					"(A2A 1.0 §7.3 describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
				Sources: []Source{
					authProcess.Read("the client includes the credentials in protocol-appropriate headers or metadata for every A2A request: a stream or a subscription is an A2A request like a send (described, with no requirement keyword)"),
					Field("a2aproject/a2a-java#708").Read("a client that obtained a token and authenticated its other calls sent the stream without it: \"Streaming error occurred: Authentication failed: Client credentials are missing or invalid\""),
					authCLIAttach,
				},
				Fix:     "Attach the credential in the one place every request goes through (the stream's and the subscription's HTTP requests included), not in the plain-send path only.",
				Reached: rpcAt("d"),
				Judge:   judgeStreamCredential,
			},
			{
				ID:     "AUTH-007.DONE",
				Title:  "the streamed, authenticated delegation completes",
				Grades: must(Safety),
				Requirement: "Streamed with the token and followed with it after the stream broke off, the task completes: the outcome is completed at D, as the wire shows. " +
					"A delegation refused for want of the credential (a 401 from D, reason auth-rejected or no-credential) fails here; one that ended otherwise did not reach what this check judges (STREAM-004 judges following a broken stream).",
				Sources:      []Source{authCLIAttach, authProcess},
				Fix:          "Present the token on the stream and on the subscription or get that follows the task after the stream breaks off.",
				ReadsOutcome: true,
				Reached:      rpcAt("d"),
				Judge:        judgeStreamAuthDone,
			},
		},
	}}
}

// streamedTo reports whether a stream or a subscription reached the
// vendor's endpoint.
func streamedTo(r *Run, vendor string) bool {
	return len(filter(r.Events, func(e mockvendor.Event) bool {
		return inVendor(e, vendor) && (e.Op == mockvendor.OpStream || isSubscribe(e))
	})) > 0
}

// judgeStreamCredential is AUTH-007.ATTACH: once the client streamed to
// D, every call to D's endpoint presented D's token as a bearer token.
func judgeStreamCredential(r *Run) Verdict {
	if !streamedTo(r, "d") {
		return r.didNotStream()
	}
	v := attachedAsDeclared("d", viaBearer, "as Authorization: Bearer")(r)
	if v.Outcome != Pass {
		return v
	}
	streams := filter(r.Events, func(e mockvendor.Event) bool {
		return inVendor(e, "d") && (e.Op == mockvendor.OpStream || isSubscribe(e))
	})
	return Passf("%s; %d of them streams or subscriptions", v.Detail, len(streams))
}

// judgeStreamAuthDone is AUTH-007.DONE: a streamed delegation completed
// at D, unless authentication refused it.
func judgeStreamAuthDone(r *Run) Verdict {
	if !streamedTo(r, "d") {
		return r.didNotStream()
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome == contract.OutcomeCompleted {
		return completedAt(r, 0, "d")
	}
	for _, e := range r.During(0) {
		if inVendor(e, "d") && e.Status == 401 {
			return Failf("%s: D answered 401 (presented: %s), and the delegation ended %s", describe(e), presentedList(e), o.Outcome).At(e.Seq).Want("completed at D with the token on every call", o.Outcome)
		}
	}
	if o.Reason == contract.ReasonAuthRejected || o.Reason == contract.ReasonNoCredential {
		return Failf("the delegation ended %s with reason %s; the caller holds D's token", o.Outcome, o.Reason).Want("completed at D", o.Outcome+" with "+o.Reason)
	}
	return NotExercisedf("the delegation ended %s (reason %q) with no authentication refusal: following a broken stream is STREAM-004's to judge", o.Outcome, o.Reason)
}
