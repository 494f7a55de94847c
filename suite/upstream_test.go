package suite_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/sdkupstream"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// The proxy judged by real A2A servers (the official SDKs' own servers,
// examples/upstreams): a scenario played by a real agent behind the
// fleet's proxy (scenarios.WithUpstream) gives every check the verdict the
// same scenario gives against the fleet's own vendor serving the agent's
// versions (scenarios.WithVersions), for the reference and the naive
// orchestrator alike, in every scenario the agent can play
// (scenarios.Playable) in the place of any of the vendors a to d.

// upstreamOrchestrators are the orchestrators compared.
var upstreamOrchestrators = []struct {
	name string
	new  func() driver.GoOrchestrator
}{
	{"reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) }},
	{"naive", func() driver.GoOrchestrator { return naive.New() }},
}

func TestUpstreamVerdictsMatchFleet(t *testing.T) {
	for _, kind := range sdkupstream.Kinds {
		t.Run(kind, func(t *testing.T) {
			base := sdkupstream.Start(t, kind)
			versions, err := mockvendor.AgentVersions(context.Background(), mockvendor.UpstreamConfig{URL: base})
			if err != nil {
				t.Fatal(err)
			}
			played := map[string]int{}
			for _, v := range []string{"a", "b", "c", "d"} {
				for _, s := range scenarios.All() {
					if ok, _ := scenarios.Playable(s, v, versions); !ok || slices.Contains(s.Labels, "slow") {
						continue
					}
					played[v]++
					compareThroughProxy(t, kind, s, scenarios.Upstream{Vendor: v, Config: mockvendor.UpstreamConfig{URL: base}, Versions: versions})
				}
			}
			t.Logf("the %s agent (A2A %v) played, as vendor a, b, c, d: %d, %d, %d, %d scenarios", kind, versions, played["a"], played["b"], played["c"], played["d"])
			t.Logf("the %s agent answered %d forwarded requests", kind, reached[kind])
			if played["b"] < 5 || played["d"] < 10 || reached[kind] < 100 {
				t.Errorf("the %s agent played too few scenarios (%v) or answered too few requests (%d)", kind, played, reached[kind])
			}
		})
	}
}

// compareThroughProxy runs s with the agent in the place of u.Vendor and
// with the fleet's own vendor of the agent's versions, for each
// orchestrator, and fails where a check's verdict differs.
func compareThroughProxy(t *testing.T, kind string, s *scenarios.Scenario, u scenarios.Upstream) {
	t.Helper()
	for _, o := range upstreamOrchestrators {
		d := driver.NewGo(o.name, o.new)
		want, _ := verdicts(t, scenarios.WithVersions(s, u.Vendor, u.Versions), d)
		got, run := verdicts(t, scenarios.WithUpstream(s, u), d)
		for _, ev := range run.Events {
			if ev.Vendor == u.Vendor && ev.Upstream == nil && ev.ErrorCode == 0 && (ev.Op == mockvendor.OpSend || ev.Op == mockvendor.OpStream) {
				t.Errorf("%s, %s: event #%d (%s) was answered by the fleet, not forwarded to the agent", s.ID, o.name, ev.Seq, ev.Op)
			}
			if ev.Vendor == u.Vendor && ev.Upstream != nil && ev.Upstream.Status != 0 {
				reached[kind]++
			}
		}
		if diff := verdictDiff(want, got); diff != "" {
			t.Errorf("%s as vendor %s, %s: through the proxy to %s the verdicts differ from the fleet's own vendor:\n%s", s.ID, u.Vendor, o.name, kind, diff)
		}
	}
}

// reached counts, by agent, the requests the agent answered in the
// comparisons: the proxy forwarded them.
var reached = map[string]int{}

// verdicts runs s against d and returns each check's outcome by id, and
// the run.
func verdicts(t *testing.T, s *scenarios.Scenario, d driver.Driver) (map[string]scenarios.Outcome, *scenarios.Run) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run, _, err := suite.Execute(ctx, s, d)
	if err != nil {
		t.Fatalf("%s: harness error: %v", s.ID, err)
	}
	out := map[string]scenarios.Outcome{}
	for _, c := range s.WithGlobals() {
		out[c.ID] = suite.Judge(run, nil, s, c, nil).Result
	}
	return out, run
}

// verdictDiff lists the checks whose outcomes differ ("" when none).
func verdictDiff(want, got map[string]scenarios.Outcome) string {
	var lines []string
	for id, w := range want {
		if g := got[id]; g != w {
			lines = append(lines, fmt.Sprintf("  %s: fleet %s, proxy %s", id, w, g))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
