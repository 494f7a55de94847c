package ops

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// What a task's answers carry of its results beyond the artifacts of a
// completed task (encode_artifacts.go): the question of a task that pauses
// at input-required after its artifacts (the artifacts fault's askAfter),
// the working status that announces an artifact streamed with append from
// its first chunk (ArtifactSpec.AppendFirst), and the record of what an
// answer delivered (trace.Results) that the RESULT checks read.

// showsArtifacts reports whether task t in state (0.3 spelling) holds its
// artifacts: once completed, or paused at input-required after producing
// them (a task with a Question).
func showsArtifacts(t *tasks.Task, state string) bool {
	return state == "completed" || (t.Asks == 0 && t.Question != "" && state == "input-required")
}

// agentText is an agent message of task t in dialect d whose one part is
// text.
func agentText(t *tasks.Task, d a2a.Dialect, id, text string) map[string]any {
	m := &a2a.Message{Role: "agent", MessageID: id, TaskID: t.ID, ContextID: t.ContextID,
		Parts: []a2a.Part{{Kind: "text", Text: text}}}
	return a2a.EncodeMessage(m, d)
}

// statusMessage is the message of task t's status in state, in dialect d:
// the question at input-required (nil when the task has none). A task
// that asks several times (Asks) numbers its questions; 0.1 has no
// status message for it.
func statusMessage(t *tasks.Task, d a2a.Dialect, state string) map[string]any {
	if t.Question == "" || state != "input-required" {
		return nil
	}
	if t.Asks == 0 {
		return agentText(t, d, "m-ask-"+t.ID, t.Question)
	}
	if d == a2a.Dialect01 {
		return nil
	}
	n := t.Turn()
	return agentText(t, d, fmt.Sprintf("m-ask-%s-%d", t.ID, n), questionText(t))
}

// questionText is the text of task t's question at input-required.
func questionText(t *tasks.Task) string {
	if t.Asks == 0 {
		return t.Question
	}
	return fmt.Sprintf("%s (question %d of %d)", t.Question, t.Turn(), t.Asks)
}

// withStatusMessage adds the status message of task t in state to status.
func withStatusMessage(status map[string]any, t *tasks.Task, d a2a.Dialect, state string) map[string]any {
	if m := statusMessage(t, d, state); m != nil {
		status["message"] = m
	}
	return status
}

// announcement is the message of the working status of task t's stream
// in dialect d when an artifact streams with append from its first chunk:
// it names those artifacts by id (nil when none does).
func announcement(t *tasks.Task, d a2a.Dialect) map[string]any {
	var ids []string
	for i := range t.Artifacts {
		if t.Artifacts[i].AppendFirst {
			ids = append(ids, artifactID(t, i))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return agentText(t, d, "m-work-"+t.ID, "writing artifact "+strings.Join(ids, ", "))
}

// artifactID is the artifactId of configured artifact i of task t.
func artifactID(t *tasks.Task, i int) string { return fmt.Sprintf("a-%s-%d", t.ID, i) }

// taskResults is what an answer showing task t in state, in dialect d,
// delivers of its results (nil when nothing).
func taskResults(t *tasks.Task, d a2a.Dialect, state string) *trace.Results {
	r := &trace.Results{StatusText: questionText(t)}
	if state != "input-required" {
		r.StatusText = ""
	}
	if showsArtifacts(t, state) {
		for _, a := range taskArtifacts(t, d) {
			b, err := json.Marshal(a)
			if err == nil {
				r.Artifacts = append(r.Artifacts, b)
			}
		}
	}
	if len(r.Artifacts) == 0 && r.StatusText == "" {
		return nil
	}
	return r
}

// TaskResults is taskResults for the packages above: what an answer
// showing t in state in dialect d delivers of its results (push
// notifications record it too).
func TaskResults(t *tasks.Task, d a2a.Dialect, state string) *trace.Results {
	return taskResults(t, d, state)
}

// replyResults is what a Message reply delivers: its parts, as one
// artifact with no id (the driver contract's reading of a Message reply).
func replyResults(msg map[string]any) *trace.Results {
	b, err := json.Marshal(map[string]any{"parts": msg["parts"]})
	if err != nil {
		return nil
	}
	return &trace.Results{Artifacts: []json.RawMessage{b}}
}
