package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// sOpsFleets are vendor D as the default fleet has it (push notifications
// on), and with push notifications, an extended card and a region gate on
// fx-hedging.
func sOpsFleets() []struct {
	name string
	cfg  mockvendor.Config
} {
	flags := mockvendor.VendorD()
	flags.Card.PushNotifications = true
	// Public: the clients call D without credentials (an extended card
	// needs an auth otherwise, A2A 1.0 §13.3).
	flags.Card.ExtendedCard = &mockvendor.ExtendedCardConfig{Public: true}
	flags.Faults = []mockvendor.FaultSpec{mockvendor.Spec("region-gate", mockvendor.RegionGate{GatedSkills: []string{mockvendor.SkillFXHedging}, AvailableSkills: []string{mockvendor.SkillInvoice}})}
	return []struct {
		name string
		cfg  mockvendor.Config
	}{
		{"default", mockvendor.Config{Vendors: []mockvendor.VendorConfig{mockvendor.VendorD()}}},
		{"flags", mockvendor.Config{Vendors: []mockvendor.VendorConfig{flags}}},
	}
}

// sCollect drains a stream: the events' kinds ("task", "status:working",
// "artifact") and the first error.
func sCollect(seq func(func(a2a.Event, error) bool)) ([]string, error) {
	var kinds []string
	for ev, err := range seq {
		if err != nil {
			return kinds, err
		}
		switch e := ev.(type) {
		case *a2a.Task:
			kinds = append(kinds, "task")
		case *a2a.TaskStatusUpdateEvent:
			kinds = append(kinds, "status:"+string(e.Status.State))
		case *a2a.TaskArtifactUpdateEvent:
			kinds = append(kinds, "artifact")
		default:
			kinds = append(kinds, fmt.Sprintf("%T", ev))
		}
	}
	return kinds, nil
}

// TestA2AGoOperations runs every operation the a2a-go v0.3.3 client offers
// against vendor D (0.3 over JSON-RPC, real TLS fleet), for D as the
// default fleet has it and with push notifications, an extended card and
// a region gate, and checks each result (the a2a-go column of the table
// in docs/tck.md).
func TestA2AGoOperations(t *testing.T) {
	for _, fl := range sOpsFleets() {
		t.Run(fl.name, func(t *testing.T) {
			flags := fl.name == "flags"
			// The default D claims push notifications too (the fleet
			// delivers them); the flags add the extended card and the gate.
			push := fl.cfg.Vendors[0].Card.PushNotifications
			f := sFleet(t, fl.cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			httpClient, _ := sA2AGoClient(f)
			card, err := agentcard.NewResolver(httpClient).Resolve(ctx, "https://"+mockvendor.HostCardD)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if card.SupportsAuthenticatedExtendedCard != flags || card.Capabilities.PushNotifications != push {
				t.Errorf("card: supportsAuthenticatedExtendedCard %v, pushNotifications %v", card.SupportsAuthenticatedExtendedCard, card.Capabilities.PushNotifications)
			}
			client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(httpClient))
			if err != nil {
				t.Fatalf("NewFromCard: %v", err)
			}
			defer client.Destroy()
			msg := func(text string) *a2a.MessageSendParams {
				return &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: text})}
			}
			noBlock := func(text string) *a2a.MessageSendParams {
				p := msg(text)
				blocking := false
				p.Config = &a2a.MessageSendConfig{Blocking: &blocking}
				return p
			}
			row := func(op string, got any, err error) {
				if err != nil {
					t.Logf("| %s | %s: %v |", op, fl.name, err)
				} else {
					t.Logf("| %s | %s: %v |", op, fl.name, got)
				}
			}

			// GetAgentCard: the cached card, or with the flag the extended
			// card from agent/getAuthenticatedExtendedCard.
			seq := f.Trace().Seq()
			got, err := client.GetAgentCard(ctx)
			row("GetAgentCard", got != nil && strings.HasSuffix(got.Description, "(extended card)"), err)
			called := false
			for _, e := range f.Trace().Since(seq) {
				called = called || e.Method == "agent/getAuthenticatedExtendedCard"
			}
			if err != nil || called != flags || strings.HasSuffix(got.Description, "(extended card)") != flags {
				t.Errorf("GetAgentCard: %v; extended-card call %v, description %q", err, called, got.Description)
			}

			res, err := client.SendMessage(ctx, msg("reconcile"))
			task, _ := res.(*a2a.Task)
			row("SendMessage", task != nil && task.Status.State == a2a.TaskStateCompleted, err)
			if err != nil || task == nil || task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("SendMessage: %v %v", res, err)
			}

			kinds, err := sCollect(client.SendStreamingMessage(ctx, msg("stream")))
			row("SendStreamingMessage", kinds, err)
			if err != nil || len(kinds) != 4 || kinds[0] != "task" || kinds[3] != "status:completed" {
				t.Errorf("SendStreamingMessage: %v %v", kinds, err)
			}

			zero := 0
			gt, err := client.GetTask(ctx, &a2a.TaskQueryParams{ID: task.ID, HistoryLength: &zero})
			row("GetTask historyLength 0", gt != nil && len(gt.History) == 0, err)
			if err != nil || gt.ID != task.ID || len(gt.History) != 0 {
				t.Errorf("GetTask: %v %v", gt, err)
			}
			_, err = client.GetTask(ctx, &a2a.TaskQueryParams{ID: "t-no-such-task"})
			row("GetTask unknown", nil, err)
			if !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("GetTask unknown: %v, want ErrTaskNotFound", err)
			}

			_, err = client.CancelTask(ctx, &a2a.TaskIDParams{ID: task.ID})
			row("CancelTask completed", nil, err)
			if !errors.Is(err, a2a.ErrTaskNotCancelable) {
				t.Errorf("CancelTask completed: %v, want ErrTaskNotCancelable", err)
			}
			res, err = client.SendMessage(ctx, noBlock("later"))
			working, _ := res.(*a2a.Task)
			if err != nil || working == nil || working.Status.State.Terminal() {
				t.Fatalf("SendMessage blocking false: %v %v", res, err)
			}
			ct, err := client.CancelTask(ctx, &a2a.TaskIDParams{ID: working.ID})
			row("CancelTask working", ct != nil && ct.Status.State == a2a.TaskStateCanceled, err)
			if err != nil || ct.Status.State != a2a.TaskStateCanceled {
				t.Errorf("CancelTask working: %v %v", ct, err)
			}

			res, err = client.SendMessage(ctx, noBlock("later 2"))
			live, _ := res.(*a2a.Task)
			if err != nil || live == nil {
				t.Fatalf("SendMessage blocking false: %v %v", res, err)
			}
			kinds, err = sCollect(client.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: live.ID}))
			row("ResubscribeToTask working", kinds, err)
			if err != nil || len(kinds) < 2 || kinds[0] != "task" || kinds[len(kinds)-1] != "status:completed" {
				t.Errorf("ResubscribeToTask working: %v %v", kinds, err)
			}
			kinds, err = sCollect(client.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: task.ID}))
			row("ResubscribeToTask completed", kinds, err)
			if !errors.Is(err, a2a.ErrUnsupportedOperation) {
				t.Errorf("ResubscribeToTask completed: %v %v, want ErrUnsupportedOperation", kinds, err)
			}

			// Push-notification configs: -32003 without the card's flag,
			// else the whole lifecycle.
			pc, err := client.SetTaskPushConfig(ctx, &a2a.TaskPushConfig{TaskID: task.ID, Config: a2a.PushConfig{ID: "c1", URL: "https://hook.example/a2a", Token: "tok"}})
			row("SetTaskPushConfig", pc, err)
			gp, gerr := client.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigParams{TaskID: task.ID, ConfigID: "c1"})
			row("GetTaskPushConfig", gp, gerr)
			lp, lerr := client.ListTaskPushConfig(ctx, &a2a.ListTaskPushConfigParams{TaskID: task.ID})
			row("ListTaskPushConfig", len(lp), lerr)
			derr := client.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigParams{TaskID: task.ID, ConfigID: "c1"})
			row("DeleteTaskPushConfig", "ok", derr)
			if !push {
				for name, e := range map[string]error{"Set": err, "Get": gerr, "List": lerr, "Delete": derr} {
					if !errors.Is(e, a2a.ErrPushNotificationNotSupported) {
						t.Errorf("%sTaskPushConfig: %v, want ErrPushNotificationNotSupported", name, e)
					}
				}
			} else {
				if err != nil || pc.Config.ID != "c1" || pc.TaskID != task.ID || pc.Config.URL != "https://hook.example/a2a" {
					t.Errorf("SetTaskPushConfig: %+v %v", pc, err)
				}
				if gerr != nil || gp.Config.ID != "c1" || gp.Config.Token != "tok" {
					t.Errorf("GetTaskPushConfig: %+v %v", gp, gerr)
				}
				if lerr != nil || len(lp) != 1 || lp[0].Config.ID != "c1" {
					t.Errorf("ListTaskPushConfig: %v %v", lp, lerr)
				}
				if derr != nil {
					t.Errorf("DeleteTaskPushConfig: %v", derr)
				}
				if lp, err := client.ListTaskPushConfig(ctx, &a2a.ListTaskPushConfigParams{TaskID: task.ID}); err != nil || len(lp) != 0 {
					t.Errorf("ListTaskPushConfig after delete: %v %v", lp, err)
				}
			}

			// The gated skill: ErrUnsupportedOperation (a2a-go v0.3.3 keeps
			// no error data: TestA2AGoRegionGate).
			gated := msg("hedge")
			gated.Metadata = map[string]any{"skillId": mockvendor.SkillFXHedging}
			res, err = client.SendMessage(ctx, gated)
			row("SendMessage gated skill", res != nil, err)
			if flags != errors.Is(err, a2a.ErrUnsupportedOperation) {
				t.Errorf("SendMessage gated skill: %v %v", res, err)
			}
		})
	}
}
