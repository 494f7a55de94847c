package suite_test

import (
	"context"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// helloSays wraps a Go orchestrator with the hello declaration of what it
// speaks (driver.GoOrchestrator's optional Speaks).
type helloSays struct {
	driver.GoOrchestrator
	versions, bindings []string
}

func (h helloSays) Speaks() ([]string, []string) { return h.versions, h.bindings }

// TestGRPCStrategies holds the gRPC scenarios' checks (IFACE-009,
// IFACE-010, AUTH-013) to the strategies the spec allows, through the
// fleet's real gRPC binding over TLS: the reference (card order: gRPC
// where the card lists it first) and its grpc-first alternative pass; a
// client without gRPC gets NOT_APPLICABLE for every check about gRPC
// calls: the reference's no-grpc alternative, which completes IFACE-009
// over JSON-RPC, and the naive orchestrator, which declares nothing and
// shows 0.3 only (every check of these 1.0 cards "needs 1.0");
// a client that declares gRPC and never uses it (grpc-skip) fails .FIRST
// and is NOT_EXERCISED where it sent no gRPC (and AUTH-013.DONE fails: it
// refused a card whose only interface it says it speaks); one that does
// nothing is NOT_EXERCISED everywhere, whether it declares gRPC or
// nothing.
func TestGRPCStrategies(t *testing.T) {
	t.Parallel()
	const (
		P = scenarios.Pass
		N = scenarios.NotApplicable
		F = scenarios.Fail
		E = scenarios.NotExercised
	)
	ids := []string{
		"IFACE-009.GRPC-FIRST", "IFACE-009.ADDRESS", "IFACE-009.DONE",
		"IFACE-010.METADATA", "IFACE-010.REPORT", "AUTH-013.ATTACH", "AUTH-013.DONE",
	}
	ref := func(b reference.Breaks, a reference.Alternatives) func() driver.GoOrchestrator {
		return func() driver.GoOrchestrator { return reference.New(reference.Options{Break: b, Alt: a}) }
	}
	cases := []struct {
		name string
		new  func() driver.GoOrchestrator
		want []scenarios.Outcome // by ids
	}{
		{"reference", ref(reference.Breaks{}, reference.Alternatives{}), []scenarios.Outcome{P, P, P, P, N, P, P}},
		{"reference+grpc-first", ref(reference.Breaks{}, reference.Alternatives{PreferGRPC: true}), []scenarios.Outcome{P, P, P, P, N, P, P}},
		{"reference+no-grpc", ref(reference.Breaks{}, reference.Alternatives{NoGRPC: true}), []scenarios.Outcome{N, N, P, N, N, N, N}},
		{"naive (declares nothing, JSON-RPC 0.3)", func() driver.GoOrchestrator { return naive.New() }, []scenarios.Outcome{N, N, N, N, N, N, N}},
		{"reference+grpc-skip (declares gRPC, never uses it)", ref(reference.Breaks{GRPCSkip: true}, reference.Alternatives{}), []scenarios.Outcome{F, E, P, E, E, E, F}},
		// Refused VersionNotSupported, the reference takes the refusal as
		// final (IFACE-006's stance): IFACE-009 and AUTH-013 do not complete.
		{"reference+grpc-no-version", ref(reference.Breaks{GRPCNoVersion: true}, reference.Alternatives{}), []scenarios.Outcome{P, P, F, F, P, P, F}},
		{"does nothing, declares gRPC", func() driver.GoOrchestrator {
			return helloSays{doNothing(), []string{"1.0"}, []string{contract.BindingGRPC}}
		}, []scenarios.Outcome{E, E, E, E, E, E, E}},
		{"does nothing, declares nothing", doNothing, []scenarios.Outcome{E, E, E, E, E, E, E}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// CARD-002 (D's default card, every binding) shows what a client
			// that declares nothing speaks, as a whole run would.
			rep := runScenarios(t, driver.NewGo(c.name, c.new), "IFACE-009", "IFACE-010", "AUTH-013", "CARD-002")
			for i, id := range ids {
				if cr := checkOf(t, rep, id); cr.Result != c.want[i] {
					t.Errorf("%s: %s (%s), want %s", id, cr.Result, cr.Detail, c.want[i])
				} else {
					t.Logf("%s: %s (%s)", id, cr.Result, cr.Detail)
				}
			}
		})
	}
}

// TestGRPCCallsJudged: the reference's grpc-first alternative takes D's
// gRPC interface wherever D's card lists it (last, by default), so the
// existing checks of those scenarios judge gRPC calls; they pass, as they
// do for the reference over JSON-RPC, and the gRPC calls are on the wire.
func TestGRPCCallsJudged(t *testing.T) {
	t.Parallel()
	ids := []string{"CARD-002", "AUTH-001", "AUTH-002", "LIFE-003", "STREAM-003", "CONV-001", "RESULT-001"}
	d := driver.NewGo("reference+grpc-first", func() driver.GoOrchestrator {
		return reference.New(reference.Options{Alt: reference.Alternatives{PreferGRPC: true}})
	})
	for _, id := range ids {
		s, _ := scenarios.Find(id)
		if s == nil {
			t.Fatalf("no scenario %s", id)
		}
		run, _, err := suite.Execute(context.Background(), s, d)
		if err != nil {
			t.Fatalf("%s: harness error: %v", id, err)
		}
		grpcCalls := 0
		for _, e := range run.Events {
			if e.Binding == "GRPC" {
				grpcCalls++
			}
		}
		if grpcCalls == 0 {
			t.Errorf("%s: no gRPC call on the wire: the grpc-first alternative did not take D's gRPC interface", id)
		}
		for _, c := range s.WithGlobals() {
			cr := suite.Judge(run, nil, s, c, nil)
			if cr.Result != scenarios.Pass && cr.Result != scenarios.NotApplicable {
				t.Errorf("%s over gRPC: %s (%s)", s.CheckID(c), cr.Result, cr.Detail)
			}
		}
	}
}
