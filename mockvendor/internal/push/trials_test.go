package push

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TestTrials: the completion of a task marked for trials reaches a 1.0
// config as the sequence trials.go states, each delivery traced with its
// kind and the receiver's status: the genuine ones with the registered
// credentials, the unknown-task one with them too, the forged one with a
// wrong credential in both places, the unsigned one with none, the
// duplicate byte for byte. A receiver that refuses the forged and
// unsigned ones (401) still gets the rest, and the final status last. A
// 0.3 config gets Task objects and the duplicate after the completion;
// kinds left out are not sent.
func TestTrials(t *testing.T) {
	all := []string{trace.DeliveryUnknownTask, trace.DeliveryForged, trace.DeliveryDuplicate, trace.DeliveryUnsigned}
	cases := []struct {
		name    string
		dialect a2a.Dialect
		kinds   []string
		want    []string
	}{
		{"1.0, every kind", a2a.Dialect10, all, []string{"unknown-task", "forged", "genuine", "duplicate", "unsigned", "genuine"}},
		{"0.3, every kind", a2a.Dialect03, all, []string{"unknown-task", "forged", "unsigned", "genuine", "duplicate"}},
		{"1.0, forged only", a2a.Dialect10, []string{trace.DeliveryForged}, []string{"forged", "genuine", "genuine"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newTVendor(t, 100*time.Millisecond)
			type got struct {
				auth, token string
				body        []byte
			}
			var arrived []got
			hook := tReceiver(t, func(w http.ResponseWriter, r *http.Request, h *tHook) {
				h.mu.Lock()
				arrived = append(arrived, got{r.Header.Get("Authorization"), r.Header.Get("X-A2A-Notification-Token"), h.got[len(h.got)-1]})
				h.mu.Unlock()
				if r.Header.Get("Authorization") != "Bearer secret-1" {
					w.WriteHeader(http.StatusUnauthorized)
				}
			})
			task := v.newTask()
			task.Dialect = tc.dialect
			task.PushTrials = tc.kinds
			since := v.tr.Seq()
			c := Config{ID: "c1", URL: hook.srv.URL + "/hook", Token: "tok-1", Auth: json.RawMessage(`{"scheme":"Bearer","credentials":"secret-1"}`), Dialect: tc.dialect}
			if err := v.store.Set(task.ID, c); err != nil {
				t.Fatal(err)
			}
			v.store.Watch(v, task)
			var evs []trace.Event
			if !tPoll(3*time.Second, func() bool {
				evs = v.events(since, false)
				return len(evs) > 0 && evs[len(evs)-1].Delivery == (tc.want[len(tc.want)-1]) && len(evs) >= len(tc.want)
			}) {
				t.Fatalf("deliveries %v, want %v", kindsOf(evs), tc.want)
			}
			// The working state's delivery comes first, genuine.
			evs = slices.DeleteFunc(evs, func(e trace.Event) bool { return e.State == "working" })
			if k := kindsOf(evs); !slices.Equal(k, tc.want) {
				t.Fatalf("deliveries %v, want %v", k, tc.want)
			}
			hook.mu.Lock()
			defer hook.mu.Unlock()
			arrived = arrived[len(arrived)-len(tc.want):]
			for i, e := range evs {
				a := arrived[i]
				switch e.Delivery {
				case trace.DeliveryGenuine, trace.DeliveryUnknownTask, trace.DeliveryDuplicate:
					if a.auth != "Bearer secret-1" || a.token != "tok-1" || e.Status != 200 {
						t.Errorf("%d %s: Authorization %q, token %q, status %d; want the registered ones, 200", i, e.Delivery, a.auth, a.token, e.Status)
					}
				case trace.DeliveryForged:
					if !strings.HasPrefix(a.auth, "Bearer forged-") || !strings.HasPrefix(a.token, "forged-") || e.Status != 401 {
						t.Errorf("forged: Authorization %q, token %q, status %d", a.auth, a.token, e.Status)
					}
				case trace.DeliveryUnsigned:
					if a.auth != "" || a.token != "" || e.Status != 401 {
						t.Errorf("unsigned: Authorization %q, token %q, status %d", a.auth, a.token, e.Status)
					}
				}
				if e.Delivery == trace.DeliveryDuplicate && string(a.body) != string(arrived[i-1].body) {
					t.Errorf("the duplicate %s differs from %s", a.body, arrived[i-1].body)
				}
				if e.Delivery == trace.DeliveryUnknownTask && (e.TaskID != task.ID || e.State != "" || strings.Contains(string(a.body), task.ID)) {
					t.Errorf("the unknown-task delivery names the client's task: %s", a.body)
				}
			}
			last := evs[len(evs)-1]
			if tc.dialect == a2a.Dialect10 && (last.State != "completed" || last.Results == nil || !strings.Contains(string(arrived[len(arrived)-1].body), "TASK_STATE_COMPLETED")) {
				t.Errorf("the last delivery: state %q, results %v, body %s", last.State, last.Results, arrived[len(arrived)-1].body)
			}
		})
	}
}

// kindsOf lists the events' Delivery.
func kindsOf(evs []trace.Event) []string {
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, e.Delivery)
	}
	return out
}
