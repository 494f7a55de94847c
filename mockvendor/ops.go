package mockvendor

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// doSend creates the task of a send (or continues the task its message
// names) and answers it.
func (h *host) doSend(q *opRequest) (result, error) {
	if q.call.MessageReply && q.dialect != Dialect01 {
		if _, err := h.replySkill(q); err != nil {
			return result{}, err
		}
		return h.messageResult(q, false), nil
	}
	t, err := h.sendTask(q)
	if err != nil {
		return result{}, err
	}
	return h.taskResult(q, t), nil
}

// doStream creates the task of a stream and answers it as a stream of
// events, or as a send's answer when a fault makes it plain JSON. A vendor
// whose card does not claim streaming refuses it.
func (h *host) doStream(q *opRequest) (result, error) {
	if !h.vendor.cfg.Card.Streaming && !q.call.StreamAsJSON {
		return result{}, a2a.NoStreaming()
	}
	if q.call.MessageReply && q.dialect != Dialect01 && !q.call.StreamAsJSON {
		if _, err := h.replySkill(q); err != nil {
			return result{}, err
		}
		return h.messageResult(q, true), nil // a message-only stream: one Message
	}
	t, err := h.sendTask(q)
	if err != nil {
		return result{}, err
	}
	if q.call.StreamAsJSON {
		return h.taskResult(q, t), nil
	}
	evs, state := h.vendor.fleet.streamEvents(t, q.dialect)
	res := result{stream: evs, taskID: t.ID, state: state, task: t}
	if t.WorkFor > 0 && !t.Hold {
		// The task and its working status go out at once; the rest when
		// the work is done.
		res.restFrom = 2
		res.restAfter = max(time.Until(t.DoneAt(h.vendor.fleet.limits.WorkTime)), 0)
	}
	if n := q.call.StreamCut; n > 0 && n < len(evs) {
		// stream-cut: the stream ends (or breaks) while the task runs on;
		// the trace records the states its frames delivered (writeFrame).
		res.stream, res.restAfter, res.abort = evs[:n], 0, q.call.StreamAbort
	}
	return res, nil
}

// replySkill checks the skill of a send answered by a message as a new
// task's would be: a skill the host does not serve is -32004.
func (h *host) replySkill(q *opRequest) (string, error) {
	c, v := q.call, h.vendor
	skill := c.Skill
	if skill == "" {
		skill = v.defaultSkill()
	}
	if !c.AnySkill && !v.servesSkill(skill, h.cfg.Region) {
		return "", a2a.SkillNotServed(skill, h.cfg.Region, v.skillsIn(h.cfg.Region))
	}
	return skill, nil
}

// messageResult answers a send (or, as its one event, a stream) with an
// agent Message and no task (A2A 1.0 §3.1.1: a send may answer a Message).
func (h *host) messageResult(q *opRequest, stream bool) result {
	m := q.call.Message
	ctx := m.ContextID
	if ctx == "" {
		ctx = tasks.NewID("ctx-")
	}
	reply := &Message{Role: "agent", MessageID: tasks.NewID("m-"), ContextID: ctx,
		Parts: []Part{{Kind: "text", Text: fmt.Sprintf("%s answered %s", h.vendor.cfg.Organization, summarize(m))}}}
	var v any = a2a.EncodeMessage(reply, q.dialect)
	if q.dialect == Dialect10 {
		v = map[string]any{"message": v}
	}
	if stream {
		return result{stream: []any{v}, message: true}
	}
	return result{value: v, message: true}
}

// paramsTask is the vendor's task the params name (TaskNotFound for an id
// it never issued).
func (h *host) paramsTask(q *opRequest) (*task, error) {
	id, err := q.taskParamsID()
	if err != nil {
		return nil, err
	}
	t := h.vendor.fleet.tasks.Get(h.vendor.cfg.ID, id)
	if t == nil {
		return nil, a2a.TaskNotFound(id)
	}
	return t, nil
}

// doGet answers a get with the task.
func (h *host) doGet(q *opRequest) (result, error) {
	f := h.vendor.fleet
	t, err := h.paramsTask(q)
	if err != nil {
		return result{}, err
	}
	if n := q.task.HistoryLength; n != nil && *n < 0 {
		return result{}, a2a.InvalidParams("params.historyLength must not be negative")
	}
	now := time.Now()
	state := t.State(now, f.limits.WorkTime)
	return result{value: f.encodeTaskView(t, q.dialect, state, now, taskView{history: q.task.HistoryLength, artifacts: true}), taskID: t.ID, state: state}, nil
}

// doSubscribe answers SubscribeToTask and tasks/resubscribe: a stream
// whose first event is the task as it is now, then (for a task still
// running toward completion) its artifact and final status when it
// completes. A held task's stream ends after the first event. An unknown
// task is -32001; a terminal one -32004 (A2A 1.0 §3.1.6); a vendor that
// does not claim streaming refuses it.
func (h *host) doSubscribe(q *opRequest) (result, error) {
	f := h.vendor.fleet
	if !h.vendor.cfg.Card.Streaming {
		return result{}, a2a.NoStreaming()
	}
	t, err := h.paramsTask(q)
	if err != nil {
		return result{}, err
	}
	state := t.State(q.now, f.limits.WorkTime)
	if tasks.Terminal(state) {
		return result{}, a2a.Unsupported(fmt.Sprintf("task %s is %s: a terminal task has no updates to subscribe to", t.ID, state))
	}
	d := q.dialect
	var first any
	switch d {
	case Dialect01:
		first = map[string]any{"id": t.ID, "status": map[string]any{"state": state, "timestamp": q.now.UTC().Format(time.RFC3339Nano)}, "final": false}
	case Dialect03:
		first = f.encodeTaskAt(t, d, state, q.now)
	default:
		first = map[string]any{"task": f.encodeTaskAt(t, d, state, q.now)}
	}
	res := result{stream: []any{first}, taskID: t.ID, state: state, task: t}
	if t.Hold || interruptedState(state) {
		return res, nil // the stream closes at an interrupted state
	}
	// The events after the task and its working status follow once the
	// task completes.
	evs, _ := f.streamEvents(t, d)
	res.stream = append(res.stream, evs[2:]...)
	res.restAfter = max(time.Until(t.DoneAt(f.limits.WorkTime)), 0)
	return res, nil
}

// listParams are the params of ListTasks (A2A 1.0 §3.1.4).
type listParams struct {
	ContextID            string `json:"contextId"`
	Status               string `json:"status"`
	PageSize             *int   `json:"pageSize"`
	PageToken            string `json:"pageToken"`
	HistoryLength        *int   `json:"historyLength"`
	IncludeArtifacts     bool   `json:"includeArtifacts"`
	StatusTimestampAfter string `json:"statusTimestampAfter"`
}

// Page sizes of ListTasks: 50 when the request names none, at most 100.
const (
	listDefaultPage = 50
	listMaxPage     = 100
)

// pageTokenPrefix starts a ListTasks page token; the last task of the
// page follows it.
const pageTokenPrefix = "after:"

// doList answers ListTasks: the vendor's tasks, newest first, filtered
// by context, state and creation time, in pages of pageSize (1-100,
// default 50) with an opaque cursor; artifacts only when includeArtifacts
// is true.
func (h *host) doList(q *opRequest) (result, error) {
	f := h.vendor.fleet
	var lp listParams
	if err := decodeFast(nonNull(q.params), &lp); err != nil {
		return result{}, a2a.InvalidParams(err.Error())
	}
	size := listDefaultPage
	if lp.PageSize != nil {
		if *lp.PageSize < 1 || *lp.PageSize > listMaxPage {
			return result{}, a2a.InvalidParams(fmt.Sprintf("params.pageSize must be between 1 and %d", listMaxPage))
		}
		size = *lp.PageSize
	}
	if n := lp.HistoryLength; n != nil && *n < 0 {
		return result{}, a2a.InvalidParams("params.historyLength must not be negative")
	}
	var after time.Time
	if lp.StatusTimestampAfter != "" {
		var err error
		if after, err = time.Parse(time.RFC3339Nano, lp.StatusTimestampAfter); err != nil {
			return result{}, a2a.InvalidParams("params.statusTimestampAfter is not an RFC 3339 timestamp")
		}
	}
	want := ""
	if lp.Status != "" && lp.Status != "TASK_STATE_UNSPECIFIED" {
		want = a2a.NormalState(lp.Status)
		if !knownState(want) {
			// Not a TaskState (@a2a-js/sdk 1.3.0 sends "UNRECOGNIZED" for
			// a request without status): refused, not a silent empty list.
			return result{}, a2a.InvalidParams(fmt.Sprintf("params.status %q is not a task state", lp.Status))
		}
	}
	var match []*task
	for _, t := range f.tasks.List(h.vendor.cfg.ID) {
		if lp.ContextID != "" && t.ContextID != lp.ContextID || !after.IsZero() && t.Created.Before(after) {
			continue
		}
		if want != "" && t.State(q.now, f.limits.WorkTime) != want {
			continue
		}
		match = append(match, t)
	}
	start := 0
	if lp.PageToken != "" {
		id, ok := strings.CutPrefix(lp.PageToken, pageTokenPrefix)
		i := slices.IndexFunc(match, func(t *task) bool { return t.ID == id })
		if !ok || i < 0 {
			return result{}, a2a.InvalidParams("params.pageToken is not a token this agent issued")
		}
		start = i + 1
	}
	page := match[start:min(start+size, len(match))]
	tasks := make([]any, 0, len(page))
	for _, t := range page {
		tasks = append(tasks, f.encodeTaskView(t, q.dialect, t.State(q.now, f.limits.WorkTime), q.now, taskView{history: lp.HistoryLength, artifacts: lp.IncludeArtifacts}))
	}
	next := ""
	if start+size < len(match) {
		next = pageTokenPrefix + page[len(page)-1].ID
	}
	return result{value: map[string]any{"tasks": tasks, "nextPageToken": next, "pageSize": size, "totalSize": len(match)}}, nil
}

// knownState reports whether state (0.3 spelling) is a task state a
// ListTasks filter can name.
func knownState(state string) bool {
	switch state {
	case "submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// doCancel cancels the task unless it is terminal and answers with it.
func (h *host) doCancel(q *opRequest) (result, error) {
	f := h.vendor.fleet
	id, err := q.taskParamsID()
	if err != nil {
		return result{}, err
	}
	t, ok := f.tasks.Cancel(h.vendor.cfg.ID, id, q.now, f.limits.WorkTime)
	if t == nil {
		return result{}, a2a.TaskNotFound(id)
	}
	if !ok {
		return result{}, a2a.TaskNotCancelable(id, t.State(q.now, f.limits.WorkTime))
	}
	t.SignalCancel()        // its open streams send the canceled status
	h.vendor.pushChanged(t) // push_deliver.go: notify the cancel
	return f.taskAnswer(t, q.dialect), nil
}

// taskParamsID is the task id of a get or cancel, or the invalid-params
// error its params give.
func (q *opRequest) taskParamsID() (string, error) {
	if q.taskErr != nil {
		return "", a2a.InvalidParams(q.taskErr.Error())
	}
	id := q.task.taskID()
	if id == "" {
		return "", a2a.InvalidParams("params.id is required")
	}
	return id, nil
}

// taskAnswer is the answer of a get or cancel: the task as it is now.
func (f *Fleet) taskAnswer(t *task, d Dialect) result {
	now := time.Now()
	state := t.State(now, f.limits.WorkTime)
	return result{value: f.encodeTaskAt(t, d, state, now), taskID: t.ID, state: state}
}

// doPushConfig answers the push-notification config methods as the
// card's capabilities.pushNotifications says (push.go): -32003 without it.
func (h *host) doPushConfig(q *opRequest) (result, error) {
	if !h.vendor.cfg.Card.PushNotifications {
		return result{}, a2a.PushNotSupported()
	}
	return h.doPush(q)
}

// doUnsupported answers the methods the fleet knows but does not offer.
func (h *host) doUnsupported(q *opRequest) (result, error) {
	return result{}, a2a.Unsupported(q.method + " is not offered by this agent")
}

// sendTask is the task a send or stream acts on: the task its message
// names (0.3, 1.0 taskId), which must exist (-32001), not be terminal
// (-32004, A2A 1.0 §3.1.1) and share the message's contextId (-32602,
// §3.4.3); else a new task.
func (h *host) sendTask(q *opRequest) (*task, error) {
	if n := q.send.Configuration.HistoryLength; n != nil && *n < 0 {
		return nil, a2a.InvalidParams("params.configuration.historyLength must not be negative")
	}
	m := q.call.Message
	if q.dialect == Dialect01 || m.TaskID == "" {
		return h.newTask(q)
	}
	f := h.vendor.fleet
	t := f.tasks.Get(h.vendor.cfg.ID, m.TaskID)
	if t == nil {
		return nil, a2a.TaskNotFound(m.TaskID)
	}
	if m.ContextID != "" && m.ContextID != t.ContextID {
		return nil, a2a.InvalidParams(fmt.Sprintf("params.message.contextId %q is not the context of task %s", m.ContextID, t.ID))
	}
	if state := t.State(q.now, f.limits.WorkTime); tasks.Terminal(state) {
		return nil, a2a.Unsupported(fmt.Sprintf("task %s is %s: a terminal task takes no more messages", t.ID, state))
	}
	t.AddMessage(m)
	return t, nil
}

// newTask creates the task of a send or stream, refusing a skill the host
// does not serve with the spec's UnsupportedOperationError (-32004) and
// the skills it does serve.
func (h *host) newTask(q *opRequest) (*task, error) {
	c, sp := q.call, &q.send
	v := h.vendor
	skill := c.Skill
	if skill == "" {
		skill = v.defaultSkill()
	}
	if !c.AnySkill && !v.servesSkill(skill, h.cfg.Region) {
		return nil, a2a.SkillNotServed(skill, h.cfg.Region, v.skillsIn(h.cfg.Region))
	}
	t := &task{
		ID:        tasks.NewID("t-"),
		ContextID: c.Message.ContextID,
		Vendor:    v.cfg.ID,
		Dialect:   c.Dialect,
		Skill:     skill,
		Created:   q.now,
		Blocking:  true,
		Hold:      c.Hold,
		End:       c.EndState,
		WorkFor:   c.WorkFor,
		Artifacts: c.Artifacts,
		Input:     c.Message,
	}
	if f := v.fleet; c.Op == OpStream && f.cfg.StreamsWork && !c.Probe && !c.Hold && !c.StreamAsJSON && t.WorkFor == 0 {
		t.WorkFor = f.limits.WorkTime // Config.StreamsWork
	}
	if c.Dialect == Dialect01 && sp.ID != "" {
		t.ID = sp.ID
		t.ContextID = sp.SessionID
	}
	if t.ContextID == "" {
		t.ContextID = tasks.NewID("ctx-")
	}
	if (sp.Configuration.Blocking != nil && !*sp.Configuration.Blocking) || sp.Configuration.ReturnImmediately {
		t.Blocking = false
	}
	out := make([]byte, 0, len(v.cfg.Organization)+len(skill)+128)
	out = append(append(append(append(out, v.cfg.Organization...), " ran "...), skill...), " on "...)
	t.Output = string(appendSummary(out, c.Message))
	v.fleet.tasks.Put(t)
	if err := h.inlinePush(q, t); err != nil { // push.go: the send's push config
		return nil, err
	}
	return t, nil
}

// taskResult is the answer of a send (or of a stream answered as plain
// JSON): the task, which the binding renders (Fleet.resultValue; the
// JSON-RPC binding's fast encoder where it applies).
func (h *host) taskResult(q *opRequest, t *task) result {
	state := t.State(q.now, h.vendor.fleet.limits.WorkTime)
	return result{sent: sentTask{task: t, dialect: q.dialect, now: q.now, history: q.send.Configuration.HistoryLength}, taskID: t.ID, state: state}
}

// encodeTask encodes the task as it is at now in dialect d.
func (f *Fleet) encodeTask(t *task, d Dialect, now time.Time) map[string]any {
	return f.encodeTaskAt(t, d, t.State(now, f.limits.WorkTime), now)
}

// encodeTaskAt encodes the task in state (0.3 spelling) in dialect d, with
// its whole history and its artifacts.
func (f *Fleet) encodeTaskAt(t *task, d Dialect, state string, now time.Time) map[string]any {
	return f.encodeTaskView(t, d, state, now, taskView{artifacts: true})
}

// taskView is how much of a task an answer shows.
type taskView struct {
	// history caps the messages shown, newest kept (nil: all; 0: none).
	history *int
	// artifacts shows the artifacts of a completed task.
	artifacts bool
}

// encodeTaskView encodes the task in state (0.3 spelling) in dialect d as
// view shows it.
func (f *Fleet) encodeTaskView(t *task, d Dialect, state string, now time.Time, view taskView) map[string]any {
	status := map[string]any{"state": a2a.StateName(state, d), "timestamp": now.UTC().Format(time.RFC3339Nano)}
	out := map[string]any{"id": t.ID, "status": status}
	switch d {
	case Dialect01:
		out["sessionId"] = t.ContextID
	case Dialect03:
		out["kind"] = "task"
		out["contextId"] = t.ContextID
	case Dialect10:
		out["contextId"] = t.ContextID
	}
	if d != Dialect01 {
		msgs := t.Messages()
		if n := view.history; n != nil && *n < len(msgs) {
			msgs = msgs[len(msgs)-*n:]
		}
		if len(msgs) > 0 {
			hist := make([]any, 0, len(msgs))
			for _, m := range msgs {
				in := *m
				in.TaskID, in.ContextID = t.ID, t.ContextID
				hist = append(hist, a2a.EncodeMessage(&in, d))
			}
			out["history"] = hist
		}
	}
	if state == "completed" && view.artifacts {
		out["artifacts"] = taskArtifacts(t, d)
	}
	return out
}

// a2aVersionKey is "A2A-Version" in canonical form, so that reading and
// setting it does not canonicalize (and allocate) on every request.
var a2aVersionKey = http.CanonicalHeaderKey("A2A-Version")

func artifact(t *task, d Dialect) map[string]any {
	text := Part{Kind: "text", Text: t.Output}
	a := map[string]any{"name": "result", "parts": []any{a2a.EncodePart(text, d)}}
	if d == Dialect01 {
		a["index"] = 0
	} else {
		a["artifactId"] = "a-" + t.ID
	}
	return a
}

// streamEvents lists the events of a task's stream in dialect d, the same
// events in every dialect: the task first, then working, the artifacts
// (of a completed task; artifactEvents) and the final status (0.x marks it
// final). A 0.1 stream sends no task (it starts with the working status):
// its first event is nil, which the stream writer skips (writeSSE). It
// returns the last state the stream announces (0.3 spelling).
func (f *Fleet) streamEvents(t *task, d Dialect) ([]any, string) {
	now := time.Now()
	ts := now.UTC().Format(time.RFC3339Nano)
	status := func(state string) map[string]any {
		return map[string]any{"state": a2a.StateName(state, d), "timestamp": ts}
	}
	final := t.EndState()
	if t.Hold {
		final = "working"
	}
	// Only a completed task has its artifact; a stream closes at a
	// terminal or interrupted state (A2A 1.0 §11.7 states the interrupted
	// close, §3.1.2 the terminal one; 0.x marks it final).
	art := final == "completed"
	switch d {
	case Dialect01:
		evs := []any{nil, map[string]any{"id": t.ID, "status": status("working"), "final": t.Hold}}
		if !t.Hold {
			if art {
				evs = append(evs, artifactEvents(t, d)...)
			}
			evs = append(evs, map[string]any{"id": t.ID, "status": status(final), "final": true})
		}
		return evs, final
	case Dialect03:
		first := f.encodeTask(t, d, now)
		first["status"] = status("submitted")
		delete(first, "artifacts")
		evs := []any{first, map[string]any{"kind": "status-update", "taskId": t.ID, "contextId": t.ContextID, "status": status("working"), "final": t.Hold}}
		if !t.Hold {
			if art {
				evs = append(evs, artifactEvents(t, d)...)
			}
			evs = append(evs, map[string]any{"kind": "status-update", "taskId": t.ID, "contextId": t.ContextID, "status": status(final), "final": true})
		}
		return evs, final
	}
	first := f.encodeTask(t, d, now)
	first["status"] = status("submitted")
	delete(first, "artifacts")
	evs := []any{map[string]any{"task": first}, map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status("working")}}}
	if !t.Hold {
		if art {
			evs = append(evs, artifactEvents(t, d)...)
		}
		evs = append(evs, map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status(final)}})
	}
	return evs, final
}
