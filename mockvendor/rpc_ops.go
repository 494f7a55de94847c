package mockvendor

import (
	"fmt"
	"net/http"
	"time"
)

// serveSend creates the task of a send and answers it.
func (h *host) serveSend(q *rpcRequest) (rpcResult, error) {
	t, err := h.newTask(q)
	if err != nil {
		return rpcResult{}, err
	}
	return h.taskResult(q, t), nil
}

// serveStream creates the task of a stream and answers it as a stream of
// events, or as a send's answer when a fault makes it plain JSON.
func (h *host) serveStream(q *rpcRequest) (rpcResult, error) {
	t, err := h.newTask(q)
	if err != nil {
		return rpcResult{}, err
	}
	if q.call.StreamAsJSON {
		return h.taskResult(q, t), nil
	}
	evs, state := h.vendor.fleet.streamEvents(t, q.dialect)
	return rpcResult{stream: evs, taskID: t.id, state: state}, nil
}

// serveGet answers a get with the task.
func (h *host) serveGet(q *rpcRequest) (rpcResult, error) {
	f := h.vendor.fleet
	id, err := q.taskParamsID()
	if err != nil {
		return rpcResult{}, err
	}
	t := f.tasks.get(h.vendor.cfg.ID, id)
	if t == nil {
		return rpcResult{}, errTaskNotFound(id)
	}
	return f.taskAnswer(t, q.dialect), nil
}

// serveCancel cancels the task unless it is terminal and answers with it.
func (h *host) serveCancel(q *rpcRequest) (rpcResult, error) {
	f := h.vendor.fleet
	id, err := q.taskParamsID()
	if err != nil {
		return rpcResult{}, err
	}
	t, ok := f.tasks.cancel(h.vendor.cfg.ID, id, q.now, f.limits.WorkTime)
	if t == nil {
		return rpcResult{}, errTaskNotFound(id)
	}
	if !ok {
		return rpcResult{}, errTaskNotCancelable(id, t.state(q.now, f.limits.WorkTime))
	}
	return f.taskAnswer(t, q.dialect), nil
}

// taskParamsID is the task id of a get or cancel, or the invalid-params
// error its params give.
func (q *rpcRequest) taskParamsID() (string, error) {
	if q.taskErr != nil {
		return "", errInvalidParams(q.taskErr.Error())
	}
	id := q.task.taskID()
	if id == "" {
		return "", errInvalidParams("params.id is required")
	}
	return id, nil
}

// taskAnswer is the answer of a get or cancel: the task as it is now.
func (f *Fleet) taskAnswer(t *task, d Dialect) rpcResult {
	now := time.Now()
	state := t.state(now, f.limits.WorkTime)
	return rpcResult{value: f.encodeTaskAt(t, d, state, now), taskID: t.id, state: state}
}

// servePushConfig answers the push-notification config methods: the
// fleet's agents do not offer push notifications.
func (h *host) servePushConfig(*rpcRequest) (rpcResult, error) {
	return rpcResult{}, errPushNotSupported()
}

// serveUnsupported answers the methods the fleet knows but does not offer.
func (h *host) serveUnsupported(q *rpcRequest) (rpcResult, error) {
	return rpcResult{}, errUnsupported(q.method + " is not offered by this agent")
}

// newTask creates the task of a send or stream, refusing a skill the host
// does not serve.
func (h *host) newTask(q *rpcRequest) (*task, error) {
	c, sp := q.call, &q.send
	v := h.vendor
	skill := c.Skill
	if skill == "" {
		skill = v.defaultSkill()
	}
	if !c.AnySkill && !v.servesSkill(skill, h.cfg.Region) {
		return nil, errSkillUnavailable(h.cfg.Region, v.skillsIn(h.cfg.Region))
	}
	t := &task{
		id:        newID("t-"),
		contextID: c.Message.ContextID,
		vendor:    v.cfg.ID,
		dialect:   c.Dialect,
		skill:     skill,
		created:   q.now,
		blocking:  true,
		hold:      c.Hold,
		input:     c.Message,
	}
	if c.Dialect == Dialect01 && sp.ID != "" {
		t.id = sp.ID
		t.contextID = sp.SessionID
	}
	if t.contextID == "" {
		t.contextID = newID("ctx-")
	}
	if (sp.Configuration.Blocking != nil && !*sp.Configuration.Blocking) || sp.Configuration.ReturnImmediately {
		t.blocking = false
	}
	t.output = fmt.Sprintf("%s ran %s on %s", v.cfg.Organization, skill, summarize(c.Message))
	v.fleet.tasks.put(t)
	return t, nil
}

// taskResult is the answer of a send (or of a stream answered as plain
// JSON): the task, wrapped as {"task": ...} in 1.0.
func (h *host) taskResult(q *rpcRequest, t *task) rpcResult {
	f := h.vendor.fleet
	state := t.state(q.now, f.limits.WorkTime)
	if q.fast {
		if body, ok := encodeSendAnswerFast(q.id, t, q.dialect, state, q.now); ok {
			return rpcResult{body: body, taskID: t.id, state: state}
		}
	}
	task := f.encodeTaskAt(t, q.dialect, state, q.now)
	if q.dialect == Dialect10 {
		return rpcResult{value: map[string]any{"task": task}, taskID: t.id, state: state}
	}
	return rpcResult{value: task, taskID: t.id, state: state}
}

// encodeTask encodes the task as it is at now in dialect d.
func (f *Fleet) encodeTask(t *task, d Dialect, now time.Time) map[string]any {
	return f.encodeTaskAt(t, d, t.state(now, f.limits.WorkTime), now)
}

// encodeTaskAt encodes the task in state (0.3 spelling) in dialect d.
func (f *Fleet) encodeTaskAt(t *task, d Dialect, state string, now time.Time) map[string]any {
	status := map[string]any{"state": stateName(state, d), "timestamp": now.UTC().Format(time.RFC3339Nano)}
	out := map[string]any{"id": t.id, "status": status}
	switch d {
	case Dialect01:
		out["sessionId"] = t.contextID
	case Dialect03:
		out["kind"] = "task"
		out["contextId"] = t.contextID
	case Dialect10:
		out["contextId"] = t.contextID
	}
	if d != Dialect01 {
		in := *t.input
		in.TaskID, in.ContextID = t.id, t.contextID
		out["history"] = []any{encodeMessage(&in, d)}
	}
	if state == "completed" {
		out["artifacts"] = []any{artifact(t, d)}
	}
	return out
}

// a2aVersionKey is "A2A-Version" in canonical form, so that reading and
// setting it does not canonicalize (and allocate) on every request.
var a2aVersionKey = http.CanonicalHeaderKey("A2A-Version")

func artifact(t *task, d Dialect) map[string]any {
	text := Part{Kind: "text", Text: t.output}
	a := map[string]any{"name": "result", "parts": []any{encodePart(text, d)}}
	if d == Dialect01 {
		a["index"] = 0
	} else {
		a["artifactId"] = "a-" + t.id
	}
	return a
}

// streamEvents lists the results of a stream in dialect d: the task first,
// then working, the artifact and the final status (0.x marks it final). It
// returns the last state the stream announces (0.3 spelling).
func (f *Fleet) streamEvents(t *task, d Dialect) ([]any, string) {
	now := time.Now()
	ts := now.UTC().Format(time.RFC3339Nano)
	status := func(state string) map[string]any {
		return map[string]any{"state": stateName(state, d), "timestamp": ts}
	}
	final := "completed"
	if t.hold {
		final = "working"
	}
	switch d {
	case Dialect01:
		evs := []any{map[string]any{"id": t.id, "status": status("working"), "final": t.hold}}
		if !t.hold {
			evs = append(evs,
				map[string]any{"id": t.id, "artifact": artifact(t, d)},
				map[string]any{"id": t.id, "status": status(final), "final": true})
		}
		return evs, final
	case Dialect03:
		first := f.encodeTask(t, d, now)
		first["status"] = status("submitted")
		delete(first, "artifacts")
		evs := []any{first, map[string]any{"kind": "status-update", "taskId": t.id, "contextId": t.contextID, "status": status("working"), "final": t.hold}}
		if !t.hold {
			evs = append(evs,
				map[string]any{"kind": "artifact-update", "taskId": t.id, "contextId": t.contextID, "artifact": artifact(t, d), "lastChunk": true},
				map[string]any{"kind": "status-update", "taskId": t.id, "contextId": t.contextID, "status": status(final), "final": true})
		}
		return evs, final
	}
	first := f.encodeTask(t, d, now)
	first["status"] = status("submitted")
	delete(first, "artifacts")
	evs := []any{map[string]any{"task": first}, map[string]any{"statusUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "status": status("working")}}}
	if !t.hold {
		evs = append(evs,
			map[string]any{"artifactUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "artifact": artifact(t, d), "lastChunk": true}},
			map[string]any{"statusUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "status": status(final)}})
	}
	return evs, final
}
