package reference

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// The task after the send (the catalog's LIFE and STREAM-003..005). A send
// answered with a task that is still running is followed to its end:
//
//   - a task that came by a stream that ended (or broke off) before the
//     task did is subscribed to once (SubscribeToTask, whose first event is
//     the task as it is now, A2A 1.0 §3.1.6); a subscription refused with
//     -32004 means the task is terminal, and one GetTask reads its state
//     (a2aproject/A2A issue 174); the Alternatives' PollAfterCut polls
//     instead;
//   - otherwise (and when a subscription ends early too) GetTask is polled
//     with a backoff of pollFirst doubling up to pollMax (A2A CLI
//     A2ACLI_TASK_POLL_002), until the task is terminal or interrupted
//     (input-required, auth-required: A2ACLI_TASK_POLL_003) or the
//     delegation's deadline;
//   - a task given up at the deadline is cancelled before the outcome is
//     reported (seed 000, Decision Boundary).
//
// The outcome: completed for completed or a Message reply (A2ACLI_SEND_003),
// interrupted with the task's state for input-required and auth-required,
// failed otherwise (reason deadline when the deadline ended the wait).

// Polling and cancelling.
const (
	pollFirst = 200 * time.Millisecond
	pollMax   = 2 * time.Second
	// cancelWait bounds the cancel of an abandoned task, sent after the
	// delegation's own context has run out (within the 250 ms Delegate
	// keeps to report in).
	cancelWait = 200 * time.Millisecond
	// pastDeadline is how long the PollPastDeadline break polls on (every
	// 300 ms at most).
	pastDeadline = 900 * time.Millisecond
)

// follow drives a task that the send (or stream) left running to its end,
// and returns what it last learnt of it.
func (r *run) follow(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	if info.Message {
		if r.br.PollMessageReply {
			r.call(a, "GetTask", map[string]any{"id": wire.NewID("t-from-message-")})
		}
		return info
	}
	if info.ID == "" || settled(info.State) || r.br.NoPoll || r.br.ReturnImmediatelyNoFollow || a.workingAsEnd {
		return r.afterSettled(a, info)
	}
	if a.push != nil { // push.go
		info = r.followPush(a, info)
		if !settled(info.State) && r.ctx.Err() != nil {
			r.abandon(a, info.ID)
		}
		return r.afterSettled(a, info)
	}
	if a.viaStream {
		switch {
		case r.br.CompleteOnStreamEnd:
			r.notef("stream of task %s ended at %s: taken as completed", info.ID, info.State)
			info.State = "completed"
			return info
		case r.br.NoFollowAfterCut:
			r.notef("stream of task %s ended at %s: not followed", info.ID, info.State)
			return info
		case a.streamBroke && r.br.ResendAfterStreamError:
			r.notef("stream of task %s broke off: sending the work again", info.ID)
			res := r.call(a, "SendMessage", a.params)
			if res.ok() {
				info = res.info
			}
		case !r.alt.PollAfterCut && a.card.Capabilities.Streaming:
			r.notef("stream of task %s ended at %s: subscribing again", info.ID, info.State)
			info = r.resubscribe(a, info)
		}
		if settled(info.State) {
			return r.afterSettled(a, info)
		}
	}
	info = r.poll(a, info)
	if !settled(info.State) && r.ctx.Err() != nil {
		r.abandon(a, info.ID)
	}
	return r.afterSettled(a, info)
}

// settled reports whether a state ends the following: terminal or
// interrupted.
func settled(state string) bool { return wire.Terminal(state) || interrupted(state) }

// afterSettled runs the breaks that act once the task is settled:
// PollInterrupted (three more gets of an interrupted task) and
// ContinueMadeUpTask (a follow-up to a made-up task id).
func (r *run) afterSettled(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	if r.br.PollInterrupted && interrupted(info.State) {
		for i := 0; i < 3; i++ {
			r.call(a, "GetTask", map[string]any{"id": info.ID})
		}
	}
	if r.br.ContinueMadeUpTask && info.State == "completed" {
		m := r.msg.Clone()
		m.MessageID, m.TaskID = wire.NewID("m-"), wire.NewID("t-made-up-")
		r.call(a, "SendMessage", map[string]any{"message": m.V10()})
	}
	return info
}

// poll gets the task with backoff until it settles or the deadline (or the
// poll budget) runs out.
func (r *run) poll(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	ctx := r.ctx
	if r.br.PollPastDeadline {
		if dl, ok := r.ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(context.WithoutCancel(r.ctx), dl.Add(pastDeadline))
			defer cancel()
		}
	}
	wait := pollFirst
	for i := 0; i < maxPolls && !settled(info.State); i++ {
		switch {
		case r.br.FastPoll:
			wait = 10 * time.Millisecond
		case r.br.PollPastDeadline:
			wait = min(wait, 300*time.Millisecond)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		if ctx.Err() != nil {
			r.notef("deadline: task %s still %s", info.ID, info.State)
			break
		}
		wait = min(2*wait, pollMax)
		g := r.callCtx(ctx, a, "GetTask", map[string]any{"id": info.ID})
		if !g.ok() {
			r.notef("get of task %s: %s", info.ID, describe(g))
			break
		}
		info.State = g.info.State
	}
	return info
}

// abandon cancels a task given up at the deadline.
func (r *run) abandon(a *attempt, id string) {
	if r.br.NoAbandonCancel || id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), cancelWait)
	defer cancel()
	c := r.callCtx(ctx, a, "CancelTask", map[string]any{"id": id})
	r.notef("task %s abandoned at the deadline: cancelled (%s)", id, describe(c))
}

// callCtx is call with its own context.
func (r *run) callCtx(ctx context.Context, a *attempt, method string, params map[string]any) callResult {
	if a.ep.Binding == bindingGRPC {
		res := r.callGRPC(ctx, a, method, params) // grpc.go
		if res.ok() {
			if err := r.strictRead(res.raw); err != nil { // reading.go's breaks
				return callResult{err: err}
			}
		}
		return res
	}
	if a.ep.Version == legacyVersion && a.ep.Binding != bindingREST {
		// A 0.3 interface gets the call in 0.3, as callOther sends it.
		method, params = to03(method, params)
		ctx = withVersion(ctx, a)
	}
	resp, err := r.post(ctx, a, method, params, "application/json")
	if err != nil {
		return callResult{err: err, tls: wire.IsTLSVerifyError(err)}
	}
	defer resp.Body.Close()
	res := decodeAnswer(resp)
	if res.ok() {
		if err := r.strictRead(res.raw); err != nil { // reading.go's breaks
			return callResult{err: err}
		}
	}
	return res
}

// resubscribe subscribes to the task (SubscribeToTask) and reads its
// events until the stream ends; a -32004 answer means the task is
// terminal, and one GetTask then reads its state.
func (r *run) resubscribe(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	tries := 1
	if r.br.ResubscribeLoop {
		tries = 5
	}
	for i := 0; i < tries; i++ {
		got, rpcErr, err := r.subscribe(a, info.ID)
		switch {
		case errors.Is(err, errSubscriptionSilent):
			return r.silentSubscription(info, err) // streamerr.go
		case err != nil:
			r.notef("subscription to task %s: %v", info.ID, err)
			return info
		case rpcErr != nil && rpcErr.Code == -32004:
			if i < tries-1 {
				continue
			}
			if r.br.TerminalSubscribeAsFailure {
				r.notef("subscription to task %s refused: %v (taken as a failure)", info.ID, rpcErr)
				info.State = "failed"
				return info
			}
			// A2A 1.0 §3.1.6: a terminal task has nothing to subscribe to.
			g := r.call(a, "GetTask", map[string]any{"id": info.ID})
			r.notef("subscription to task %s refused (%v): the task is %s", info.ID, rpcErr, describe(g))
			if g.ok() {
				info.State = g.info.State
			}
			return info
		case rpcErr != nil:
			r.notef("subscription to task %s: %v", info.ID, rpcErr)
			return info
		}
		if got.State != "" {
			info.State = got.State
		}
		return info
	}
	return info
}

// subscribe makes one SubscribeToTask call and reads its stream (or its
// JSON error answer) to the end.
func (r *run) subscribe(a *attempt, id string) (wire.TaskInfo, *wire.RPCError, error) {
	if a.ep.Binding == bindingGRPC {
		return r.subscribeGRPC(a, id) // grpcstream.go
	}
	first := r.firstEventTimer(a) // streamerr.go: the card's first-frame timeout
	defer first.close()
	resp, err := r.post(first.ctx, a, "SubscribeToTask", map[string]any{"id": id}, "text/event-stream")
	if err != nil {
		return wire.TaskInfo{}, nil, first.explain(err)
	}
	defer resp.Body.Close()
	if !isSSE(resp.Header.Get("Content-Type")) {
		c := decodeAnswer(resp)
		return c.info, c.rpcErr, c.err
	}
	var info wire.TaskInfo
	var rpcErr *wire.RPCError
	err = wire.ReadSSE(io.LimitReader(resp.Body, maxBody), func(d []byte) bool {
		first.arrived()
		var rr wire.RPCResponse
		if json.Unmarshal(d, &rr) != nil {
			return true
		}
		if rr.Error != nil {
			rpcErr = rr.Error
			return false
		}
		if ti, err := wire.ParseResult(rr.Result); err == nil && ti.State != "" {
			info.State = ti.State
		}
		r.takeResult(rr.Result) // results.go
		return true
	})
	return info, rpcErr, first.explain(err)
}

// lifeOutcome decides the outcomes this file adds (interrupted) and those
// of the LIFE breaks; false leaves the decision to completeTask.
func (r *run) lifeOutcome(a *attempt, info wire.TaskInfo) bool {
	switch {
	case interrupted(info.State) && r.br.InterruptedAsEscalated:
		a.outcome, a.reason = contract.OutcomeEscalated, contract.ReasonOther
	case interrupted(info.State):
		a.outcome, a.reason = contract.OutcomeInterrupted, contract.ReasonOK
	case r.br.TerminalAsCompleted && wire.Terminal(info.State) && info.State != "completed":
		a.outcome, a.reason = contract.OutcomeCompleted, contract.ReasonOK
	case info.Message && r.br.MessageAsFailure:
		a.outcome, a.reason = contract.OutcomeFailed, contract.ReasonOther
	case info.ID != "" && !settled(info.State) && r.ctx.Err() != nil:
		a.outcome, a.reason = contract.OutcomeFailed, contract.ReasonDeadline
	default:
		return false
	}
	r.notef("task %s: %s, reported %s", info.ID, info.State, a.outcome)
	return true
}
