package mockvendor

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

func init() {
	tAddFaultCase("long-task", tFaultLongTask)
}

// tLongWork is the work of the long-task cases: long enough to tell a
// held answer from an early one on a loaded machine, short for the tests.
const tLongWork = 400 * time.Millisecond

// tFaultLongTask is the long-task case of TestFaults (JSON-RPC, 0.3 and
// 1.0): a blocking send is held until the task completes; one that asks to
// return immediately is answered at once with the task working, which a
// get confirms; a task that works for ever holds its blocking send until
// the client leaves (the trace says so), and refuses a cancel with -32002.
func tFaultLongTask(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("long-task", LongTask{WorkMs: int(tLongWork / time.Millisecond)}))
	for _, d := range tDialects[1:] {
		start := time.Now()
		r := e.send(t, d.D, "long work", "")
		if took := time.Since(start); took < tLongWork {
			t.Errorf("%s: blocking send answered after %v, before the work (%v)", d.Send, took, tLongWork)
		}
		tWantState(t, d.Send+" blocking", r, "completed")

		p := tSendParams(d.D, "long work, return at once", "")
		p["configuration"] = tReturnAtOnce(d.D)
		start = time.Now()
		r = tRPC(t, e.c, e.rpc, d.Version, d.Send, p)
		if took := time.Since(start); took >= tLongWork {
			t.Errorf("%s: a send that asked to return immediately was answered after %v", d.Send, took)
		}
		tWantState(t, d.Send+" returnImmediately", r, "working")
		tid, _ := tTask(r)["id"].(string)
		tWantState(t, d.Get+" while working", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid}), "working")
	}
	tWantState(t, "probe", e.send(t, Dialect10, ProbeText, ""), "completed")
	e.remove(t, id)

	e.add(t, "x", Spec("long-task", LongTask{Forever: true, RefuseCancel: true}))
	d := tDialects[2]
	seq := e.f.Trace().Seq()
	ctx, cancel := context.WithTimeout(context.Background(), tLongWork)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.rpc, bytes.NewReader(tEnvelope(d.Send, tSendParams(d.D, "for ever", ""))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", d.Version)
	if resp, err := e.c.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a blocking send of a task that works for ever was answered: HTTP %d", resp.StatusCode)
	}
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend && !ev.Pending })
	if ev.TaskID == "" || !strings.Contains(ev.Note, "client left") || !slices.Contains(ev.Faults, "long-task") {
		t.Errorf("held send left by the client: trace task %q note %q faults %v", ev.TaskID, ev.Note, ev.Faults)
	}
	tWantState(t, "get of the held task", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": ev.TaskID}), "working")
	tWantCode(t, "cancel refused", tRPC(t, e.c, e.rpc, d.Version, d.Cancel, map[string]any{"id": ev.TaskID}), -32002)
}

// tReturnAtOnce is the configuration of a send that asks to return
// immediately in dialect d.
func tReturnAtOnce(d Dialect) map[string]any {
	if d == Dialect03 {
		return map[string]any{"blocking": false}
	}
	return map[string]any{"returnImmediately": true}
}

// TestLongTaskREST: on D's HTTP+JSON binding, a blocking send of a long
// task is held until the task completes; a held send whose task is
// cancelled meanwhile is answered at once with the task canceled; the
// fleet's Close ends a held send of a task that works for ever (the
// resource a held answer takes, a goroutine and a connection, is bounded
// by the client, the task and the fleet).
func TestLongTaskREST(t *testing.T) {
	d := VendorD()
	d.Faults = []FaultSpec{Spec("long-task", LongTask{WorkMs: int(tLongWork / time.Millisecond)})}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	c := tClient(t, f, tViaProxy)
	body := `{"message":{"role":"ROLE_USER","messageId":"m-rest-long","parts":[{"text":"long work"}]}}`
	start := time.Now()
	r := tREST(t, c, "POST", "/message:send", body, nil)
	if took := time.Since(start); took < tLongWork {
		t.Errorf("blocking send answered after %v, before the work (%v)", took, tLongWork)
	}
	tWantRESTState(t, "REST blocking send", r, "completed")

	fs, err := f.Faults("d")
	if err != nil || len(fs) != 1 {
		t.Fatalf("faults %v: %v", fs, err)
	}
	if err := f.RemoveFault("d", fs[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddFault("d", Spec("long-task", LongTask{Forever: true})); err != nil {
		t.Fatal(err)
	}
	seq := f.Trace().Seq()
	done := make(chan *tResp, 1)
	go func() {
		done <- tREST(t, c, "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m-rest-forever","parts":[{"text":"for ever"}]}}`, nil)
	}()
	ev := tWaitEvent(t, f, seq, func(ev Event) bool { return ev.Pending && strings.HasSuffix(ev.Path, "/message:send") })
	list := tREST(t, c, "GET", "/tasks", "", nil)
	held, _ := list.JSON["tasks"].([]any)
	if len(held) == 0 {
		t.Fatalf("no task listed: %s", list.Body)
	}
	newest, _ := held[0].(map[string]any)
	tid, _ := newest["id"].(string)
	tREST(t, c, "POST", "/tasks/"+tid+":cancel", "{}", nil)
	select {
	case r := <-done:
		tWantRESTState(t, "held send of a cancelled task", r, "canceled")
	case <-time.After(3 * time.Second):
		t.Fatalf("the held send (#%d) was not answered after its task was cancelled", ev.Seq)
	}
}

// tWantRESTState checks the state of the task an HTTP+JSON send answered.
func tWantRESTState(t *testing.T, what string, r *tResp, state string) {
	t.Helper()
	st, _ := tAnyTask(r)["status"].(map[string]any)
	got, _ := st["state"].(string)
	if r.Status != 200 || a2a.NormalState(got) != state {
		t.Errorf("%s: HTTP %d state %q, want %q: %s", what, r.Status, got, state, r.Body)
	}
}
