package suite

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// shardReport is a report of shard k of n holding the checks, judged with
// baseline b.
func shardReport(k, n int, b Baseline, checks ...CheckResult) *Report {
	r := &Report{
		Schema:       Schema,
		Tool:         Tool{Name: "a2a-conform", Version: "v1"},
		Orchestrator: Orchestrator{Spec: "exec:orch"},
		StartedAt:    time.Date(2026, 1, 1, 0, 0, k, 0, time.UTC),
		DurationMs:   1000,
		Complete:     true,
		Shard:        &ShardSpec{Index: k, Total: n},
	}
	for _, c := range checks {
		c.Scenario = strings.SplitN(c.ID, ".", 2)[0]
		if c.Result == scenarios.Fail {
			if reason, ok := b.Match(c.ID); ok {
				c.Result, c.Waiver = scenarios.Waived, reason
			}
		}
		r.Checks = append(r.Checks, c)
	}
	seen := map[string]bool{}
	for _, c := range r.Checks {
		if !seen[c.Scenario] {
			seen[c.Scenario] = true
			r.Scenarios = append(r.Scenarios, ScenarioResult{ID: c.Scenario})
		}
	}
	r.Finish(b)
	return r
}

func TestMergeScoresAsOne(t *testing.T) {
	b := Baseline{"CARD-002.URL": "known"}
	// CARD-002 is in the second shard: the first must not call the entry stale.
	s1 := shardReport(1, 2, b, cr("CARD-001.REFETCH", scenarios.Pass, safetyMust), cr("CARD-001.BOUNDED", scenarios.Fail, safetyShd))
	s2 := shardReport(2, 2, b, cr("CARD-002.URL", scenarios.Fail, coreMust), cr("CARD-002.DONE", scenarios.Pass, safetyMust))
	if len(s1.BaselineProblems) != 0 {
		t.Errorf("shard 1 calls another shard's entry stale: %q", s1.BaselineProblems)
	}
	m, err := Merge([]*Report{s2, s1}, MergeOptions{Names: []string{"b.json", "a.json"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range m.Checks {
		ids = append(ids, c.ID)
	}
	if want := []string{"CARD-001.REFETCH", "CARD-001.BOUNDED", "CARD-002.URL", "CARD-002.DONE"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("merged checks %q, want catalog order %q", ids, want)
	}
	if !reflect.DeepEqual(m.Profiles, Score(m.Checks)) {
		t.Errorf("merged profiles %+v, want the score of every check", m.Profiles)
	}
	if !m.Complete || m.Shard != nil || len(m.BaselineProblems) != 0 || !reflect.DeepEqual(m.MergedFrom, []string{"b.json", "a.json"}) {
		t.Errorf("merged report: complete %v shard %v problems %q from %q", m.Complete, m.Shard, m.BaselineProblems, m.MergedFrom)
	}
	if m.Scenarios[0].ID != "CARD-001" || m.DurationMs != 2000 {
		t.Errorf("scenarios %v, duration %d ms (want CARD-001 first, 2000 ms from the first start to the last end)", m.Scenarios, m.DurationMs)
	}
	if !m.Conformant(nil) {
		t.Errorf("merged report not conformant: %+v", m.Profiles)
	}

	// Incomplete shard: incomplete merge.
	s1.Complete = false
	if m, _ := Merge([]*Report{s1, s2}, MergeOptions{}); m.Complete {
		t.Errorf("merge of an incomplete shard is complete")
	}
}

func TestMergeRecomputesTheBaseline(t *testing.T) {
	b := Baseline{"CARD-002.URL": "known", "SIG-009.*": "matches nothing anywhere"}
	s1 := shardReport(1, 2, b, cr("CARD-001.REFETCH", scenarios.Fail, safetyMust))
	s2 := shardReport(2, 2, b, cr("CARD-002.URL", scenarios.Fail, coreMust))
	m, err := Merge([]*Report{s1, s2}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`baseline entry "SIG-009.*" matches no check that ran`}; !reflect.DeepEqual(m.BaselineProblems, want) {
		t.Errorf("problems %q, want %q", m.BaselineProblems, want)
	}
	// --baseline replaces the shards' own: CARD-001.REFETCH is waived now,
	// CARD-002.URL fails again.
	m, err = Merge([]*Report{s1, s2}, MergeOptions{Baseline: Baseline{"CARD-001.*": "later"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]scenarios.Outcome{}
	for _, c := range m.Checks {
		got[c.ID] = c.Result
	}
	if got["CARD-001.REFETCH"] != scenarios.Waived || got["CARD-002.URL"] != scenarios.Fail || len(m.BaselineProblems) != 0 {
		t.Errorf("with --baseline: %v, problems %q", got, m.BaselineProblems)
	}
	if m.Profiles[scenarios.Core].Conformant {
		t.Errorf("the un-waived CARD-002.URL should break a2a-core conformance")
	}
}

func TestMergeRejects(t *testing.T) {
	ok1 := func() *Report { return shardReport(1, 2, nil, cr("CARD-001.REFETCH", scenarios.Pass, safetyMust)) }
	ok2 := func() *Report { return shardReport(2, 2, nil, cr("CARD-002.URL", scenarios.Pass, coreMust)) }
	cases := map[string]struct {
		reports []*Report
		want    string
	}{
		"other orchestrator": {[]*Report{ok1(), func() *Report { r := ok2(); r.Orchestrator.Spec = "exec:other"; return r }()}, "is a run of"},
		"other schema":       {[]*Report{ok1(), func() *Report { r := ok2(); r.Schema = "a2a-conform/report/v1"; return r }()}, "schema"},
		"other tool":         {[]*Report{ok1(), func() *Report { r := ok2(); r.Tool.Version = "v2"; return r }()}, "written by"},
		"duplicate check":    {[]*Report{ok1(), func() *Report { r := ok2(); r.Checks = append(r.Checks, ok1().Checks...); return r }()}, "check CARD-001.REFETCH is in both"},
		"same shard twice":   {[]*Report{ok1(), ok1()}, "both shard 1/2"},
		"missing shard":      {[]*Report{ok1()}, "shard 2/2 missing"},
		"other totals":       {[]*Report{ok1(), shardReport(2, 3, nil)}, "shards of 2"},
		"other baselines":    {[]*Report{shardReport(1, 2, Baseline{"A": "x"}), shardReport(2, 2, Baseline{"A": "y"})}, "different baselines"},
		"nothing":            {nil, "no report"},
	}
	for name, c := range cases {
		if _, err := Merge(c.reports, MergeOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
}
