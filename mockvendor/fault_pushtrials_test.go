package mockvendor

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("push-trials", tFaultPushTrials)
}

// tFaultPushTrials is the push-trials case of TestFaults, on a fleet of D
// (push notifications on): a 1.0 task sent to return immediately, a
// webhook registered by CreateTaskPushNotificationConfig, and at the
// task's completion the trials in order, each traced with its kind and
// the status the receiver answered (it refuses anything without the
// registered credential: 401). The registration is traced with the
// webhook's URL, scheme and a fingerprint of its credentials, never the
// credentials. A config carried by a send is traced on the send.
func tFaultPushTrials(t *testing.T, e *tFaultEnv) {
	// On a vendor without push notifications it marks tasks and nothing
	// else: the send completes as before.
	e.add(t, "x", Spec("push-trials", PushTrials{Kinds: []string{DeliveryForged}}))
	seq0 := e.f.Trace().Seq()
	tWantState(t, "x's send", e.send(t, Dialect10, "plain", ""), "completed")
	if ev := tWaitEvent(t, e.f, seq0, func(ev Event) bool { return ev.Op == OpSend }); !slices.Contains(ev.Faults, "push-trials") {
		t.Errorf("x's send: faults %v", ev.Faults)
	}
	if _, err := e.f.AddFault("x", Spec("push-trials", PushTrials{Kinds: []string{"replay"}})); err == nil {
		t.Error("an unknown kind was accepted")
	}

	f := tPushD(t, 100*time.Millisecond, Spec("push-trials", nil), Spec("long-task", LongTask{WorkMs: 500}))
	c := tClient(t, f, tViaProxy)
	hook := tReceiver(t, func(w http.ResponseWriter, r *http.Request, _ *tHook) {
		if r.Header.Get("Authorization") != "Bearer cred-t" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
	since := f.Trace().Seq()
	task := tNonBlocking(t, c, Dialect10)
	tSetHook(t, c, Dialect10, task, "c1", hook.srv.URL+"/hook", "cred-t")
	want := []string{DeliveryUnknownTask, DeliveryForged, DeliveryGenuine, DeliveryDuplicate, DeliveryUnsigned, DeliveryGenuine}
	evs := tWaitPush(t, f, since, len(want), 3*time.Second, 100*time.Millisecond)
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e.Delivery)
		wantStatus := 200
		if e.Delivery == DeliveryForged || e.Delivery == DeliveryUnsigned {
			wantStatus = 401
		}
		if e.Status != wantStatus || e.Attempt != 1 {
			t.Errorf("%s: status %d, attempt %d; want %d, 1", e.Delivery, e.Status, e.Attempt, wantStatus)
		}
	}
	if !slices.Equal(kinds, want) {
		t.Fatalf("deliveries %v, want %v", kinds, want)
	}
	if last := evs[len(evs)-1]; last.State != "completed" || last.TaskID != task || last.Results == nil {
		t.Errorf("the final delivery: %+v", last)
	}
	var reg *Event
	for _, e := range tEvents(f, since) {
		if e.Op == OpPushConfig {
			reg = &e
		}
	}
	if reg == nil || reg.Webhook == nil || reg.Webhook.URL != hook.srv.URL+"/hook" || reg.Webhook.Scheme != "Bearer" || !reg.Webhook.Token || len(reg.Webhook.Credential) != 16 {
		t.Fatalf("the registration's trace: %+v", reg)
	}

	// A config carried by the send: traced on the send, and a probe is
	// left alone (no trials, no fault named).
	p := tSendParams(Dialect10, "inline", "")
	p["configuration"] = map[string]any{"returnImmediately": true, "taskPushNotificationConfig": map[string]any{"url": hook.srv.URL + "/in", "authentication": map[string]any{"scheme": "Bearer", "credentials": "cred-t"}}}
	seq := f.Trace().Seq()
	tRPC(t, c, tRPCD, "1.0", "SendMessage", p)
	send := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpSend })
	if send.Webhook == nil || send.Webhook.Token || send.Webhook.Credential == "" || send.Webhook.Credential == reg.Webhook.Credential || !slices.Contains(send.Faults, "push-trials") {
		t.Errorf("the send's webhook %+v, faults %v", send.Webhook, send.Faults)
	}
	seq = f.Trace().Seq()
	tWantState(t, "probe", tSend(t, c, tRPCD, Dialect10, "__probe__", ""), "completed")
	if e := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpSend }); slices.Contains(e.Faults, "push-trials") {
		t.Errorf("a probe marked for trials: %v", e.Faults)
	}
}
