package push

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// tTask is the task type of these tests: nothing attached.
type tTask = tasks.Task

// tVendor is a vendor as delivery sees it, without a fleet: its own task
// store and trace, a count of running goroutines, and a close.
type tVendor struct {
	store  *Store
	tasks  *tasks.Store
	tr     *trace.Trace
	work   time.Duration
	active sync.WaitGroup

	mu     sync.Mutex
	closed bool
}

// newTVendor returns a vendor whose tasks work for work, closed when the
// test ends.
func newTVendor(t *testing.T, work time.Duration) *tVendor {
	v := &tVendor{store: &Store{}, tasks: tasks.NewStore(1000, nil), tr: trace.New(100_000, 1<<20), work: work}
	t.Cleanup(v.close)
	return v
}

func (v *tVendor) ID() string                { return "d" }
func (v *tVendor) Task(id string) *tTask     { return v.tasks.Get("d", id) }
func (v *tVendor) WorkTime() time.Duration   { return v.work }
func (v *tVendor) Add(e trace.Event)         { v.tr.Add(e) }
func (v *tVendor) Begin(e trace.Event) int64 { return v.tr.Begin(e) }
func (v *tVendor) Leave()                    { v.active.Done() }
func (v *tVendor) EncodeTask(t *tTask, _ a2a.Dialect, state string, _ time.Time) any {
	return map[string]any{"id": t.ID, "status": map[string]any{"state": state}}
}

// Events are a stream's events of t in 1.0: the task, working, one
// artifact update, completed.
func (v *tVendor) Events(t *tTask, _ a2a.Dialect) []any {
	st := func(s string) any {
		return map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "status": map[string]any{"state": s}}}
	}
	art := map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "lastChunk": true,
		"artifact": map[string]any{"artifactId": "a-" + t.ID, "parts": []any{map[string]any{"text": "done"}}}}}
	return []any{map[string]any{"task": map[string]any{"id": t.ID}}, st("TASK_STATE_WORKING"), art, st("TASK_STATE_COMPLETED")}
}

// Results are the one artifact of a completed task.
func (v *tVendor) Results(t *tTask, _ a2a.Dialect, state string) *trace.Results {
	if state != "completed" {
		return nil
	}
	return &trace.Results{Artifacts: []json.RawMessage{json.RawMessage(`{"artifactId":"a-` + t.ID + `","parts":[{"text":"done"}]}`)}}
}

func (v *tVendor) Finish(seq int64, status int, why string) {
	v.tr.Finish(seq, func(e *trace.Event) { e.Status, e.DeliveryError = status, why })
}

func (v *tVendor) Enter() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return false
	}
	v.active.Add(1)
	return true
}

// close closes the vendor as the fleet's Close does: no new goroutine,
// delivery stopped, and every goroutine waited for.
func (v *tVendor) close() {
	v.mu.Lock()
	was := v.closed
	v.closed = true
	v.mu.Unlock()
	if !was {
		v.store.Stop(v)
		v.active.Wait()
	}
}

// newTask stores a task that does not block, as a send in dialect 1.0
// makes it.
func (v *tVendor) newTask() *tTask {
	t := &tTask{ID: tasks.NewID("task-"), Vendor: "d", Dialect: a2a.Dialect10, Created: time.Now(),
		Input: &a2a.Message{}}
	v.tasks.Put(t)
	return t
}

// cancel cancels t and wakes its watch, as a cancel request does.
func (v *tVendor) cancel(t *tTask) {
	v.tasks.Cancel("d", t.ID, time.Now(), v.work)
	v.store.Changed(v, t)
}

// events returns the push-delivery events after seq, those still in
// flight too when pending.
func (v *tVendor) events(since int64, pending bool) []trace.Event {
	var out []trace.Event
	for _, e := range v.tr.Since(since) {
		if e.Op == trace.OpPushDelivery && (pending || !e.Pending) {
			out = append(out, e)
		}
	}
	return out
}

// tHook is a loopback receiver that records what arrives and answers
// with answer (nil: 200).
type tHook struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  [][]byte
	hang chan struct{} // closed when the test ends: hanging answers return
}

func tReceiver(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, h *tHook)) *tHook {
	t.Helper()
	h := &tHook{hang: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		h.mu.Lock()
		h.got = append(h.got, raw)
		h.mu.Unlock()
		if answer != nil {
			answer(w, r, h)
		}
	}))
	t.Cleanup(func() { close(h.hang); h.srv.Close() })
	return h
}

// requests returns the bodies that arrived so far.
func (h *tHook) requests() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.got)
}

// tHang is an answer that never comes: it returns when the request is
// cancelled or the test ends.
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
