package tasks

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// Bounds of the task store, which a hostile orchestrator may try to flood:
// each task keeps at most MaxHistory messages (its first message and the
// newest follow-ups; older follow-ups are dropped), and each vendor at most
// MaxPerVendor tasks (past it the oldest tenth of that vendor's tasks is
// dropped), within the store's own cap (NewStore); in bytes, the store
// keeps within its Budget.
const (
	MaxHistory   = 64
	MaxPerVendor = 5_000
)

// Task is a task a vendor issued. Its state is derived from the clock
// rather than advanced by a goroutine, so the store holds no goroutines.
//
// The exported fields are set before the task is put in a Store and never
// changed after.
type Task struct {
	// ID and ContextID name the task and its context; Vendor is the id of
	// the vendor that issued it, Dialect the dialect of the request that
	// created it, Skill the skill it runs.
	ID        string
	ContextID string
	Vendor    string
	Dialect   a2a.Dialect
	Skill     string
	// Created is when the task was created, the start of its clock.
	Created time.Time
	// Blocking is true for a task answered after completion; Hold keeps
	// the task working until cancelled (probe-accept).
	Blocking bool
	Hold     bool
	// Input is the task's first message, Output the text of its answer.
	Input  *a2a.Message
	Output string
	// End is the state (0.3 spelling) the task reaches in place of
	// completed ("": completed), and WorkFor how long it stays working
	// first (0: it reaches End as a blocking send is answered); both set
	// by the task-outcome fault.
	End     string
	WorkFor time.Duration
	// Artifacts are the artifacts of the task once completed, as the
	// artifacts fault configured them (nil: the one text artifact an
	// honest vendor answers with), shared with the fault's config and
	// never changed; the store keeps them and never reads them.
	Artifacts []a2a.ArtifactSpec
	// Question, with Asks zero, is the text of the status message the
	// task pauses with at input-required once its artifacts are out (the
	// artifacts fault's askAfter; End is then input-required).
	// Asks is how many times the task pauses at input-required, asking
	// the caller Question, before it completes (0: it never asks; the
	// input-required-turns fault). Each continuation that reaches it
	// there is one answer (TakeAnswer). EndsMeanwhile, when set, is the
	// terminal state (0.3 spelling) the task reaches while it waits for an
	// answer, just before the answer arrives (EndMeanwhile): the answer
	// finds it ended.
	Asks          int
	Question      string
	EndsMeanwhile string
	// PushTrials are the trial deliveries (the trace's Delivery* kinds)
	// its webhooks receive once it completes (the push-trials fault; the
	// push package makes them). Nil: none.
	PushTrials []string

	canceled atomic.Bool
	// answers counts the continuations the task took while asking; ended
	// is the state EndMeanwhile put it in (nil: none).
	answers atomic.Int32
	ended   atomic.Pointer[string]
	// undelivered is set once an answer naming the task could not be
	// delivered (MarkUndelivered).
	undelivered atomic.Bool
	// stored is whether the store holds the task (guarded by the
	// store's mutex).
	stored bool

	mu sync.Mutex
	// cancelC is closed once the task is cancelled (made on first use by
	// CanceledC; SignalCancel closes it); cancelClosed says it was.
	cancelC      chan struct{}
	cancelClosed bool
	// more are the follow-up messages after Input, oldest first, at most
	// MaxHistory-1.
	more []*a2a.Message
	// budget is the budget the task is charged to (nil once forgotten),
	// cost what it is charged, moreCost each follow-up's part of it.
	budget   *Budget
	cost     int64
	moreCost []int64
}

// State returns the task's state at now, in the 0.3 spelling, for a fleet
// whose tasks sent with blocking off work for work: submitted for its
// first half, working for its second, then the end state.
func (t *Task) State(now time.Time, work time.Duration) string {
	switch {
	case t.canceled.Load():
		return "canceled"
	case t.ended.Load() != nil:
		return *t.ended.Load()
	case t.Hold:
		return "working"
	case t.Asking():
		return "input-required"
	}
	steps, n := t.steps(work)
	for _, s := range steps[:n] {
		if now.Before(s.until) {
			return s.state
		}
	}
	return t.EndState()
}

// NextChange returns when the state State computes changes next after
// now, for a fleet whose tasks work for work; false when only a cancel
// changes it (the task is cancelled, held, blocking or past its end).
// Push delivery arms its timer with it.
func (t *Task) NextChange(now time.Time, work time.Duration) (time.Time, bool) {
	if t.canceled.Load() || t.Hold || t.ended.Load() != nil || t.Asking() {
		return time.Time{}, false
	}
	steps, n := t.steps(work)
	for _, s := range steps[:n] {
		if now.Before(s.until) {
			return s.until, true
		}
	}
	return time.Time{}, false
}

// step is a state a task that is neither cancelled nor held is in until
// a time.
type step struct {
	state string
	until time.Time
}

// steps are the n states such a task passes through before its end state,
// in order: none for a blocking task, working for WorkFor, else submitted
// for the first half of work and working for the second. (An array, not a
// slice: State is on every request's path and allocates nothing.)
func (t *Task) steps(work time.Duration) (steps [2]step, n int) {
	switch {
	case t.WorkFor > 0:
		steps[0] = step{"working", t.Created.Add(t.WorkFor)}
		return steps, 1
	case t.Blocking:
		return steps, 0
	}
	steps[0] = step{"submitted", t.Created.Add(work / 2)}
	steps[1] = step{"working", t.Created.Add(work)}
	return steps, 2
}

// MarkUndelivered records that the answer of the send that created the
// task never reached the client (the connection was dropped, or the
// client left a held answer).
func (t *Task) MarkUndelivered() { t.undelivered.Store(true) }

// Undelivered reports whether MarkUndelivered was called.
func (t *Task) Undelivered() bool { return t.undelivered.Load() }

// Canceled reports whether the task was cancelled.
func (t *Task) Canceled() bool { return t.canceled.Load() }

// MarkCanceled marks the task cancelled whatever its state; Store.Cancel
// is the checked form a cancel request takes. SignalCancel then tells the
// task's streams.
func (t *Task) MarkCanceled() { t.canceled.Store(true) }

// CanceledC returns a channel closed once the task is cancelled: what a
// stream of the task waits on beside its next event.
func (t *Task) CanceledC() <-chan struct{} {
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

// SignalCancel closes the channel of CanceledC for a cancelled task.
func (t *Task) SignalCancel() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancelC != nil && t.canceled.Load() && !t.cancelClosed {
		close(t.cancelC)
		t.cancelClosed = true
	}
}

// EndState is the state the task ends in (0.3 spelling): completed unless
// a fault said otherwise (End).
func (t *Task) EndState() string {
	if e := t.ended.Load(); e != nil {
		return *e
	}
	if t.Asking() {
		return "input-required"
	}
	if t.End != "" {
		return t.End
	}
	return "completed"
}

// Asking reports whether the task waits at input-required for an answer
// to its question: it has asked (Asks) more often than it was answered.
func (t *Task) Asking() bool { return int(t.answers.Load()) < t.Asks }

// Turn is the number of the question the task asks now or last asked,
// from 1 (0: it never asks).
func (t *Task) Turn() int { return min(int(t.answers.Load())+1, t.Asks) }

// TakeAnswer records a continuation that reached the task while it was
// asking: one question answered. It reports false (and records nothing)
// for a task that was not asking.
func (t *Task) TakeAnswer() bool {
	for {
		n := t.answers.Load()
		if int(n) >= t.Asks {
			return false
		}
		if t.answers.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// EndMeanwhile ends an asking task in its EndsMeanwhile state, as an
// agent that gives up waiting does; it reports whether it did (false for a
// task that was not asking or has no such state).
func (t *Task) EndMeanwhile() bool {
	if t.EndsMeanwhile == "" || !t.Asking() {
		return false
	}
	s := t.EndsMeanwhile
	return t.ended.CompareAndSwap(nil, &s)
}

// DoneAt is when a task that is not held reaches its end state, for a
// fleet whose tasks work for work.
func (t *Task) DoneAt(work time.Duration) time.Time {
	if t.WorkFor > 0 {
		return t.Created.Add(t.WorkFor)
	}
	return t.Created.Add(work)
}

// AddMessage appends a follow-up message, dropping the oldest follow-up
// past MaxHistory; past the byte budget it keeps a stub, or nothing
// (chargeLocked).
func (t *Task) AddMessage(m *a2a.Message) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.more) >= MaxHistory-1 {
		n := len(t.more) - (MaxHistory - 2)
		t.refundLocked(t.moreCost[:n])
		t.more = slices.Delete(t.more, 0, n)
		t.moreCost = slices.Delete(t.moreCost, 0, n)
	}
	if m, c := t.chargeLocked(m); m != nil {
		t.more = append(t.more, m)
		t.moreCost = append(t.moreCost, c)
	}
}

// Messages are the task's messages, oldest first: Input, then the
// follow-ups it keeps.
func (t *Task) Messages() []*a2a.Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*a2a.Message{t.Input}, t.more...)
}

// OnlyInput reports whether the task holds its first message only.
func (t *Task) OnlyInput() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.more) == 0
}

// Terminal reports whether state (0.3 spelling) is terminal: completed,
// canceled, failed or rejected.
func Terminal(state string) bool {
	switch state {
	case "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// Store keeps the fleet's tasks, forgetting the oldest past its caps
// (max fleet-wide, MaxPerVendor per vendor) and its Budget. Tasks are
// keyed by vendor and id: a 0.1 client names its own task ids and may send
// the same id to several vendors.
type Store struct {
	mu     sync.Mutex
	max    int
	budget *Budget
	// byID holds the stored tasks.
	byID map[ref]*Task
	// order holds the fleet's tasks oldest first, and also tasks removed
	// since (stored false), dead entries that dropOldest and oldest skip
	// and compact sweeps out once they are half of order: removing a task
	// costs no search of order.
	order    []*Task
	dead     int
	byVendor map[string][]*Task // oldest first
	// byMessage holds, by vendor and messageId, the newest stored task
	// whose first message had that id (Resent).
	byMessage map[ref]*Task
}

// ref is a task's key in the store.
type ref struct{ vendor, id string }

func refOf(t *Task) ref { return ref{t.Vendor, t.ID} }

// NewStore returns a store of at most max tasks within budget (nil: no
// byte budget).
func NewStore(max int, budget *Budget) *Store {
	if budget == nil {
		budget = NewBudget(math.MaxInt64, math.MaxInt64)
	}
	return &Store{max: max, budget: budget, byID: map[ref]*Task{}, byVendor: map[string][]*Task{}, byMessage: map[ref]*Task{}}
}

// Budget is the byte budget the store keeps within.
func (s *Store) Budget() *Budget { return s.budget }

// Put stores t, a task of its vendor's, first forgetting the oldest tasks
// past the caps and the budget; t replaces a task of the same vendor and
// id (a 0.1 client reused its task id).
func (s *Store) Put(t *Task) {
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
	if vs := s.byVendor[t.Vendor]; len(vs) >= MaxPerVendor {
		n := max(len(vs)/10, 1)
		s.budget.capped.Add(int64(n))
		for _, old := range vs[:n] {
			s.unindex(old)
			old.release()
		}
		s.byVendor[t.Vendor] = append(vs[:0], vs[n:]...)
	}
	s.charge(t)
	s.byID[k] = t
	if m := messageRef(t); m.id != "" {
		s.byMessage[m] = t
	}
	t.stored = true
	s.order = append(s.order, t)
	s.byVendor[t.Vendor] = append(s.byVendor[t.Vendor], t)
}

// unindex takes t out of byID and marks its entry in order dead. The
// caller holds s.mu.
func (s *Store) unindex(t *Task) {
	if !t.stored {
		return
	}
	delete(s.byID, refOf(t))
	if m := messageRef(t); s.byMessage[m] == t {
		delete(s.byMessage, m)
	}
	t.stored = false
	s.dead++
	if s.dead > len(s.order)/2 {
		s.order = slices.DeleteFunc(s.order, func(t *Task) bool { return !t.stored })
		s.dead = 0
	}
}

// oldest returns the fleet's oldest stored task (nil: none), dropping
// the dead entries before it. The caller holds s.mu.
func (s *Store) oldest() *Task {
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
func (s *Store) dropOldest(n int) {
	gone := map[*Task]bool{}
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
		s.byVendor[v] = slices.DeleteFunc(vs, func(t *Task) bool { return gone[t] })
	}
}

// Get returns the vendor's task with that id, or nil: a vendor never sees
// another vendor's tasks.
func (s *Store) Get(vendor, id string) *Task {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[ref{vendor, id}]
}

// messageRef keys a task by its vendor and its first message's id (id
// "" when it has none).
func messageRef(t *Task) ref {
	if t.Input == nil {
		return ref{t.Vendor, ""}
	}
	return ref{t.Vendor, t.Input.MessageID}
}

// Resent returns the vendor's newest stored task whose first message had
// messageID, when same accepts it; nil otherwise: what a vendor that
// deduplicates sends by messageId (A2A 1.0 §3.3.1) answers a resend with.
// An empty messageID finds nothing.
func (s *Store) Resent(vendor, messageID string, same func(*Task) bool) *Task {
	if messageID == "" {
		return nil
	}
	s.mu.Lock()
	t := s.byMessage[ref{vendor, messageID}]
	s.mu.Unlock()
	if t == nil || !same(t) {
		return nil
	}
	return t
}

// List returns the vendor's tasks, newest first.
func (s *Store) List(vendor string) []*Task {
	s.mu.Lock()
	defer s.mu.Unlock()
	vs := s.byVendor[vendor]
	out := make([]*Task, len(vs))
	for i, t := range vs {
		out[len(vs)-1-i] = t
	}
	return out
}

// Cancel cancels the vendor's task with that id unless it is terminal at
// now (State with work); it returns the task (nil: none) and whether it
// was cancelable. The caller then calls the task's SignalCancel.
func (s *Store) Cancel(vendor, id string, now time.Time, work time.Duration) (*Task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID[ref{vendor, id}]
	if t == nil {
		return nil, false
	}
	if Terminal(t.State(now, work)) {
		return t, false
	}
	t.canceled.Store(true)
	return t, true
}

// Reset forgets every task and returns every byte to the budget.
func (s *Store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.byID {
		t.stored = false
		t.release()
	}
	s.budget.reset()
	s.byID = map[ref]*Task{}
	s.order, s.dead = nil, 0
	s.byVendor = map[string][]*Task{}
	s.byMessage = map[ref]*Task{}
}

// Counts returns how many tasks the store holds and how many live entries
// its order of the fleet's tasks has: always the same number.
func (s *Store) Counts() (stored, ordered int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID), len(s.order) - s.dead
}

// NewID returns prefix followed by 16 random hex digits: a fresh id of a
// task, a context, a message or a push config.
func NewID(prefix string) string {
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
