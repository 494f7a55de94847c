package suite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Properties of the verdict itself (what makes it worth trusting): they
// run orchestrators written here, apart from the reference, over the whole
// default catalog and hold the scorecard to what their behaviour deserves.

// orchestratorFunc adapts a function to driver.GoOrchestrator.
type orchestratorFunc func(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome

func (f orchestratorFunc) Delegate(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
	return f(ctx, req, c)
}

func goDriver(name string, f func() driver.GoOrchestrator) driver.Driver {
	return driver.NewGo(name, f)
}

// doNothing touches no network and refuses every delegation.
func doNothing() driver.GoOrchestrator {
	return orchestratorFunc(func(_ context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
		return contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeRejected, Reason: contract.ReasonOther}
	})
}

// TestDoNothingScoresNearZero: an orchestrator that does nothing scores at
// most 5 in both profiles and is not conformant.
func TestDoNothingScoresNearZero(t *testing.T) {
	t.Parallel()
	rep := runCatalog(t, goDriver("do-nothing", doNothing), scenarios.RealTime)
	checkGolden(t, "do-nothing", renderScorecard(rep))
	for _, p := range scenarios.Profiles {
		if ps := rep.Profiles[p]; ps.Score > 5 || ps.Conformant {
			t.Errorf("%s: score %.1f, conformant %v; want at most 5 and not conformant", p, ps.Score, ps.Conformant)
		}
	}
	for _, c := range rep.Checks {
		if c.Result == scenarios.Pass {
			t.Errorf("%s passed for an orchestrator that did nothing: %s", c.ID, c.Detail)
		}
	}
}

// liars are orchestrators whose outcomes the wire contradicts.
var liars = []struct {
	name string
	new  func() driver.GoOrchestrator
}{
	{"claims completion without a request", func() driver.GoOrchestrator {
		return orchestratorFunc(func(_ context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
			return contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeCompleted,
				Agent: "https://rpc.agent-d.example/a2a/v1", Skill: req.Task.Skill, TaskID: "t-invented", TaskState: "completed",
				CardTrust: contract.CardTrustAuthoritative, TrustMode: contract.TrustModeFull, Reason: contract.ReasonOK}
		})
	}},
	{"reports another task id", lyingReference(func(o *contract.DelegationOutcome) {
		if o.TaskID != "" {
			o.TaskID += "-x"
		}
	})},
	{"reports another skill", lyingReference(func(o *contract.DelegationOutcome) {
		if o.Outcome == contract.OutcomeCompleted {
			o.Skill = "some-other-skill"
		}
	})},
	{"claims full trust without a key set", lyingReference(func(o *contract.DelegationOutcome) { o.TrustMode = contract.TrustModeFull })},
}

// lyingReference runs the reference and rewrites its outcomes.
func lyingReference(lie func(*contract.DelegationOutcome)) func() driver.GoOrchestrator {
	return func() driver.GoOrchestrator {
		ref := reference.New(reference.Options{})
		return orchestratorFunc(func(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
			o := ref.Delegate(ctx, req, c)
			lie(&o)
			return o
		})
	}
}

// TestLyingOutcomesAreNotConformant: an orchestrator that reports outcomes
// the wire contradicts is not conformant, and the failure says what the
// outcome said against what the wire showed.
func TestLyingOutcomesAreNotConformant(t *testing.T) {
	testenv.Long(t, "lying orchestrators over the whole catalog")
	t.Parallel()
	for _, l := range liars {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			rep := runCatalog(t, goDriver("liar", l.new), harnessScale)
			if rep.Conformant(nil) {
				t.Fatalf("conformant: %+v", rep.Profiles)
			}
			said := false
			for _, c := range rep.Checks {
				said = said || (c.Result == scenarios.Fail && strings.Contains(c.Detail, "the outcome says") && strings.Contains(c.Detail, "the wire shows"))
			}
			if !said {
				t.Error("no failure says what the outcome claimed against what the wire showed")
			}
		})
	}
}

// TestSignedCardBlindIsNeverCredited: an orchestrator that gives up on
// every signed card (as a client that cannot parse 1.0-only signed cards
// does) never passes a SIG or BIND check about a signed card, and is not
// conformant.
func TestSignedCardBlindIsNeverCredited(t *testing.T) {
	testenv.Long(t, "a signature-blind orchestrator over the whole catalog")
	t.Parallel()
	rep := runCatalog(t, goDriver("signed-card-blind", func() driver.GoOrchestrator {
		ref := reference.New(reference.Options{})
		return orchestratorFunc(func(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
			for _, u := range req.Candidates {
				if card, err := fetchCard(ctx, c, u); err == nil && card.Signatures != nil {
					return contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeFailed, Reason: contract.ReasonOther, Detail: "KeyError: 'url'"}
				}
			}
			return ref.Delegate(ctx, req, c)
		})
	}), harnessScale)
	if rep.Conformant(nil) {
		t.Errorf("conformant: %+v", rep.Profiles)
	}
	for _, c := range rep.Checks {
		signed := strings.HasPrefix(c.ID, "SIG-") || strings.HasPrefix(c.ID, "BIND-") && !strings.HasPrefix(c.ID, "BIND-003")
		if signed && c.Result == scenarios.Pass {
			t.Errorf("%s passed for an orchestrator that never read the signed card: %s", c.ID, c.Detail)
		}
	}
}

// TestRandomOrchestratorIsNeverConformant: an orchestrator that picks
// candidates, skills, probes and trust modes at random is never conformant
// over 20 seeds; and whenever it claims to have verified a signature, it is
// not a2a-core conformant either.
func TestRandomOrchestratorIsNeverConformant(t *testing.T) {
	testenv.Long(t, "random orchestrators over the whole catalog")
	t.Parallel()
	var (
		mu       sync.Mutex
		coreConf []uint64
	)
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) {
			t.Parallel()
			rep := runCatalog(t, goDriver("random", func() driver.GoOrchestrator { return newRandom(seed) }), harnessScale)
			if rep.Conformant(nil) || rep.Profiles[scenarios.Safety].Conformant {
				t.Errorf("seed %d: conformant: %+v", seed, rep.Profiles)
			}
			if rep.Profiles[scenarios.Core].Conformant {
				for _, sc := range rep.Scenarios {
					for _, d := range sc.Delegations {
						if sc.ID == "SIG-004" && d.Outcome != nil && (d.Outcome.TrustMode == contract.TrustModeFull || d.Outcome.TrustMode == contract.TrustModeReduced) {
							t.Errorf("seed %d: a2a-core conformant although it claimed %s trust for an alg-none card", seed, d.Outcome.TrustMode)
						}
					}
				}
				mu.Lock()
				coreConf = append(coreConf, seed)
				mu.Unlock()
			}
		})
	}
	t.Cleanup(func() { t.Logf("a2a-core conformant (never claimed verification on SIG-004) for seeds %v", coreConf) })
}

// agentCard is what the random orchestrator reads of a card.
type agentCard struct {
	URL                 string `json:"url"`
	SupportedInterfaces []struct {
		URL string `json:"url"`
	} `json:"supportedInterfaces"`
	Skills []struct {
		ID string `json:"id"`
	} `json:"skills"`
	Signatures json.RawMessage `json:"signatures"`
}

func fetchCard(ctx context.Context, c *http.Client, u string) (*agentCard, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var card agentCard
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&card); err != nil {
		return nil, err
	}
	return &card, nil
}

// randomOrchestrator fetches the cards, then chooses at random.
type randomOrchestrator struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newRandom(seed uint64) *randomOrchestrator {
	return &randomOrchestrator{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

func (o *randomOrchestrator) pick(n int) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.rng.IntN(n)
}

func (o *randomOrchestrator) Delegate(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
	out := contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeFailed, Reason: contract.ReasonOther}
	modes := []string{contract.TrustModeFull, contract.TrustModeReduced, contract.TrustModeUnpinned}
	out.TrustMode = modes[o.pick(len(modes))]
	out.CardTrust = []string{contract.CardTrustAuthoritative, contract.CardTrustHint}[o.pick(2)]
	if len(req.Candidates) == 0 {
		return out
	}
	card, err := fetchCard(ctx, c, req.Candidates[o.pick(len(req.Candidates))])
	if err != nil {
		return out
	}
	endpoint := card.URL
	if len(card.SupportedInterfaces) > 0 {
		endpoint = card.SupportedInterfaces[0].URL
	}
	skills := []string{req.Task.Skill}
	for _, s := range card.Skills {
		skills = append(skills, s.ID)
	}
	skill := skills[o.pick(len(skills))]
	if o.pick(2) == 0 {
		o.send(ctx, c, endpoint, skill, "__probe__", true)
	}
	id, state := o.send(ctx, c, endpoint, skill, "reconcile INV-1042", false)
	if id != "" {
		out.Outcome, out.Agent, out.Skill, out.TaskID, out.TaskState, out.Reason = contract.OutcomeCompleted, endpoint, skill, id, state, contract.ReasonOK
	}
	return out
}

// send makes one well-formed 1.0 SendMessage and returns the task's id and
// state ("" when there is none).
func (o *randomOrchestrator) send(ctx context.Context, c *http.Client, endpoint, skill, text string, probe bool) (string, string) {
	md := map[string]any{"skillId": skill}
	if probe {
		md["a2a_probe"] = true
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": map[string]any{
		"message":  map[string]any{"role": "ROLE_USER", "messageId": fmt.Sprint("m-", o.pick(1<<30)), "parts": []any{map[string]any{"text": text}}},
		"metadata": md,
	}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return "", ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := c.Do(req)
	if err != nil {
		return "", ""
	}
	defer resp.Body.Close()
	var ans struct {
		Result struct {
			Task struct {
				ID     string `json:"id"`
				Status struct {
					State string `json:"state"`
				} `json:"status"`
			} `json:"task"`
		} `json:"result"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&ans) != nil {
		return "", ""
	}
	st := strings.ToLower(strings.TrimPrefix(ans.Result.Task.Status.State, "TASK_STATE_"))
	return ans.Result.Task.ID, st
}
