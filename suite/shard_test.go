package suite

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

func TestParseShard(t *testing.T) {
	for _, ok := range []string{"1/1", "1/3", "3/3", " 2/4 "} {
		if _, err := ParseShard(ok); err != nil {
			t.Errorf("ParseShard(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1", "0/3", "4/3", "1/0", "a/b", "-1/2", "1/2/3"} {
		if s, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) = %v, want an error", bad, s)
		}
	}
}

// TestShardsPartitionTheCatalog: the shards of N cover every scenario
// exactly once, in catalog order, the same way every time.
func TestShardsPartitionTheCatalog(t *testing.T) {
	all := scenarios.All()
	for n := 1; n <= len(all)+1; n++ {
		seen := map[string]int{}
		for k := 1; k <= n; k++ {
			sel := ShardSpec{Index: k, Total: n}.Select(all)
			again := ShardSpec{Index: k, Total: n}.Select(scenarios.All())
			if len(sel) != len(again) {
				t.Fatalf("shard %d/%d is not deterministic", k, n)
			}
			for i, s := range sel {
				seen[s.ID]++
				if again[i].ID != s.ID {
					t.Errorf("shard %d/%d differs between calls at %d: %s, %s", k, n, i, s.ID, again[i].ID)
				}
			}
		}
		for _, s := range all {
			if seen[s.ID] != 1 {
				t.Errorf("with %d shards %s is in %d shards", n, s.ID, seen[s.ID])
			}
		}
	}
	if got := (ShardSpec{Index: 2, Total: 4}).Select(all); got[0].ID != all[1].ID || got[1].ID != all[5].ID {
		t.Errorf("shard 2/4 starts %s, %s; want %s, %s", got[0].ID, got[1].ID, all[1].ID, all[5].ID)
	}
}
