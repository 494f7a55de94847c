// Package push is layer 3 of the mock vendor fleet: push notifications
// as a vendor keeps and sends them (A2A 1.0 §3.1.7-§3.1.10, §4.3.3; A2A
// 0.3 and 0.1 alike).
//
// It holds a vendor's push-notification configs (Config, Store: Set,
// List, Remove, within MaxPerTask configs per task and MaxTasks tasks)
// and their delivery (deliver.go): a watch per task with configs, whose
// timer fires at the task's next change of state (tasks.Task.NextChange)
// and which a cancel wakes (Store.Changed); the payload of each dialect;
// the webhook client that dials loopback only and tells a failed TLS
// handshake apart; attempts, retries with backoff, and the bounds of
// DeliveryTimeout, MaxAttempts, RetryDelay and MaxResponseBytes; and the
// queue per receiver (queue.go: MaxInFlight, MaxInFlightPerReceiver,
// MaxQueued, MaxQueuedPerReceiver). Each attempt and each notification
// not made is a trace.Event of op push-delivery. The completion of a task
// the push-trials fault marked is a sequence of at most MaxTrials
// deliveries (trials.go): the genuine ones and the trials of a receiver
// (an unknown task, a forged and an unsigned delivery, a duplicate), each
// traced with its kind (Event.Delivery).
//
// A Store never sees the fleet or its vendors: it delivers for a Vendor,
// a small interface the root package mockvendor implements (the vendor's
// id, its tasks as the task store holds them, the work time of their
// clock, a task encoded in a dialect, the fleet's count of running
// goroutines, and a Recorder that keeps events in the trace with the
// credentials the fleet issued cut out). The push-config methods that
// fill the store are operations of the root package; the root package
// re-exports the bounds under their public names (PushDeliveryTimeout,
// MaxPushAttempts, ...).
//
// It may import mockvendor/internal/trace, mockvendor/internal/a2a and
// mockvendor/internal/tasks (and, should it need them, internal/netx and
// internal/credentials), and no package of its own layer or above. The
// operations, the bindings and the root package mockvendor import it;
// nothing below it may.
package push
