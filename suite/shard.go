package suite

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// ShardSpec selects a deterministic part of the catalog, so CI can run
// the suite as N parallel jobs and merge their reports (a2a-conform report
// merge). Shard K of N takes the scenarios whose index in catalog order
// (counting every scenario, slow ones included, before any label filter)
// is K-1 modulo N: the split depends only on the catalog, never on the
// machine, the seed or the flags.
type ShardSpec struct {
	// Index is K, from 1 to Total.
	Index int `json:"index"`
	// Total is N, at least 1.
	Total int `json:"total"`
}

// ParseShard reads "K/N" (1 <= K <= N).
func ParseShard(s string) (*ShardSpec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return nil, fmt.Errorf("shard %q: want K/N, for example 2/4", s)
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || ni < 1 || ki < 1 || ki > ni {
		return nil, fmt.Errorf("shard %q: want K/N with 1 <= K <= N", s)
	}
	return &ShardSpec{Index: ki, Total: ni}, nil
}

// String is "K/N".
func (s ShardSpec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Total) }

// Select returns the scenarios of this shard, in catalog order.
func (s ShardSpec) Select(all []*scenarios.Scenario) []*scenarios.Scenario {
	var out []*scenarios.Scenario
	for i, sc := range all {
		if s.Total > 0 && i%s.Total == s.Index-1 {
			out = append(out, sc)
		}
	}
	return out
}
