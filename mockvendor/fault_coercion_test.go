package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("input-mode-coercion", tFaultInputModeCoercion)
}

// tFaultInputModeCoercion is the input-mode-coercion case of TestFaults.
func tFaultInputModeCoercion(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("input-mode-coercion", nil))
	want := map[Dialect]map[string]any{
		Dialect03: {"kind": "data", "data": map[string]any{"text": "hello"}},
		Dialect10: {"data": map[string]any{"text": "hello"}},
	}
	for _, d := range []Dialect{Dialect03, Dialect10} {
		seq := e.f.Trace().Seq()
		r := e.send(t, d, "hello", "beta")
		tWantState(t, string(d), r, "completed")
		part := tPath(tTask(r), "history", 0, "parts", 0)
		if !tJSONEqual(part, want[d]) {
			t.Errorf("%s: history part %v, want %v", d, part, want[d])
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !slices.Equal(ev.Coercions, []Coercion{{Part: 0, From: "text", To: "data"}}) || !slices.Contains(ev.Faults, "input-mode-coercion") {
			t.Errorf("%s: trace %+v", d, ev)
		}
		seq = e.f.Trace().Seq()
		r = e.send(t, d, "hello", "alpha")
		if part := tPath(tTask(r), "history", 0, "parts", 0, "text"); part != "hello" {
			t.Errorf("%s: text skill got %v", d, tPath(tTask(r), "history", 0))
		}
		if ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend }); len(ev.Coercions) != 0 {
			t.Errorf("%s: text skill coerced: %+v", d, ev.Coercions)
		}
	}
}
