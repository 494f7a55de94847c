package trace

import "testing"

// TestTraceOpen: a request being answered is counted open and its event is
// marked pending until it is finished; an event dropped meanwhile still
// closes its count.
func TestTraceOpen(t *testing.T) {
	tr := New(2, 1<<20)
	a := tr.Begin(Event{Host: "a"})
	if tr.Open() != 1 || !tr.Events()[0].Pending {
		t.Fatalf("open %d, events %+v; want 1 pending", tr.Open(), tr.Events())
	}
	tr.Finish(a, func(e *Event) { e.Op = OpSend })
	if ev := tr.Events()[0]; tr.Open() != 0 || ev.Pending || ev.Op != OpSend {
		t.Fatalf("open %d, event %+v; want 0, finished", tr.Open(), ev)
	}
	b := tr.Begin(Event{Host: "b"})
	tr.Add(Event{Host: "c"})
	tr.Add(Event{Host: "d"}) // b may be dropped: the trace keeps 2
	tr.Finish(b, func(*Event) {})
	if tr.Open() != 0 {
		t.Errorf("open %d after every request finished", tr.Open())
	}
}
