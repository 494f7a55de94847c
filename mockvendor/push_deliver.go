package mockvendor

import (
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Webhook delivery of push notifications lives in internal/push (layer
// 3): a vendor whose card claims capabilities.pushNotifications POSTs each
// change of a task's state to every push config of the task, loopback
// only and within the bounds below (A2A 1.0 §4.3.3). Its doc says how.
// The names below keep the bounds part of this package's public face, and
// pushVendor is a vendor as delivery sees it.

// Bounds of webhook delivery, per vendor (push.DeliveryTimeout, ...).
const (
	// PushDeliveryTimeout bounds one delivery attempt, from dialing to the
	// end of the (capped) response body: 10 s, the low end of the 10-30 s
	// §4.3.3 recommends.
	PushDeliveryTimeout = push.DeliveryTimeout
	// MaxPushAttempts is the most attempts one notification gets (3): the
	// first, and two retries after a connection error, a timeout, a 429 or
	// a 5xx answer. Any other answer (2xx, 3xx, 4xx), a failed TLS
	// handshake and the fleet's close end it.
	MaxPushAttempts = push.MaxAttempts
	// PushRetryDelay is the wait before the first retry (250 ms); it
	// doubles for each later one.
	PushRetryDelay = push.RetryDelay
	// MaxPushInFlight is the most notifications a vendor has in flight at
	// once (8), all receivers together; a notification that finds them all
	// taken waits in its receiver's queue.
	MaxPushInFlight = push.MaxInFlight
	// MaxPushInFlightPerReceiver is the most notifications one receiver
	// (a URL's host and port) has in flight at once (2): a receiver that
	// hangs holds two of the vendor's slots, not all eight.
	MaxPushInFlightPerReceiver = push.MaxInFlightPerReceiver
	// MaxPushQueuedPerReceiver is the most notifications waiting for one
	// receiver (32); past it the oldest waiting one is dropped, and the
	// trace says so.
	MaxPushQueuedPerReceiver = push.MaxQueuedPerReceiver
	// MaxPushQueued is the most notifications waiting for all of a
	// vendor's receivers together (256); past it the oldest waiting one of
	// the receiver with the most is dropped, and the trace says so.
	MaxPushQueued = push.MaxQueued
	// MaxPushResponseBytes is the most bytes of a receiver's answer body
	// read (4 KiB); the rest is left unread and the connection closed.
	MaxPushResponseBytes = push.MaxResponseBytes
)

// The texts the push-trials fault's deliveries carry (push.UnknownTaskText,
// ...): the checks look for them in what an orchestrator reports.
const (
	// PushTrialUnknownTaskText is the status message of the unknown
	// task's failure.
	PushTrialUnknownTaskText = push.UnknownTaskText
	// PushTrialForgedText is the status message of the forged
	// cancellation.
	PushTrialForgedText = push.ForgedText
	// PushTrialUnsignedText is the text part the unsigned delivery
	// appends to the task's last artifact.
	PushTrialUnsignedText = push.UnsignedText
	// MaxPushTrials is the most deliveries one trials sequence makes.
	MaxPushTrials = push.MaxTrials
)

// pushStore holds a vendor's push configs and delivers their
// notifications.
type pushStore = push.Store

// pushVendor is a vendor as push delivery sees it (push.Vendor).
type pushVendor struct{ v *Vendor }

// ID returns the vendor's id.
func (p pushVendor) ID() string { return p.v.cfg.ID }

// Task returns the vendor's task id, nil once the task store forgot it.
func (p pushVendor) Task(id string) *task { return p.v.fleet.tasks.Get(p.v.cfg.ID, id) }

// WorkTime returns Limits.WorkTime, the clock of every task's state.
func (p pushVendor) WorkTime() time.Duration { return p.v.fleet.limits.WorkTime }

// EncodeTask encodes t in state at now in dialect d, as a get answers it.
func (p pushVendor) EncodeTask(t *task, d a2a.Dialect, state string, now time.Time) any {
	return ops.EncodeTaskAt(t, d, state, now)
}

// Events are t's stream events in dialect d, as a stream sends them.
func (p pushVendor) Events(t *task, d a2a.Dialect) []any {
	evs, _ := ops.StreamEvents(t, d, p.v.fleet.limits.WorkTime)
	return evs
}

// Results is what an answer showing t in state delivers of its results.
func (p pushVendor) Results(t *task, d a2a.Dialect, state string) *Results {
	return ops.TaskResults(t, d, state)
}

// Enter registers a delivery goroutine unless the fleet is closing.
func (p pushVendor) Enter() bool { return p.v.fleet.enter() }

// Leave ends a delivery goroutine Enter registered.
func (p pushVendor) Leave() { p.v.fleet.active.Done() }

// Add records a delivery event, redacted (Fleet.redact).
func (p pushVendor) Add(e trace.Event) {
	p.v.fleet.redact(&e)
	p.v.fleet.trace.Add(e)
}

// Begin records an attempt as it starts, redacted, and returns its
// sequence number.
func (p pushVendor) Begin(e trace.Event) int64 {
	p.v.fleet.redact(&e)
	return p.v.fleet.trace.Begin(e)
}

// Finish completes an attempt with its status and why it failed, redacted.
func (p pushVendor) Finish(seq int64, status int, deliveryError string) {
	f := p.v.fleet
	f.trace.Finish(seq, func(e *Event) {
		e.Status = status
		e.DeliveryError, _ = f.RedactText(deliveryError)
	})
}

// pushChanged wakes the watch of a task whose state a request changed (a
// cancel): the change is delivered now rather than at the next timer.
func (v *Vendor) pushChanged(t *task) { v.push.Changed(pushVendor{v}, t) }
