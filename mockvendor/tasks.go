package mockvendor

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"
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
	input     *Message
	output    string
}

// state returns the task's state at now, in the 0.3 spelling.
func (t *task) state(now time.Time, work time.Duration) string {
	switch {
	case t.canceled.Load():
		return "canceled"
	case t.hold:
		return "working"
	case t.blocking:
		return "completed"
	}
	age := now.Sub(t.created)
	switch {
	case age < work/2:
		return "submitted"
	case age < work:
		return "working"
	}
	return "completed"
}

func terminal(state string) bool {
	switch state {
	case "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// taskStore keeps the fleet's tasks, forgetting the oldest past its cap.
// Tasks are keyed by vendor and id: a 0.1 client names its own task ids and
// may send the same id to several vendors.
type taskStore struct {
	mu    sync.Mutex
	max   int
	byID  map[string]*task // taskKey(vendor, id)
	order []string
}

func taskKey(vendor, id string) string { return vendor + "\x00" + id }

func newTaskStore(max int) *taskStore {
	return &taskStore{max: max, byID: map[string]*task{}}
}

func (s *taskStore) put(t *task) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := taskKey(t.vendor, t.id)
	if _, ok := s.byID[k]; ok { // a 0.1 client reused its task id
		s.byID[k] = t
		return
	}
	if len(s.order) >= s.max {
		n := max(len(s.order)/10, 1)
		for _, id := range s.order[:n] {
			delete(s.byID, id)
		}
		s.order = append(s.order[:0], s.order[n:]...)
	}
	s.byID[k] = t
	s.order = append(s.order, k)
}

// get returns the vendor's task with that id, or nil: a vendor never sees
// another vendor's tasks.
func (s *taskStore) get(vendor, id string) *task {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[taskKey(vendor, id)]
}

// cancel cancels the task unless it is terminal; it returns the task and
// whether it was cancelable.
func (s *taskStore) cancel(vendor, id string, now time.Time, work time.Duration) (*task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID[taskKey(vendor, id)]
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
	s.byID = map[string]*task{}
	s.order = nil
}

func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
