package reference

import (
	"context"
	"errors"
	"io"
	"maps"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Slow and lost answers (the catalog's SLOW scenarios).
//
//   - A blocking send is bounded by the delegation's deadline, never by a
//     fixed HTTP client timeout (newRun clears it when the delegation has
//     a deadline): an agent may hold it as long as the task works (A2A 1.0
//     §3.2.2). A task that never ends is left at the deadline like any
//     other wait: the held send is closed, and the outcome says deadline.
//   - A real send whose connection closed or was reset before any answer
//     may have created its task: it is sent again once, exactly as it
//     was, messageId included, so that an agent that deduplicates (A2A 1.0
//     §3.3.1) answers with that task instead of doing the work twice
//     (a2aproject/A2A#1987). A second loss is reported as a failure.
//
// Resources: a held send ties up one goroutine and one connection of the
// delegation, for at most the delegation's deadline.

// impatience is how long the ShortHTTPTimeout break waits for an answer.
const impatience = time.Second

// answerLost reports whether a call ended with its connection closed or
// reset before any answer: the request may have been acted on.
func answerLost(res callResult) bool {
	if res.err == nil || res.tls {
		return false
	}
	return errors.Is(res.err, io.EOF) || errors.Is(res.err, io.ErrUnexpectedEOF) || errors.Is(res.err, syscall.ECONNRESET)
}

// afterLost handles a real send whose answer was lost: it sends it again
// once (the same params; the RetryNewMessageID break changes the
// messageId) and returns that answer. decided is true when the attempt is
// settled here (the LostAsCompleted break).
func (r *run) afterLost(a *attempt, res callResult) (callResult, bool) {
	if !answerLost(res) || r.ctx.Err() != nil {
		return res, false
	}
	if r.br.LostAsCompleted {
		r.notef("send to %s: %v: taken as delivered", a.ep.URL, res.err)
		a.final, a.outcome, a.reason = true, contract.OutcomeCompleted, contract.ReasonOK
		return res, true
	}
	if a.lostRetried {
		return res, false
	}
	a.lostRetried = true
	params := a.params
	if r.br.RetryNewMessageID {
		params = withNewMessageID(params)
	}
	r.notef("send to %s: %v: answer lost, sending the same message again", a.ep.URL, res.err)
	return r.send(a, params), false
}

// withNewMessageID is a copy of a send's params whose message has a new
// messageId.
func withNewMessageID(params map[string]any) map[string]any {
	p := maps.Clone(params)
	if m, ok := p["message"].(map[string]any); ok {
		m = maps.Clone(m)
		m["messageId"] = wire.NewID("m-")
		p["message"] = m
	}
	return p
}

// sendOddly makes the real send as the SLOW breaks do (ok false: none is
// on): ShortHTTPTimeout gives each send a second and sends the work again
// under a new messageId until the deadline; HoldPastDeadline keeps the
// send open past the deadline.
func (r *run) sendOddly(a *attempt, params map[string]any) (callResult, bool) {
	switch {
	case r.br.ShortHTTPTimeout:
		for {
			ctx, cancel := context.WithTimeout(r.ctx, impatience)
			res := r.callCtx(ctx, a, "SendMessage", params)
			timedOut := ctx.Err() != nil
			cancel()
			if !timedOut || r.ctx.Err() != nil {
				return res, true
			}
			r.notef("no answer from %s within %v: sending the work again", a.ep.URL, impatience)
			params = withNewMessageID(params)
		}
	case r.br.HoldPastDeadline:
		dl, ok := r.ctx.Deadline()
		if !ok {
			return callResult{}, false
		}
		ctx, cancel := context.WithDeadline(context.WithoutCancel(r.ctx), dl.Add(pastDeadline))
		defer cancel()
		return r.callCtx(ctx, a, "SendMessage", params), true
	}
	return callResult{}, false
}
