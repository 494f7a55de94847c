package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestA2AGoTaskModel drives vendor D's task model with a2a-go v0.3.3 (a
// 0.3 client, no A2A-Version header): GetTask with historyLength, the
// errors of a message to a completed task, of an unknown task's get,
// cancel and resubscription, and a resubscription to a live task; each
// error reaches a2a-go as the A2A error it maps (a tasks/resubscribe error
// travels as the stream's one event, which is all a2a-go reads).
func TestA2AGoTaskModel(t *testing.T) {
	cfg := mockvendor.DefaultConfig()
	cfg.Limits.WorkTime = 500 * time.Millisecond
	f := sFleet(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	httpClient, _ := sA2AGoClient(f)
	card, err := agentcard.NewResolver(httpClient).Resolve(ctx, "https://"+mockvendor.HostCardD)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(httpClient))
	if err != nil {
		t.Fatalf("NewFromCard: %v", err)
	}
	defer client.Destroy()
	res, err := client.SendMessage(ctx, &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "first"})})
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	done := res.(*a2a.Task)

	zero := 0
	if task, err := client.GetTask(ctx, &a2a.TaskQueryParams{ID: done.ID, HistoryLength: &zero}); err != nil || len(task.History) != 0 {
		t.Errorf("GetTask historyLength 0: %v, %d messages", err, len(task.History))
	}
	follow := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "more"})
	follow.TaskID = done.ID
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"message to a completed task", func() error {
			_, err := client.SendMessage(ctx, &a2a.MessageSendParams{Message: follow})
			return err
		}, a2a.ErrUnsupportedOperation},
		{"get unknown", func() error {
			_, err := client.GetTask(ctx, &a2a.TaskQueryParams{ID: "t-nope"})
			return err
		}, a2a.ErrTaskNotFound},
		{"cancel completed", func() error {
			_, err := client.CancelTask(ctx, &a2a.TaskIDParams{ID: done.ID})
			return err
		}, a2a.ErrTaskNotCancelable},
		{"resubscribe unknown", func() error {
			for _, err := range client.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: "t-nope"}) {
				if err != nil {
					return err
				}
			}
			return nil
		}, a2a.ErrTaskNotFound},
		{"resubscribe completed", func() error {
			for _, err := range client.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: done.ID}) {
				if err != nil {
					return err
				}
			}
			return nil
		}, a2a.ErrUnsupportedOperation},
	}
	for _, tc := range cases {
		if err := tc.call(); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}

	t.Run("resubscribe live", func(t *testing.T) {
		polling, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(httpClient), a2aclient.WithConfig(a2aclient.Config{Polling: true}))
		if err != nil {
			t.Fatal(err)
		}
		defer polling.Destroy()
		res, err := polling.SendMessage(ctx, &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "live"})})
		if err != nil {
			t.Fatalf("SendMessage (polling): %v", err)
		}
		live := res.(*a2a.Task)
		if live.Status.State.Terminal() {
			t.Fatalf("polling send answered a %s task", live.Status.State)
		}
		var evs []a2a.Event
		for ev, err := range polling.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: live.ID}) {
			if err != nil {
				t.Fatalf("resubscribe after %d events: %v", len(evs), err)
			}
			evs = append(evs, ev)
		}
		if len(evs) < 2 {
			t.Fatalf("%d events", len(evs))
		}
		if first, ok := evs[0].(*a2a.Task); !ok || first.ID != live.ID {
			t.Errorf("first event %T %v, want the task", evs[0], evs[0])
		}
		if last, ok := evs[len(evs)-1].(*a2a.TaskStatusUpdateEvent); !ok || last.Status.State != a2a.TaskStateCompleted || !last.Final {
			t.Errorf("last event %T %v, want the final completed status", evs[len(evs)-1], evs[len(evs)-1])
		}
	})
}
