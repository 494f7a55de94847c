package mockvendor

import (
	"slices"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("probe-accept", tFaultProbeAccept)
}

// tFaultProbeAccept is the probe-accept case of TestFaults.
func tFaultProbeAccept(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("probe-accept", nil))
	for _, d := range tDialects {
		seq := e.f.Trace().Seq()
		r := e.send(t, d.D, ProbeText, "")
		tWantState(t, string(d.D)+" probe", r, "working")
		id, _ := tTask(r)["id"].(string)
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !ev.Probe || !slices.Contains(ev.Faults, "probe-accept") || ev.State != "working" {
			t.Errorf("%s probe event %+v", d.D, ev)
		}
		tWantState(t, string(d.D)+" get", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "working")
		time.Sleep(10 * time.Millisecond)
		tWantState(t, string(d.D)+" get later", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "working")
		tWantState(t, string(d.D)+" cancel", tRPC(t, e.c, e.rpc, d.Version, d.Cancel, map[string]any{"id": id}), "canceled")
		tWantState(t, string(d.D)+" get after cancel", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "canceled")
		tWantCode(t, string(d.D)+" second cancel", tRPC(t, e.c, e.rpc, d.Version, d.Cancel, map[string]any{"id": id}), -32002)
		tWantState(t, string(d.D)+" real send", e.send(t, d.D, "real work", ""), "completed")
	}
	// A probe marked by metadata is a probe too.
	p := tSendParams(Dialect03, "ping", "")
	p["metadata"] = map[string]any{"a2a_probe": true}
	tWantState(t, "metadata probe", tRPC(t, e.c, e.rpc, "0.3", "message/send", p), "working")
}
