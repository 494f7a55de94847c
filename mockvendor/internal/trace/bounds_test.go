package trace

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestDeeperThan: brackets count outside strings only, whatever the
// escapes in them.
func TestDeeperThan(t *testing.T) {
	cases := []struct {
		in    string
		depth int // the nesting of in
	}{
		{`1`, 0},
		{`"[[[{{"`, 0},
		{`[]`, 1},
		{`{"a":[1,{"b":[]}]}`, 4},
		{`["\"[[[", "\\", [["]\""]]]`, 3},
		{`[[[[[[]]]]]]`, 6},
	}
	for _, c := range cases {
		if NestedDeeper([]byte(c.in), c.depth) || c.depth > 0 && !NestedDeeper([]byte(c.in), c.depth-1) {
			t.Errorf("%s: deeperThan does not find depth %d", c.in, c.depth)
		}
	}
}

// TestStrictText holds strictText to what strict JSON parsers accept.
func TestStrictText(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{`"plain"`, true},
		{`"caf\u00e9 \\ \" \n"`, true},
		{`"\ud83d\ude00"`, true},
		{`"\uD83D\uDE00"`, true},
		{`"\ud83d"`, false},
		{`"\ud83d x"`, false},
		{`"\ud83d\n"`, false},
		{`"\ude00"`, false},
		{`"\\ud800"`, true}, // an escaped backslash, then text
		{"\"\xff\"", false},
		{`"\u12"`, false},
	}
	for _, c := range cases {
		if got := strictText([]byte(c.in)); got != c.want {
			t.Errorf("strictText(%s) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestTraceBodyBudgetFreed checks that dropped events give their bodies
// back to the budget, and that a reset of the trace empties it.
func TestTraceBodyBudgetFreed(t *testing.T) {
	tr := New(10, 1000)
	body := json.RawMessage(`"` + strings.Repeat("b", 98) + `"`) // 100 bytes
	for i := 0; i < 100; i++ {
		seq := tr.Begin(Event{Host: "h"})
		tr.Finish(seq, func(e *Event) { e.Request = body })
	}
	for _, e := range tr.Events() {
		if e.Request == nil {
			t.Fatalf("event %d keeps no body (%s) although 10 events of 100 bytes fit in 1000", e.Seq, e.RequestNotKept)
		}
	}
	tr.Reset()
	for i := 0; i < 10; i++ {
		seq := tr.Begin(Event{Host: "h"})
		tr.Finish(seq, func(e *Event) { e.Request = body })
	}
	if n := tr.BodiesLeftOut(); n != 0 {
		t.Errorf("%d bodies left out after a reset", n)
	}
}

// BenchmarkTraceMemory fills a trace with 10,000 events, ordinary ones
// (a card fetch as a client sends it) or hostile ones (every text field
// 64 KiB, 1,000 coercions, a 60 KiB body), and reports the heap each
// event holds: the per-event figure Limits.MaxTraceEvents documents, and
// the hostile/ordinary ratio in the same run. Bodies count against
// Limits.MaxTraceBodyBytes (here 64 MiB, the default), so past it the
// hostile events keep none.
func BenchmarkTraceMemory(b *testing.B) {
	const n = 10_000
	big := strings.Repeat("h", 64<<10)
	body := json.RawMessage(`"` + strings.Repeat("b", 60<<10) + `"`)
	ordinary := Event{Vendor: "d", Host: "agent-d.example", ServerName: "agent-d.example", HTTPMethod: "GET", Path: "/.well-known/agent-card.json",
		Op: OpCardFetch, Status: 200, ContentType: "application/json", Served: "cdn", CacheControl: "no-cache"}
	hostile := Event{Vendor: big, Host: big, ServerName: big, HTTPMethod: big, Path: big, Method: big, Dialect: big,
		RPCID: json.RawMessage(`"` + big + `"`), A2AVersion: big, A2AVersionQuery: big, A2AExtensions: big, XA2AExtensions: big, CacheControl: big, Pragma: big,
		IfNoneMatch: big, Skill: big, TaskID: big, ContentType: big, State: big, ErrorMessage: big, Served: big, Note: big,
		Coercions: make([]Coercion, 1000), Request: body}
	perEvent := map[string]float64{}
	for _, c := range []struct {
		name string
		ev   Event
	}{{"ordinary", ordinary}, {"hostile", hostile}} {
		b.Run(c.name, func(b *testing.B) {
			var per float64
			for i := 0; i < b.N; i++ {
				before := tbHeap()
				tr := New(tFleetMaxEvents, tFleetBodyBudget)
				for j := 0; j < n; j++ {
					ev := c.ev
					// Copies, as a request's fields are fresh strings.
					ev.Host = strings.Clone(ev.Host)
					ev.Path = strings.Clone(ev.Path)
					ev.CacheControl = strings.Clone(ev.CacheControl)
					ev.Coercions = append([]Coercion(nil), ev.Coercions...)
					seq := tr.Begin(ev)
					tr.Finish(seq, func(e *Event) { *e = tWithSeq(ev, e) })
				}
				after := tbHeap()
				per = float64(int64(after)-int64(before)) / n
				if kept := tr.Events(); len(kept) != n {
					b.Fatalf("%d events kept", len(kept))
				}
				tbKeep = tr
			}
			perEvent[c.name] = per
			b.ReportMetric(per, "B/event")
			b.ReportMetric(0, "ns/op")
		})
	}
	if o, h := perEvent["ordinary"], perEvent["hostile"]; o > 0 && h > 0 {
		b.Logf("heap per event: ordinary %.0f B, hostile %.0f B (ratio %.1f), bodies within %d MiB", o, h, h/o, tFleetBodyBudget>>20)
	}
}

// The fleet's default caps of the trace (Limits.MaxTraceEvents and
// Limits.MaxTraceBodyBytes when zero, mockvendor's config.go).
const (
	tFleetMaxEvents  = 100_000
	tFleetBodyBudget = 64 << 20
)

// tWithSeq is ev with the sequence number and arrival time the trace gave
// old: how the fleet's Finish callback fills in a whole event.
func tWithSeq(ev Event, old *Event) Event {
	ev.Seq, ev.Time = old.Seq, old.Time
	return ev
}

var tbKeep *Trace

func tbHeap() uint64 {
	tbKeep = nil
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestCheckTextCopiesID checks that an event's id does not share the
// request body's memory: a 1-byte id slicing a 60 KiB body would keep the
// whole body alive in every event, past the body budget.
func TestCheckTextCopiesID(t *testing.T) {
	body := []byte(`{"id":7,"pad":"` + strings.Repeat("p", 60<<10) + `"}`)
	e := Event{RPCID: body[6:7], Request: body}
	CheckText(&e)
	if string(e.RPCID) != "7" {
		t.Fatalf("id %q, want 7", e.RPCID)
	}
	if &e.RPCID[0] == &body[6] {
		t.Error("the event's id still points into the request body")
	}
}

// TestTraceSeenIsBounded: an event keeps at most MaxTracedSeen states.
func TestTraceSeenIsBounded(t *testing.T) {
	e := Event{Seen: make([]SeenState, MaxTracedSeen+5)}
	Clip(&e)
	if len(e.Seen) != MaxTracedSeen || !slices.Contains(e.Clipped, "seen") {
		t.Errorf("seen %d, clipped %v", len(e.Seen), e.Clipped)
	}
}
