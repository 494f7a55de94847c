package ops

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// forward answers q by forwarding it to the vendor's upstream, the real
// agent the vendor stands in front of, over the agent's JSON-RPC
// interface whatever binding the request came by (the operations are the
// same in every binding, A2A 1.0 §5.3, so a binding is a thin caller of
// them here as everywhere). The faults have run by now: a call hook's
// error never reaches the agent, a coerced message goes as the fault left
// it, and the answer and stream faults act on what the agent answers
// (the binding runs the answer hooks and the stream's cut, delay and
// error end on it as on the fleet's own answers).
func forward(u *upstream.Client, q *Request) (Result, error) {
	call := upstream.Call{Method: upstreamMethod(q), Params: forwardParams(q), Version: q.Version, Header: q.Header}
	streamed := q.Op == trace.OpStream || q.Op == trace.OpSubscribe
	if streamed && !(q.Call != nil && q.Call.StreamAsJSON) {
		s, rec, err := u.OpenStream(q.Context, call)
		q.Upstream = rec
		if err != nil {
			return Result{}, err
		}
		return Result{Live: &LiveStream{s: s, dialect: q.Dialect}}, nil
	}
	// A plain call, or a stream the stream-content-type-lie fault answers
	// as plain JSON: the agent's first event (its task) is the answer.
	raw, rec, err := u.Answer(q.Context, call)
	q.Upstream = rec
	if err != nil {
		return Result{}, err
	}
	return forwardedResult(raw, q.Dialect), nil
}

// forwardedResult is a plain answer of the agent as the bindings render
// it, with what the trace records of it: the task and state it shows, a
// Message reply, its results.
func forwardedResult(raw json.RawMessage, d a2a.Dialect) Result {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		v = nil
	}
	res := Result{Value: v}
	task, msg := shownTask(v)
	switch {
	case task != nil:
		res.TaskID, _ = task["id"].(string)
		res.State = taskState(task)
		res.Results = shownResults(task)
	case msg != nil:
		res.Message = true
		if b, err := json.Marshal(msg["parts"]); err == nil && msg["parts"] != nil {
			res.Results = &trace.Results{Artifacts: []json.RawMessage{b}}
		}
	}
	return res
}

// shownTask is the task or message an answer object shows: 0.3's kind
// task or message, 1.0's wrapper members task and message (and
// statusUpdate, a stream's status event), or a bare 1.0 task.
func shownTask(v any) (task, msg map[string]any) {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, nil
	}
	if t, ok := m["task"].(map[string]any); ok {
		return t, nil
	}
	if t, ok := m["message"].(map[string]any); ok {
		return nil, t
	}
	if m["kind"] == "message" {
		return nil, m
	}
	if _, ok := m["status"].(map[string]any); ok {
		return m, nil
	}
	return nil, nil
}

// taskState is a task's state in the 0.3 spelling ("" when none).
func taskState(task map[string]any) string {
	status, _ := task["status"].(map[string]any)
	st, _ := status["state"].(string)
	if st == "" {
		return ""
	}
	return a2a.NormalState(st)
}

// shownResults is what a task object delivers of its results: its
// artifacts whole and its status message's text.
func shownResults(task map[string]any) *trace.Results {
	r := &trace.Results{}
	arts, _ := task["artifacts"].([]any)
	for _, a := range arts {
		if b, err := json.Marshal(a); err == nil {
			r.Artifacts = append(r.Artifacts, b)
		}
	}
	status, _ := task["status"].(map[string]any)
	if msg, ok := status["message"].(map[string]any); ok {
		parts, _ := msg["parts"].([]any)
		var sb strings.Builder
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			if t, ok := pm["text"].(string); ok {
				sb.WriteString(t)
			}
		}
		r.StatusText = sb.String()
	}
	return r
}

// forwardParams are the params the agent gets: the request's, with the
// message of a send as the call faults left it when one changed it (a
// coerced part).
func forwardParams(q *Request) json.RawMessage {
	c := q.Call
	if c == nil || c.Message == nil || len(c.Coercions) == 0 {
		return q.Params
	}
	var params map[string]any
	if err := json.Unmarshal(q.Params, &params); err != nil {
		return q.Params
	}
	params["message"] = a2a.EncodeMessage(c.Message, q.Dialect)
	b, err := json.Marshal(params)
	if err != nil {
		return q.Params
	}
	return b
}

// methods03 are the 0.3 JSON-RPC names of the 1.0 methods, for a 0.3
// request that came by another binding (whose method is the 1.0 name).
var methods03 = map[string]string{
	"SendMessage":                      "message/send",
	"SendStreamingMessage":             "message/stream",
	"GetTask":                          "tasks/get",
	"CancelTask":                       "tasks/cancel",
	"SubscribeToTask":                  "tasks/resubscribe",
	"CreateTaskPushNotificationConfig": "tasks/pushNotificationConfig/set",
	"GetTaskPushNotificationConfig":    "tasks/pushNotificationConfig/get",
	"ListTaskPushNotificationConfigs":  "tasks/pushNotificationConfig/list",
	"DeleteTaskPushNotificationConfig": "tasks/pushNotificationConfig/delete",
	"GetExtendedAgentCard":             "agent/getAuthenticatedExtendedCard",
}

// upstreamMethod is the JSON-RPC method that asks the agent for q's
// operation in q's dialect.
func upstreamMethod(q *Request) string {
	if q.Dialect != a2a.Dialect10 {
		if m, ok := methods03[q.Method]; ok {
			return m
		}
	}
	return q.Method
}

// LiveStream is an upstream's stream as the bindings take it: one event
// at a time, each a fresh object the answer hooks may change. The stream
// faults (cut, error end, first-frame delay) are the binding's to apply
// as it takes them (binding.StreamEvents).
type LiveStream struct {
	s       *upstream.Stream
	dialect a2a.Dialect
	rewrite func(map[string]any)
	results liveResults
}

// Rewrite has each event changed by rw (the answer hooks) before it is
// sent; nil changes none.
func (l *LiveStream) Rewrite(rw func(map[string]any)) { l.rewrite = rw }

// Next is the stream's next event: io.EOF at its end; the agent's error
// event (*a2a.Error), which ends it; an *upstream.Error when it stalled
// or broke off.
func (l *LiveStream) Next() (any, error) {
	raw, err := l.s.Next()
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, &upstream.Error{Detail: "the agent's stream event is not JSON"}
	}
	if m, ok := v.(map[string]any); ok {
		if l.rewrite != nil {
			l.rewrite(m)
		}
		l.results.add(m)
	}
	return v, nil
}

// Results is what the events taken so far delivered of the task's
// results (trace.Results): every artifact whole, its chunks joined, and
// the text of the last status message.
func (l *LiveStream) Results() *trace.Results { return l.results.get() }

// liveResults gathers a stream's results as its events pass.
type liveResults struct {
	order  []string
	arts   map[string]map[string]any
	status string
}

// add takes one event: a task (its artifacts and status), an artifact
// update (0.3 kind artifact-update, 1.0 artifactUpdate) or a status
// update.
func (r *liveResults) add(ev map[string]any) {
	if t, ok := ev["task"].(map[string]any); ok {
		ev = t
	}
	if u, ok := ev["artifactUpdate"].(map[string]any); ok {
		ev = u
	}
	if u, ok := ev["statusUpdate"].(map[string]any); ok {
		ev = u
	}
	if a, ok := ev["artifact"].(map[string]any); ok {
		r.addArtifact(a, ev["append"] == true)
	}
	arts, _ := ev["artifacts"].([]any)
	for _, a := range arts {
		if m, ok := a.(map[string]any); ok {
			r.addArtifact(m, false)
		}
	}
	if _, ok := ev["status"].(map[string]any); ok {
		r.status = shownResults(ev).StatusText
	}
}

// addArtifact keeps an artifact, or appends its parts to the one of the
// same id (append).
func (r *liveResults) addArtifact(a map[string]any, appendParts bool) {
	id, _ := a["artifactId"].(string)
	if r.arts == nil {
		r.arts = map[string]map[string]any{}
	}
	old, seen := r.arts[id]
	if !seen {
		r.order = append(r.order, id)
	}
	if seen && appendParts {
		parts, _ := old["parts"].([]any)
		more, _ := a["parts"].([]any)
		old["parts"] = append(parts, more...)
		return
	}
	r.arts[id] = a
}

func (r *liveResults) get() *trace.Results {
	out := &trace.Results{StatusText: r.status}
	for _, id := range r.order {
		if b, err := json.Marshal(r.arts[id]); err == nil {
			out.Artifacts = append(out.Artifacts, b)
		}
	}
	return out
}

// Close ends the stream with the agent.
func (l *LiveStream) Close() { l.s.Close() }

// TaskID is the id of the task an event shows ("" when none).
func TaskID(item any) string {
	m, _ := item.(map[string]any)
	if t, ok := m["task"].(map[string]any); ok {
		m = t
	}
	for _, k := range []string{"statusUpdate", "artifactUpdate"} {
		if t, ok := m[k].(map[string]any); ok {
			id, _ := t["taskId"].(string)
			return id
		}
	}
	if id, ok := m["taskId"].(string); ok {
		return id
	}
	if m["kind"] == "task" || m["status"] != nil && m["kind"] == nil {
		id, _ := m["id"].(string)
		return id
	}
	return ""
}

// IsEnd reports whether err ends a live stream plainly (io.EOF).
func IsEnd(err error) bool { return errors.Is(err, io.EOF) }
