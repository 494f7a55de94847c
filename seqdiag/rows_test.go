package seqdiag

import (
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestRows checks the pieces of a row diagram: each is well-formed SVG
// without ids, a row per event with its classes, every label and host name
// drawn in full (no ellipsis, whatever its length), a result drawn after
// an arrow label that runs past the arrow head, and a width that holds the
// longest row.
func TestRows(t *testing.T) {
	long := strings.Repeat("very-long-skill-name-", 6)
	events := append(sample(),
		mockvendor.Event{Seq: 9, Host: "a-very-long-host-name.gateway.vendor-b.example", Vendor: "b", HTTPMethod: "POST", Path: "/a2a", Op: mockvendor.OpSend,
			Method: "SendMessage", Dialect: "1.0", Skill: long, Status: 200, State: "completed"})
	d := Rows(events, Options{Highlight: 5, Orchestrator: "orch"})
	if len(d.Rows) != len(events) {
		t.Fatalf("%d rows for %d events", len(d.Rows), len(events))
	}
	texts, ids := wellFormed(t, d.Head)
	if len(ids) != 0 {
		t.Errorf("the head has ids %v", ids)
	}
	if !contains(texts, "a-very-long-host-name.gateway.vendor-b.example") || !contains(texts, Outside) {
		t.Errorf("the head's names %q: want every host in full and the outside lane", texts)
	}
	for i, r := range d.Rows {
		e := events[i]
		texts, ids := wellFormed(t, r.SVG)
		if len(ids) != 0 {
			t.Errorf("row #%d has ids %v", r.Seq, ids)
		}
		req, res := Labels(e)
		drawn := strings.Map(func(c rune) rune { // what esc makes of a character XML cannot carry
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return '\uFFFD'
			}
			return c
		}, req)
		if r.Seq != e.Seq || r.Label != req || r.Result != res || !contains(texts, drawn) || res != "" && !contains(texts, res) {
			t.Errorf("row #%d (%q, %q) draws %q; want %q and %q in full", r.Seq, r.Label, r.Result, texts, drawn, res)
		}
		for _, tx := range texts {
			if len(tx) > 3 && strings.HasSuffix(tx, "…") {
				t.Errorf("row #%d cuts %q", r.Seq, tx)
			}
		}
		if want := e.Seq == 5; strings.Contains(r.Class, "sq-hl") != want {
			t.Errorf("row #%d class %q, highlighted want %v", r.Seq, r.Class, want)
		}
		if !strings.Contains(string(r.SVG), `width="`+strconv.Itoa(d.Width)+`"`) {
			t.Errorf("row #%d is not %d wide", r.Seq, d.Width)
		}
	}
	if got := d.Rows[len(d.Rows)-1]; d.Width < left+6+textW(got.Label)+12+textW(got.Result) {
		t.Errorf("width %d does not hold the last row (%q, %q)", d.Width, got.Label, got.Result)
	}
	if !strings.Contains(d.Rows[4].Class, "sq-err") || !strings.Contains(d.Rows[6].Class, "sq-refused") {
		t.Errorf("classes: #5 %q (want sq-err), #7 %q (want sq-refused)", d.Rows[4].Class, d.Rows[6].Class)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
