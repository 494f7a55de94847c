package reference

import (
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Conversations (the catalog's CONV). A task that pauses at input-required
// asks the caller; the caller's answers come in the request
// (task.replies), and each is sent, in order, as a continuation of the
// task: a message with the task's taskId and contextId (A2A 1.0 §3.4.3;
// the taskId is the one the agent issued, never one made up, §3.4.2). The
// task is then followed as after the first send. With no reply left, the
// task is reported interrupted with its taskId, contextId and state, and
// nothing more is sent to it. A continuation the agent refuses (the task
// ended meanwhile: -32004, A2A 1.0 §3.1.1) ends the delegation: one
// GetTask reads the task's final state, and the reply is never sent again
// as a new task.

// converse answers an asking task from the caller's replies and returns
// what it last learnt of the task.
func (r *run) converse(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	info = r.answerTurns(a, info)
	if r.br.NoReplyAsFailed && info.State == "input-required" {
		r.notef("task %s left asking: taken as failed", info.ID)
		info.State = "failed"
	}
	return info
}

// answerTurns sends the replies while the task asks and some are left.
func (r *run) answerTurns(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	a.noteContext(info)
	for info.State == "input-required" && info.ID != "" && r.ctx.Err() == nil {
		reply, ok := r.nextReply(a)
		if !ok {
			return info
		}
		m := reply.Clone()
		m.TaskID, m.ContextID = info.ID, a.contextID
		if r.br.ReplyAsNewTask {
			m.TaskID = ""
		}
		a.viaStream, a.streamBroke = false, false
		res := r.send(a, r.sendParams(a, m))
		switch {
		case res.err != nil:
			r.notef("reply %d to task %s: %v", a.replies, info.ID, res.err)
			info.State = ""
			return info
		case res.rpcErr != nil:
			return r.refusedReply(a, info, m, res)
		}
		next := res.info
		if next.ID == "" && !next.Message {
			next.ID = info.ID
		}
		r.notef("reply %d sent to task %s: %s", a.replies, info.ID, orNone(next.State))
		info = r.follow(a, next)
		a.noteContext(info)
	}
	return info
}

// nextReply is the caller's next reply, false when none is left (or the
// FirstReplyOnly break holds the rest back). The InventReply break makes
// one up from the caller's first message.
func (r *run) nextReply(a *attempt) (*wire.Message, bool) {
	replies := r.req.Task.Replies
	if a.replies >= len(replies) || r.br.FirstReplyOnly && a.replies >= 1 {
		if r.br.InventReply && !a.invented {
			a.invented = true
			return r.msg, true
		}
		r.notef("the task asks and the caller has no reply left (%d given)", len(replies))
		return nil, false
	}
	m, err := wire.ParseMessage(replies[a.replies])
	a.replies++
	if err != nil {
		r.notef("reply %d: %v", a.replies, err)
		return nil, false
	}
	return m, true
}

// refusedReply ends a conversation whose continuation the agent refused:
// one GetTask reads the task's state, which ends the delegation (a task
// still asking is not answered again).
func (r *run) refusedReply(a *attempt, info wire.TaskInfo, m *wire.Message, res callResult) wire.TaskInfo {
	r.notef("reply %d to task %s refused: %v", a.replies, info.ID, res.rpcErr)
	if r.br.RetryRefusedReplyFresh {
		m = m.Clone()
		m.TaskID = ""
		if again := r.send(a, r.sendParams(a, m)); again.ok() {
			return r.follow(a, again.info)
		}
	}
	if r.br.RefusedReplyAsCompleted {
		info.State = "completed"
		return info
	}
	info.State = ""
	if g := r.call(a, "GetTask", map[string]any{"id": info.ID}); g.ok() && wire.Terminal(g.info.State) {
		info.State = g.info.State
	}
	return info
}

// noteContext keeps the contextId the agent gave the task.
func (a *attempt) noteContext(info wire.TaskInfo) {
	if info.ContextID != "" {
		a.contextID = info.ContextID
	}
}

func orNone(s string) string {
	if s == "" {
		return "no state"
	}
	return s
}
