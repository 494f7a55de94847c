package mockvendor

import (
	"net/http"
	"testing"
)

func init() {
	tAddFaultCase("refuse-connections", tFaultRefuseConnections)
}

// tFaultRefuseConnections is the refuse-connections case of TestFaults:
// the host the fault names refuses every connection (traced), the
// vendor's other host still answers, and removing the fault revives it.
func tFaultRefuseConnections(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", FaultSpec{Type: "refuse-connections", Hosts: []string{tHostX2}})
	since := e.f.Trace().Seq()
	dead := "https://" + tHostX2 + DefaultRPCPath
	c := e.fresh(t)
	req, _ := http.NewRequest(http.MethodPost, dead, nil)
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a request to the refusing host got HTTP %d", resp.StatusCode)
	}
	ev := tWaitEvent(t, e.f, since, func(ev Event) bool { return ev.Op == OpConnRefused })
	if ev.Host != tHostX2 || ev.Vendor != "x" {
		t.Errorf("refusal traced as %+v", ev)
	}
	tWantState(t, "the other host", tSend(t, c, e.rpc, Dialect10, "x", ""), "completed")
	e.remove(t, id)
	tWantState(t, "after removal", tSend(t, e.fresh(t), dead, Dialect10, "x", ""), "completed")
	e.add(t, "x", FaultSpec{Type: "refuse-connections", Hosts: []string{tHostX2}}) // the harness removes it and checks the baseline
}
