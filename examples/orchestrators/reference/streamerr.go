package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Streams that answer with errors (the catalog's STREAM-006..011):
//
//   - an A2A error answering the stream method as plain JSON, before any
//     stream, is the operation's answer (A2A 1.0 §9.5, §11.6): it is
//     handled as the same error answering SendMessage, never parsed as an
//     empty stream (a2aproject/a2a-rs#146);
//   - an HTTP 401 on the stream is a refusal of the caller, reported
//     auth-rejected; the work is not sent again another way;
//   - a subscription's first event must come within the card's
//     first-frame timeout (30 s by default), as a stream's: past it, the
//     subscription is left and the task is polled (a2aproject/a2a-dotnet#340);
//   - a state the reference does not know (TASK_STATE_UNSPECIFIED, or none
//     of the eight) is not terminal: the stream is read on;
//   - an error event on a stream ends the delegation as the same error
//     answering a plain send does; either way the outcome names it
//     (outcome.error: its code and ErrorInfo reason).

// errSubscriptionSilent is a subscription whose first event did not come
// within the first-frame timeout.
var errSubscriptionSilent = errors.New("no first event within the first-frame timeout")

// rememberError keeps the A2A error that answered the real task, for the
// outcome; the StreamErrorUnnamed break drops a stream's error event.
func (r *run) rememberError(a *attempt, e *wire.RPCError) {
	if r.br.StreamErrorUnnamed && a.streamErrEvent {
		r.remoteErr = nil
		return
	}
	r.remoteErr = &contract.RemoteError{Code: e.Code, Reason: errorReason(e), Message: e.Message}
}

// errorReason is the ErrorInfo reason of a 1.0 JSON-RPC error (its data
// array's google.rpc.ErrorInfo), or "".
func errorReason(e *wire.RPCError) string {
	var details []struct {
		Type   string `json:"@type"`
		Reason string `json:"reason"`
	}
	if json.Unmarshal(e.Data, &details) != nil {
		return ""
	}
	for _, d := range details {
		if d.Type == "type.googleapis.com/google.rpc.ErrorInfo" {
			return d.Reason
		}
	}
	return ""
}

// streamErrorAnswer is the stream method's plain JSON error answer: the
// operation's error, handled as a send's; the StreamErrorAsEmpty break
// reads it as an empty stream that succeeded.
func (r *run) streamErrorAnswer(a *attempt, e *wire.RPCError) (callResult, bool) {
	if r.br.StreamErrorAsEmpty {
		r.notef("stream method of %s answered plain JSON: read as an empty stream", a.ep.URL)
		return callResult{info: wire.TaskInfo{Message: true}}, false
	}
	r.notef("stream method of %s answered an error before any stream: %v", a.ep.URL, e)
	return callResult{rpcErr: e}, false
}

// knownState reports whether a task state is one of the eight the
// reference knows.
func knownState(state string) bool {
	switch state {
	case "submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// unknownStateAsEnd is the UnknownStateAsEnd break: a stream that
// announced a state the reference does not know is closed there, and the
// task is not followed. Without the break an unknown state is read past.
func (r *run) unknownStateAsEnd(a *attempt, info wire.TaskInfo) bool {
	if !r.br.UnknownStateAsEnd || info.ID == "" || info.State == "" || knownState(info.State) {
		return false
	}
	r.notef("stream of task %s: state %q taken as the end", info.ID, info.State)
	a.workingAsEnd = true // the task is not followed
	return true
}

// firstEvent bounds the wait for a subscription's first event by the
// card's first-frame timeout: its context is cancelled when the timeout
// passes before arrived is called.
type firstEvent struct {
	ctx     context.Context
	cancel  context.CancelFunc
	timer   *time.Timer
	timeout time.Duration
	fired   atomic.Bool // the timeout passed
	got     atomic.Bool // an event came
}

// firstEventTimer starts the wait (none with the NoSubscribeTimeout
// break: the delegation's deadline alone bounds it).
func (r *run) firstEventTimer(a *attempt) *firstEvent {
	f := &firstEvent{timeout: a.card.firstFrameTimeout()}
	f.ctx, f.cancel = context.WithCancel(r.ctx)
	if !r.br.NoSubscribeTimeout {
		f.timer = time.AfterFunc(f.timeout, func() {
			f.fired.Store(true)
			f.cancel()
		})
	}
	return f
}

// arrived stops the wait: an event came.
func (f *firstEvent) arrived() {
	f.got.Store(true)
	f.stop()
}

// stop stops the timer.
func (f *firstEvent) stop() {
	if f.timer != nil {
		f.timer.Stop()
	}
}

// close ends the subscription's context.
func (f *firstEvent) close() {
	f.stop()
	f.cancel()
}

// explain is err, or errSubscriptionSilent when the timeout ended the
// subscription before any event came (however the cut read ended: an
// error, or an end the SSE reader took for a clean one).
func (f *firstEvent) explain(err error) error {
	if f.fired.Load() && !f.got.Load() {
		return fmt.Errorf("%w (%v)", errSubscriptionSilent, f.timeout)
	}
	return err
}

// silentSubscription handles a subscription left for its silence: the
// task is polled (follow goes on to poll with info unchanged); the
// SubscribeStallAsFailure break reports it failed instead.
func (r *run) silentSubscription(info wire.TaskInfo, err error) wire.TaskInfo {
	if r.br.SubscribeStallAsFailure {
		r.notef("subscription to task %s: %v: taken as a failure", info.ID, err)
		info.State = "failed"
		return info
	}
	r.notef("subscription to task %s: %v: left, polling GetTask", info.ID, err)
	return info
}
