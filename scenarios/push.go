package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// PUSH: the client as a push-notification receiver (A2A 1.0 §4.3.3
// "Client Responsibilities", §13.2 "Client (Webhook Receiver)
// Requirements"). A receiver is the client's own code, so the orchestrator
// runs it: the request asks it to follow the task by push (contract
// task.push), and it registers a webhook of its own with D, the A2A way,
// with a credential of its choosing. The harness learns the webhook from
// the registration on the wire (Event.Webhook) and sees each delivery and
// the status the receiver answered (Event.Delivery, Status). D's
// push-trials fault adds, to each completion, a delivery for a task the
// client never created, a forged and an unsigned one, and a duplicate.
//
// No credit for what was not seen: an orchestrator that registers no
// webhook follows the task otherwise (polls, streams); the receiver checks
// are NOT_APPLICABLE to it, and a check whose delivery its receiver never
// answered is NOT_EXERCISED.

// Timings and content of PUSH-001.
const (
	// pushWorkMs is how long D's task works: room to register a webhook
	// after a send that returns at once, and a blocking send held as long.
	pushWorkMs = 1500
	// pushChunk1 and pushChunk2 are the two chunks of the task's report;
	// the second is the one delivered twice.
	pushChunk1 = "Q3 reconciliation: "
	pushChunk2 = "41 matched, 2 open."
)

// pushFleet is D with long work, a report in two chunks, and the trials.
func pushFleet() mockvendor.Config {
	return mockvendor.Config{Vendors: []mockvendor.VendorConfig{withFaults(mockvendor.VendorD(),
		mockvendor.Spec("long-task", mockvendor.LongTask{WorkMs: pushWorkMs}),
		mockvendor.Spec("artifacts", mockvendor.TaskArtifacts{Artifacts: []mockvendor.ArtifactSpec{{
			Name:   "report",
			Chunks: 2,
			Parts:  []mockvendor.ArtifactPart{{Kind: "text", Text: pushChunk1}, {Kind: "text", Text: pushChunk2}},
		}}}),
		mockvendor.Spec("push-trials", nil),
	)}}
}

// pushRequest is a delegation of skill S to D followed by push.
func pushRequest() Request {
	rq := lifeRequest(nil)
	rq.Push = true
	return rq
}

// pushSources are the sources every PUSH check rests on, besides its own.
func pushSources() []Source {
	return []Source{
		CLI("A2ACLI_PUSH_002", SrcMay).Read("a local webhook receiver able to accept push notifications (a2a-cli Tier 3, advanced: optional)"),
		ContractRule("DelegationRequest: task.push", SrcDescriptive).Read("the orchestrator runs its own receiver and registers it; the harness reads the webhook and each answer from the wire"),
	}
}

func pushScenarios() []*Scenario {
	return []*Scenario{{
		ID:    "PUSH-001",
		Title: "a webhook receives genuine, forged, unsigned, foreign and duplicate deliveries",
		Area:  "push",
		Source: "A2A 1.0 §4.3.3 and §13.2 (the client as webhook receiver); camunda/connectors#5792, a2aproject/A2A#1793, a2aproject/a2a-java#810, a2aproject/a2a-js#239 (where the credential travels); A2A CLI A2ACLI_PUSH_002. " +
			"D breaks no clause: the forged, unsigned and foreign deliveries stand for a third party's, and §4.3.3 says duplicates may occur",
		Setup: fmt.Sprintf("Two delegations to D, each asking the orchestrator to follow the task by push. D's task works %d ms and completes with a report in two chunks. "+
			"Once it completes, every webhook the orchestrator registered for it receives, in order: a delivery with the registered credentials for a task the orchestrator never created, claiming it failed; "+
			"one naming its task, claiming it was canceled, with a wrong credential; the two chunks as artifact updates, the second twice; one appending text to the report with no credential; then the completed status. "+
			"A 1.0 config's credentials go in Authorization (scheme and credentials, §4.3.3), its token in X-A2A-Notification-Token; a 0.3 config gets Task objects.", pushWorkMs),
		Fleet:    pushFleet,
		Requests: []Request{pushRequest(), pushRequest()},
		Checks: []Check{
			pushAckCheck(),
			pushForgedCheck(),
			pushUnknownTaskCheck(),
			pushDuplicateCheck(),
			pushOutcomeCheck(),
			pushTokenCheck(),
		},
	}}
}

func pushAckCheck() Check {
	return Check{
		ID:     "PUSH-001.ACK",
		Title:  "authentic deliveries are acknowledged with 2xx",
		Grades: []Grade{{Profile: Core, Level: Must}},
		Requirement: "Every delivery carrying the credentials the orchestrator registered, about its own task (a duplicate too), is answered 2xx. " +
			"Refusing genuine ones (checking a header the sender does not fill) fails; a delivery no answer came for is not judged.",
		Sources: append([]Source{
			A2A("§4.3.3", SrcMust, Client).Read("Client Responsibilities: clients MUST respond with HTTP 2xx to acknowledge successful receipt"),
			A2A("§13.2", SrcMust, Client).Read("Client (Webhook Receiver) Requirements: clients MUST respond with HTTP 2xx status codes to acknowledge successful receipt"),
			A2A03("§9.5", SrcDescriptive, Client).Read("the example's webhook receives the POST and validates it: descriptive, SHOULD"),
			Field("camunda/connectors#5792").Read("a receiver validates X-A2A-Notification-Token, which A2A 1.0.1 does not define: a sender using Authorization alone is refused"),
			Field("a2aproject/A2A#1793").Read("the credential travels in Authorization; X-A2A-Notification-Token is not defined"),
			Field("a2aproject/a2a-java#810").Read("a sender sent the token header and no Authorization"),
			Field("a2aproject/a2a-js#239").Read("a sender ignores authentication, sends only X-A2A-Notification-Token"),
		}, pushSources()...),
		Fix:          "Answer 2xx to every delivery carrying your credential, duplicates included; read it where a 1.0 sender puts it: Authorization: <scheme> <credentials>.",
		ReadsOutcome: false,
		Reached:      pushAnswered("answer a genuine delivery to its webhook", mockvendor.DeliveryGenuine, mockvendor.DeliveryDuplicate),
		Judge: func(r *Run) Verdict {
			return judgePushStatuses(r, true, mockvendor.DeliveryGenuine, mockvendor.DeliveryDuplicate)
		},
	}
}

func pushForgedCheck() Check {
	return Check{
		ID:     "PUSH-001.FORGED",
		Title:  "deliveries without the registered credential are refused",
		Grades: []Grade{{Profile: Core, Level: Must}, {Profile: Safety, Level: Must}},
		Requirement: "A delivery naming the orchestrator's task with a wrong credential, or with none, is answered with a status other than 2xx (401 or 403 say why): the receiver validates each delivery against the credential it registered for that config. " +
			"Accepting one (2xx) fails, whatever the orchestrator makes of it afterwards.",
		Sources: append([]Source{
			A2A("§13.2", SrcMust, Client).Read("Client (Webhook Receiver) Requirements: clients MUST validate webhook authenticity using the provided authentication credentials"),
			A2A("§4.3.3", SrcShould, Client).Read("Client Responsibilities: clients SHOULD implement appropriate security measures to verify the notification source"),
			A2A03("§9.5", SrcDescriptive, Client).Read("the example's webhook service validates the Authorization header and the X-A2A-Notification-Token: descriptive, so SHOULD for a 0.3 client"),
			Posture("a delivery the receiver cannot authenticate is a third party's claim about the task; taking it in lets anyone who learned the URL steer the caller"),
		}, pushSources()...),
		Fix:          "Register a fresh credential per config (authentication {scheme: Bearer, credentials: <random>}), and answer 401 to any delivery whose Authorization is not exactly that, compared in constant time; never 2xx to a delivery you did not authenticate.",
		ReadsOutcome: false,
		Reached:      pushAnswered("answer a forged or unsigned delivery to its webhook", mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned),
		Judge: func(r *Run) Verdict {
			return judgePushStatuses(r, false, mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned)
		},
	}
}

func pushUnknownTaskCheck() Check {
	return Check{
		ID:     "PUSH-001.UNKNOWN-TASK",
		Title:  "a delivery for a task it never created is ignored",
		Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
		Requirement: "A delivery carrying the orchestrator's own credentials about a task it never created (claiming it failed) leaves no trace in the outcome: not its task id, not its state, not its status message. " +
			"The receiver may acknowledge it or refuse it; the outcome reports the orchestrator's own task.",
		Sources: append([]Source{
			A2A("§13.2", SrcShould, Client).Read("Client (Webhook Receiver) Requirements: clients SHOULD verify the task ID in the payload matches an expected task they created. §4.3.3 says MUST for the same duty; the check takes §13.2's SHOULD, the weaker of the spec's two wordings, in a2a-core"),
			A2A("§4.3.3", SrcMust, Client).Read("Client Responsibilities: clients MUST validate the task ID matches an expected task (the stronger wording; a2a-core grades the check at §13.2's SHOULD)"),
			Posture("a notification about a task the caller never delegated is not news of its task; reporting it as such is a false outcome"),
		}, pushSources()...),
		Fix:          "Look the payload's taskId (statusUpdate.taskId, artifactUpdate.taskId, task.id) up among the tasks you created through that config; ignore (or refuse) a delivery for any other.",
		ReadsOutcome: true,
		Reached:      pushAnswered("answer the delivery for an unknown task", mockvendor.DeliveryUnknownTask),
		Judge:        judgePushUnknownTask,
	}
}

func pushDuplicateCheck() Check {
	return Check{
		ID:     "PUSH-001.DUPLICATE",
		Title:  "a duplicate delivery is processed once",
		Grades: []Grade{{Profile: Core, Level: Should}},
		Requirement: fmt.Sprintf("The report's second chunk (%q) is delivered twice as an append; the artifacts reported hold it once, as the agent produced them. "+
			"An orchestrator that reports no artifacts shows nothing of how it processed the duplicate: NOT_EXERCISED.", pushChunk2),
		Sources: append([]Source{
			A2A("§4.3.3", SrcShould, Client).Read("Client Responsibilities: clients SHOULD process notifications idempotently, as duplicate deliveries may occur"),
			A2A("§13.2", SrcShould, Client).Read("Client (Webhook Receiver) Requirements: clients SHOULD process notifications idempotently"),
		}, pushSources()...),
		Fix:          "Remember what each delivery changed (the artifact chunk by artifactId and position, or a digest of the body per config) and apply a repeat once; or rebuild the artifacts from GetTask once the task completes.",
		ReadsOutcome: true,
		Reached:      pushAnswered("answer the duplicate delivery", mockvendor.DeliveryDuplicate),
		Judge:        judgePushDuplicate,
	}
}

func pushOutcomeCheck() Check {
	return Check{
		ID:     "PUSH-001.OUTCOME",
		Title:  "the outcome follows only authentic deliveries",
		Grades: []Grade{{Profile: Core, Level: Must}, {Profile: Safety, Level: Must}},
		Requirement: "The outcome reports the task as the authentic deliveries (and the agent's answers) show it: completed, with the agent's report. " +
			"Reporting it canceled, or with the forged status message, or with the text the unsigned delivery appended, follows a delivery the receiver could not authenticate.",
		Sources: append([]Source{
			A2A("§13.2", SrcMust, Client).Read("clients MUST validate webhook authenticity using the provided credentials: a delivery that fails validation is not acted on"),
			A2A03("§9.5", SrcDescriptive, Client).Read("the webhook service validates the token, then processes the notification: descriptive, so SHOULD for a 0.3 client"),
			Posture("an outcome is a claim checked against the wire; one steered by a forged delivery is a false report to the caller"),
		}, pushSources()...),
		Fix:          "Update the task you follow only from deliveries that passed the credential check (and from the agent's own answers); drop the rest before they reach your state.",
		ReadsOutcome: true,
		Reached:      pushAnswered("answer a forged or unsigned delivery to its webhook", mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned),
		Judge:        judgePushOutcome,
	}
}

func pushTokenCheck() Check {
	return Check{
		ID:     "PUSH-001.TOKEN",
		Title:  "one credential per push notification config",
		Grades: []Grade{{Profile: Core, Level: Should}},
		Requirement: "Each webhook registration carries a credential (a token or authentication credentials) that no other registration of the run carries: " +
			"two configs with one credential, or a config with none, fail.",
		Sources: append([]Source{
			A2A("§13.2", SrcShould, Client).Read("Configuration Security: clients SHOULD use unique, single-purpose tokens for each push notification configuration"),
			Proto("TaskPushNotificationConfig", SrcDescriptive, Client).Read("token: a token unique for this task or session"),
			CLI("A2ACLI_PUSH_001", SrcMay).Read("push-config create, get, list and delete (a2a-cli Tier 2): the registration this check reads"),
		}, pushSources()...),
		Fix:          "Draw a fresh random credential (32 bytes from a CSPRNG) for every config you register, and keep it with the task it was for.",
		ReadsOutcome: false,
		Reached: Precondition{
			Needs: "register two webhooks (one per delegation)",
			Met:   func(r *Run) bool { return len(pushRegistrations(r)) >= 2 },
		},
		Judge: judgePushToken,
	}
}

// pushTasks are the ids of the real tasks delegation i created at D.
func (r *Run) pushTasks(i int) []string {
	var ids []string
	for _, e := range r.During(i) {
		if inVendor(e, "d") && createdTask(e) && !slices.Contains(ids, e.TaskID) {
			ids = append(ids, e.TaskID)
		}
	}
	return ids
}

// pushRegistrations are the webhook registrations of the run at D.
func pushRegistrations(r *Run) []mockvendor.Event {
	return filter(r.Events, func(e mockvendor.Event) bool { return inVendor(e, "d") && e.Webhook != nil && e.ErrorCode == 0 })
}

// pushRegistered reports whether the orchestrator registered a webhook
// for a task of delegation i.
func (r *Run) pushRegistered(i int) bool {
	ids := r.pushTasks(i)
	return slices.ContainsFunc(pushRegistrations(r), func(e mockvendor.Event) bool { return slices.Contains(ids, e.TaskID) })
}

// pushAttempts are the delivery attempts made to delegation i's tasks'
// webhooks, of the given kinds.
func (r *Run) pushAttempts(i int, kinds ...string) []mockvendor.Event {
	ids := r.pushTasks(i)
	return filter(r.Events, func(e mockvendor.Event) bool {
		return e.Op == mockvendor.OpPushDelivery && e.Attempt > 0 && !e.Pending && slices.Contains(ids, e.TaskID) && slices.Contains(kinds, e.Delivery)
	})
}

// pushAnswered needs a delivery of one of kinds that the receiver
// answered with an HTTP status.
func pushAnswered(needs string, kinds ...string) Precondition {
	return Precondition{
		Needs: needs,
		Met: func(r *Run) bool {
			for i := range r.Delegations {
				if slices.ContainsFunc(r.pushAttempts(i, kinds...), func(e mockvendor.Event) bool { return e.Status > 0 }) {
					return true
				}
			}
			return false
		},
	}
}

// pushNotApplicable is NOT_APPLICABLE for a run whose orchestrator
// registered no webhook in any delegation: the receiver duties bind a
// client that takes push notifications.
func pushNotApplicable(r *Run) (Verdict, bool) {
	for i := range r.Delegations {
		if r.pushRegistered(i) {
			return Verdict{}, false
		}
	}
	if len(pushRegistrations(r)) > 0 {
		return Verdict{}, false
	}
	return NotApplicablef("the orchestrator registered no webhook: it followed its tasks otherwise, and the receiver's duties (A2A 1.0 §4.3.3, §13.2) bind a client that takes push notifications. Nothing about a receiver was seen, so nothing is credited"), true
}

// isOK reports whether an HTTP status is 2xx.
func isOK(status int) bool { return status >= 200 && status <= 299 }

// judgePushStatuses judges the statuses the receiver answered deliveries
// of kinds with: all 2xx (ok) or none 2xx (!ok), among those answered.
func judgePushStatuses(r *Run, ok bool, kinds ...string) Verdict {
	if v, na := pushNotApplicable(r); na {
		return v
	}
	n := 0
	for i := range r.Delegations {
		for _, e := range r.pushAttempts(i, kinds...) {
			if e.Status == 0 {
				continue
			}
			n++
			if isOK(e.Status) != ok {
				want := "2xx"
				if !ok {
					want = "a status other than 2xx (401, 403)"
				}
				return Failf("delegation %d: the webhook answered the %s delivery (%s) with HTTP %d", i+1, e.Delivery, e.Note, e.Status).
					Want(want, fmt.Sprintf("HTTP %d", e.Status)).At(e.Seq)
			}
		}
	}
	if n == 0 {
		return Failf("the webhook answered no %s delivery", strings.Join(kinds, " or "))
	}
	if ok {
		return Passf("the webhook answered the %d genuine deliveries with 2xx", n)
	}
	return Passf("the webhook refused the %d deliveries that lacked the registered credential", n)
}

// judgePushUnknownTask is PUSH-001.UNKNOWN-TASK's judge.
func judgePushUnknownTask(r *Run) Verdict {
	if v, na := pushNotApplicable(r); na {
		return v
	}
	for i := range r.Delegations {
		evs := r.pushAttempts(i, mockvendor.DeliveryUnknownTask)
		if len(evs) == 0 {
			continue
		}
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		e := evs[0]
		other := unknownTaskID(e.Note)
		switch {
		case other != "" && o.TaskID == other:
			return Failf("delegation %d: the outcome names task %s, which the orchestrator never created (a delivery's claim)", i+1, other).Want("its own task", o.TaskID).At(e.Seq).evidenced()
		case o.StatusText == mockvendor.PushTrialUnknownTaskText:
			return Failf("delegation %d: the outcome's statusText is the unknown task's failure message", i+1).Want("the task's own status", o.StatusText).At(e.Seq).evidenced()
		case o.Outcome != contract.OutcomeCompleted && r.pushCompleted(i) && answered2xx(evs):
			if forged := r.pushAttempts(i, mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned); answered2xx(forged) {
				return NotExercisedf("delegation %d: the outcome says %s; the receiver took both the unknown task's delivery and a forged one, and which it followed cannot be told (PUSH-001.FORGED judges the forged one)", i+1, o.Outcome)
			}
			return Failf("delegation %d: the outcome says %s (taskState %q); the task completed, and only the delivery for an unknown task, which the receiver took (2xx), claimed a failure", i+1, o.Outcome, o.TaskState).
				Want("completed", o.Outcome).At(e.Seq).evidenced()
		}
	}
	return Passf("the delivery for an unknown task left no trace in the outcomes")
}

// answered2xx reports whether the receiver answered one of evs with 2xx.
func answered2xx(evs []mockvendor.Event) bool {
	return slices.ContainsFunc(evs, func(e mockvendor.Event) bool { return isOK(e.Status) })
}

// unknownTaskID reads the other task's id out of an unknown-task
// delivery's note ("... task t-x, not the client's ...").
func unknownTaskID(note string) string {
	_, rest, ok := strings.Cut(note, "task ")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ",")
	return id
}

// pushCompleted reports whether a task of delegation i was delivered
// completed to its webhook, or answered completed on the wire.
func (r *Run) pushCompleted(i int) bool {
	ids := r.pushTasks(i)
	return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
		return slices.Contains(ids, e.TaskID) && e.State == "completed"
	})
}

// judgePushDuplicate is PUSH-001.DUPLICATE's judge: the duplicated chunk
// appears in the reported report as often as in the agent's.
func judgePushDuplicate(r *Run) Verdict {
	if v, na := pushNotApplicable(r); na {
		return v
	}
	judged := 0
	for i := range r.Delegations {
		if len(r.pushAttempts(i, mockvendor.DeliveryDuplicate)) == 0 {
			continue
		}
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		if len(o.Artifacts) == 0 {
			continue
		}
		judged++
		want := strings.Count(pushChunk1+pushChunk2, pushChunk2)
		for _, a := range o.Artifacts {
			if n := strings.Count(a.Text, pushChunk2); n > want {
				return Failf("delegation %d: artifact %q holds the duplicated chunk %d times, the agent produced it %d time", i+1, a.ArtifactID, n, want).
					Want(fmt.Sprintf("%q", pushChunk1+pushChunk2), fmt.Sprintf("%q", clipQuote(a.Text))).evidenced()
			}
		}
	}
	if judged == 0 {
		return NotExercisedf("no outcome reports artifacts: how the duplicate was processed cannot be seen")
	}
	return Passf("the duplicated chunk is reported once in %d delegations", judged)
}

// judgePushOutcome is PUSH-001.OUTCOME's judge.
func judgePushOutcome(r *Run) Verdict {
	if v, na := pushNotApplicable(r); na {
		return v
	}
	for i := range r.Delegations {
		if !r.pushRegistered(i) {
			continue
		}
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		forged := r.pushAttempts(i, mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned)
		at := int64(0)
		if len(forged) > 0 {
			at = forged[0].Seq
		}
		switch {
		case o.StatusText == mockvendor.PushTrialForgedText:
			return Failf("delegation %d: the outcome's statusText is the forged delivery's", i+1).Want("the task's own status", o.StatusText).At(at).evidenced()
		case normalTaskState(o.TaskState) == "canceled" && r.pushCompleted(i):
			return Failf("delegation %d: the outcome says %s (taskState %q); the task completed, and only a forged delivery said canceled", i+1, o.Outcome, o.TaskState).Want("completed", o.Outcome).At(at).evidenced()
		}
		for _, a := range o.Artifacts {
			if strings.Contains(a.Text, strings.TrimSpace(mockvendor.PushTrialUnsignedText)) {
				return Failf("delegation %d: artifact %q holds the text the unsigned delivery appended", i+1, a.ArtifactID).Want("the agent's report", clipQuote(a.Text)).At(at).evidenced()
			}
		}
		if o.Outcome != contract.OutcomeCompleted {
			return Failf("delegation %d: the outcome says %s (reason %q); the task completed", i+1, o.Outcome, o.Reason).Want("completed", o.Outcome)
		}
	}
	return Passf("every outcome follows the authentic deliveries: completed, nothing of the forged ones")
}

// judgePushToken is PUSH-001.TOKEN's judge.
func judgePushToken(r *Run) Verdict {
	if v, na := pushNotApplicable(r); na {
		return v
	}
	seen := map[string]int64{}
	regs := pushRegistrations(r)
	for _, e := range regs {
		if e.Webhook.Credential == "" {
			return Failf("the webhook registration of task %s carries no credential (no token, no authentication credentials)", e.TaskID).Want("a credential of its own", "none").At(e.Seq)
		}
		if prev, dup := seen[e.Webhook.Credential]; dup {
			return Failf("two webhook registrations (#%d and #%d) carry the same credential", prev, e.Seq).Want("one credential per config", "a shared one").At(e.Seq)
		}
		seen[e.Webhook.Credential] = e.Seq
	}
	return Passf("the %d webhook registrations each carry a credential of their own", len(regs))
}
