package mockvendor

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
)

// tHookReq is one request a webhook receiver got.
type tHookReq struct {
	Header http.Header
	Body   map[string]any
	Raw    []byte
	At     time.Time // when it arrived
}

// tHook is a real loopback HTTP receiver that records what arrives and
// answers with answer (nil: 200).
type tHook struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []tHookReq
	hang chan struct{} // closed when the test ends: hanging handlers return
}

func tReceiver(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, h *tHook)) *tHook {
	t.Helper()
	h := &tHook{hang: make(chan struct{})}
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		req := tHookReq{Header: r.Header.Clone(), Raw: raw, At: time.Now()}
		_ = json.Unmarshal(raw, &req.Body)
		h.mu.Lock()
		h.got = append(h.got, req)
		h.mu.Unlock()
		if answer != nil {
			answer(w, r, h)
		}
	}))
	h.srv.Config.ErrorLog = tQuietLog // a TLS client at it is logged otherwise
	h.srv.Start()
	t.Cleanup(func() { close(h.hang); h.srv.Close() })
	return h
}

// tQuietLog discards what a test server would log (TLS handshake errors
// that a test provokes on purpose).
var tQuietLog = log.New(io.Discard, "", 0)

// tHang is a receiver's answer that never comes: it returns when the
// request is cancelled or the test ends.
func tHang(_ http.ResponseWriter, r *http.Request, h *tHook) {
	select {
	case <-h.hang:
	case <-r.Context().Done():
	}
}

// tPoll polls cond every 5 ms until it holds or within has passed, and
// reports whether it held.
func tPoll(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// requests returns what arrived so far.
func (h *tHook) requests() []tHookReq {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.got)
}

// tPushTune sets the vendor's delivery timeout and retry delay.
func tPushTune(f *Fleet, vendor string, timeout, retry time.Duration) {
	f.Vendor(vendor).push.Tune(timeout, retry)
}

// tPushEvents returns the finished push-delivery events after seq.
func tPushEvents(f *Fleet, since int64) []Event { return tPushEventsAll(f, since, false) }

// tPushEventsAll returns the push-delivery events after seq, those still
// in flight too when pending.
func tPushEventsAll(f *Fleet, since int64, pending bool) []Event {
	var out []Event
	for _, e := range tEvents(f, since) {
		if e.Op == OpPushDelivery && (pending || !e.Pending) {
			out = append(out, e)
		}
	}
	return out
}

// tWaitPush waits until at least n push-delivery events are finished and
// then for settle more, and returns them all.
func tWaitPush(t *testing.T, f *Fleet, since int64, n int, within, settle time.Duration) []Event {
	t.Helper()
	deadline := time.Now().Add(within)
	for len(tPushEvents(f, since)) < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(settle)
	return tPushEvents(f, since)
}

// tPushD starts a fleet of D with push notifications on and the given
// work time (and faults).
func tPushD(t *testing.T, work time.Duration, faults ...FaultSpec) *Fleet {
	cfg := VendorD()
	cfg.Card.PushNotifications = true
	cfg.Faults = faults
	return tStart(t, Config{Vendors: []VendorConfig{cfg}, Limits: Limits{WorkTime: work}})
}

// tNonBlocking sends a task that does not block in dialect d and returns
// its id.
func tNonBlocking(t *testing.T, c *http.Client, d Dialect) string {
	t.Helper()
	dc := tDialectOf(t, d)
	p := tSendParams(d, "later", "")
	switch d {
	case Dialect03:
		p["configuration"] = map[string]any{"blocking": false}
	case Dialect10:
		p["configuration"] = map[string]any{"returnImmediately": true}
	}
	r := tRPC(t, c, tRPCD, dc.Version, dc.Send, p)
	id, _ := tTask(r)["id"].(string)
	if id == "" {
		t.Fatalf("send: %s", r.Body)
	}
	return id
}

// tSetHook sets a config cfg of task pointing at u, in dialect d, with
// token tok and the credentials cred ("" for none).
func tSetHook(t *testing.T, c *http.Client, d Dialect, task, cfg, u, cred string) {
	t.Helper()
	var p map[string]any
	switch d {
	case Dialect01:
		p = map[string]any{"id": task, "pushNotificationConfig": map[string]any{"url": u, "token": "tok-01", "authentication": map[string]any{"schemes": []string{"Bearer"}, "credentials": cred}}}
	case Dialect03:
		p = map[string]any{"taskId": task, "pushNotificationConfig": map[string]any{"id": cfg, "url": u, "token": "tok-03", "authentication": map[string]any{"schemes": []string{"Bearer"}, "credentials": cred}}}
	default:
		p = map[string]any{"taskId": task, "id": cfg, "url": u, "token": "tok-10", "authentication": map[string]any{"scheme": "Bearer", "credentials": cred}}
	}
	r := tRPC(t, c, tRPCD, tDialectOf(t, d).Version, tPushMethods[d][0], p)
	if r.Code() != 0 {
		t.Fatalf("set: %s", r.Body)
	}
}

// TestPushDelivery: each dialect's notifications, as a real receiver on
// loopback gets them, for every state change after the config was set:
// 1.0 a StreamResponse {"task"} as application/a2a+json with the config's
// authentication as Authorization (A2A 1.0 §4.3.3); 0.3 and 0.1 the Task
// as application/json with the token in X-A2A-Notification-Token. Each
// attempt is in the trace.
func TestPushDelivery(t *testing.T) {
	const work = 600 * time.Millisecond
	cases := []struct {
		d           Dialect
		faults      []FaultSpec
		contentType string
		auth, token string
		states      []string // as the wire spells them
		taskOf      func(body map[string]any) any
	}{
		{Dialect10, nil, "application/a2a+json", "Bearer cred-10", "tok-10",
			[]string{"TASK_STATE_WORKING", "TASK_STATE_COMPLETED"}, func(b map[string]any) any { return b["task"] }},
		{Dialect03, nil, "application/json", "Bearer cred-03", "tok-03",
			[]string{"working", "completed"}, func(b map[string]any) any { return b }},
		// 0.1 tasks block; the task-outcome fault keeps one working first.
		{Dialect01, []FaultSpec{{Type: "task-outcome", Config: json.RawMessage(`{"workingMs":400}`)}}, "application/json", "Bearer cred-01", "tok-01",
			[]string{"completed"}, func(b map[string]any) any { return b }},
	}
	for _, tc := range cases {
		t.Run(string(tc.d), func(t *testing.T) {
			f := tPushD(t, work, tc.faults...)
			c := tClient(t, f, tViaProxy)
			hook := tReceiver(t, nil)
			since := f.Trace().Seq()
			var task string
			if tc.d == Dialect01 {
				task, _ = tTask(tSend(t, c, tRPCD, tc.d, "later", ""))["id"].(string)
			} else {
				task = tNonBlocking(t, c, tc.d)
			}
			tSetHook(t, c, tc.d, task, "c1", hook.srv.URL+"/hook", strings.TrimPrefix(tc.auth, "Bearer "))
			evs := tWaitPush(t, f, since, len(tc.states), 3*time.Second, 200*time.Millisecond)
			got := hook.requests()
			if len(got) != len(tc.states) || len(evs) != len(tc.states) {
				t.Fatalf("%d requests, %d events; want %d each: %+v", len(got), len(evs), len(tc.states), evs)
			}
			for i, r := range got {
				if ct := r.Header.Get("Content-Type"); ct != tc.contentType {
					t.Errorf("request %d: Content-Type %q", i, ct)
				}
				if a := r.Header.Get("Authorization"); a != tc.auth {
					t.Errorf("request %d: Authorization %q", i, a)
				}
				if tok := r.Header.Get("X-A2A-Notification-Token"); tok != tc.token {
					t.Errorf("request %d: token %q", i, tok)
				}
				if tc.d == Dialect10 && len(r.Body) != 1 {
					t.Errorf("request %d: a StreamResponse has exactly one member: %s", i, r.Raw)
				}
				tk := tc.taskOf(r.Body)
				if tPath(tk, "id") != task || tPath(tk, "status", "state") != tc.states[i] {
					t.Errorf("request %d: %s", i, r.Raw)
				}
				if tc.d == Dialect03 && tPath(tk, "kind") != "task" {
					t.Errorf("request %d: 0.3 Task without kind: %s", i, r.Raw)
				}
			}
			for i, e := range evs {
				if e.Vendor != "d" || e.TaskID != task || e.Attempt != 1 || e.Status != 200 || e.DeliveryError != "" ||
					e.URL != hook.srv.URL+"/hook" || !e.Authorization || e.Dialect != string(tc.d) || e.State != a2a.NormalState(tc.states[i]) {
					t.Errorf("event %d: %+v", i, e)
				}
			}
		})
	}
}

// TestPushDeliveryCancel: a cancel is delivered at once; a config set on a
// task that is already terminal gets nothing (§4.3.3 delivers updates, not
// the state at registration), and the task is not followed.
func TestPushDeliveryCancel(t *testing.T) {
	f := tPushD(t, 10*time.Second)
	c := tClient(t, f, tViaProxy)
	hook := tReceiver(t, nil)
	since := f.Trace().Seq()

	done, _ := tTask(tSend(t, c, tRPCD, Dialect10, "now", ""))["id"].(string)
	tSetHook(t, c, Dialect10, done, "c1", hook.srv.URL, "x")
	if watched := f.Vendor("d").push.Stats().Watched; watched != 0 {
		t.Errorf("a terminal task is followed (%d watches)", watched)
	}

	task := tNonBlocking(t, c, Dialect10)
	tSetHook(t, c, Dialect10, task, "c1", hook.srv.URL, "x")
	start := time.Now()
	tWantState(t, "cancel", tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task}), "canceled")
	evs := tWaitPush(t, f, since, 1, 2*time.Second, 200*time.Millisecond)
	got := hook.requests()
	if len(got) != 1 || len(evs) != 1 || tPath(got[0].Body, "task", "id") != task || tPath(got[0].Body, "task", "status", "state") != "TASK_STATE_CANCELED" {
		t.Fatalf("requests %d %v, events %+v", len(got), got, evs)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the cancel arrived after %v", d)
	}
}

// TestPushDeliveryBounds: each bound of delivery against a real receiver
// that misbehaves, and URLs outside loopback, which are never contacted.
func TestPushDeliveryBounds(t *testing.T) {
	const timeout = 300 * time.Millisecond
	hang := tHang
	status := func(code int) func(http.ResponseWriter, *http.Request, *tHook) {
		return func(w http.ResponseWriter, _ *http.Request, _ *tHook) { w.WriteHeader(code) }
	}
	endless := func(w http.ResponseWriter, r *http.Request, _ *tHook) {
		chunk := []byte(strings.Repeat("x", 32<<10))
		for i := 0; i < 1<<12; i++ { // 128 MiB at most, were it all read
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	cases := []struct {
		name     string
		answer   func(http.ResponseWriter, *http.Request, *tHook)
		url      func(h *tHook) string // nil: the receiver's URL
		configs  int
		attempts int    // attempts made (events with Attempt > 0)
		skipped  int    // notifications not made (Attempt 0)
		errHas   string // in every finished event's DeliveryError ("" none)
		status   int    // every attempt's status
		received int    // requests the receiver got
		maxTook  time.Duration
	}{
		{name: "ok via localhost", url: func(h *tHook) string { return strings.Replace(h.srv.URL, "127.0.0.1", "localhost", 1) },
			configs: 1, attempts: 1, status: 200, received: 1},
		{name: "hangs", answer: hang, configs: 1, attempts: MaxPushAttempts, errHas: "deadline exceeded", received: MaxPushAttempts,
			maxTook: timeout + 500*time.Millisecond},
		{name: "answers 500", answer: status(500), configs: 1, attempts: MaxPushAttempts, errHas: "HTTP 500", status: 500, received: MaxPushAttempts},
		{name: "answers 404", answer: status(404), configs: 1, attempts: 1, errHas: "HTTP 404", status: 404, received: 1},
		{name: "redirect not followed", answer: func(w http.ResponseWriter, r *http.Request, _ *tHook) {
			http.Redirect(w, r, "https://elsewhere.example/", http.StatusFound)
		}, configs: 1, attempts: 1, errHas: "HTTP 302", status: 302, received: 1},
		{name: "endless body", answer: endless, configs: 1, attempts: 1, status: 200, received: 1, maxTook: timeout},
		// The receiver hangs for longer than the test looks (a 10 s
		// timeout): MaxPushInFlightPerReceiver attempts stay in flight,
		// the other configs' notifications wait in the receiver's queue
		// (none is dropped), and the fleet's close ends them all.
		{name: "flood of configs", answer: hang, configs: push.MaxPerTask, attempts: MaxPushInFlightPerReceiver,
			received: MaxPushInFlightPerReceiver},
		{name: "not loopback: a name", url: func(*tHook) string { return "https://hook.example/a" }, configs: 1, skipped: 1, errHas: "loopback only"},
		{name: "not loopback: an IP", url: func(*tHook) string { return "http://10.1.2.3:9/a" }, configs: 1, skipped: 1, errHas: "loopback only"},
		{name: "not loopback: a name ending in localhost", url: func(*tHook) string { return "http://evil.localhost:9/a" }, configs: 1, skipped: 1, errHas: "loopback only"},
		{name: "not http", url: func(*tHook) string { return "file:///etc/passwd" }, configs: 1, skipped: 1, errHas: "not http or https"},
		{name: "url does not parse", url: func(*tHook) string { return "http://[::1/a" }, configs: 1, skipped: 1, errHas: "does not parse"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tPushD(t, time.Minute)
			flood := tc.name == "flood of configs"
			if flood {
				tPushTune(f, "d", 10*time.Second, 20*time.Millisecond)
			} else {
				tPushTune(f, "d", timeout, 20*time.Millisecond)
			}
			c := tClient(t, f, tViaProxy)
			hook := tReceiver(t, tc.answer)
			u := hook.srv.URL + "/hook"
			if tc.url != nil {
				u = tc.url(hook)
			}
			task := tNonBlocking(t, c, Dialect10)
			for i := range tc.configs {
				tSetHook(t, c, Dialect10, task, fmt.Sprintf("c%d", i), u, "x")
			}
			since := f.Trace().Seq()
			tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
			var evs []Event
			if flood {
				tPoll(5*time.Second, func() bool { return len(hook.requests()) >= tc.received })
				time.Sleep(300 * time.Millisecond)
				evs = tPushEventsAll(f, since, true)
			} else {
				evs = tWaitPush(t, f, since, tc.attempts+tc.skipped, 5*time.Second, 300*time.Millisecond)
			}
			var attempts, skipped int
			for _, e := range evs {
				if e.Attempt == 0 {
					skipped++
				} else {
					attempts++
					if e.Status != tc.status {
						t.Errorf("attempt %d: status %d, want %d", e.Attempt, e.Status, tc.status)
					}
					if tc.maxTook > 0 && time.Duration(e.DurationMs*float64(time.Millisecond)) > tc.maxTook {
						t.Errorf("attempt %d took %.0f ms, more than %v", e.Attempt, e.DurationMs, tc.maxTook)
					}
				}
				if e.Pending {
					continue
				}
				if tc.errHas == "" && e.DeliveryError != "" || tc.errHas != "" && !strings.Contains(e.DeliveryError, tc.errHas) {
					t.Errorf("event %+v: deliveryError %q, want %q", e, e.DeliveryError, tc.errHas)
				}
				if e.URL != u {
					t.Errorf("event url %q", e.URL)
				}
			}
			if attempts != tc.attempts || skipped != tc.skipped {
				t.Errorf("%d attempts, %d not made; want %d, %d: %+v", attempts, skipped, tc.attempts, tc.skipped, evs)
			}
			if n := len(hook.requests()); n != tc.received {
				t.Errorf("the receiver got %d requests, want %d", n, tc.received)
			}
			if flood {
				queued := f.Vendor("d").push.Stats().Queued
				if want := push.MaxPerTask - MaxPushInFlightPerReceiver; queued != want {
					t.Errorf("%d notifications queued, want %d", queued, want)
				}
				// Closing the fleet ends the hanging deliveries at once, and
				// the queued ones are traced as not made.
				start := time.Now()
				f.Close()
				if d := time.Since(start); d > time.Second {
					t.Errorf("Close took %v with deliveries in flight", d)
				}
				closed := 0
				for _, e := range tPushEventsAll(f, since, true) {
					if e.Pending || !strings.Contains(e.DeliveryError, "the fleet closed") {
						t.Errorf("after Close: %+v", e)
					}
					closed++
				}
				if closed != push.MaxPerTask {
					t.Errorf("%d events after Close, want %d", closed, push.MaxPerTask)
				}
			}
		})
	}
}

// TestPushTimerStops: a task's timer ends with the fleet and with the
// task (a reset forgets it): nothing is delivered afterwards.
func TestPushTimerStops(t *testing.T) {
	const work = 400 * time.Millisecond
	for _, end := range []string{"close", "reset"} {
		t.Run(end, func(t *testing.T) {
			f := tPushD(t, work)
			c := tClient(t, f, tViaProxy)
			hook := tReceiver(t, nil)
			task := tNonBlocking(t, c, Dialect03)
			tSetHook(t, c, Dialect03, task, "c1", hook.srv.URL, "")
			s := &f.Vendor("d").push
			if st := s.Stats(); st.Watched != 1 || st.Armed != 1 { // the task's own watch, armed
				t.Fatal("no timer for a task with a config")
			}
			if end == "close" {
				f.Close()
			} else if err := f.Reset(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(work + 200*time.Millisecond)
			if got := hook.requests(); len(got) != 0 {
				t.Errorf("%d notifications after %s: %s", len(got), end, got[0].Raw)
			}
			if left := s.Stats().Watched; left != 0 {
				t.Errorf("%d watches left after %s", left, end)
			}
		})
	}
}

// TestPushDeliveryInline: a push config in the send that creates the task
// (1.0 configuration.taskPushNotificationConfig, also in the proto
// spelling and over HTTP+JSON; 0.3 configuration.pushNotificationConfig;
// 0.1 pushNotification) is followed from the task's creation: the state
// the send answered is delivered too, then each change. Without a url the
// send is -32602.
func TestPushDeliveryInline(t *testing.T) {
	const work = 400 * time.Millisecond
	f := tPushD(t, work)
	c := tClient(t, f, tViaProxy)
	hook := tReceiver(t, nil)
	cfg10 := func(u string) map[string]any {
		return map[string]any{"url": u, "token": "in-10", "authentication": map[string]any{"scheme": "Bearer", "credentials": "c10"}}
	}
	cases := []struct {
		name   string
		d      Dialect
		send   func(u string) *tResp
		states []string // 0.3 spelling
		auth   string
	}{
		{"1.0 blocking", Dialect10, func(u string) *tResp {
			p := tSendParams(Dialect10, "x", "")
			p["configuration"] = map[string]any{"taskPushNotificationConfig": cfg10(u)}
			return tRPC(t, c, tRPCD, "1.0", "SendMessage", p)
		}, []string{"completed"}, "Bearer c10"},
		{"1.0 proto names, return immediately", Dialect10, func(u string) *tResp {
			p := tSendParams(Dialect10, "x", "")
			p["configuration"] = map[string]any{"task_push_notification_config": cfg10(u), "return_immediately": true, "returnImmediately": true}
			return tRPC(t, c, tRPCD, "1.0", "SendMessage", p)
		}, []string{"submitted", "working", "completed"}, "Bearer c10"},
		{"1.0 HTTP+JSON", Dialect10, func(u string) *tResp {
			b, _ := json.Marshal(map[string]any{"message": tMessage(Dialect10, "x", nil), "configuration": map[string]any{"taskPushNotificationConfig": cfg10(u)}})
			return tREST(t, c, "POST", "/message:send", string(b), nil)
		}, []string{"completed"}, "Bearer c10"},
		{"0.3 non-blocking", Dialect03, func(u string) *tResp {
			p := tSendParams(Dialect03, "x", "")
			p["configuration"] = map[string]any{"blocking": false, "pushNotificationConfig": map[string]any{"url": u, "token": "in-03"}}
			return tRPC(t, c, tRPCD, "0.3", "message/send", p)
		}, []string{"submitted", "working", "completed"}, ""},
		{"0.1", Dialect01, func(u string) *tResp {
			p := tSendParams(Dialect01, "x", "")
			p["pushNotification"] = map[string]any{"url": u, "authentication": map[string]any{"schemes": []string{"Basic"}, "credentials": "dTpw"}}
			return tRPC(t, c, tRPCD, "", "tasks/send", p)
		}, []string{"completed"}, "Basic dTpw"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := "/" + strings.ReplaceAll(tc.name, " ", "-")
			since := f.Trace().Seq()
			r := tc.send(hook.srv.URL + path)
			task, _ := tTask(r)["id"].(string)
			if task == "" {
				task, _ = r.JSON["task"].(map[string]any)["id"].(string)
			}
			if task == "" {
				t.Fatalf("send: %s", r.Body)
			}
			evs := tWaitPush(t, f, since, len(tc.states), 3*time.Second, work/2)
			var states []string
			for _, e := range evs {
				if e.TaskID != task || e.Status != 200 {
					t.Errorf("event %+v", e)
				}
				states = append(states, e.State)
			}
			if !slices.Equal(states, tc.states) {
				t.Errorf("delivered %v, want %v", states, tc.states)
			}
			n := 0
			for _, rq := range hook.requests() {
				if tPath(rq.Body, "id") != task && tPath(rq.Body, "task", "id") != task {
					continue
				}
				n++
				if a := rq.Header.Get("Authorization"); a != tc.auth {
					t.Errorf("Authorization %q, want %q", a, tc.auth)
				}
			}
			if n != len(tc.states) {
				t.Errorf("the receiver got %d notifications of the task, want %d", n, len(tc.states))
			}
		})
	}
	p := tSendParams(Dialect10, "x", "")
	p["configuration"] = map[string]any{"taskPushNotificationConfig": map[string]any{"token": "no url"}}
	tWantCode(t, "a send's config without a url", tRPC(t, c, tRPCD, "1.0", "SendMessage", p), -32602)
}

// TestPushDeliveryRedacted: a credential the fleet issued, carried in a
// config's URL, reaches the receiver but never the trace (as for
// requests: auth.go).
func TestPushDeliveryRedacted(t *testing.T) {
	d := VendorD()
	d.Auth = &AuthConfig{}
	f := tStart(t, Config{Vendors: []VendorConfig{d}, Limits: Limits{WorkTime: time.Minute}})
	cred, _ := f.Credential("d")
	c := tClient(t, f, tViaProxy)
	hook := tReceiver(t, nil)
	hdr := map[string]string{"A2A-Version": "1.0", "Authorization": "Bearer " + cred.Value}
	p := tSendParams(Dialect10, "x", "")
	p["configuration"] = map[string]any{"returnImmediately": true}
	task, _ := tTask(tPost(t, c, tRPCD, tEnvelope("SendMessage", p), hdr))["id"].(string)
	u := hook.srv.URL + "/hook?key=" + cred.Value
	if r := tPost(t, c, tRPCD, tEnvelope("CreateTaskPushNotificationConfig", map[string]any{"taskId": task, "id": "c1", "url": u}), hdr); r.Code() != 0 || task == "" {
		t.Fatalf("set: %s", r.Body)
	}
	since := f.Trace().Seq()
	tPost(t, c, tRPCD, tEnvelope("CancelTask", map[string]any{"id": task}), hdr)
	evs := tWaitPush(t, f, since, 1, 2*time.Second, 100*time.Millisecond)
	if len(evs) != 1 || !strings.Contains(evs[0].URL, "(credential of d, redacted)") || strings.Contains(evs[0].URL, cred.Value) {
		t.Fatalf("events %+v", evs)
	}
	if got := hook.requests(); len(got) != 1 {
		t.Fatalf("the receiver got %d requests", len(got))
	}
}

// TestPushDeliveryHTTPS: an https receiver on loopback gets its
// notification when its certificate is trusted; an untrusted one is
// refused by the vendor (the certificate is checked, the one attempt
// traced and not retried).
func TestPushDeliveryHTTPS(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		t.Run(fmt.Sprint("trusted=", trusted), func(t *testing.T) {
			f := tPushD(t, time.Minute)
			tPushTune(f, "d", 2*time.Second, 20*time.Millisecond)
			var got []string
			var mu sync.Mutex
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = append(got, r.Header.Get("Content-Type"))
				mu.Unlock()
			}))
			t.Cleanup(srv.Close)
			if trusted {
				f.Vendor("d").push.Trust(srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs)
			}
			c := tClient(t, f, tViaProxy)
			task := tNonBlocking(t, c, Dialect10)
			tSetHook(t, c, Dialect10, task, "c1", srv.URL+"/hook", "x")
			since := f.Trace().Seq()
			tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
			want := 1 // a certificate that does not verify is not retried

			evs := tWaitPush(t, f, since, want, 3*time.Second, 100*time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case len(evs) != want:
				t.Fatalf("%d events, want %d: %+v", len(evs), want, evs)
			case trusted && (evs[0].Status != 200 || len(got) != 1 || got[0] != "application/a2a+json"):
				t.Errorf("trusted: %+v, receiver got %v", evs[0], got)
			case !trusted && (len(got) != 0 || !strings.Contains(evs[0].DeliveryError, "certificate") || !strings.Contains(evs[0].DeliveryError, "not retried")):
				t.Errorf("untrusted: %+v, receiver got %v", evs[0], got)
			}
		})
	}
}

// TestPushDeliveryFair: a receiver that never answers holds its own share
// of the vendor's deliveries, not all of them. Twelve configs point at a
// receiver that hangs (each attempt lasts the whole PushDeliveryTimeout,
// 10 s, longer than the test): eight of a first task, cancelled first,
// and four of a second task. Beside them the second task has one config
// at a good receiver, and three tasks whose sends carry a config point at
// it too. The good receiver gets every notification it is owed (the
// second task's working and completed, each other task's three states),
// in order, each within 500 ms of its state change.
func TestPushDeliveryFair(t *testing.T) {
	const work = 600 * time.Millisecond
	const prompt = 500 * time.Millisecond
	f := tPushD(t, work)
	c := tClient(t, f, tViaProxy)
	bad, good := tReceiver(t, tHang), tReceiver(t, nil)
	first := tNonBlocking(t, c, Dialect10)
	for i := range 8 {
		tSetHook(t, c, Dialect10, first, fmt.Sprintf("bad%d", i), bad.srv.URL+"/hook", "x")
	}
	tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": first})
	// The hanging receiver holds its deliveries before the others start.
	tPoll(2*time.Second, func() bool { return len(bad.requests()) >= 2 })
	time.Sleep(100 * time.Millisecond)
	second := tNonBlocking(t, c, Dialect10)
	for i := range 4 {
		tSetHook(t, c, Dialect10, second, fmt.Sprintf("bad%d", i), bad.srv.URL+"/hook", "x")
	}
	tSetHook(t, c, Dialect10, second, "good", good.srv.URL+"/hook", "x")
	want := map[string][]string{second: {"TASK_STATE_WORKING", "TASK_STATE_COMPLETED"}}
	for range 3 {
		p := tSendParams(Dialect10, "x", "")
		p["configuration"] = map[string]any{"returnImmediately": true,
			"taskPushNotificationConfig": map[string]any{"url": good.srv.URL + "/hook"}}
		id, _ := tTask(tRPC(t, c, tRPCD, "1.0", "SendMessage", p))["id"].(string)
		if id == "" {
			t.Fatal("send: no task")
		}
		want[id] = []string{"TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED"}
	}
	owed := 2 + 3*3
	tPoll(work+2*time.Second, func() bool { return len(good.requests()) >= owed })
	time.Sleep(100 * time.Millisecond) // nothing more arrives
	got := map[string][]string{}
	var slowest time.Duration
	for _, r := range good.requests() {
		id, _ := tPath(r.Body, "task", "id").(string)
		state, _ := tPath(r.Body, "task", "status", "state").(string)
		got[id] = append(got[id], state)
		ts, err := time.Parse(time.RFC3339Nano, fmt.Sprint(tPath(r.Body, "task", "status", "timestamp")))
		if err != nil {
			t.Fatalf("status.timestamp: %v", err)
		}
		slowest = max(slowest, r.At.Sub(ts))
	}
	n := len(good.requests())
	t.Logf("the good receiver got %d of %d notifications, the slowest %v after its state change; the hanging one holds %d requests",
		n, owed, slowest.Round(time.Millisecond), len(bad.requests()))
	if n != owed || slowest > prompt {
		t.Errorf("the good receiver got %d of %d notifications, the slowest after %v (want all, within %v)", n, owed, slowest, prompt)
	}
	for id, states := range want {
		if !slices.Equal(got[id], states) {
			t.Errorf("task %s: the good receiver got %v, want %v", id, got[id], states)
		}
	}
}

// TestPushDeliveryFleetClose: a notification the fleet's Close ends is
// traced with that reason, and nothing more is tried: an attempt in
// flight is finished with "the fleet closed", a retry that was waiting is
// a "not made" event naming the close, and notifications still queued
// are each a "not made" event. Close returns at once.
func TestPushDeliveryFleetClose(t *testing.T) {
	unavailable := func(w http.ResponseWriter, _ *http.Request, _ *tHook) { w.WriteHeader(503) }
	cases := []struct {
		name     string
		answer   func(http.ResponseWriter, *http.Request, *tHook)
		configs  int
		received int // requests the receiver got before the close
		attempts []string
		notMade  []string // DeliveryError of each Attempt 0 event, in part
	}{
		{name: "attempt in flight", answer: tHang, configs: 1, received: 1,
			attempts: []string{"the fleet closed during the attempt"}},
		{name: "retry waiting", answer: unavailable, configs: 1, received: 1,
			attempts: []string{"HTTP 503"}, notMade: []string{"the fleet closed before attempt 2"}},
		{name: "queued behind a hanging receiver", answer: tHang, configs: 4, received: 2,
			attempts: []string{"the fleet closed during the attempt", "the fleet closed during the attempt"},
			notMade:  []string{"the fleet closed before it was sent", "the fleet closed before it was sent"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tPushD(t, time.Minute)
			tPushTune(f, "d", 10*time.Second, 10*time.Second)
			c := tClient(t, f, tViaProxy)
			hook := tReceiver(t, tc.answer)
			task := tNonBlocking(t, c, Dialect10)
			for i := range tc.configs {
				tSetHook(t, c, Dialect10, task, fmt.Sprintf("c%d", i), hook.srv.URL+"/hook", "x")
			}
			since := f.Trace().Seq()
			tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
			tPoll(2*time.Second, func() bool { return len(hook.requests()) >= tc.received })
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			f.Close()
			if d := time.Since(start); d > time.Second {
				t.Errorf("Close took %v", d)
			}
			var attempts, notMade []string
			for _, e := range tPushEventsAll(f, since, true) {
				if e.Pending {
					t.Errorf("an attempt still pending after Close: %+v", e)
				}
				if e.Attempt == 0 {
					notMade = append(notMade, e.DeliveryError)
				} else {
					attempts = append(attempts, e.DeliveryError)
				}
			}
			for _, x := range []struct {
				what      string
				got, want []string
			}{{"attempts", attempts, tc.attempts}, {"not made", notMade, tc.notMade}} {
				if len(x.got) != len(x.want) {
					t.Errorf("%s: %q, want %d like %q", x.what, x.got, len(x.want), x.want)
					continue
				}
				for i := range x.got {
					if !strings.Contains(x.got[i], x.want[i]) {
						t.Errorf("%s %d: deliveryError %q, want %q in it", x.what, i, x.got[i], x.want[i])
					}
				}
			}
			if n := len(hook.requests()); n != tc.received {
				t.Errorf("the receiver got %d requests, want %d", n, tc.received)
			}
		})
	}
}

// TestPushDeliveryPermanentErrors: a TLS handshake that fails (an https
// URL at a plain-HTTP port, a certificate the vendor does not trust, a
// receiver that refuses the handshake) fails the same way every time: one
// attempt, its deliveryError naming the failure and that it is not
// retried. A refused connection (the receiver may be starting) is still
// retried, and an http URL at a TLS port gets the receiver's 400, which
// ends the notification as any 4xx does.
func TestPushDeliveryPermanentErrors(t *testing.T) {
	plain := tReceiver(t, nil)
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	tlsSrv.Config.ErrorLog = tQuietLog
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	mtls := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	mtls.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	mtls.Config.ErrorLog = tQuietLog
	mtls.StartTLS()
	t.Cleanup(mtls.Close)
	refused := "http://" + tRefusedAddr(t)
	cases := []struct {
		name     string
		url      string
		trust    *httptest.Server // the vendor trusts its certificate
		attempts int
		errHas   string
	}{
		{"https at a plain-HTTP port", "https://" + plain.srv.Listener.Addr().String() + "/hook", nil, 1, "plain HTTP"},
		{"untrusted certificate", tlsSrv.URL + "/hook", nil, 1, "certificate signed by unknown authority"},
		{"receiver refuses the handshake", mtls.URL + "/hook", mtls, 1, "certificate required"},
		{"connection refused", refused + "/hook", nil, MaxPushAttempts, "connection refused"},
		{"http at a TLS port", "http://" + tlsSrv.Listener.Addr().String() + "/hook", nil, 1, "HTTP 400"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tPushD(t, time.Minute)
			tPushTune(f, "d", 2*time.Second, 20*time.Millisecond)
			if tc.trust != nil {
				f.Vendor("d").push.Trust(tc.trust.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs)
			}
			c := tClient(t, f, tViaProxy)
			task := tNonBlocking(t, c, Dialect10)
			tSetHook(t, c, Dialect10, task, "c1", tc.url, "x")
			since := f.Trace().Seq()
			tRPC(t, c, tRPCD, "1.0", "CancelTask", map[string]any{"id": task})
			evs := tWaitPush(t, f, since, tc.attempts, 3*time.Second, 200*time.Millisecond)
			if len(evs) != tc.attempts {
				t.Fatalf("%d attempts, want %d: %+v", len(evs), tc.attempts, evs)
			}
			t.Logf("%d attempt(s): %s", len(evs), evs[0].DeliveryError)
			for _, e := range evs {
				if !strings.Contains(e.DeliveryError, tc.errHas) {
					t.Errorf("attempt %d: deliveryError %q, want %q in it", e.Attempt, e.DeliveryError, tc.errHas)
				}
				if tc.attempts == 1 && tc.errHas != "HTTP 400" && !strings.Contains(e.DeliveryError, "not retried") {
					t.Errorf("attempt %d: deliveryError %q does not say it is not retried", e.Attempt, e.DeliveryError)
				}
			}
			if n := len(plain.requests()); n != 0 {
				t.Errorf("the plain-HTTP receiver's handler saw %d requests", n)
			}
		})
	}
}
