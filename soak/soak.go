// Package soak reproduces seed 000's field observation statistically: many
// delegations across vendors B, C and D while the gateways of B and D roll
// their skill forward on a clock far shorter than the CDN's day-long
// max-age. An orchestrator that treats the card as a contract fails a
// share of delegations in bursts after each rollout; one that treats -32004
// as a routing signal recovers. It is a measurement, not a pass/fail check.
package soak

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Options configure a soak run. The zero value of each field means its
// default.
type Options struct {
	// Delegations is how many delegations to make. Zero means 200.
	Delegations int
	// Window is B's rollout window (D's is three times longer). Zero means 3 s,
	// which makes the default run of 200 delegations last about three windows:
	// roughly the share of the seed's observation (41 of 200) fails for an
	// orchestrator that trusts the cached card.
	Window time.Duration
	// Spacing is the pause between delegations. Zero means 40 ms.
	Spacing time.Duration
	// Bucket is the width of a timeline bucket. Zero means Window/4.
	Bucket time.Duration
}

func (o Options) withDefaults() Options {
	if o.Delegations == 0 {
		o.Delegations = 200
	}
	if o.Window == 0 {
		o.Window = 3 * time.Second
	}
	if o.Spacing == 0 {
		o.Spacing = 40 * time.Millisecond
	}
	if o.Bucket == 0 {
		o.Bucket = o.Window / 4
	}
	return o
}

// Result is what a soak run measured.
type Result struct {
	Orchestrator string  `json:"orchestrator"`
	Delegations  int     `json:"delegations"`
	Completed    int     `json:"completed"`
	Escalated    int     `json:"escalated"`
	OtherFailed  int     `json:"otherFailed"`
	SuccessRate  float64 `json:"successRate"`
	// RealSends counts the sends that were not probes; SkillErrors the
	// -32004 answers among them; SkillErrorRate their ratio.
	RealSends      int     `json:"realSends"`
	SkillErrors    int     `json:"skillErrors"`
	SkillErrorRate float64 `json:"skillErrorRate"`
	// FirstReroute is the delegation (from 1) that first completed after a
	// -32004 in its own window; 0 when none did.
	FirstReroute int `json:"firstReroute"`
	// SendsAfterReroute and SkillErrorsAfterReroute count the real sends, and
	// the -32004 answers among them, after the first re-route; Incidence is
	// their ratio.
	SendsAfterReroute       int     `json:"sendsAfterReroute"`
	SkillErrorsAfterReroute int     `json:"skillErrorsAfterReroute"`
	Incidence               float64 `json:"incidence"`
	// LostAfterReroute counts delegations after the first re-route that saw
	// -32004 and did not complete.
	LostAfterReroute int `json:"lostAfterReroute"`
	// Probes and their round trip (the probe's latency penalty).
	Probes     int     `json:"probes"`
	ProbeP50Ms float64 `json:"probeP50Ms"`
	ProbeP95Ms float64 `json:"probeP95Ms"`
	// Delegation latency on the wire: from the delegation's first request to
	// the end of its last answer.
	LatencyP50Ms float64    `json:"latencyP50Ms"`
	LatencyP95Ms float64    `json:"latencyP95Ms"`
	DurationS    float64    `json:"durationS"`
	Timeline     []Bucket   `json:"timeline"`
	Options      OptionsOut `json:"options"`
}

// OptionsOut records the options a result was measured with.
type OptionsOut struct {
	WindowMs  int64 `json:"windowMs"`
	SpacingMs int64 `json:"spacingMs"`
	BucketMs  int64 `json:"bucketMs"`
}

// Bucket is one slice of the timeline.
type Bucket struct {
	StartS      float64 `json:"startS"`
	SkillErrors int     `json:"skillErrors"`
	Lost        int     `json:"lost"`
	Completed   int     `json:"completed"`
}

// fleet is B (card behind the CDN, gateway rolling every window), C (plain)
// and D (rolling every three windows).
func fleet(o Options) mockvendor.Config {
	b := mockvendor.VendorB()
	b.Skills = []mockvendor.SkillConfig{{ID: mockvendor.SkillInvoice, Name: "Invoice reconciliation"}}
	b.Faults = []mockvendor.FaultSpec{mockvendor.Spec("skill-rollout", mockvendor.SkillRollout{WindowMs: int(o.Window / time.Millisecond)})}
	c := mockvendor.VendorC()
	c.Faults = nil
	c.Skills = []mockvendor.SkillConfig{{ID: mockvendor.SkillInvoice, Name: "Invoice reconciliation"}}
	d := mockvendor.VendorD()
	d.Faults = []mockvendor.FaultSpec{mockvendor.Spec("skill-rollout", mockvendor.SkillRollout{WindowMs: int(o.Window * 3 / time.Millisecond)})}
	return mockvendor.Config{Vendors: []mockvendor.VendorConfig{b, c, d}}
}

// Run makes the delegations against one driver session and measures.
func Run(ctx context.Context, d driver.Driver, spec string, o Options) (*Result, error) {
	o = o.withDefaults()
	hosts := []string{mockvendor.HostCardB, mockvendor.HostC, mockvendor.HostCardD}
	s := &scenarios.Scenario{ID: "SOAK-000", Title: "soak", Area: "soak", Fleet: func() mockvendor.Config { return fleet(o) }}
	for i := 0; i < o.Delegations; i++ {
		r := scenarios.Request{Skill: mockvendor.SkillInvoice, Candidates: []string{hosts[i%3]}}
		if i > 0 {
			r.Wait = o.Spacing
		}
		s.Requests = append(s.Requests, r)
	}
	start := time.Now()
	run, _, err := suite.Execute(ctx, s, d)
	if err != nil {
		return nil, err
	}
	res := measure(run, o)
	res.Orchestrator = spec
	res.DurationS = time.Since(start).Seconds()
	return res, nil
}

func measure(run *scenarios.Run, o Options) *Result {
	res := &Result{Delegations: len(run.Delegations), Options: OptionsOut{
		WindowMs: o.Window.Milliseconds(), SpacingMs: o.Spacing.Milliseconds(), BucketMs: o.Bucket.Milliseconds(),
	}}
	if len(run.Events) == 0 {
		return res
	}
	t0 := run.Events[0].Time
	bucketOf := func(t time.Time) int { return int(t.Sub(t0) / o.Bucket) }
	grow := func(i int) {
		for len(res.Timeline) <= i {
			res.Timeline = append(res.Timeline, Bucket{StartS: float64(len(res.Timeline)) * o.Bucket.Seconds()})
		}
	}
	var probes, latencies []float64
	for i, d := range run.Delegations {
		evs := run.During(i)
		skillErr := false
		for _, e := range evs {
			if e.Op != mockvendor.OpSend && e.Op != mockvendor.OpStream {
				continue
			}
			if e.Probe {
				probes = append(probes, e.DurationMs)
				continue
			}
			res.RealSends++
			after := res.FirstReroute > 0
			if after {
				res.SendsAfterReroute++
			}
			if e.ErrorCode == -32004 {
				skillErr = true
				res.SkillErrors++
				if after {
					res.SkillErrorsAfterReroute++
				}
				grow(bucketOf(e.Time))
				res.Timeline[bucketOf(e.Time)].SkillErrors++
			}
		}
		if len(evs) > 0 {
			last := evs[len(evs)-1]
			span := last.Time.Sub(evs[0].Time) + time.Duration(last.DurationMs*float64(time.Millisecond))
			latencies = append(latencies, float64(span.Microseconds())/1000)
		}
		completed := d.Outcome != nil && d.Outcome.Outcome == contract.OutcomeCompleted
		when := t0
		if len(evs) > 0 {
			when = evs[len(evs)-1].Time
		}
		b := bucketOf(when)
		grow(b)
		switch {
		case completed:
			res.Completed++
			res.Timeline[b].Completed++
			if skillErr && res.FirstReroute == 0 {
				res.FirstReroute = i + 1
			}
		default:
			if d.Outcome != nil && d.Outcome.Outcome == contract.OutcomeEscalated {
				res.Escalated++
			} else {
				res.OtherFailed++
			}
			res.Timeline[b].Lost++
			if skillErr && res.FirstReroute > 0 {
				res.LostAfterReroute++
			}
		}
	}
	res.SuccessRate = ratio(res.Completed, res.Delegations)
	res.Incidence = ratio(res.SkillErrorsAfterReroute, res.SendsAfterReroute)
	res.SkillErrorRate = ratio(res.SkillErrors, res.RealSends)
	res.Probes = len(probes)
	res.ProbeP50Ms, res.ProbeP95Ms = percentile(probes, 50), percentile(probes, 95)
	res.LatencyP50Ms, res.LatencyP95Ms = percentile(latencies, 50), percentile(latencies, 95)
	return res
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return math.Round(s[max(i, 0)]*100) / 100
}

// WriteText prints the result as name=value lines (for scripts) under a
// human heading.
func (r *Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "soak: %s, %d delegations over %.1f s (rollout every %d ms, CDN max-age 86400 s)\n", r.Orchestrator, r.Delegations, r.DurationS, r.Options.WindowMs)
	fmt.Fprintf(w, "success_rate=%.3f completed=%d escalated=%d other_failed=%d\n", r.SuccessRate, r.Completed, r.Escalated, r.OtherFailed)
	first := "none"
	if r.FirstReroute > 0 {
		first = fmt.Sprint(r.FirstReroute)
	}
	fmt.Fprintf(w, "real_sends=%d skill_errors=%d skill_error_rate=%.3f first_reroute=%s\n", r.RealSends, r.SkillErrors, r.SkillErrorRate, first)
	fmt.Fprintf(w, "sends_after_reroute=%d skill_errors_after_reroute=%d incidence_after_reroute=%.3f lost_after_reroute=%d\n",
		r.SendsAfterReroute, r.SkillErrorsAfterReroute, r.Incidence, r.LostAfterReroute)
	fmt.Fprintf(w, "probes=%d probe_p50_ms=%.2f probe_p95_ms=%.2f delegation_p50_ms=%.2f delegation_p95_ms=%.2f\n", r.Probes, r.ProbeP50Ms, r.ProbeP95Ms, r.LatencyP50Ms, r.LatencyP95Ms)
}
