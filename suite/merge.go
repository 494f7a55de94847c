package suite

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// MergeOptions say how shard reports are merged.
type MergeOptions struct {
	// Names label the reports in errors and in Report.MergedFrom (file
	// names, usually). Nil means "report 1", "report 2", ...
	Names []string
	// Baseline, when non-nil, replaces the baselines the shards were run
	// with: every FAIL or WAIVED check is judged against it again. Nil
	// means the shards' own baseline (which must be the same in each).
	Baseline Baseline
}

// Merge combines the reports of shards of one run (--shard K/N) into one
// report, scored as if it had been one run: Score over every check, the
// baseline's problems recomputed over every check (an entry that matches
// nothing in any shard is a problem only now), Complete when every report
// is complete. It refuses reports of another schema, tool version or
// orchestrator spec, a check or scenario present twice, shards of
// different totals, and an incomplete set of shards.
func Merge(reports []*Report, opt MergeOptions) (*Report, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("merge: no report")
	}
	m := &merger{
		opt: opt, first: reports[0], baselineOf: -1,
		checkFrom: map[string]int{}, scenFrom: map[string]int{}, shards: map[int]int{},
		out: &Report{Schema: Schema, Tool: reports[0].Tool, Orchestrator: Orchestrator{Spec: reports[0].Orchestrator.Spec}, Complete: true, TimeScale: reports[0].TimeScale},
	}
	for i, r := range reports {
		if err := m.add(i, r); err != nil {
			return nil, err
		}
	}
	if err := m.missingShards(); err != nil {
		return nil, err
	}
	out := m.out
	if !out.StartedAt.IsZero() {
		out.DurationMs = m.end.Sub(out.StartedAt).Milliseconds()
	}
	baseline := m.baseline
	if opt.Baseline != nil {
		baseline = opt.Baseline
		ApplyBaseline(out.Checks, baseline)
	}
	SortCatalog(out, scenarios.All())
	out.Finish(baseline)
	return out, nil
}

// merger is the state of one Merge.
type merger struct {
	opt        MergeOptions
	first      *Report
	out        *Report
	end        time.Time
	baseline   Baseline
	baselineOf int
	checkFrom  map[string]int // check id -> report it came from
	scenFrom   map[string]int // scenario id -> report it came from
	shards     map[int]int    // shard index -> report
	total      int            // shard total, 0 before the first shard
}

func (m *merger) name(i int) string {
	if i < len(m.opt.Names) && m.opt.Names[i] != "" {
		return m.opt.Names[i]
	}
	return fmt.Sprintf("report %d", i+1)
}

// add takes report i in, refusing one that does not belong to the run.
func (m *merger) add(i int, r *Report) error {
	if err := m.compatible(i, r); err != nil {
		return err
	}
	out := m.out
	if out.Orchestrator.Name == "" && r.Orchestrator.Name != "" {
		out.Orchestrator.Name, out.Orchestrator.Version = r.Orchestrator.Name, r.Orchestrator.Version
	}
	if len(out.Orchestrator.ProtocolVersions) == 0 && len(out.Orchestrator.Bindings) == 0 {
		out.Orchestrator.ProtocolVersions, out.Orchestrator.Bindings = r.Orchestrator.ProtocolVersions, r.Orchestrator.Bindings
	}
	if out.StartedAt.IsZero() || (!r.StartedAt.IsZero() && r.StartedAt.Before(out.StartedAt)) {
		out.StartedAt = r.StartedAt
	}
	if e := r.StartedAt.Add(time.Duration(r.DurationMs) * time.Millisecond); e.After(m.end) {
		m.end = e
	}
	out.Complete = out.Complete && r.Complete
	for _, c := range r.Checks {
		if strings.HasPrefix(c.ID, "G-") {
			continue // folded again from every shard's observations
		}
		if j, dup := m.checkFrom[c.ID]; dup {
			return fmt.Errorf("merge: check %s is in both %s and %s", c.ID, m.name(j), m.name(i))
		}
		m.checkFrom[c.ID] = i
		out.Checks = append(out.Checks, c)
	}
	for _, s := range r.Scenarios {
		if j, dup := m.scenFrom[s.ID]; dup {
			return fmt.Errorf("merge: scenario %s is in both %s and %s", s.ID, m.name(j), m.name(i))
		}
		m.scenFrom[s.ID] = i
		out.Scenarios = append(out.Scenarios, s)
	}
	out.MergedFrom = append(out.MergedFrom, m.name(i))
	return nil
}

// compatible checks report i against the first one: schema, orchestrator,
// tool, its shard and its baseline.
func (m *merger) compatible(i int, r *Report) error {
	switch {
	case r.Schema != Schema:
		return fmt.Errorf("merge: %s has schema %q, want %q", m.name(i), r.Schema, Schema)
	case r.Orchestrator.Spec != m.first.Orchestrator.Spec:
		return fmt.Errorf("merge: %s is a run of %q, %s of %q", m.name(i), r.Orchestrator.Spec, m.name(0), m.first.Orchestrator.Spec)
	case r.Tool != m.first.Tool:
		return fmt.Errorf("merge: %s was written by %s %s, %s by %s %s", m.name(i), r.Tool.Name, r.Tool.Version, m.name(0), m.first.Tool.Name, m.first.Tool.Version)
	case r.TimeScale.String() != m.first.TimeScale.String():
		return fmt.Errorf("merge: %s ran at time scale %s, %s at %s: different measurements", m.name(i), r.TimeScale, m.name(0), m.first.TimeScale)
	}
	if r.Shard != nil {
		if m.total != 0 && r.Shard.Total != m.total {
			return fmt.Errorf("merge: %s is shard %s, but other reports are shards of %d", m.name(i), r.Shard, m.total)
		}
		m.total = r.Shard.Total
		if j, dup := m.shards[r.Shard.Index]; dup {
			return fmt.Errorf("merge: %s and %s are both shard %s", m.name(j), m.name(i), r.Shard)
		}
		m.shards[r.Shard.Index] = i
	}
	if m.opt.Baseline == nil && len(r.Baseline) > 0 {
		if m.baselineOf >= 0 && !maps.Equal(m.baseline, r.Baseline) {
			return fmt.Errorf("merge: %s and %s were judged with different baselines (pass --baseline to judge them with one)", m.name(m.baselineOf), m.name(i))
		}
		m.baseline, m.baselineOf = r.Baseline, i
	}
	return nil
}

// missingShards fails when the reports are shards and one is missing.
func (m *merger) missingShards() error {
	var missing []string
	for k := 1; k <= m.total; k++ {
		if _, ok := m.shards[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, m.total))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("merge: shard %s missing", strings.Join(missing, ", "))
	}
	return nil
}

// ApplyBaseline judges FAIL and WAIVED checks against b again: a failure
// the baseline lists is WAIVED with its reason, a waived check it no longer
// lists is a FAIL again. Other results are left alone.
func ApplyBaseline(checks []CheckResult, b Baseline) {
	for i := range checks {
		applyWaiver(&checks[i], b)
	}
}
