package trace

import "testing"

// TestTraceChunks: events kept across chunk boundaries come back in order,
// from any index, after drops of the oldest that free whole chunks and
// ones that stop inside a chunk.
func TestTraceChunks(t *testing.T) {
	cases := []struct {
		name        string
		push, drops int // events pushed, then dropped from the oldest
		from        int // copyTo's first index
	}{
		{"empty", 0, 0, 0},
		{"one chunk", 10, 0, 3},
		{"exactly a chunk", traceChunk, 0, 0},
		{"three chunks", 3*traceChunk + 5, 0, traceChunk - 1},
		{"drop inside the first chunk", 2*traceChunk + 1, 7, 0},
		{"drop a whole chunk and more", 3*traceChunk + 2, traceChunk + 3, traceChunk},
		{"drop all", 2 * traceChunk, 2 * traceChunk, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &Trace{}
			for i := 1; i <= c.push; i++ {
				tr.push(Event{Seq: int64(i)})
			}
			tr.dropOldest(c.drops)
			if want := c.push - c.drops; tr.n != want {
				t.Fatalf("n = %d, want %d", tr.n, want)
			}
			if chunks, most := len(tr.chunks), tr.n/traceChunk+2; chunks > most {
				t.Errorf("%d chunks held for %d events, want at most %d", chunks, tr.n, most)
			}
			out := make([]Event, tr.n-min(c.from, tr.n))
			if got := tr.copyTo(out, min(c.from, tr.n)); got != len(out) {
				t.Fatalf("copyTo copied %d, want %d", got, len(out))
			}
			for k, e := range out {
				if want := int64(c.drops + min(c.from, tr.n) + k + 1); e.Seq != want {
					t.Fatalf("event %d has seq %d, want %d", k, e.Seq, want)
				}
			}
			tr.push(Event{Seq: -1})
			if e := tr.at(tr.n - 1); e.Seq != -1 {
				t.Errorf("the newest event after a push has seq %d", e.Seq)
			}
		})
	}
}
