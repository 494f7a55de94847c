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
		to         int
		req, res   string
		cls        string
		resX, ends int
	}
	rows := make([]row, 0, len(events))
	for _, e := range events {
		r := row{e: e, cls: "sq-ev"}
		if e.Op == mockvendor.OpRefused {
			r.to = index[outsideKey]
		} else {
			r.to = index[e.Host]
		}
		r.req, r.res = Labels(e)
		switch {
		case e.Op == mockvendor.OpRefused:
			r.cls += " sq-refused"
		case e.ErrorCode != 0 || e.Status >= 400:
			r.cls += " sq-err"
		}
		if opts.Highlight != 0 && e.Seq == opts.Highlight {
			r.cls += " sq-hl"
		}
		labelEnd := x(0) + 6 + textW(r.req)
		r.resX = x(r.to) + 8
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
		x1, x2 := x(0), x(r.to)
		fmt.Fprintf(&b, `<line class="sq-arrow" x1="%d" y1="%d" x2="%d" y2="%d"/>`, x1, ay, x2-7, ay)
		fmt.Fprintf(&b, `<path class="sq-tip" d="M%d,%dl-8,-4v8z"/>`, x2, ay)
		fmt.Fprintf(&b, `<text x="%d" y="%d">`, x1+6, ay-5)
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
