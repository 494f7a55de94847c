package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/a2a-conform/a2a-conform/contract"
)

// summary is contract.SummarizeArtifact of an artifact written as JSON.
func summary(t *testing.T, raw string) contract.Artifact {
	t.Helper()
	a, err := contract.SummarizeArtifact(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestResultsReport: the events of a send or a stream become the outcome's
// contextId, statusText and artifacts, streamed chunks joined as append
// says, in the order the agent first announced them.
func TestResultsReport(t *testing.T) {
	text := func(s string) a2a.Part { return a2a.TextPart{Text: s} }
	ask := &a2a.Message{Role: a2a.MessageRoleAgent, Parts: a2a.ContentParts{text("Which "), text("currency?")}}
	for name, c := range map[string]struct {
		events     []any
		want       []contract.Artifact
		statusText string
	}{
		"a task with its artifacts": {
			events: []any{&a2a.Task{ID: "t-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
				Artifacts: []*a2a.Artifact{{ID: "a-1", Name: "r", Parts: a2a.ContentParts{text("done"), a2a.DataPart{Data: map[string]any{"z": 1.0, "a": "x"}}}}}}},
			want: []contract.Artifact{summary(t, `{"artifactId":"a-1","name":"r","parts":[{"kind":"text","text":"done"},{"kind":"data","data":{"a":"x","z":1}}]}`)},
		},
		"streamed chunks": {
			events: []any{
				&a2a.TaskArtifactUpdateEvent{TaskID: "t-1", ContextID: "ctx-1", Artifact: &a2a.Artifact{ID: "b", Parts: a2a.ContentParts{text("other")}}},
				&a2a.TaskArtifactUpdateEvent{TaskID: "t-1", ContextID: "ctx-1", Artifact: &a2a.Artifact{ID: "a", Name: "r", Parts: a2a.ContentParts{text("INV-1042 ")}}},
				&a2a.TaskArtifactUpdateEvent{TaskID: "t-1", ContextID: "ctx-1", Append: true, LastChunk: true, Artifact: &a2a.Artifact{ID: "a", Parts: a2a.ContentParts{text("reconciled")}}},
				&a2a.TaskStatusUpdateEvent{TaskID: "t-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateInputRequired, Message: ask}},
			},
			want: []contract.Artifact{
				summary(t, `{"artifactId":"b","parts":[{"kind":"text","text":"other"}]}`),
				summary(t, `{"artifactId":"a","name":"r","parts":[{"kind":"text","text":"INV-1042 "},{"kind":"text","text":"reconciled"}]}`),
			},
			statusText: "Which currency?",
		},
		"a message reply": {
			events: []any{&a2a.Message{ContextID: "ctx-1", Role: a2a.MessageRoleAgent, Parts: a2a.ContentParts{text("hi")}}},
			want:   []contract.Artifact{summary(t, `{"artifactId":"","parts":[{"kind":"text","text":"hi"}]}`)},
		},
	} {
		t.Run(name, func(t *testing.T) {
			var r result
			for _, ev := range c.events {
				r.see(ev)
			}
			var out contract.DelegationOutcome
			r.results.report(&out)
			if out.ContextID != "ctx-1" || out.StatusText != c.statusText || !reflect.DeepEqual(out.Artifacts, c.want) {
				t.Errorf("got contextId %q, statusText %q, artifacts %+v; want ctx-1, %q, %+v", out.ContextID, out.StatusText, out.Artifacts, c.statusText, c.want)
			}
		})
	}
}

// TestRemoteError: an SDK error carrying an A2A error gives its code; any
// other error gives none.
func TestRemoteError(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
	}{
		{a2a.ErrTaskNotFound, -32001},
		{fmt.Errorf("task t-1 is completed: %w", a2a.ErrUnsupportedOperation), -32004},
		{fmt.Errorf("unexpected HTTP status: 401 Unauthorized"), 0},
	} {
		got := remoteError(c.err)
		if (got == nil) != (c.code == 0) || (got != nil && got.Code != c.code) {
			t.Errorf("remoteError(%v) = %+v, want code %d", c.err, got, c.code)
		}
	}
}

// TestContinuation: a reply goes out with the task's id and context, a
// message id and role when it has none, and the skill id.
func TestContinuation(t *testing.T) {
	first := &a2a.MessageSendParams{Metadata: map[string]any{"skillId": "s"}}
	p, err := continuation(json.RawMessage(`{"kind":"message","parts":[{"kind":"text","text":"EUR"}]}`), "t-1", "ctx-1", first)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Message
	if m.TaskID != "t-1" || m.ContextID != "ctx-1" || m.ID == "" || m.Role != a2a.MessageRoleUser || m.Metadata["skillId"] != "s" || p.Metadata["skillId"] != "s" {
		t.Errorf("continuation = %+v", m)
	}
	if _, err := continuation(json.RawMessage(`[1]`), "t-1", "ctx-1", first); err == nil {
		t.Error("a reply that is not a message was accepted")
	}
}
