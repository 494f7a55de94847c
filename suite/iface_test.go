package suite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestIfaceStrategies holds the IFACE checks to the strategies the spec
// allows: the reference (1.0 first), the reference taking the card's
// order (0.3 JSON-RPC where it comes first), and a client that speaks only
// 0.3 (v03Client, below: it never reads a 1.0 interface) get PASS, or
// NOT_APPLICABLE where the situation does not bind them; never FAIL. The
// naive orchestrator (a 0.3 client without fallback or tenants) shows the
// same checks failing where its behaviour is wrong: JSON-RPC to the gRPC
// interface (it takes the first entry whatever its binding), no tenant.
// Orchestrators that reach nothing get NOT_EXERCISED everywhere. The
// scenarios run together and are judged as a run's report judges them,
// with what the client speaks over all of them: a 0.3-only client's
// checks on the 1.0-only cards say "needs 1.0" (NOT_APPLICABLE), whether
// its refusal says version-mismatch or other.
func TestIfaceStrategies(t *testing.T) {
	t.Parallel()
	const (
		P = scenarios.Pass
		N = scenarios.NotApplicable
		F = scenarios.Fail
		E = scenarios.NotExercised
	)
	ids := []string{
		"IFACE-001.NO-MISMATCH", "IFACE-001.DONE", "IFACE-002.FALLBACK", "IFACE-002.VERSION",
		"IFACE-003.SUPPORTED-FIRST", "IFACE-003.DONE", "IFACE-004.SKIP-UNSPOKEN", "IFACE-004.NEXT-ON-FAIL",
		"IFACE-005.TENANT", "IFACE-005.DONE", "IFACE-006.NO-DOWNGRADE", "IFACE-006.REPORT",
		"IFACE-009.GRPC-FIRST",
	}
	cases := []struct {
		name string
		new  func() driver.GoOrchestrator
		want []scenarios.Outcome // by ids
	}{
		{"reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) },
			[]scenarios.Outcome{P, P, P, P, P, P, P, P, P, P, P, P, P}},
		{"reference+card-order", func() driver.GoOrchestrator {
			return reference.New(reference.Options{Alt: reference.Alternatives{CardOrder: true}})
		}, []scenarios.Outcome{P, P, P, P, P, P, P, P, P, P, P, P, P}},
		{"0.3-only client", func() driver.GoOrchestrator { return v03Client{} },
			[]scenarios.Outcome{P, P, P, P, N, N, N, N, N, N, N, N, N}},
		{"0.3-only client that says other", func() driver.GoOrchestrator { return v03Client{reason: contract.ReasonOther} },
			[]scenarios.Outcome{P, P, P, P, N, N, N, N, N, N, N, N, N}},
		{"does nothing", doNothing, []scenarios.Outcome{E, E, E, E, E, E, E, E, E, E, E, E, E}},
		{"says version-mismatch to everything, reads nothing", func() driver.GoOrchestrator {
			return orchestratorFunc(func(_ context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
				return contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeRejected, Reason: contract.ReasonVersionMismatch}
			})
		}, []scenarios.Outcome{E, E, E, E, E, E, E, E, E, E, E, E, E}},
		// naive sends 0.3 requests to IFACE-005's 1.0 interface: a 0.3
		// request has no tenant field, so TENANT needs 1.0.
		{"naive (0.3, no fallback, no tenant)", func() driver.GoOrchestrator { return naive.New() },
			[]scenarios.Outcome{P, P, P, P, N, N, F, N, N, N, N, N, N}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := runScenarios(t, driver.NewGo(c.name, c.new), "IFACE-001", "IFACE-002", "IFACE-003", "IFACE-004", "IFACE-005", "IFACE-006", "IFACE-009")
			for i, id := range ids {
				if cr := checkOf(t, rep, id); cr.Result != c.want[i] {
					t.Errorf("%s: %s (%s), want %s", id, cr.Result, cr.Detail, c.want[i])
				}
			}
		})
	}
}

// runScenarios runs the scenarios against d and returns the report, judged
// as a run's is: each check with what the whole run showed the client
// speaking.
func runScenarios(t *testing.T, d driver.Driver, ids ...string) *suite.Report {
	t.Helper()
	var (
		all    []*scenarios.Scenario
		checks []suite.CheckResult
		scens  []suite.ScenarioResult
	)
	for _, id := range ids {
		s, _ := scenarios.Find(id)
		if s == nil {
			t.Fatalf("no scenario %s", id)
		}
		all = append(all, s)
		run, res, err := suite.Execute(context.Background(), s, d)
		if err != nil {
			t.Fatalf("%s: harness error: %v", s.ID, err)
		}
		scens = append(scens, res)
		for _, c := range s.WithGlobals() {
			checks = append(checks, suite.Judge(run, nil, s, c, nil))
		}
	}
	return suite.NewReport(suite.Config{Scenarios: all}, time.Now(), true, checks, scens)
}

// checkOf is the report's result for a check id.
func checkOf(t *testing.T, rep *suite.Report, id string) suite.CheckResult {
	t.Helper()
	for _, c := range rep.Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s in the report", id)
	return suite.CheckResult{}
}

// v03Client is the smallest honest client that speaks only A2A 0.3 over
// JSON-RPC: it takes the card's 0.3 JSON-RPC interfaces (from
// supportedInterfaces, else url and additionalInterfaces), sends
// message/send without A2A-Version, polls tasks/get, and moves to the next
// interface when one cannot be reached. A card with no 0.3 interface is
// refused with version-mismatch (or reason, when set: the wire shows the
// same refusal whatever the word).
type v03Client struct{ reason string }

func (v v03Client) Delegate(ctx context.Context, req contract.DelegationRequest, c *http.Client) contract.DelegationOutcome {
	out := contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeRejected, Reason: contract.ReasonOther,
		CardTrust: contract.CardTrustHint, TrustMode: contract.TrustModeUnpinned}
	for _, cand := range req.Candidates {
		var card struct {
			URL                  string `json:"url"`
			PreferredTransport   string `json:"preferredTransport"`
			AdditionalInterfaces []struct {
				URL       string `json:"url"`
				Transport string `json:"transport"`
			} `json:"additionalInterfaces"`
			SupportedInterfaces []struct {
				URL             string `json:"url"`
				ProtocolBinding string `json:"protocolBinding"`
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"supportedInterfaces"`
		}
		if err := v03Do(ctx, c, http.MethodGet, cand, nil, &card); err != nil {
			continue
		}
		var urls []string
		for _, i := range card.SupportedInterfaces {
			if i.ProtocolBinding == "JSONRPC" && strings.HasPrefix(i.ProtocolVersion, "0.3") {
				urls = append(urls, i.URL)
			}
		}
		if len(urls) == 0 && card.URL != "" && (card.PreferredTransport == "" || card.PreferredTransport == "JSONRPC") {
			urls = append(urls, card.URL)
		}
		for _, i := range card.AdditionalInterfaces {
			if len(card.SupportedInterfaces) == 0 && i.Transport == "JSONRPC" && i.URL != card.URL {
				urls = append(urls, i.URL)
			}
		}
		if len(urls) == 0 {
			out.Reason = contract.ReasonVersionMismatch
			if v.reason != "" {
				out.Reason = v.reason
			}
			continue
		}
		for _, u := range urls {
			msg := map[string]any{"kind": "message", "role": "user", "messageId": fmt.Sprintf("m-%s-%d", req.ID, time.Now().UnixNano()),
				"parts": []any{map[string]any{"kind": "text", "text": "reconcile INV-1042"}}, "metadata": map[string]any{"skillId": req.Task.Skill}}
			id, state, err := v03Call(ctx, c, u, "message/send", map[string]any{"message": msg, "metadata": map[string]any{"skillId": req.Task.Skill}})
			if err != nil {
				continue // the next interface
			}
			for n := 0; n < 40 && id != "" && state != "completed" && state != "failed" && state != "canceled" && state != "rejected"; n++ {
				time.Sleep(50 * time.Millisecond)
				if _, st, err := v03Call(ctx, c, u, "tasks/get", map[string]any{"id": id}); err == nil {
					state = st
				}
			}
			if state == "completed" {
				out.Outcome, out.Reason, out.Agent, out.Skill, out.TaskID, out.TaskState = contract.OutcomeCompleted, contract.ReasonOK, u, req.Task.Skill, id, state
				return out
			}
			out.Outcome = contract.OutcomeFailed
		}
	}
	return out
}

// v03Call makes a 0.3 JSON-RPC call and returns the task's id and state.
func v03Call(ctx context.Context, c *http.Client, u, method string, params map[string]any) (id, state string, err error) {
	var resp struct {
		Result *struct {
			ID     string `json:"id"`
			Status struct {
				State string `json:"state"`
			} `json:"status"`
		} `json:"result"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err := v03Do(ctx, c, http.MethodPost, u, body, &resp); err != nil {
		return "", "", err
	}
	if resp.Error != nil || resp.Result == nil {
		return "", "", fmt.Errorf("%s: no result", method)
	}
	return resp.Result.ID, resp.Result.Status.State, nil
}

func v03Do(ctx context.Context, c *http.Client, method, u string, body []byte, into any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}
