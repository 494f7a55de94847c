// Package seqdiag draws a fleet trace as a self-contained SVG sequence
// diagram: a lifeline for the orchestrator, one per fleet host in order of
// first appearance, and one arrow per request labelled with what matters to
// the checks (card fetches with their cache headers and the copy served,
// JWKS fetches, probes, sends with their skill, errors, cancels). Proxy
// refusals go in red to an "outside" lifeline.
//
// Every text comes from the trace, that is from the orchestrator under test,
// and is escaped. Each arrow is a group with id "ev-SEQ" (Anchor), so an
// HTML report can link a failed check to its step.
package seqdiag

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Options change how a diagram is drawn. The zero value draws every event
// with nothing highlighted.
type Options struct {
	// Highlight marks the event with this sequence number (a failed check's
	// step). Zero marks none.
	Highlight int64
	// Title is drawn above the diagram. Empty draws none.
	Title string
	// Orchestrator labels the client's lifeline. Empty means "orchestrator".
	Orchestrator string
	// MaxLabel caps an arrow label, in characters; the full text is in the
	// arrow's tooltip. Zero means 64.
	MaxLabel int
}

// Anchor is the id of an event's arrow group in the SVG ("ev-12").
func Anchor(seq int64) string { return "ev-" + strconv.FormatInt(seq, 10) }

// Outside is the lifeline of hosts outside the fleet (proxy refusals).
const Outside = "outside"

const (
	colW     = 200 // distance between lifelines
	left     = 110 // x of the orchestrator's lifeline
	headTop  = 14
	headH    = 28
	rowH     = 34
	charW    = 6.6 // average width of a 11px monospace character
	fontSize = 11
)

// Render draws the events (in the order given) as an SVG document.
func Render(events []mockvendor.Event, opts Options) []byte {
	if opts.Orchestrator == "" {
		opts.Orchestrator = "orchestrator"
	}
	if opts.MaxLabel <= 0 {
		opts.MaxLabel = 64
	}
	// Lifelines: the orchestrator, hosts in order of first appearance, then
	// the outside world when something was refused.
	lanes, index := laneNames(events, opts.Orchestrator)
	top := headTop
	if opts.Title != "" {
		top += 22
	}
	bodyTop := top + headH + 16
	width := left + (len(lanes)-1)*colW + 120
	if width < 420 {
		width = 420
	}
	height := bodyTop + len(events)*rowH + 20

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="seqdiag" width="%d" height="%d" viewBox="0 0 %d %d" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="%d" role="img">`, width, height, width, height, fontSize)
	b.WriteString(`<style>` +
		`.sq-life{stroke:#9aa5b1;stroke-dasharray:4 4}` +
		`.sq-head{fill:#eef2f7;stroke:#52606d}` +
		`.sq-arrow{stroke:#1f2933;fill:none}` +
		`.sq-err .sq-arrow{stroke:#c05621}.sq-err text.sq-res{fill:#c05621}` +
		`.sq-refused .sq-arrow{stroke:#d0021b}.sq-refused text{fill:#d0021b}` +
		`.sq-hl rect.sq-bg{fill:#fff3bf}` +
		`text.sq-seq{fill:#7b8794}` +
		`text.sq-res{fill:#2f855a}` +
		`</style>`)
	b.WriteString(`<defs>`)
	for _, m := range [][2]string{{"sq-tip", "#1f2933"}, {"sq-tip-err", "#c05621"}, {"sq-tip-refused", "#d0021b"}} {
		fmt.Fprintf(&b, `<marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, m[0], m[1])
	}
	b.WriteString(`</defs>`)
	if opts.Title != "" {
		fmt.Fprintf(&b, `<text x="10" y="%d" font-size="13" font-weight="bold">`, headTop+12)
		esc(&b, opts.Title)
		b.WriteString(`</text>`)
	}
	for i, name := range lanes {
		x := laneX(i)
		fmt.Fprintf(&b, `<line class="sq-life" x1="%d" y1="%d" x2="%d" y2="%d"/>`, x, top+headH, x, height-8)
		label := clip(name, 26)
		w := int(float64(utf8.RuneCountInString(label))*charW) + 16
		cls := "sq-head"
		fmt.Fprintf(&b, `<g class="sq-lane"><title>`)
		esc(&b, name)
		fmt.Fprintf(&b, `</title><rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="4"/>`, cls, x-w/2, top, w, headH)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">`, x, top+headH/2+4)
		esc(&b, label)
		b.WriteString(`</text></g>`)
	}
	vendorLane := vendorLanes(events, index)
	for i, e := range events {
		y := bodyTop + i*rowH
		from, to := arrowEnds(e, index, vendorLane)
		x1, x2 := laneX(from), laneX(to)
		req, res := Labels(e)
		cls, tip := arrowClass(e), "sq-tip"
		switch {
		case strings.HasSuffix(cls, "sq-refused"):
			tip = "sq-tip-refused"
		case strings.HasSuffix(cls, "sq-err"):
			tip = "sq-tip-err"
		}
		if opts.Highlight != 0 && e.Seq == opts.Highlight {
			cls += " sq-hl"
		}
		fmt.Fprintf(&b, `<g id="%s" class="%s"><title>`, Anchor(e.Seq), cls)
		esc(&b, Describe(e))
		b.WriteString(`</title>`)
		fmt.Fprintf(&b, `<rect class="sq-bg" x="0" y="%d" width="%d" height="%d" fill="none"/>`, y, width, rowH)
		fmt.Fprintf(&b, `<text class="sq-seq" x="6" y="%d">#%d</text>`, y+rowH/2+4, e.Seq)
		ay := y + rowH - 9
		end := x2 - 1
		if x2 < x1 {
			end = x2 + 1
		}
		fmt.Fprintf(&b, `<line class="sq-arrow" x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#%s)"/>`, x1, ay, end, ay, tip)
		fmt.Fprintf(&b, `<text x="%d" y="%d">`, min(x1, x2)+6, ay-5)
		esc(&b, clip(req, opts.MaxLabel))
		b.WriteString(`</text>`)
		if res != "" {
			fmt.Fprintf(&b, `<text class="sq-res" x="%d" y="%d">`, max(x1, x2)+8, ay+4)
			esc(&b, clip(res, 28))
			b.WriteString(`</text>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.Bytes()
}

func laneX(i int) int { return left + i*colW }

// Labels returns the compact request label of an event (drawn on the
// arrow) and its result (drawn at the arrow's head).
func Labels(e mockvendor.Event) (req, res string) {
	var parts []string
	switch e.Op {
	case mockvendor.OpCardFetch:
		parts = append(parts, "GET card")
		if strings.HasSuffix(e.Path, "/agent.json") {
			parts[0] = "GET agent.json"
		}
		if e.CacheControl != "" {
			parts = append(parts, "CC:"+e.CacheControl)
		}
		if e.Pragma != "" {
			parts = append(parts, "Pragma:"+e.Pragma)
		}
		if e.IfNoneMatch != "" {
			parts = append(parts, "INM")
		}
		res = status(e)
		if e.Served != "" && e.Served != "not-modified" {
			res += " " + e.Served
		}
	case mockvendor.OpJWKSFetch:
		parts = append(parts, "GET jwks")
		if e.CacheControl != "" {
			parts = append(parts, "CC:"+e.CacheControl)
		}
		res = status(e)
	case mockvendor.OpSend, mockvendor.OpStream:
		verb := e.Method
		if verb == "" {
			verb = string(e.Op)
		}
		if e.Probe {
			verb = "probe " + verb
		}
		parts = append(parts, verb)
		if e.Skill != "" {
			parts = append(parts, "skill="+e.Skill)
		}
		res = result(e)
	case mockvendor.OpGet, mockvendor.OpCancel:
		verb := e.Method
		if verb == "" {
			verb = string(e.Op)
		}
		parts = append(parts, verb)
		if e.TaskID != "" {
			parts = append(parts, "task="+clip(e.TaskID, 12))
		}
		res = result(e)
	case mockvendor.OpRefused:
		parts = append(parts, "CONNECT "+e.Host+" refused")
		res = "refused"
	case mockvendor.OpPushDelivery:
		// The fleet's own request: vendor e.Vendor notifies the receiver.
		verb := "push"
		if e.Attempt > 0 {
			verb += " #" + strconv.Itoa(e.Attempt)
		}
		if e.State != "" {
			verb += " " + e.State
		}
		parts = append(parts, verb)
		res = status(e)
		if e.DeliveryError != "" {
			res = "not delivered"
			if e.Status != 0 {
				res = strconv.Itoa(e.Status)
			}
		}
	default:
		verb := strings.TrimSpace(e.HTTPMethod + " " + e.Path)
		if e.Method != "" {
			verb = e.Method
		}
		parts = append(parts, verb)
		res = result(e)
	}
	if v := version(e); v != "" {
		parts = append(parts, "("+v+")")
	}
	if len(e.Faults) > 0 {
		parts = append(parts, "["+strings.Join(e.Faults, ",")+"]")
	}
	for _, p := range e.Credentials {
		parts = append(parts, "cred:"+p.Owner) // whose, never the value
	}
	return strings.Join(parts, " "), res
}

// version is the dialect a request label names, with the binding when
// it is gRPC ("1.0 gRPC": the HTTP+JSON and JSON-RPC bindings tell
// themselves apart by their paths, a gRPC call by this).
func version(e mockvendor.Event) string {
	if e.Binding == mockvendor.BindingGRPC {
		return strings.TrimSpace(e.Dialect + " gRPC")
	}
	return e.Dialect
}

func status(e mockvendor.Event) string {
	if e.Status == 0 {
		return "…"
	}
	return strconv.Itoa(e.Status)
}

func result(e mockvendor.Event) string {
	switch {
	case e.Status == 401:
		return "401" // refused credential (or none)
	case e.ErrorCode != 0:
		return strconv.Itoa(e.ErrorCode)
	case e.State != "":
		return status(e) + " " + e.State
	}
	return status(e)
}

// Describe is the full text of an event, for the arrow's tooltip.
func Describe(e mockvendor.Event) string {
	req, res := Labels(e)
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s → %s\n%s %s%s", e.Seq, req, res, e.HTTPMethod, e.Host, e.Path)
	if e.ErrorMessage != "" {
		fmt.Fprintf(&b, "\nerror %d: %s", e.ErrorCode, e.ErrorMessage)
	}
	if e.Note != "" {
		b.WriteString("\n" + e.Note)
	}
	for _, c := range e.Coercions {
		fmt.Fprintf(&b, "\npart %d coerced %s → %s", c.Part, c.From, c.To)
	}
	if e.Upstream != nil {
		b.WriteString("\nagent: " + e.Upstream.Summary())
	}
	return b.String()
}

// clip shortens s to n characters with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// esc writes s as XML character data; characters XML cannot carry become
// U+FFFD.
func esc(b *bytes.Buffer, s string) {
	_ = xml.EscapeText(b, []byte(s))
}
