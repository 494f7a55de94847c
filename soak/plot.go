package soak

import (
	"bytes"
	"fmt"
	"html"
)

// PlotSVG draws, for each result, the -32004 answers and the lost
// delegations per timeline bucket: one panel per orchestrator, stacked,
// sharing the time axis. The SVG is self-contained.
func PlotSVG(results ...*Result) []byte {
	const (
		w, panelH, left, top, gap = 760.0, 170.0, 56.0, 34.0, 46.0
	)
	maxBuckets, maxY := 1, 1
	for _, r := range results {
		maxBuckets = max(maxBuckets, len(r.Timeline))
		for _, b := range r.Timeline {
			maxY = max(maxY, b.SkillErrors, b.Lost)
		}
	}
	h := top + float64(len(results))*(panelH+gap)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%.0f" y="20" font-size="14" font-weight="bold">-32004 answers and lost delegations over time</text>`, left)
	plotW := w - left - 20
	bw := plotW / float64(maxBuckets)
	for i, r := range results {
		y0 := top + float64(i)*(panelH+gap) + 16
		base := y0 + panelH - 20
		scale := (panelH - 30) / float64(maxY)
		reroute := "never re-routed"
		if r.FirstReroute > 0 {
			reroute = fmt.Sprintf("%d lost after the first re-route", r.LostAfterReroute)
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-weight="bold">%s: %d/%d completed, %d escalated, -32004 on %.1f%% of sends, %s</text>`,
			left, y0, html.EscapeString(r.Orchestrator), r.Completed, r.Delegations, r.Escalated, 100*r.SkillErrorRate, reroute)
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>`, left, base, left+plotW, base)
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#444"/>`, left, base, left, base-(panelH-30))
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%d</text><text x="%.0f" y="%.1f" text-anchor="end">0</text>`, left-4, base-(panelH-30)+4, maxY, left-4, base+4)
		for j, bk := range r.Timeline {
			x := left + float64(j)*bw
			if bk.SkillErrors > 0 {
				hgt := float64(bk.SkillErrors) * scale
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f0a030"><title>%.2fs: %d -32004</title></rect>`, x+1, base-hgt, bw/2-1, hgt, bk.StartS, bk.SkillErrors)
			}
			if bk.Lost > 0 {
				hgt := float64(bk.Lost) * scale
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#c0392b"><title>%.2fs: %d lost</title></rect>`, x+bw/2, base-hgt, bw/2-1, hgt, bk.StartS, bk.Lost)
			}
		}
		for j := 0; j <= maxBuckets; j += max(1, maxBuckets/10) {
			x := left + float64(j)*bw
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%.1fs</text>`, x, base+14, float64(j)*float64(r.Options.BucketMs)/1000)
		}
	}
	ly := h - 12
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="#f0a030"/><text x="%.0f" y="%.0f">-32004 answers</text>`, left, ly-9, left+14, ly)
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="#c0392b"/><text x="%.0f" y="%.0f">lost delegations (escalated or failed)</text>`, left+120, ly-9, left+134, ly)
	b.WriteString(`</svg>`)
	return b.Bytes()
}
