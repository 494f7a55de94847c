package fault

import (
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Call is one call (JSON-RPC or HTTP+JSON) as the faults see it: what
// the request asked, the vendor it reached (as a VendorView), and the
// fault outputs the vendor acts on. Faults may change Message and the
// fields below "fault outputs".
type Call struct {
	// Vendor is the vendor the call reached.
	Vendor VendorView
	// Host is the host the call reached (bare-IP hosts as 127.0.0.1:PORT).
	Host string
	// Region is the region of that host ("" when it has none).
	Region string
	// Method is the JSON-RPC method the call names.
	Method  string
	Op      trace.Op
	Dialect a2a.Dialect
	// A2AVersion is the request's A2A-Version header ("" when absent).
	A2AVersion string
	// Skill is the skill id the message names ("" = the default skill).
	Skill string
	// Probe is true for a probe send.
	Probe bool
	// Message is the decoded message of a send or stream (nil otherwise).
	Message *a2a.Message

	// Fault outputs.

	// AnySkill makes the endpoint run any skill (a reseller gateway's runtime).
	AnySkill bool
	// Hold keeps the task the call creates open (working) until cancelled.
	Hold bool
	// StreamAsJSON answers a stream method with a plain JSON response.
	StreamAsJSON bool
	// FirstFrameDelay holds a stream open this long before its first event.
	FirstFrameDelay time.Duration
	// EndState is the state (0.3 spelling) the task the call creates
	// reaches in place of completed ("": completed), and WorkFor how long
	// it stays working first (0: it is there when the send is answered).
	EndState string
	WorkFor  time.Duration
	// Artifacts are the artifacts the task the call creates holds once
	// completed, in place of its one text artifact (nil: that one; the
	// artifacts fault).
	Artifacts []a2a.ArtifactSpec
	// Asks, Question and EndsMeanwhile make the task the call creates
	// ask the caller (tasks.Task's fields of those names): Asks times
	// before it completes (the input-required-turns fault), or, with
	// Asks zero and Question set, once after its artifacts (the artifacts
	// fault's askAfter). Zero Asks and "" Question: it never asks.
	Asks          int
	Question      string
	EndsMeanwhile string
	// MessageReply answers a send or stream with a Message and creates no
	// task (0.3 and 1.0; a 0.1 send always answers a task).
	MessageReply bool
	// StreamCut ends a stream after its first StreamCut events, the task
	// still running (0: no cut); StreamAbort breaks the connection off
	// there instead of ending the stream cleanly.
	StreamCut   int
	StreamAbort bool
	// HoldBlocking holds the answer of a blocking send (one that did not
	// ask to return immediately) until the task it created ends (A2A 1.0
	// §3.2.2), the client leaves, the task is cancelled or the fleet
	// closes (long-task). False answers at once.
	HoldBlocking bool
	// RefuseCancel answers a cancel of a task that is not terminal with
	// TaskNotCancelableError (-32002; long-task). False honours it.
	RefuseCancel bool
	// DropAnswer closes the connection once the operation has run (the
	// task created) instead of answering (lost-answer). False answers.
	DropAnswer bool
	// Challenge, when set, answers the call's fault error with HTTP 401
	// and this WWW-Authenticate challenge, as an authentication refusal
	// ("": the error is answered as the binding answers any A2A error).
	Challenge string
	// StreamState, when set, is the state (spelled as the wire shows it,
	// TASK_STATE_UNSPECIFIED) of a status update a real stream sends after
	// its working status, before the rest of its events ("": none).
	StreamState string
	// StreamError, when set, ends a stream with this error, sent as an
	// event after its first StreamErrorAfter events (the task, then its
	// working status); the task it created has failed by then.
	StreamError      *a2a.Error
	StreamErrorAfter int
	// PushTrials, when set, are the trial deliveries (trace.Delivery*
	// kinds) the webhooks of the task the call creates receive once it
	// completes (push-trials). Nil: none.
	PushTrials []string
	// Coercions are the parts a fault changed.
	Coercions []trace.Coercion
	// Faults names the faults that acted on the call.
	Faults []string
}

// VendorView is a vendor as the faults see it: the facts of its
// configuration they need, read-only.
type VendorView interface {
	// ID is the vendor's id ("b").
	ID() string
	// DefaultSkill is the skill a message that names none is for: the
	// configured default, else the first skill ("" when it has none).
	DefaultSkill() string
	// SkillsIn lists the ids of the skills the vendor serves in region.
	SkillsIn(region string) []string
	// InputModes are the input modes the card declares for a skill (its
	// own, else the card's defaults, else text/plain).
	InputModes(skill string) []string
	// SkillEntry is the card's entry for a skill the vendor knows by id
	// only (no name, description or modes of its own configured).
	SkillEntry(id string) map[string]any
}

// CallError is the error a fault answers a call with: an A2A error like
// the vendor's own, which the call's binding renders in the call's dialect.
type CallError = a2a.Error

// errSkillUnavailable is the -32004 that card as claim, not contract
// records: the skill is not served in this region, with the skills that
// are.
func errSkillUnavailable(region string, available []string) *CallError {
	return &CallError{
		Code:    -32004,
		Message: "skill not available in region",
		Data:    map[string]any{"region": region, "availableSkills": available},
		Reason:  "SKILL_NOT_AVAILABLE",
	}
}
