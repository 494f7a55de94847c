package fault

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// PushTrials puts a client's push-notification receiver to the test (A2A
// 1.0 §4.3.3 "Client Responsibilities", §13.2 "Client (Webhook Receiver)
// Requirements"). The real tasks a vendor with push notifications creates
// are marked (Call.PushTrials); once such a task completes, every webhook
// the client registered for it receives, in one sequence and in this
// order:
//
//   - a delivery about a task the client never created (a fresh task id
//     and context), claiming it failed, with the credentials the client
//     registered (unknown-task);
//   - a delivery naming the client's task and claiming it was canceled,
//     with a wrong credential: the scheme the client named, a value it
//     never gave (forged);
//   - the task's artifacts as the TaskArtifactUpdateEvents a stream sends
//     (genuine), the last one delivered a second time, body and headers
//     alike (duplicate);
//   - a delivery naming the client's task that appends a part the agent
//     never produced to its last artifact, with no credential at all
//     (unsigned);
//   - the task's final status, completed (genuine).
//
// A 0.3 or 0.1 config receives the same kinds as Task objects: the
// unknown task failed, the forged one canceled, the unsigned one completed
// with an artifact the agent never produced, then the task completed,
// twice. The trials come before the final status so that a client still
// waiting for its task receives every one of them. Earlier changes of the
// task's state are delivered as an honest vendor delivers them; a task
// that ends otherwise than completed (cancelled by the client) gets no
// trials. Kinds limits them.
//
// The vendor sends what a real sender may: §4.3.3 says duplicate
// deliveries may occur, and nothing stops a third party from posting to a
// webhook it learned; the genuine deliveries carry the credentials as the
// honest vendor does (internal/push). It breaks no clause binding an
// agent: an agent never sends another's notifications, and the forged
// and unknown ones stand for a third party's. Probes are left alone. Every
// delivery is traced with its kind (Event.Delivery) and the receiver's
// HTTP status, bounded as every delivery is (push.MaxTrials).
type PushTrials struct {
	// Kinds are the trial deliveries made, of "unknown-task", "forged",
	// "duplicate" and "unsigned". Empty means all four.
	Kinds []string `json:"kinds,omitempty" doc:"the trial deliveries made, of unknown-task, forged, duplicate and unsigned; empty means all four"`
}

func init() {
	Register("push-trials", "a completed task's webhooks also receive a delivery for an unknown task, forged and unsigned ones, and a duplicate", func() any { return &PushTrials{} })
}

// pushTrialKinds are the kinds PushTrials.Kinds may name.
var pushTrialKinds = []string{trace.DeliveryUnknownTask, trace.DeliveryForged, trace.DeliveryDuplicate, trace.DeliveryUnsigned}

func (p *PushTrials) validate() error {
	for i, k := range p.Kinds {
		if !slices.Contains(pushTrialKinds, k) {
			return &ConfigError{Field: fmt.Sprintf("kinds[%d]", i), Msg: fmt.Sprintf("%q is none of %v", k, pushTrialKinds)}
		}
	}
	if len(p.Kinds) == 0 {
		p.Kinds = slices.Clone(pushTrialKinds)
	}
	return nil
}

// OnCall marks the task a real send or stream creates for trials
// (CallHook).
func (p *PushTrials) OnCall(c *Call) *CallError {
	if c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream) {
		return nil
	}
	c.PushTrials = p.Kinds
	c.Faults = append(c.Faults, "push-trials")
	return nil
}
