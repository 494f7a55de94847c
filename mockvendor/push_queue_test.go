package mockvendor

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPushQueueBounds: notifications that wait for receivers that hang
// are bounded per receiver (MaxPushQueuedPerReceiver, 32) and per vendor
// (MaxPushQueued, 256); past a bound the oldest waiting one is dropped and
// traced with the bound's name. Every notification is accounted for: in
// flight, waiting or dropped.
func TestPushQueueBounds(t *testing.T) {
	cases := []struct {
		name      string
		receivers int // each gets tasks x maxPushPerTask notifications
		tasks     int
		inFlight  int
		queued    int
		dropped   int
		reason    string
	}{
		// 48 at one receiver: 2 in flight, 32 waiting, 14 dropped.
		{"per receiver", 1, 3, MaxPushInFlightPerReceiver, MaxPushQueuedPerReceiver,
			3*maxPushPerTask - MaxPushInFlightPerReceiver - MaxPushQueuedPerReceiver, "(MaxPushQueuedPerReceiver)"},
		// 288 at nine receivers (32 each): the vendor's 8 slots held by
		// four of them, 256 waiting, 24 dropped.
		{"per vendor", 9, 2, MaxPushInFlight, MaxPushQueued,
			9*2*maxPushPerTask - MaxPushInFlight - MaxPushQueued, "(MaxPushQueued)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tPushD(t, time.Minute)
			c := tClient(t, f, tViaProxy)
			since := f.Trace().Seq()
			for range tc.receivers {
				hook := tReceiver(t, tHang)
				for range tc.tasks {
					task := tNonBlocking(t, c, Dialect10)
					for i := range maxPushPerTask {
						tSetHook(t, c, Dialect10, task, fmt.Sprintf("c%d", i), hook.srv.URL+"/hook", "x")
					}
					tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
				}
			}
			s := &f.Vendor("d").push
			inFlight := func() int { s.mu.Lock(); defer s.mu.Unlock(); return s.queue.inFlight }
			tPoll(2*time.Second, func() bool { return inFlight() >= tc.inFlight })
			time.Sleep(200 * time.Millisecond)
			s.mu.Lock()
			q := s.queue
			longest := 0
			for _, r := range q.receivers {
				longest = max(longest, len(r.waiting))
			}
			s.mu.Unlock()
			var dropped, attempts int
			for _, e := range tPushEventsAll(f, since, true) {
				switch {
				case e.Attempt > 0:
					attempts++
				case strings.Contains(e.DeliveryError, tc.reason):
					dropped++
				default:
					t.Errorf("event %+v", e)
				}
			}
			t.Logf("%d notifications: %d in flight, %d waiting (at most %d at one receiver), %d dropped",
				tc.receivers*tc.tasks*maxPushPerTask, q.inFlight, q.queued, longest, dropped)
			if q.inFlight != tc.inFlight || attempts != tc.inFlight || q.queued != tc.queued || dropped != tc.dropped {
				t.Errorf("%d in flight (%d attempts traced), %d waiting, %d dropped; want %d, %d, %d",
					q.inFlight, attempts, q.queued, dropped, tc.inFlight, tc.queued, tc.dropped)
			}
			if longest > MaxPushQueuedPerReceiver {
				t.Errorf("a receiver has %d waiting, more than %d", longest, MaxPushQueuedPerReceiver)
			}
		})
	}
}

// TestPushQueueForgottenTask: a waiting notification names its task
// rather than holding it, so a task the task store forgets (here by a
// reset) is not kept alive by the queue: its notification is not sent,
// and the trace says why. The two already in flight finish.
func TestPushQueueForgottenTask(t *testing.T) {
	f := tPushD(t, time.Minute)
	c := tClient(t, f, tViaProxy)
	release := make(chan struct{})
	hook := tReceiver(t, func(_ http.ResponseWriter, r *http.Request, _ *tHook) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	task := tNonBlocking(t, c, Dialect10)
	for i := range MaxPushInFlightPerReceiver + 1 {
		tSetHook(t, c, Dialect10, task, fmt.Sprintf("c%d", i), hook.srv.URL+"/hook", "x")
	}
	since := f.Trace().Seq()
	tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
	tPoll(2*time.Second, func() bool { return len(hook.requests()) >= MaxPushInFlightPerReceiver })
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	close(release)
	evs := tWaitPush(t, f, since, MaxPushInFlightPerReceiver+1, 2*time.Second, 100*time.Millisecond)
	var delivered, forgotten int
	for _, e := range evs {
		switch {
		case e.Attempt > 0 && e.Status == 200:
			delivered++
		case e.Attempt == 0 && strings.Contains(e.DeliveryError, "forgot the task"):
			forgotten++
		default:
			t.Errorf("event %+v", e)
		}
	}
	if delivered != MaxPushInFlightPerReceiver || forgotten != 1 || len(hook.requests()) != MaxPushInFlightPerReceiver {
		t.Errorf("%d delivered, %d not sent for a forgotten task, %d requests; want %d, 1, %d",
			delivered, forgotten, len(hook.requests()), MaxPushInFlightPerReceiver, MaxPushInFlightPerReceiver)
	}
}
