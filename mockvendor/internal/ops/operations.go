package ops

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// send creates the task of a send (or continues the task its message
// names) and answers it.
func send(v Vendor, q *Request) (Result, error) {
	if q.Call.MessageReply && q.Dialect != a2a.Dialect01 {
		if _, err := replySkill(v, q); err != nil {
			return Result{}, err
		}
		return messageResult(v, q, false), nil
	}
	t, err := sendTask(v, q)
	if err != nil {
		return Result{}, err
	}
	res := taskResult(v, q, t)
	res.Task = t
	res.Resent = resent(q, t)
	res.Webhook = inlineWebhook(v, q, t)
	if q.Call.HoldBlocking && blockingAsked(q.Send.Configuration) && !tasks.Terminal(res.State) && !interruptedState(res.State) {
		// long-task: a blocking send waits for the task's end (A2A 1.0
		// §3.2.2); the binding holds the answer (Result.HoldAnswer).
		res.Task, res.HoldAnswer = t, true
	}
	return res, nil
}

// resent reports whether the send's answer is the task of an earlier
// send of the same message (resentTask), not a new or continued one.
func resent(q *Request, t *tasks.Task) bool {
	m := q.Call.Message
	return m != nil && m.TaskID == "" && t.Input != m
}

// blockingAsked reports whether a send asked to wait for the task's end:
// neither 1.0 returnImmediately nor 0.3 blocking false.
func blockingAsked(c SendConfig) bool {
	return !c.ReturnImmediately && (c.Blocking == nil || *c.Blocking)
}

// stream creates the task of a stream and answers it as a stream of
// events, or as a send's answer when a fault makes it plain JSON. A vendor
// whose card does not claim streaming refuses it.
func stream(v Vendor, q *Request) (Result, error) {
	if !v.Streaming() && !q.Call.StreamAsJSON {
		return Result{}, a2a.NoStreaming()
	}
	if q.Call.MessageReply && q.Dialect != a2a.Dialect01 && !q.Call.StreamAsJSON {
		if _, err := replySkill(v, q); err != nil {
			return Result{}, err
		}
		return messageResult(v, q, true), nil // a message-only Stream: one Message
	}
	t, err := sendTask(v, q)
	if err != nil {
		return Result{}, err
	}
	if q.Call.StreamAsJSON {
		res := taskResult(v, q, t)
		res.Webhook = inlineWebhook(v, q, t)
		return res, nil
	}
	evs, state := StreamEvents(t, q.Dialect, v.WorkTime())
	res := Result{Stream: evs, TaskID: t.ID, State: state, Task: t, Results: taskResults(t, q.Dialect, state), ResultsAt: len(evs) - 1, Resent: resent(q, t), Webhook: inlineWebhook(v, q, t)}
	if t.WorkFor > 0 && !t.Hold {
		// The task and its working status go out at once; the rest when
		// the work is done.
		res.RestFrom = 2
		res.RestAfter = max(time.Until(t.DoneAt(v.WorkTime())), 0)
	}
	if st := q.Call.StreamState; st != "" && len(evs) > 2 {
		// state-unknown: a status update in a state the client may not
		// know follows the working status; the rest waits as before.
		evs = slices.Insert(evs, 2, RawStatusFrame(t, q.Dialect, st))
		res.Stream = evs
		if res.RestFrom > 0 {
			res.RestFrom = 3
		}
	}
	if e := q.Call.StreamError; e != nil {
		// stream-error-event: an error event ends the stream after its
		// first events; the task has failed (its end state).
		n := min(max(q.Call.StreamErrorAfter, 1), len(evs))
		res.Stream, res.RestAfter, res.EndError = evs[:n], 0, e
		return res, nil
	}
	if n := q.Call.StreamCut; n > 0 && n < len(evs) {
		// stream-cut: the stream ends (or breaks) while the task runs on;
		// the trace records the states its frames delivered (writeFrame).
		res.Stream, res.RestAfter, res.Abort = evs[:n], 0, q.Call.StreamAbort
	}
	return res, nil
}

// replySkill checks the skill of a send answered by a message as a new
// task's would be: a skill the host does not serve is -32004.
func replySkill(v Vendor, q *Request) (string, error) {
	c := q.Call
	skill := c.Skill
	if skill == "" {
		skill = v.DefaultSkill()
	}
	if !c.AnySkill && !v.ServesSkill(skill, c.Region) {
		return "", a2a.SkillNotServed(skill, c.Region, v.SkillsIn(c.Region))
	}
	return skill, nil
}

// messageResult answers a send (or, as its one event, a stream) with an
// agent Message and no task (A2A 1.0 §3.1.1: a send may answer a Message).
func messageResult(v Vendor, q *Request, stream bool) Result {
	m := q.Call.Message
	ctx := m.ContextID
	if ctx == "" {
		ctx = tasks.NewID("ctx-")
	}
	reply := &a2a.Message{Role: "agent", MessageID: tasks.NewID("m-"), ContextID: ctx,
		Parts: []a2a.Part{{Kind: "text", Text: fmt.Sprintf("%s answered %s", v.Organization(), summarize(m))}}}
	var out any = a2a.EncodeMessage(reply, q.Dialect)
	if q.Dialect == a2a.Dialect10 {
		out = map[string]any{"message": out}
	}
	res := replyResults(a2a.EncodeMessage(reply, q.Dialect))
	if stream {
		return Result{Stream: []any{out}, Message: true, Results: res}
	}
	return Result{Value: out, Message: true, Results: res}
}

// paramsTask is the vendor's task the params name (TaskNotFound for an id
// it never issued).
func paramsTask(v Vendor, q *Request) (*tasks.Task, error) {
	id, err := q.taskParamsID()
	if err != nil {
		return nil, err
	}
	t := v.Tasks().Get(v.ID(), id)
	if t == nil {
		return nil, a2a.TaskNotFound(id)
	}
	return t, nil
}

// get answers a get with the task.
func get(v Vendor, q *Request) (Result, error) {

	t, err := paramsTask(v, q)
	if err != nil {
		return Result{}, err
	}
	if n := q.Task.HistoryLength; n != nil && *n < 0 {
		return Result{}, a2a.InvalidParams("params.historyLength must not be negative")
	}
	now := time.Now()
	state := t.State(now, v.WorkTime())
	return Result{Value: EncodeTaskView(t, q.Dialect, state, now, TaskView{History: q.Task.HistoryLength, Artifacts: true}), TaskID: t.ID, State: state}, nil
}

// subscribe answers SubscribeToTask and tasks/resubscribe: a stream
// whose first event is the task as it is now, then (for a task still
// running toward completion) its artifact and final status when it
// completes. A held task's stream ends after the first event. An unknown
// task is -32001; a terminal one -32004 (A2A 1.0 §3.1.6); a vendor that
// does not claim streaming refuses it.
func subscribe(v Vendor, q *Request) (Result, error) {

	if !v.Streaming() {
		return Result{}, a2a.NoStreaming()
	}
	t, err := paramsTask(v, q)
	if err != nil {
		return Result{}, err
	}
	state := t.State(q.Now, v.WorkTime())
	if tasks.Terminal(state) {
		return Result{}, a2a.Unsupported(fmt.Sprintf("task %s is %s: a terminal task has no updates to subscribe to", t.ID, state))
	}
	d := q.Dialect
	var first any
	switch d {
	case a2a.Dialect01:
		first = map[string]any{"id": t.ID, "status": map[string]any{"state": state, "timestamp": q.Now.UTC().Format(time.RFC3339Nano)}, "final": false}
	case a2a.Dialect03:
		first = EncodeTaskAt(t, d, state, q.Now)
	default:
		first = map[string]any{"task": EncodeTaskAt(t, d, state, q.Now)}
	}
	res := Result{Stream: []any{first}, TaskID: t.ID, State: state, Task: t}
	if t.Hold || interruptedState(state) {
		if d != a2a.Dialect01 {
			res.Results = taskResults(t, d, state) // the task the first event shows
		}
		return res, nil // the stream closes at an interrupted state
	}
	// The events after the task and its working status follow once the
	// task completes.
	evs, end := StreamEvents(t, d, v.WorkTime())
	res.Stream = append(res.Stream, evs[2:]...)
	res.Results, res.ResultsAt = taskResults(t, d, end), len(res.Stream)-1
	res.RestAfter = max(time.Until(t.DoneAt(v.WorkTime())), 0)
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

// list answers ListTasks: the vendor's tasks, newest first, filtered
// by context, state and creation time, in pages of pageSize (1-100,
// default 50) with an opaque cursor; artifacts only when includeArtifacts
// is true.
func list(v Vendor, q *Request) (Result, error) {

	var lp listParams
	if err := DecodeStrict(NonNull(q.Params), &lp); err != nil {
		return Result{}, a2a.InvalidParams(err.Error())
	}
	size := listDefaultPage
	if lp.PageSize != nil {
		if *lp.PageSize < 1 || *lp.PageSize > listMaxPage {
			return Result{}, a2a.InvalidParams(fmt.Sprintf("params.pageSize must be between 1 and %d", listMaxPage))
		}
		size = *lp.PageSize
	}
	if n := lp.HistoryLength; n != nil && *n < 0 {
		return Result{}, a2a.InvalidParams("params.historyLength must not be negative")
	}
	var after time.Time
	if lp.StatusTimestampAfter != "" {
		var err error
		if after, err = time.Parse(time.RFC3339Nano, lp.StatusTimestampAfter); err != nil {
			return Result{}, a2a.InvalidParams("params.statusTimestampAfter is not an RFC 3339 timestamp")
		}
	}
	want := ""
	if lp.Status != "" && lp.Status != "TASK_STATE_UNSPECIFIED" {
		want = a2a.NormalState(lp.Status)
		if !knownState(want) {
			// Not a TaskState (@a2a-js/sdk 1.3.0 sends "UNRECOGNIZED" for
			// a request without status): refused, not a silent empty list.
			return Result{}, a2a.InvalidParams(fmt.Sprintf("params.status %q is not a task state", lp.Status))
		}
	}
	var match []*tasks.Task
	for _, t := range v.Tasks().List(v.ID()) {
		if lp.ContextID != "" && t.ContextID != lp.ContextID || !after.IsZero() && t.Created.Before(after) {
			continue
		}
		if want != "" && t.State(q.Now, v.WorkTime()) != want {
			continue
		}
		match = append(match, t)
	}
	start := 0
	if lp.PageToken != "" {
		id, ok := strings.CutPrefix(lp.PageToken, pageTokenPrefix)
		i := slices.IndexFunc(match, func(t *tasks.Task) bool { return t.ID == id })
		if !ok || i < 0 {
			return Result{}, a2a.InvalidParams("params.pageToken is not a token this agent issued")
		}
		start = i + 1
	}
	page := match[start:min(start+size, len(match))]
	tasks := make([]any, 0, len(page))
	for _, t := range page {
		tasks = append(tasks, EncodeTaskView(t, q.Dialect, t.State(q.Now, v.WorkTime()), q.Now, TaskView{History: lp.HistoryLength, Artifacts: lp.IncludeArtifacts}))
	}
	next := ""
	if start+size < len(match) {
		next = pageTokenPrefix + page[len(page)-1].ID
	}
	return Result{Value: map[string]any{"tasks": tasks, "nextPageToken": next, "pageSize": size, "totalSize": len(match)}}, nil
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

// cancel cancels the task unless it is terminal and answers with it.
func cancel(v Vendor, q *Request) (Result, error) {

	id, err := q.taskParamsID()
	if err != nil {
		return Result{}, err
	}
	if q.Call != nil && q.Call.RefuseCancel {
		// long-task: the agent does not cancel a working task (A2A 1.0
		// §3.1.5: success is not guaranteed).
		t := v.Tasks().Get(v.ID(), id)
		if t == nil {
			return Result{}, a2a.TaskNotFound(id)
		}
		return Result{}, a2a.TaskNotCancelable(id, t.State(q.Now, v.WorkTime()))
	}
	t, ok := v.Tasks().Cancel(v.ID(), id, q.Now, v.WorkTime())
	if t == nil {
		return Result{}, a2a.TaskNotFound(id)
	}
	if !ok {
		return Result{}, a2a.TaskNotCancelable(id, t.State(q.Now, v.WorkTime()))
	}
	t.SignalCancel() // its open streams send the canceled status
	st, pv := v.Push()
	st.Changed(pv, t) // internal/push: notify the cancel
	return taskAnswer(v, t, q.Dialect), nil
}

// taskAnswer is the answer of a get or cancel: the task as it is now.
func taskAnswer(v Vendor, t *tasks.Task, d a2a.Dialect) Result {
	now := time.Now()
	state := t.State(now, v.WorkTime())
	return Result{Value: EncodeTaskAt(t, d, state, now), TaskID: t.ID, State: state, Results: taskResults(t, d, state)}
}

// pushConfig answers the push-notification config methods as the
// card's capabilities.pushNotifications says (pushconfig.go): -32003 without it.
func pushConfig(v Vendor, q *Request) (Result, error) {
	if !v.PushNotifications() {
		return Result{}, a2a.PushNotSupported()
	}
	return pushMethod(v, q)
}

// unsupported answers the methods the fleet knows but does not offer.
func unsupported(v Vendor, q *Request) (Result, error) {
	return Result{}, a2a.Unsupported(q.Method + " is not offered by this agent")
}

// sendTask is the task a send or stream acts on: the task its message
// names (0.3, 1.0 taskId), which must exist (-32001), not be terminal
// (-32004, A2A 1.0 §3.1.1) and share the message's contextId (-32602,
// §3.4.3); else a new task.
func sendTask(v Vendor, q *Request) (*tasks.Task, error) {
	if n := q.Send.Configuration.HistoryLength; n != nil && *n < 0 {
		return nil, a2a.InvalidParams("params.configuration.historyLength must not be negative")
	}
	m := q.Call.Message
	if q.Dialect == a2a.Dialect01 || m.TaskID == "" {
		if t := resentTask(v, q); t != nil {
			return t, nil
		}
		return newTask(v, q)
	}

	t := v.Tasks().Get(v.ID(), m.TaskID)
	if t == nil {
		return nil, a2a.TaskNotFound(m.TaskID)
	}
	if m.ContextID != "" && m.ContextID != t.ContextID {
		return nil, a2a.InvalidParams(fmt.Sprintf("params.message.contextId %q is not the context of task %s", m.ContextID, t.ID))
	}
	t.EndMeanwhile() // input-required-turns' endsMeanwhile: the answer comes too late
	state := t.State(q.Now, v.WorkTime())
	if tasks.Terminal(state) {
		return nil, a2a.Unsupported(fmt.Sprintf("task %s is %s: a terminal task takes no more messages", t.ID, state))
	}
	t.AddMessage(m)
	if state == "input-required" {
		t.TakeAnswer() // one question of an asking task answered
	}
	return t, nil
}

// resentTask is the task an earlier send of the same message created,
// which an honest vendor answers a resend with (A2A 1.0 §3.3.1: agents may
// use the messageId to detect duplicate messages), or nil. A resend is a
// real (not probe) 0.3 or 1.0 message that starts a task with the
// messageId of an earlier task's first message, the same parts, the same
// skill and blocking mode, and that task's contextId or none, where the
// earlier send's answer never reached the client (Task.Undelivered: the
// connection was dropped, or the client left a held answer). A message
// that only reuses an id (other parts, another context), or that repeats
// one whose answer was delivered, is new work: clients and test suites
// that reuse fixed message ids for new work (the official TCK does) get
// new tasks, as from an agent that does not deduplicate.
func resentTask(v Vendor, q *Request) *tasks.Task {
	c := q.Call
	if c.Probe || q.Dialect == a2a.Dialect01 {
		return nil
	}
	skill := c.Skill
	if skill == "" {
		skill = v.DefaultSkill()
	}
	blocking := blockingAsked(q.Send.Configuration)
	m := c.Message
	return v.Tasks().Resent(v.ID(), m.MessageID, func(t *tasks.Task) bool {
		return t.Undelivered() && t.Skill == skill && t.Blocking == blocking && (m.ContextID == "" || m.ContextID == t.ContextID) &&
			t.Input != nil && reflect.DeepEqual(t.Input.Parts, m.Parts)
	})
}

// newTask creates the task of a send or stream, refusing a skill the host
// does not serve with the spec's UnsupportedOperationError (-32004) and
// the skills it does serve.
func newTask(v Vendor, q *Request) (*tasks.Task, error) {
	c, sp := q.Call, &q.Send

	skill := c.Skill
	if skill == "" {
		skill = v.DefaultSkill()
	}
	if !c.AnySkill && !v.ServesSkill(skill, c.Region) {
		return nil, a2a.SkillNotServed(skill, c.Region, v.SkillsIn(c.Region))
	}
	t := &tasks.Task{
		ID:        tasks.NewID("t-"),
		ContextID: c.Message.ContextID,
		Vendor:    v.ID(),
		Dialect:   c.Dialect,
		Skill:     skill,
		Created:   q.Now,
		Blocking:  true,
		Hold:      c.Hold,
		End:       c.EndState,
		WorkFor:   c.WorkFor,
		Artifacts: c.Artifacts,
		Input:     c.Message,

		Asks:          c.Asks,
		Question:      c.Question,
		EndsMeanwhile: c.EndsMeanwhile,
		PushTrials:    c.PushTrials,
	}
	if c.Op == trace.OpStream && v.StreamsWork() && !c.Probe && !c.Hold && !c.StreamAsJSON && t.WorkFor == 0 {
		t.WorkFor = v.WorkTime() // Config.StreamsWork
	}
	if c.Dialect == a2a.Dialect01 && sp.ID != "" {
		t.ID = sp.ID
		t.ContextID = sp.SessionID
	}
	if t.ContextID == "" {
		t.ContextID = tasks.NewID("ctx-")
	}
	if (sp.Configuration.Blocking != nil && !*sp.Configuration.Blocking) || sp.Configuration.ReturnImmediately {
		t.Blocking = false
	}
	out := make([]byte, 0, len(v.Organization())+len(skill)+128)
	out = append(append(append(append(out, v.Organization()...), " ran "...), skill...), " on "...)
	t.Output = string(appendSummary(out, c.Message))
	v.Tasks().Put(t)
	if err := inlinePush(v, q, t); err != nil { // pushconfig.go: the send's push config
		return nil, err
	}
	return t, nil
}

// taskResult is the answer of a send (or of a stream answered as plain
// JSON): the task, which the binding renders (Result.ResultValue; the
// JSON-RPC binding's fast encoder where it applies).
func taskResult(v Vendor, q *Request, t *tasks.Task) Result {
	state := t.State(q.Now, v.WorkTime())
	return Result{Sent: SentTask{Task: t, Dialect: q.Dialect, Now: q.Now, History: q.Send.Configuration.HistoryLength}, TaskID: t.ID, State: state, Results: taskResults(t, q.Dialect, state)}
}

// interruptedState reports whether a (0.3-spelled) state waits for the
// client: input-required or auth-required (tasks.Terminal's sibling).
func interruptedState(state string) bool {
	return state == "input-required" || state == "auth-required"
}
