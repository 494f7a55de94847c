package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// The tests run every scenario of scenarios_test.go against a real fleet
// over TLS, through the fleet's proxy, with:
//
//   - the reference: every check must hold;
//   - the naive orchestrator: at least one check must fail where the
//     scenario says so;
//   - each reference break the scenario names: at least one check must fail,
//     and across all scenarios every break must fail the check its tag
//     names.

var _ driver.GoOrchestrator = (*reference.Orchestrator)(nil)
var _ driver.GoOrchestrator = (*naive.Orchestrator)(nil)

// fakeClock is the reference's clock in the tests: real time plus an offset
// the scenario can move.
type fakeClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

const message = `{"role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile INV-1042"}]}`

func cardURL(host string) string { return "https://" + host + mockvendor.CardPath }

func request(id string, d delegation) contract.DelegationRequest {
	var cands []string
	for _, h := range d.cards {
		cands = append(cands, cardURL(h))
	}
	return contract.DelegationRequest{
		Contract: contract.Version, Type: contract.TypeDelegate, ID: id, Scenario: "test",
		Task:       contract.Task{Skill: d.skill, Message: json.RawMessage(message), PreferStreaming: d.stream},
		Candidates: cands,
		Trust: contract.Trust{Issuers: map[string]contract.Issuer{
			"https://" + mockvendor.HostVendorA: {Operators: []string{mockvendor.HostVendorA}},
		}},
		DeadlineMs: 10000,
	}
}

// runScenario resets the fleet, runs the delegations with o and returns
// what happened.
func runScenario(t *testing.T, f *mockvendor.Fleet, sc scenario, o driver.GoOrchestrator, clock *fakeClock) *observation {
	t.Helper()
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	client := f.Client()
	defer client.CloseIdleConnections()
	ob := &observation{}
	for i, d := range sc.deleg {
		if i > 0 && sc.gap > 0 {
			clock.advance(sc.gap)
		}
		seq := f.Trace().Seq()
		out := o.Delegate(context.Background(), request(fmt.Sprintf("d-%d", i+1), d), client)
		if err := out.Validate(fmt.Sprintf("d-%d", i+1)); err != nil {
			t.Errorf("delegation %d: invalid outcome: %v", i+1, err)
		}
		if out.CardTrust == "" || out.TrustMode == "" {
			t.Errorf("delegation %d: cardTrust %q trustMode %q must be set", i+1, out.CardTrust, out.TrustMode)
		}
		evs := settled(f, seq)
		ob.outs = append(ob.outs, out)
		ob.evs = append(ob.evs, evs)
		ob.all = append(ob.all, evs...)
	}
	return ob
}

// settled returns the events after seq once every one has been answered
// (an abandoned stream finishes a little after the client left).
func settled(f *mockvendor.Fleet, seq int64) []mockvendor.Event {
	deadline := time.Now().Add(5 * time.Second)
	for {
		evs := f.Trace().Since(seq)
		done := true
		for _, e := range evs {
			if e.Status == 0 && e.Op != mockvendor.OpRefused {
				done = false
			}
		}
		if done || time.Now().After(deadline) {
			return evs
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// evaluate runs the scenario's and the global checks.
func evaluate(sc scenario, ob *observation) map[string]string {
	failed := map[string]string{}
	for _, c := range append(globalChecks(sc.badTLS), sc.checks...) {
		if err := c.fn(ob); err != nil {
			if _, dup := failed[c.id]; !dup {
				failed[c.id] = err.Error()
			}
		}
	}
	return failed
}

func describe(ob *observation) string {
	var b strings.Builder
	for i, o := range ob.outs {
		j, _ := json.Marshal(o)
		fmt.Fprintf(&b, "outcome %d: %s\n", i+1, j)
	}
	for _, e := range ob.all {
		fmt.Fprintf(&b, "  %3d %-11s %-28s %-22s probe=%-5v skill=%-28s err=%-6d state=%-9s cc=%q inm=%q ver=%q task=%s %v %.0fms\n",
			e.Seq, e.Op, e.Host, e.Method, e.Probe, e.Skill, e.ErrorCode, e.State, e.CacheControl, e.IfNoneMatch, e.A2AVersion, e.TaskID, e.Coercions, e.DurationMs)
	}
	return b.String()
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestScenarios(t *testing.T) {
	checkOf := map[string]string{}
	for _, b := range reference.BreakList() {
		checkOf[b.Name] = b.Check
	}
	var mu sync.Mutex
	breakFailed := map[string]map[string]bool{} // break -> checks it failed
	attempted := map[string]bool{}              // breaks whose scenario ran

	t.Run("group", func(t *testing.T) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				f, err := mockvendor.NewFleet(sc.cfg())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(f.Close)

				t.Run("reference", func(t *testing.T) {
					clock := &fakeClock{}
					ob := runScenario(t, f, sc, reference.New(reference.Options{Now: clock.Now}), clock)
					if os.Getenv("REFERENCE_TRACE") != "" {
						t.Log("\n" + describe(ob))
					}
					if failed := evaluate(sc, ob); len(failed) > 0 {
						for _, id := range keys(failed) {
							t.Errorf("%s: %s", id, failed[id])
						}
						t.Log("\n" + describe(ob))
					}
				})
				t.Run("naive", func(t *testing.T) {
					ob := runScenario(t, f, sc, naive.New(), &fakeClock{})
					failed := evaluate(sc, ob)
					switch {
					case sc.naiveFails && len(failed) == 0:
						t.Errorf("the naive orchestrator passed every check\n%s", describe(ob))
					case !sc.naiveFails && len(failed) > 0:
						t.Logf("naive also fails (not required): %v", keys(failed))
					}
					for _, id := range keys(failed) {
						t.Logf("naive fails %s: %s", id, failed[id])
					}
				})
				for _, name := range sc.breaks {
					t.Run("break="+name, func(t *testing.T) {
						br, err := reference.ParseBreaks(name)
						if err != nil {
							t.Fatal(err)
						}
						clock := &fakeClock{}
						ob := runScenario(t, f, sc, reference.New(reference.Options{Break: br, Now: clock.Now}), clock)
						failed := evaluate(sc, ob)
						if len(failed) == 0 {
							t.Errorf("break %s passed every check\n%s", name, describe(ob))
						}
						mu.Lock()
						attempted[name] = true
						if breakFailed[name] == nil {
							breakFailed[name] = map[string]bool{}
						}
						for id := range failed {
							breakFailed[name][id] = true
						}
						mu.Unlock()
						t.Logf("fails %v", keys(failed))
					})
				}
			})
		}
	})

	for _, b := range reference.BreakList() {
		if attempted[b.Name] && !breakFailed[b.Name][b.Check] {
			var got []string
			for id := range breakFailed[b.Name] {
				got = append(got, id)
			}
			sort.Strings(got)
			t.Errorf("break %s (%s) never failed its check %s; failed %v", b.Name, b.Field, b.Check, got)
		}
	}
}

// TestEveryBreakHasAScenario: each break is exercised by some scenario.
func TestEveryBreakHasAScenario(t *testing.T) {
	listed := map[string]bool{}
	for _, sc := range scenarios {
		for _, b := range sc.breaks {
			listed[b] = true
		}
	}
	for _, b := range reference.BreakList() {
		if !listed[b.Name] {
			t.Errorf("break %s is in no scenario", b.Name)
		}
	}
}

func TestParseBreaks(t *testing.T) {
	b, err := reference.ParseBreaks("no-probe,extra-calls", "SkipTLSVerify")
	if err != nil {
		t.Fatal(err)
	}
	if !b.NoProbe || !b.ExtraCalls || !b.SkipTLSVerify || b.NoRefetch {
		t.Errorf("ParseBreaks: %+v", b)
	}
	if got := strings.Join(b.Names(), ","); got != "no-probe,extra-calls,skip-tls-verify" {
		t.Errorf("Names: %s", got)
	}
	if _, err := reference.ParseBreaks("no-such-thing"); err == nil {
		t.Error("unknown break accepted")
	}
	seen := map[string]bool{}
	for _, bi := range reference.BreakList() {
		if bi.Name == "" || bi.Check == "" || seen[bi.Name] {
			t.Errorf("break %s: name %q check %q (duplicate %v)", bi.Field, bi.Name, bi.Check, seen[bi.Name])
		}
		seen[bi.Name] = true
	}
}

// TestGoDriver runs the reference through the suite's in-process driver,
// Reset included.
func TestGoDriver(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := reference.New(reference.Options{})
	d := driver.NewGo("reference", func() driver.GoOrchestrator { return o })
	s, err := d.Open(context.Background(), driver.Env{Client: f.Client()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := s.Delegate(context.Background(), request("g-1", delegation{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB}}))
	if res.Outcome == nil || res.Outcome.Outcome != contract.OutcomeCompleted || res.Outcome.Skill != mockvendor.SkillInvoiceV2 {
		t.Fatalf("result %+v %+v", res, res.Outcome)
	}
}

// TestNoClientBuildsItsOwn checks the nil-client path: the reference builds
// its client from trust.caFile and network.proxy, or network.resolve.
func TestNoClientBuildsItsOwn(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ca, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	for _, viaProxy := range []bool{true, false} {
		t.Run(fmt.Sprintf("proxy=%v", viaProxy), func(t *testing.T) {
			req := request("n-1", delegation{skill: mockvendor.SkillSummarize, cards: []string{mockvendor.HostVendorA}})
			req.Trust.CAFile = ca
			if viaProxy {
				req.Network.Proxy = f.ProxyURL()
			} else {
				req.Network.Resolve = f.Resolve()
			}
			o := reference.New(reference.Options{})
			defer o.Reset()
			out := o.Delegate(context.Background(), req, nil)
			if out.Outcome != contract.OutcomeCompleted || out.TrustMode != contract.TrustModeFull || out.CardTrust != contract.CardTrustAuthoritative {
				t.Fatalf("outcome %+v", out)
			}
		})
	}
}

// TestResetDropsCaches: after Reset the card is fetched again.
func TestResetDropsCaches(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{mockvendor.VendorD()}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := reference.New(reference.Options{})
	count := func() int {
		n := 0
		for _, e := range f.Trace().Events() {
			if e.Op == mockvendor.OpCardFetch {
				n++
			}
		}
		return n
	}
	req := request("r", delegation{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}})
	var client *http.Client = f.Client()
	o.Delegate(context.Background(), req, client)
	o.Delegate(context.Background(), req, client)
	if n := count(); n != 1 {
		t.Fatalf("%d card fetches before Reset, want 1 (cached)", n)
	}
	o.Reset()
	o.Delegate(context.Background(), req, client)
	if n := count(); n != 2 {
		t.Fatalf("%d card fetches after Reset, want 2", n)
	}
}
