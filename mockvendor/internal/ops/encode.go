package ops

import (
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// EncodeTask encodes the task as it is at now in dialect d, its state on
// the clock of workTime.
func EncodeTask(t *tasks.Task, d a2a.Dialect, now time.Time, workTime time.Duration) map[string]any {
	return EncodeTaskAt(t, d, t.State(now, workTime), now)
}

// EncodeTaskAt encodes the task in state (0.3 spelling) in dialect d, with
// its whole history and its artifacts.
func EncodeTaskAt(t *tasks.Task, d a2a.Dialect, state string, now time.Time) map[string]any {
	return EncodeTaskView(t, d, state, now, TaskView{Artifacts: true})
}

// TaskView is how much of a task an answer shows.
type TaskView struct {
	// History caps the messages shown, newest kept (nil: all; 0: none).
	History *int
	// Artifacts shows the artifacts of a completed task.
	Artifacts bool
}

// EncodeTaskView encodes the task in state (0.3 spelling) in dialect d as
// view shows it.
func EncodeTaskView(t *tasks.Task, d a2a.Dialect, state string, now time.Time, view TaskView) map[string]any {
	status := statusOf(t, d, state, now.UTC().Format(time.RFC3339Nano))
	out := map[string]any{"id": t.ID, "status": status}
	switch d {
	case a2a.Dialect01:
		out["sessionId"] = t.ContextID
	case a2a.Dialect03:
		out["kind"] = "task"
		out["contextId"] = t.ContextID
	case a2a.Dialect10:
		out["contextId"] = t.ContextID
	}
	if d != a2a.Dialect01 {
		msgs := t.Messages()
		if n := view.History; n != nil && *n < len(msgs) {
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
	if showsArtifacts(t, state) && view.Artifacts {
		out["artifacts"] = taskArtifacts(t, d)
	}
	return out
}

func artifact(t *tasks.Task, d a2a.Dialect) map[string]any {
	text := a2a.Part{Kind: "text", Text: t.Output}
	a := map[string]any{"name": "result", "parts": []any{a2a.EncodePart(text, d)}}
	if d == a2a.Dialect01 {
		a["index"] = 0
	} else {
		a["artifactId"] = "a-" + t.ID
	}
	return a
}

// StreamEvents lists the events of a task's stream in dialect d, the same
// events in every dialect: the task first, then working, the artifacts
// (of a completed task; artifactEvents) and the final status (0.x marks it
// final). A 0.1 stream sends no task (it starts with the working status):
// its first event is nil, which the stream writer skips (writeSSE). It
// returns the last state the stream announces (0.3 spelling).
func StreamEvents(t *tasks.Task, d a2a.Dialect, workTime time.Duration) ([]any, string) {
	now := time.Now()
	ts := now.UTC().Format(time.RFC3339Nano)
	status := func(state string) map[string]any {
		st := statusOf(t, d, state, ts)
		if m := announcement(t, d); m != nil && state == "working" {
			st["message"] = m
		}
		return st
	}
	final := t.EndState()
	if t.Hold {
		final = "working"
	}
	// Only a completed task has its artifact (and one that asks after
	// producing it); a stream closes at a terminal or interrupted state
	// (A2A 1.0 §11.7 states the interrupted close, §3.1.2 the terminal
	// one; 0.x marks it final).
	art := showsArtifacts(t, final)
	switch d {
	case a2a.Dialect01:
		evs := []any{nil, map[string]any{"id": t.ID, "status": status("working"), "final": t.Hold}}
		if !t.Hold {
			if art {
				evs = append(evs, artifactEvents(t, d)...)
			}
			evs = append(evs, map[string]any{"id": t.ID, "status": status(final), "final": true})
		}
		return evs, final
	case a2a.Dialect03:
		first := EncodeTask(t, d, now, workTime)
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
	first := EncodeTask(t, d, now, workTime)
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

// statusOf is the status of task t in state (0.3 spelling) at timestamp
// ts in dialect d: with the agent's question as its message when the task
// asks (input-required-turns) and state is input-required.
func statusOf(t *tasks.Task, d a2a.Dialect, state, ts string) map[string]any {
	return withStatusMessage(map[string]any{"state": a2a.StateName(state, d), "timestamp": ts}, t, d, state)
}

// StatusFrame is the final status update of task t in state (0.3
// spelling), as a stream in dialect d sends it.
func StatusFrame(t *tasks.Task, d a2a.Dialect, state string) any {
	status := map[string]any{"state": a2a.StateName(state, d), "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
	switch d {
	case a2a.Dialect01:
		return map[string]any{"id": t.ID, "status": status, "final": true}
	case a2a.Dialect03:
		return map[string]any{"kind": "status-update", "taskId": t.ID, "contextId": t.ContextID, "status": status, "final": true}
	}
	return map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status}}
}

// RawStatusFrame is a status update of task t whose state is spelled
// exactly as given, whatever the dialect (TASK_STATE_UNSPECIFIED, or a
// state no dialect defines), as a stream in dialect d frames it: the
// state-unknown fault's. It is never final.
func RawStatusFrame(t *tasks.Task, d a2a.Dialect, state string) any {
	status := map[string]any{"state": state, "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
	switch d {
	case a2a.Dialect01:
		return map[string]any{"id": t.ID, "status": status, "final": false}
	case a2a.Dialect03:
		return map[string]any{"kind": "status-update", "taskId": t.ID, "contextId": t.ContextID, "status": status, "final": false}
	}
	return map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status}}
}
