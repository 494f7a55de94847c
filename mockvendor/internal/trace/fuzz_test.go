package trace

import (
	"reflect"
	"sort"
	"testing"
)

// trRef is the trace as a plain slice (what Trace was before its ring
// buffer), the model FuzzTraceRing checks Trace against.
type trRef struct {
	events       []Event
	seq, dropped int64
	max          int
}

func (t *trRef) begin(e Event) int64 {
	t.seq++
	e.Seq = t.seq
	e.Pending = true
	if len(t.events) >= t.max {
		n := max(len(t.events)/10, 1)
		t.events = append(t.events[:0], t.events[n:]...)
		t.dropped += int64(n)
	}
	t.events = append(t.events, e)
	return e.Seq
}

func (t *trRef) finish(seq int64, note string) {
	i := sort.Search(len(t.events), func(i int) bool { return t.events[i].Seq >= seq })
	if i == len(t.events) || t.events[i].Seq != seq {
		return
	}
	t.events[i].Note = note
	t.events[i].Pending = false
}

func (t *trRef) since(seq int64) []Event {
	for i, e := range t.events {
		if e.Seq > seq {
			return append([]Event(nil), t.events[i:]...)
		}
	}
	return nil
}

// FuzzTraceRing runs a sequence of begin, finish, Since and Reset
// operations on a Trace and on the slice model, and compares what they
// keep, drop and return.
func FuzzTraceRing(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 0, 0, 0, 3, 0, 0, 1, 1, 2}, uint8(3))
	f.Add([]byte("begin and finish a few hundred times, wrapping the ring around its cap"), uint8(10))
	f.Fuzz(func(t *testing.T, ops []byte, max8 uint8) {
		max := int(max8%40) + 1
		tr := New(max, 1<<20)
		ref := &trRef{max: max}
		var open []int64
		for i, op := range ops {
			switch op % 5 {
			case 0, 1: // begin
				e := Event{Host: "h", Note: "begun"}
				s1, s2 := tr.Begin(e), ref.begin(e)
				if s1 != s2 {
					t.Fatalf("op %d: seq %d, model %d", i, s1, s2)
				}
				open = append(open, s1)
			case 2: // finish one of the open events (maybe dropped already)
				if len(open) == 0 {
					continue
				}
				k := int(op/5) % len(open)
				seq := open[k]
				open = append(open[:k], open[k+1:]...)
				tr.Finish(seq, func(e *Event) { e.Note = "done" })
				ref.finish(seq, "done")
			case 3: // Since
				seq := tr.Seq() - int64(op/5)%int64(max+2)
				got, want := tr.Since(seq), ref.since(seq)
				for j := range got {
					got[j].DurationMs, got[j].Time = 0, want[j].Time
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("op %d: Since(%d) = %d events, model %d", i, seq, len(got), len(want))
				}
			case 4:
				if op/5%7 == 0 {
					tr.Reset()
					ref.events = nil
				}
			}
			got := tr.Events()
			if len(got) != len(ref.events) || tr.Dropped() != ref.dropped || tr.Seq() != ref.seq {
				t.Fatalf("op %d: %d events, %d dropped, seq %d; model %d, %d, %d", i, len(got), tr.Dropped(), tr.Seq(), len(ref.events), ref.dropped, ref.seq)
			}
			for j := range got {
				if got[j].Seq != ref.events[j].Seq || got[j].Note != ref.events[j].Note {
					t.Fatalf("op %d: event %d is %d %q, model %d %q", i, j, got[j].Seq, got[j].Note, ref.events[j].Seq, ref.events[j].Note)
				}
			}
		}
	})
}
