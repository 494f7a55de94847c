package mockvendor

import (
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("unknown-fields", tFaultUnknownFields)
}

// tFaultUnknownFields is the unknown-fields case of TestFaults: the card
// has its added fields (top level, capabilities, skills, interfaces) and
// keeps its own; a 1.0 and a 0.3 send's task, status, message and parts
// carry theirs, the result-like ones with the marker, and the task still
// completes with its honest artifact; a 1.0 stream's every event carries
// them too; the trace names the fault.
func tFaultUnknownFields(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("unknown-fields", UnknownFields{Marker: "later"}))
	card := e.card(t, tHostX, true).JSON
	if tPath(card, "trustRegistry", "sinceVersion") != "1.2" || tPath(card, "capabilities", "batchedMessages") != true ||
		tPath(card, "skills", 0, "pricing", "currency") != "EUR" || tPath(card, "capabilities", "streaming") != true || len(tSkillIDs(card)) != 3 {
		t.Errorf("card %v", card)
	}
	for _, d := range []Dialect{Dialect10, Dialect03} {
		seq := e.f.Trace().Seq()
		r := e.send(t, d, "fields", "alpha")
		tWantState(t, "send "+string(d), r, "completed")
		task := tTask(r)
		if tPath(task, "usage", "inputTokens") == nil || tPath(task, "outputs", 0, "artifactId") != LaterArtifactID ||
			tPath(task, "status", "detail", "parts", 0, "text") != "later" || tPath(task, "history", 0, "priority") != "normal" ||
			tPath(task, "artifacts", 0, "summary") != "later" || tPath(task, "artifacts", 0, "parts", 0, "annotations", "note") != "later" {
			t.Errorf("%s task %v", d, task)
		}
		if text, _ := tPath(task, "artifacts", 0, "parts", 0, "text").(string); !strings.Contains(text, "fields") {
			t.Errorf("%s: the honest artifact's text %q", d, text)
		}
		if d == Dialect10 && tPath(r.Result(), "traceContext") == nil {
			t.Errorf("1.0 SendMessageResponse has no added field: %v", r.Result())
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !strings.Contains(strings.Join(ev.Faults, ","), "unknown-fields") {
			t.Errorf("%s: trace faults %v", d, ev.Faults)
		}
	}
	dc := tDialectOf(t, Dialect10)
	evs := tReadSSE(t, tStream(t, e.c, e.rpc, dc.Version, dc.Stream, tSendParams(Dialect10, "stream", "alpha")).Body)
	if len(evs) < 4 {
		t.Fatalf("stream events %v", evs)
	}
	for i, ev := range evs {
		res, _ := ev["result"].(map[string]any)
		if res["traceContext"] == nil {
			t.Errorf("stream event %d without its added field: %v", i, res)
		}
		if u, ok := res["statusUpdate"]; ok && tPath(u, "emittedBy") != "worker-3" {
			t.Errorf("status update %d: %v", i, u)
		}
	}
}
