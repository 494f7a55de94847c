package main

import (
	"context"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// echoExecutor is the agent: it writes the events of the streaming template
// in the a2asrv.AgentExecutor documentation (a2a-go v0.3.3, a2asrv/agentexec.go):
// the task (submitted), working, one artifact, completed with final set.
type echoExecutor struct {
	slow time.Duration // wait before completing (--slow)
}

// Execute answers the message with the artifact "echo: " + its text.
func (e *echoExecutor) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	if reqCtx.StoredTask == nil {
		if err := q.Write(ctx, a2a.NewSubmittedTask(reqCtx, reqCtx.Message)); err != nil {
			return err
		}
	}
	if err := q.Write(ctx, a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateWorking, nil)); err != nil {
		return err
	}
	if err := wait(ctx, e.slow); err != nil {
		return err
	}
	artifact := a2a.NewArtifactEvent(reqCtx, a2a.TextPart{Text: "echo: " + messageText(reqCtx.Message)})
	artifact.LastChunk = true
	if err := q.Write(ctx, artifact); err != nil {
		return err
	}
	done := a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateCompleted, nil)
	done.Final = true
	return q.Write(ctx, done)
}

// Cancel moves the task to canceled, the final state tasks/cancel asks for
// (A2A 0.3 §7.4).
func (e *echoExecutor) Cancel(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	ev := a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// wait sleeps for d, or until ctx ends (a canceled task).
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// messageText is the message's text parts joined by newlines, as
// a2a-python's get_message_text (a2a/utils/message.py) joins them.
func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var texts []string
	for _, p := range m.Parts {
		if t, ok := p.(a2a.TextPart); ok {
			texts = append(texts, t.Text)
		}
	}
	return strings.Join(texts, "\n")
}
