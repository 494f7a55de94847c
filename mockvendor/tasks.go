package mockvendor

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the task store, which a hostile orchestrator may try to flood:
// each task keeps at most MaxTaskHistory messages (its first message and
// the newest follow-ups; older follow-ups are dropped), and each vendor at
// most MaxTasksPerVendor tasks (past it the oldest tenth of that vendor's
// tasks is dropped), within the fleet-wide Limits.MaxTasks; in bytes, the
// store keeps within Limits.MaxTaskBytes and Limits.MaxVendorTaskBytes
// (taskbudget.go).
const (
	MaxTaskHistory    = 64
	MaxTasksPerVendor = 5_000
)

// task is a task a vendor issued. Its state is derived from the clock
// rather than advanced by a goroutine, so the store holds no goroutines.
type task struct {
	id        string
	contextID string
	vendor    string
	dialect   Dialect
	skill     string
	created   time.Time
	blocking  bool // answered after completion
	hold      bool // stays working until cancelled (probe-accept)
	canceled  atomic.Bool
	// stored is whether the store holds the task (guarded by the
	// store's mutex).
	stored bool
	input  *Message
	output string

	// end is the state the task reaches in place of completed ("":
	// completed), and workFor how long it stays working first (0: it
	// reaches end as a blocking send is answered); both set by the
	// task-outcome fault.
	end     string
	workFor time.Duration
	// artifacts are the artifacts of the task once completed (nil: one
	// text artifact of output), set by the artifacts fault and shared with
	// it (never changed).
	artifacts []ArtifactSpec

	mu sync.Mutex
	// cancelC is closed once the task is cancelled (made on first use by
	// canceledC; signalCancel closes it); cancelClosed says it was.
	cancelC      chan struct{}
	cancelClosed bool
	// more are the follow-up messages after input, oldest first, at most
	// MaxTaskHistory-1.
	more []*Message
	// budget is the budget the task is charged to (nil once forgotten),
	// cost what it is charged, moreCost each follow-up's part of it.
	budget   *taskBudget
	cost     int64
	moreCost []int64
}

// state returns the task's state at now, in the 0.3 spelling.
func (t *task) state(now time.Time, work time.Duration) string {
	switch {
	case t.canceled.Load():
		return "canceled"
	case t.hold:
		return "working"
	case t.workFor > 0:
		if now.Sub(t.created) < t.workFor {
			return "working"
		}
		return t.endState()
	case t.blocking:
		return t.endState()
	}
	age := now.Sub(t.created)
	switch {
	case age < work/2:
		return "submitted"
	case age < work:
		return "working"
	}
	return t.endState()
}

// canceledC returns a channel closed once the task is cancelled: what a
// stream of the task waits on beside its next event.
func (t *task) canceledC() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancelC == nil {
		t.cancelC = make(chan struct{})
	}
	if t.canceled.Load() && !t.cancelClosed {
		close(t.cancelC)
		t.cancelClosed = true
	}
	return t.cancelC
}

// signalCancel closes the channel of canceledC for a cancelled task.
func (t *task) signalCancel() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancelC != nil && t.canceled.Load() && !t.cancelClosed {
		close(t.cancelC)
		t.cancelClosed = true
	}
}

// endState is the state the task ends in (0.3 spelling): completed unless
// a fault said otherwise.
func (t *task) endState() string {
	if t.end != "" {
		return t.end
	}
	return "completed"
}

// doneAt is when a task that is not held reaches its end state.
func (t *task) doneAt(work time.Duration) time.Time {
	if t.workFor > 0 {
		return t.created.Add(t.workFor)
	}
	return t.created.Add(work)
}

// addMessage appends a follow-up message, dropping the oldest follow-up
// past MaxTaskHistory; past the byte budget it keeps a stub, or nothing
// (chargeLocked).
func (t *task) addMessage(m *Message) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.more) >= MaxTaskHistory-1 {
		n := len(t.more) - (MaxTaskHistory - 2)
		t.refundLocked(t.moreCost[:n])
		t.more = slices.Delete(t.more, 0, n)
		t.moreCost = slices.Delete(t.moreCost, 0, n)
	}
	if m, c := t.chargeLocked(m); m != nil {
		t.more = append(t.more, m)
		t.moreCost = append(t.moreCost, c)
	}
}

// messages are the task's messages, oldest first.
func (t *task) messages() []*Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*Message{t.input}, t.more...)
}

// onlyInput reports whether the task holds its first message only.
func (t *task) onlyInput() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.more) == 0
}

func terminal(state string) bool {
	switch state {
	case "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// taskStore keeps the fleet's tasks, forgetting the oldest past its caps
// (max fleet-wide, MaxTasksPerVendor per vendor). Tasks are keyed by
// vendor and id: a 0.1 client names its own task ids and may send the same
// id to several vendors.
type taskStore struct {
	mu     sync.Mutex
	max    int
	budget *taskBudget
	// byID holds the stored tasks.
	byID map[taskRef]*task
	// order holds the fleet's tasks oldest first, and also tasks removed
	// since (stored false), dead entries that dropOldest and oldest skip
	// and compact sweeps out once they are half of order: removing a task
	// costs no search of order.
	order    []*task
	dead     int
	byVendor map[string][]*task // oldest first
}

// taskRef is a task's key in the store.
type taskRef struct{ vendor, id string }

func refOf(t *task) taskRef { return taskRef{t.vendor, t.id} }

// newTaskStore returns a store of at most max tasks within budget (nil:
// no byte budget).
func newTaskStore(max int, budget *taskBudget) *taskStore {
	if budget == nil {
		budget = newTaskBudget(math.MaxInt64, math.MaxInt64)
	}
	return &taskStore{max: max, budget: budget, byID: map[taskRef]*task{}, byVendor: map[string][]*task{}}
}

func (s *taskStore) put(t *task) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := refOf(t)
	if old, ok := s.byID[k]; ok { // a 0.1 client reused its task id: the new task replaces it
		s.remove(old)
	}
	if len(s.byID) >= s.max {
		n := max(len(s.byID)/10, 1)
		s.budget.capped.Add(int64(n))
		s.dropOldest(n)
	}
	if vs := s.byVendor[t.vendor]; len(vs) >= MaxTasksPerVendor {
		n := max(len(vs)/10, 1)
		s.budget.capped.Add(int64(n))
		for _, old := range vs[:n] {
			s.unindex(old)
			old.release()
		}
		s.byVendor[t.vendor] = append(vs[:0], vs[n:]...)
	}
	s.charge(t)
	s.byID[k] = t
	t.stored = true
	s.order = append(s.order, t)
	s.byVendor[t.vendor] = append(s.byVendor[t.vendor], t)
}

// unindex takes t out of byID and marks its entry in order dead. The
// caller holds s.mu.
func (s *taskStore) unindex(t *task) {
	if !t.stored {
		return
	}
	delete(s.byID, refOf(t))
	t.stored = false
	s.dead++
	if s.dead > len(s.order)/2 {
		s.order = slices.DeleteFunc(s.order, func(t *task) bool { return !t.stored })
		s.dead = 0
	}
}

// oldest returns the fleet's oldest stored task (nil: none), dropping
// the dead entries before it. The caller holds s.mu.
func (s *taskStore) oldest() *task {
	for len(s.order) > 0 && !s.order[0].stored {
		s.order[0] = nil
		s.order = s.order[1:]
		s.dead--
	}
	if len(s.order) == 0 {
		return nil
	}
	return s.order[0]
}

// dropOldest forgets the n oldest tasks of the fleet.
func (s *taskStore) dropOldest(n int) {
	gone := map[*task]bool{}
	for len(gone) < n {
		t := s.oldest()
		if t == nil {
			break
		}
		gone[t] = true
		s.unindex(t)
		t.release()
	}
	for v, vs := range s.byVendor {
		s.byVendor[v] = slices.DeleteFunc(vs, func(t *task) bool { return gone[t] })
	}
}

// get returns the vendor's task with that id, or nil: a vendor never sees
// another vendor's tasks.
func (s *taskStore) get(vendor, id string) *task {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[taskRef{vendor, id}]
}

// list returns the vendor's tasks, newest first.
func (s *taskStore) list(vendor string) []*task {
	s.mu.Lock()
	defer s.mu.Unlock()
	vs := s.byVendor[vendor]
	out := make([]*task, len(vs))
	for i, t := range vs {
		out[len(vs)-1-i] = t
	}
	return out
}

// cancel cancels the task unless it is terminal; it returns the task and
// whether it was cancelable.
func (s *taskStore) cancel(vendor, id string, now time.Time, work time.Duration) (*task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID[taskRef{vendor, id}]
	if t == nil {
		return nil, false
	}
	if terminal(t.state(now, work)) {
		return t, false
	}
	t.canceled.Store(true)
	return t, true
}

func (s *taskStore) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.byID {
		t.stored = false
		t.release()
	}
	s.budget.reset()
	s.byID = map[taskRef]*task{}
	s.order, s.dead = nil, 0
	s.byVendor = map[string][]*task{}
}

func newID(prefix string) string {
	var r [8]byte
	_, _ = rand.Read(r[:])
	var sb strings.Builder
	sb.Grow(len(prefix) + 2*len(r))
	sb.WriteString(prefix)
	var h [2 * len(r)]byte
	hex.Encode(h[:], r[:])
	sb.Write(h[:])
	return sb.String()
}
