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
	name := func(i int) string {
		if i < len(opt.Names) && opt.Names[i] != "" {
			return opt.Names[i]
		}
		return fmt.Sprintf("report %d", i+1)
	}
	first := reports[0]
	out := &Report{
		Schema:       Schema,
		Tool:         first.Tool,
		Orchestrator: Orchestrator{Spec: first.Orchestrator.Spec},
		Complete:     true,
	}
	var (
		end        time.Time
		baseline   Baseline
		baselineOf = -1
		checkFrom  = map[string]int{}
		scenFrom   = map[string]int{}
		shards     = map[int]int{}
		total      = 0
	)
	for i, r := range reports {
		switch {
		case r.Schema != Schema:
			return nil, fmt.Errorf("merge: %s has schema %q, want %q", name(i), r.Schema, Schema)
		case r.Orchestrator.Spec != first.Orchestrator.Spec:
			return nil, fmt.Errorf("merge: %s is a run of %q, %s of %q", name(i), r.Orchestrator.Spec, name(0), first.Orchestrator.Spec)
		case r.Tool != first.Tool:
			return nil, fmt.Errorf("merge: %s was written by %s %s, %s by %s %s", name(i), r.Tool.Name, r.Tool.Version, name(0), first.Tool.Name, first.Tool.Version)
		}
		if r.Shard != nil {
			if total != 0 && r.Shard.Total != total {
				return nil, fmt.Errorf("merge: %s is shard %s, but other reports are shards of %d", name(i), r.Shard, total)
			}
			total = r.Shard.Total
			if j, dup := shards[r.Shard.Index]; dup {
				return nil, fmt.Errorf("merge: %s and %s are both shard %s", name(j), name(i), r.Shard)
			}
			shards[r.Shard.Index] = i
		}
		if opt.Baseline == nil && len(r.Baseline) > 0 {
			if baselineOf >= 0 && !maps.Equal(baseline, r.Baseline) {
				return nil, fmt.Errorf("merge: %s and %s were judged with different baselines (pass --baseline to judge them with one)", name(baselineOf), name(i))
			}
			baseline, baselineOf = r.Baseline, i
		}
		if out.Orchestrator.Name == "" && r.Orchestrator.Name != "" {
			out.Orchestrator.Name, out.Orchestrator.Version = r.Orchestrator.Name, r.Orchestrator.Version
		}
		if out.StartedAt.IsZero() || (!r.StartedAt.IsZero() && r.StartedAt.Before(out.StartedAt)) {
			out.StartedAt = r.StartedAt
		}
		if e := r.StartedAt.Add(time.Duration(r.DurationMs) * time.Millisecond); e.After(end) {
			end = e
		}
		out.Complete = out.Complete && r.Complete
		for _, c := range r.Checks {
			if strings.HasPrefix(c.ID, "G-") {
				continue // folded again from every shard's observations
			}
			if j, dup := checkFrom[c.ID]; dup {
				return nil, fmt.Errorf("merge: check %s is in both %s and %s", c.ID, name(j), name(i))
			}
			checkFrom[c.ID] = i
			out.Checks = append(out.Checks, c)
		}
		for _, s := range r.Scenarios {
			if j, dup := scenFrom[s.ID]; dup {
				return nil, fmt.Errorf("merge: scenario %s is in both %s and %s", s.ID, name(j), name(i))
			}
			scenFrom[s.ID] = i
			out.Scenarios = append(out.Scenarios, s)
		}
		out.MergedFrom = append(out.MergedFrom, name(i))
	}
	if total > 0 {
		var missing []string
		for k := 1; k <= total; k++ {
			if _, ok := shards[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, total))
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("merge: shard %s missing", strings.Join(missing, ", "))
		}
	}
	if !out.StartedAt.IsZero() {
		out.DurationMs = end.Sub(out.StartedAt).Milliseconds()
	}
	if opt.Baseline != nil {
		baseline = opt.Baseline
		ApplyBaseline(out.Checks, baseline)
	}
	SortCatalog(out, scenarios.All())
	out.Finish(baseline)
	return out, nil
}

// ApplyBaseline judges FAIL and WAIVED checks against b again: a failure
// the baseline lists is WAIVED with its reason, a waived check it no longer
// lists is a FAIL again. Other results are left alone.
func ApplyBaseline(checks []CheckResult, b Baseline) {
	for i := range checks {
		c := &checks[i]
		if c.Result != scenarios.Fail && c.Result != scenarios.Waived {
			continue
		}
		if reason, ok := b.Match(c.ID); ok {
			c.Result, c.Waiver = scenarios.Waived, reason
		} else {
			c.Result, c.Waiver = scenarios.Fail, ""
		}
	}
}
