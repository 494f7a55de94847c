package tasks

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Budget accounts, in bytes, what the task store keeps: each task's own
// strings and its messages (texts, data, files, metadata), per vendor and
// for the whole fleet (the root's Limits.MaxVendorTaskBytes and
// Limits.MaxTaskBytes). A scenario runs its own fleet, so the fleet's
// budget is the scenario's. The counts alone (the store's cap,
// MaxPerVendor, MaxHistory) let a flood of 1 MiB bodies hold gigabytes;
// the budget bounds the bytes whatever the messages hold.
//
// A new task that does not fit makes room by forgetting the oldest tasks
// (of its vendor when the vendor's budget is spent, else of the fleet), as
// the count caps do. A follow-up message that does not fit is kept as a
// stub (role, message id clipped to trace.MaxTracedField, one text part
// saying how many bytes were left out); when even the stub does not fit,
// the message is not added to the task's history.
//
// Lock order: the store's mutex, then a task's, then the budget's (a leaf).
type Budget struct {
	mu        sync.Mutex
	max       int64 // whole fleet
	maxVendor int64 // each vendor
	used      int64
	byVendor  map[string]int64

	// forgotten counts the tasks forgotten to make room, stubbed the
	// follow-ups kept as stubs, leftOut the follow-ups not kept at all;
	// capped the tasks the count caps (the store's, MaxPerVendor) forgot.
	forgotten, stubbed, leftOut, capped atomic.Int64
}

// NewBudget returns a budget of max bytes for the fleet and maxVendor
// for each vendor.
func NewBudget(max, maxVendor int64) *Budget {
	return &Budget{max: max, maxVendor: maxVendor, byVendor: map[string]int64{}}
}

// fits reports whether n more bytes for vendor stay within both budgets;
// over says which one is spent ("vendor" or "fleet").
func (b *Budget) fits(vendor string, n int64) (ok bool, over string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.byVendor[vendor]+n > b.maxVendor:
		return false, "vendor"
	case b.used+n > b.max:
		return false, "fleet"
	}
	return true, ""
}

// take charges n bytes to vendor if they fit.
func (b *Budget) take(vendor string, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byVendor[vendor]+n > b.maxVendor || b.used+n > b.max {
		return false
	}
	b.used += n
	b.byVendor[vendor] += n
	return true
}

// give returns n bytes of vendor's.
func (b *Budget) give(vendor string, n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if b.byVendor[vendor] -= n; b.byVendor[vendor] <= 0 {
		delete(b.byVendor, vendor)
	}
}

// InUse returns the bytes charged, the fleet's and vendor's.
func (b *Budget) InUse(vendor string) (fleet, ofVendor int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.byVendor[vendor]
}

// Forgotten counts the tasks the store forgot to make room in the budget.
func (b *Budget) Forgotten() int64 { return b.forgotten.Load() }

// Stubbed counts the follow-up messages kept as stubs past the budget.
func (b *Budget) Stubbed() int64 { return b.stubbed.Load() }

// LeftOut counts the follow-up messages not kept at all past the budget.
func (b *Budget) LeftOut() int64 { return b.leftOut.Load() }

// Capped counts the tasks the count caps forgot: the store's cap
// (NewStore) and MaxPerVendor.
func (b *Budget) Capped() int64 { return b.capped.Load() }

func (b *Budget) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used = 0
	b.byVendor = map[string]int64{}
}

// taskCost is what a task costs with its input message alone: a fixed
// overhead, its strings and the message.
func taskCost(t *Task) int64 {
	return 256 + int64(len(t.ID)+len(t.ContextID)+len(t.Skill)+len(t.Output)) + messageCost(t.Input)
}

// messageCost estimates the bytes a decoded message holds: its strings,
// raw JSON and metadata, plus a fixed overhead per message and part.
func messageCost(m *a2a.Message) int64 {
	if m == nil {
		return 0
	}
	n := int64(128 + len(m.Role) + len(m.MessageID) + len(m.ContextID) + len(m.TaskID))
	n += valueCost(m.Metadata)
	for i := range m.Parts {
		p := &m.Parts[i]
		n += int64(96 + len(p.Kind) + len(p.Text) + len(p.Data) + len(p.File) + len(p.MediaType) + len(p.Filename))
		n += valueCost(p.Metadata)
	}
	return n
}

// valueCost estimates the bytes of a decoded JSON value (map[string]any,
// []any, string, number, bool, nil): its strings and 16 bytes per value.
func valueCost(v any) int64 {
	switch v := v.(type) {
	case nil:
		return 0
	case string:
		return 16 + int64(len(v))
	case map[string]any:
		n := int64(48)
		for k, e := range v {
			n += 16 + int64(len(k)) + valueCost(e)
		}
		return n
	case []any:
		n := int64(24)
		for _, e := range v {
			n += 16 + valueCost(e)
		}
		return n
	}
	return 16
}

// stubMessage is what a task keeps of a follow-up message that did not fit
// the budget: who sent it, its id (clipped) and how many bytes were left
// out. The strings are copies, so the original's memory is freed.
func stubMessage(m *a2a.Message, cost int64) *a2a.Message {
	return &a2a.Message{
		Role:      clipCopy(m.Role),
		MessageID: clipCopy(m.MessageID),
		Parts: []a2a.Part{{Kind: "text", Text: fmt.Sprintf(
			"[message not kept: about %d bytes past the task store's byte budget]", cost)}},
	}
}

// clipCopy is a copy of at most trace.MaxTracedField bytes of s, not
// splitting a UTF-8 sequence.
func clipCopy(s string) string {
	if len(s) > trace.MaxTracedField {
		s = trace.CutUTF8(s, trace.MaxTracedField)
	}
	return strings.Clone(s)
}

// charge charges t, new to the store, to the budget, first forgetting the
// oldest tasks until it fits (charge then takes the bytes even if the
// store is empty: the budget is exceeded by at most one task, whose input
// is at most the root's Limits.MaxBody). The caller holds s.mu.
func (s *Store) charge(t *Task) {
	cost := taskCost(t)
	for {
		ok, over := s.budget.fits(t.Vendor, cost)
		if ok {
			break
		}
		var old *Task
		if vs := s.byVendor[t.Vendor]; over == "vendor" && len(vs) > 0 {
			old = vs[0]
		} else if over == "fleet" {
			old = s.oldest()
		}
		if old == nil {
			break
		}
		s.remove(old)
		s.budget.forgotten.Add(1)
	}
	s.budget.mu.Lock()
	s.budget.used += cost
	s.budget.byVendor[t.Vendor] += cost
	s.budget.mu.Unlock()
	t.mu.Lock()
	t.budget, t.cost = s.budget, cost
	t.mu.Unlock()
}

// remove forgets one task of the store and returns its bytes. The caller
// holds s.mu.
func (s *Store) remove(t *Task) {
	if s.byID[refOf(t)] == t {
		s.unindex(t)
	}
	if vs := s.byVendor[t.Vendor]; len(vs) > 0 {
		if i := slices.Index(vs, t); i >= 0 {
			s.byVendor[t.Vendor] = slices.Delete(vs, i, i+1)
		}
	}
	t.release()
}

// release returns the task's bytes to its budget; the task is no longer
// charged (a follow-up that reaches it after it was forgotten is kept
// uncharged, for the request in flight only).
func (t *Task) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.budget != nil {
		t.budget.give(t.Vendor, t.cost)
	}
	t.budget, t.cost = nil, 0
}

// refundLocked returns the bytes of follow-ups being dropped. The caller
// holds t.mu.
func (t *Task) refundLocked(costs []int64) {
	var n int64
	for _, c := range costs {
		n += c
	}
	if t.budget != nil && n > 0 {
		t.budget.give(t.Vendor, n)
		t.cost -= n
	}
}

// chargeLocked charges follow-up m to the task's budget and returns what
// the task keeps of it and its cost: m itself if it fits, else its stub if
// that fits, else nil. The caller holds t.mu.
func (t *Task) chargeLocked(m *a2a.Message) (*a2a.Message, int64) {
	b := t.budget
	if b == nil {
		return m, 0
	}
	c := messageCost(m)
	if b.take(t.Vendor, c) {
		t.cost += c
		return m, c
	}
	st := stubMessage(m, c)
	sc := messageCost(st)
	if b.take(t.Vendor, sc) {
		b.stubbed.Add(1)
		t.cost += sc
		return st, sc
	}
	b.leftOut.Add(1)
	return nil, 0
}
