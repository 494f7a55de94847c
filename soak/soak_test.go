package soak

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestSoakSeparatesNaiveFromReference: with rollouts on a short clock, the
// naive orchestrator loses delegations after the first rollout, while the
// reference keeps completing them and sees no lost delegation after its
// first re-route.
func TestSoakSeparatesNaiveFromReference(t *testing.T) {
	opts := Options{Delegations: 45, Window: 600 * time.Millisecond, Spacing: 25 * time.Millisecond}
	nv, err := Run(context.Background(), driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() }), "builtin:naive", opts)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Run(context.Background(), driver.NewGo("reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) }), "builtin:reference", opts)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	nv.WriteText(&sb)
	ref.WriteText(&sb)
	t.Log("\n" + sb.String())
	if nv.Escalated == 0 || nv.SuccessRate > 0.9 {
		t.Errorf("naive: success %.2f, %d escalated; want the failure burst", nv.SuccessRate, nv.Escalated)
	}
	if ref.SuccessRate < 0.99 || ref.Escalated != 0 || ref.LostAfterReroute != 0 {
		t.Errorf("reference: success %.2f, %d escalated, %d lost after re-route; want every delegation completed", ref.SuccessRate, ref.Escalated, ref.LostAfterReroute)
	}
	if ref.FirstReroute == 0 || ref.Probes == 0 {
		t.Errorf("reference: first re-route %d, %d probes; the rollout should have forced a re-route", ref.FirstReroute, ref.Probes)
	}
	svg := PlotSVG(nv, ref)
	if err := xml.Unmarshal(svg, new(struct{ XMLName xml.Name })); err != nil {
		t.Errorf("the plot is not well-formed XML: %v", err)
	}
	for _, want := range []string{"builtin:naive", "builtin:reference", "-32004 answers"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
}
