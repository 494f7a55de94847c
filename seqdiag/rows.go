package seqdiag

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Diagram is a sequence diagram cut into pieces an HTML page can lay out
// one under the other: Head draws the lifelines' name boxes, and each Row
// one event (its lifeline segments, its arrow and its labels), so that a
// page can put each row in a <details> and open the event's request and
// answer right under its arrow. Every piece is a self-contained SVG
// element of the same Width, with no ids (a page may hold many diagrams)
// and no style of its own: the classes are those of Render (sq-ev, sq-err,
// sq-refused, sq-hl, sq-life, sq-head, sq-arrow, sq-seq, sq-res) plus
// sq-tip for an arrow head, for the page's stylesheet.
type Diagram struct {
	Width int
	Head  []byte
	Rows  []Row
}

// Row is one event of a Diagram.
type Row struct {
	Seq int64
	// Class is the event's classes: "sq-ev", plus "sq-err" (a JSON-RPC
	// error or an HTTP status of 400 and up), "sq-refused" (a proxy
	// refusal) and "sq-hl" (Options.Highlight).
	Class string
	// Label and Result are the texts drawn on and after the arrow (Labels),
	// in full.
	Label, Result string
	SVG           []byte
}

// RowHeight is the height of a Row's SVG.
const RowHeight = rowH

// Rows draws the events like Render, as a Diagram. Unlike Render it cuts
// no label: lifelines are spaced for the longest host name, a result is
// drawn after its arrow label when the label runs past the arrow head, and
// the width fits the longest row. Options.MaxLabel is ignored; Title too
// (a page has its own headings).
func Rows(events []mockvendor.Event, opts Options) Diagram {
	if opts.Orchestrator == "" {
		opts.Orchestrator = "orchestrator"
	}
	lanes, index := laneNames(events, opts.Orchestrator)
	col := colW
	for _, name := range lanes {
		col = max(col, textW(name)+40)
	}
	x := func(i int) int { return left + i*col }
	width := x(len(lanes)-1) + col/2
	type row struct {
		e          mockvendor.Event
		from, to   int
		req, res   string
		cls        string
		resX, ends int
	}
	vendorLane := vendorLanes(events, index)
	rows := make([]row, 0, len(events))
	for _, e := range events {
		r := row{e: e, cls: arrowClass(e)}
		r.from, r.to = arrowEnds(e, index, vendorLane)
		r.req, r.res = Labels(e)
		if opts.Highlight != 0 && e.Seq == opts.Highlight {
			r.cls += " sq-hl"
		}
		labelEnd := x(min(r.from, r.to)) + 6 + textW(r.req)
		r.resX = x(max(r.from, r.to)) + 8
		if labelEnd+12 > r.resX {
			r.resX = labelEnd + 12
		}
		r.ends = max(labelEnd, r.resX+textW(r.res)) + 16
		width = max(width, r.ends)
		rows = append(rows, r)
	}
	d := Diagram{Width: width}

	// The head: a name box per lifeline, and the lifelines below them.
	var h bytes.Buffer
	headTotal := headTop + headH + 8
	svgOpen(&h, width, headTotal)
	for i, name := range lanes {
		cx := x(i)
		w := textW(name) + 16
		fmt.Fprintf(&h, `<line class="sq-life" x1="%d" y1="%d" x2="%d" y2="%d"/>`, cx, headTop+headH, cx, headTotal)
		h.WriteString(`<g class="sq-lane"><title>`)
		esc(&h, name)
		fmt.Fprintf(&h, `</title><rect class="sq-head" x="%d" y="%d" width="%d" height="%d" rx="4"/>`, cx-w/2, headTop, w, headH)
		fmt.Fprintf(&h, `<text x="%d" y="%d" text-anchor="middle">`, cx, headTop+headH/2+4)
		esc(&h, name)
		h.WriteString(`</text></g>`)
	}
	h.WriteString(`</svg>`)
	d.Head = h.Bytes()

	for _, r := range rows {
		var b bytes.Buffer
		svgOpen(&b, width, rowH)
		fmt.Fprintf(&b, `<g class="%s"><title>`, r.cls)
		esc(&b, Describe(r.e))
		b.WriteString(`</title>`)
		fmt.Fprintf(&b, `<rect class="sq-bg" x="0" y="0" width="%d" height="%d" fill="none"/>`, width, rowH)
		for i := range lanes {
			fmt.Fprintf(&b, `<line class="sq-life" x1="%d" y1="0" x2="%d" y2="%d"/>`, x(i), x(i), rowH)
		}
		fmt.Fprintf(&b, `<text class="sq-seq" x="6" y="%d">#%d</text>`, rowH/2+4, r.e.Seq)
		ay := rowH - 9
		x1, x2 := x(r.from), x(r.to)
		back := 1 // the tip points right; a push to a lane on the left points left
		if x2 < x1 {
			back = -1
		}
		fmt.Fprintf(&b, `<line class="sq-arrow" x1="%d" y1="%d" x2="%d" y2="%d"/>`, x1, ay, x2-7*back, ay)
		fmt.Fprintf(&b, `<path class="sq-tip" d="M%d,%dl%d,-4v8z"/>`, x2, ay, -8*back)
		fmt.Fprintf(&b, `<text x="%d" y="%d">`, min(x1, x2)+6, ay-5)
		esc(&b, r.req)
		b.WriteString(`</text>`)
		if r.res != "" {
			fmt.Fprintf(&b, `<text class="sq-res" x="%d" y="%d">`, r.resX, ay+4)
			esc(&b, r.res)
			b.WriteString(`</text>`)
		}
		b.WriteString(`</g></svg>`)
		d.Rows = append(d.Rows, Row{Seq: r.e.Seq, Class: r.cls, Label: r.req, Result: r.res, SVG: b.Bytes()})
	}
	return d
}

// outsideKey is the lane index key of the outside world (no host name can
// hold a NUL).
const outsideKey = "\x00outside"

// arrowEnds returns the lanes an event's arrow joins: from the
// orchestrator to the event's host, but for a push notification from the
// first lane of the vendor that sent it (vendorLane; the orchestrator's
// when none is drawn) to the receiver.
func arrowEnds(e mockvendor.Event, index map[string]int, vendorLane map[string]int) (from, to int) {
	switch e.Op {
	case mockvendor.OpRefused:
		return 0, index[outsideKey]
	case mockvendor.OpPushDelivery:
		return vendorLane[e.Vendor], index[e.Host]
	}
	return 0, index[e.Host]
}

// vendorLanes maps each vendor to the lane of its first host the events
// reach (push notifications aside: their host is the receiver's).
func vendorLanes(events []mockvendor.Event, index map[string]int) map[string]int {
	m := map[string]int{}
	for _, e := range events {
		if _, ok := m[e.Vendor]; !ok && e.Vendor != "" && e.Op != mockvendor.OpRefused && e.Op != mockvendor.OpPushDelivery {
			m[e.Vendor] = index[e.Host]
		}
	}
	return m
}

// arrowClass is the class of an event's arrow group: "sq-ev", plus
// "sq-refused" for a proxy refusal or "sq-err" for an error answer or an
// undelivered notification.
func arrowClass(e mockvendor.Event) string {
	switch {
	case e.Op == mockvendor.OpRefused:
		return "sq-ev sq-refused"
	case e.ErrorCode != 0 || e.Status >= 400 || e.DeliveryError != "":
		return "sq-ev sq-err"
	}
	return "sq-ev"
}

// laneNames returns the lifelines (the orchestrator, the hosts in order of
// first appearance, then Outside when something was refused) and the lane
// of each host.
func laneNames(events []mockvendor.Event, orchestrator string) ([]string, map[string]int) {
	lanes := []string{orchestrator}
	index := map[string]int{}
	refused := false
	for _, e := range events {
		if e.Op == mockvendor.OpRefused {
			refused = true
			continue
		}
		if _, ok := index[e.Host]; !ok {
			index[e.Host] = len(lanes)
			lanes = append(lanes, e.Host)
		}
	}
	if refused {
		index[outsideKey] = len(lanes)
		lanes = append(lanes, Outside)
	}
	return lanes, index
}

// textW is the drawn width of s in the diagram's monospace font.
func textW(s string) int { return int(float64(utf8.RuneCountInString(s))*charW + 0.5) }

func svgOpen(b *bytes.Buffer, w, h int) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="seqdiag" width="%d" height="%d" viewBox="0 0 %d %d" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="%d" role="img">`, w, h, w, h, fontSize)
}
