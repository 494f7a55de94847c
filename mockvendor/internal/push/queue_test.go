package push

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestQueueBounds: notifications that wait for receivers that hang are
// bounded per receiver (MaxQueuedPerReceiver, 32) and per vendor
// (MaxQueued, 256); past a bound the oldest waiting one is dropped and
// traced with the bound's (public) name. Every notification is accounted
// for: in flight, waiting or dropped.
func TestQueueBounds(t *testing.T) {
	cases := []struct {
		name      string
		receivers int // each gets tasks x MaxPerTask notifications
		tasks     int
		inFlight  int
		queued    int
		dropped   int
		reason    string
	}{
		// 48 at one receiver: 2 in flight, 32 waiting, 14 dropped.
		{"per receiver", 1, 3, MaxInFlightPerReceiver, MaxQueuedPerReceiver,
			3*MaxPerTask - MaxInFlightPerReceiver - MaxQueuedPerReceiver, "(MaxPushQueuedPerReceiver)"},
		// 288 at nine receivers (32 each): the vendor's 8 slots held by
		// four of them, 256 waiting, 24 dropped.
		{"per vendor", 9, 2, MaxInFlight, MaxQueued,
			9*2*MaxPerTask - MaxInFlight - MaxQueued, "(MaxPushQueued)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newTVendor(t, time.Minute)
			since := v.tr.Seq()
			for range tc.receivers {
				hook := tReceiver(t, tHang)
				for range tc.tasks {
					task := v.newTask()
					for i := range MaxPerTask {
						if err := v.store.Set(task.ID, Config{ID: fmt.Sprintf("c%d", i), URL: hook.srv.URL + "/hook", Token: "x"}); err != nil {
							t.Fatal(err)
						}
						v.store.Watch(v, task)
					}
					v.cancel(task)
				}
			}
			tPoll(2*time.Second, func() bool { return v.store.Stats().InFlight >= tc.inFlight })
			time.Sleep(200 * time.Millisecond)
			st := v.store.Stats()
			var dropped, attempts int
			for _, e := range v.events(since, true) {
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
				tc.receivers*tc.tasks*MaxPerTask, st.InFlight, st.Queued, st.LongestQueue, dropped)
			if st.InFlight != tc.inFlight || attempts != tc.inFlight || st.Queued != tc.queued || dropped != tc.dropped {
				t.Errorf("%d in flight (%d attempts traced), %d waiting, %d dropped; want %d, %d, %d",
					st.InFlight, attempts, st.Queued, dropped, tc.inFlight, tc.queued, tc.dropped)
			}
			if st.LongestQueue > MaxQueuedPerReceiver {
				t.Errorf("a receiver has %d waiting, more than %d", st.LongestQueue, MaxQueuedPerReceiver)
			}
		})
	}
}

// TestQueueForgottenTask: a waiting notification names its task rather
// than holding it, so a task the task store forgets (here by a reset) is
// not kept alive by the queue: its notification is not sent, and the
// trace says why. The two already in flight finish.
func TestQueueForgottenTask(t *testing.T) {
	v := newTVendor(t, time.Minute)
	release := make(chan struct{})
	hook := tReceiver(t, func(_ http.ResponseWriter, r *http.Request, _ *tHook) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	task := v.newTask()
	for i := range MaxInFlightPerReceiver + 1 {
		if err := v.store.Set(task.ID, Config{ID: fmt.Sprintf("c%d", i), URL: hook.srv.URL + "/hook", Token: "x"}); err != nil {
			t.Fatal(err)
		}
		v.store.Watch(v, task)
	}
	since := v.tr.Seq()
	v.cancel(task)
	tPoll(2*time.Second, func() bool { return len(hook.requests()) >= MaxInFlightPerReceiver })
	v.tasks.Reset()
	close(release)
	tPoll(2*time.Second, func() bool { return len(v.events(since, false)) >= MaxInFlightPerReceiver+1 })
	time.Sleep(100 * time.Millisecond)
	var delivered, forgotten int
	for _, e := range v.events(since, false) {
		switch {
		case e.Attempt > 0 && e.Status == 200:
			delivered++
		case e.Attempt == 0 && strings.Contains(e.DeliveryError, "forgot the task"):
			forgotten++
		default:
			t.Errorf("event %+v", e)
		}
	}
	if delivered != MaxInFlightPerReceiver || forgotten != 1 || len(hook.requests()) != MaxInFlightPerReceiver {
		t.Errorf("%d delivered, %d not sent for a forgotten task, %d requests; want %d, 1, %d",
			delivered, forgotten, len(hook.requests()), MaxInFlightPerReceiver, MaxInFlightPerReceiver)
	}
}
