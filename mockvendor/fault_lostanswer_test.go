package mockvendor

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("lost-answer", tFaultLostAnswer)
}

// tPostLost posts body to u and returns the transport error the client
// got (nil when an answer came).
func tPostLost(t *testing.T, c *http.Client, u, version string, body []byte) error {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if version != "" {
		req.Header.Set("A2A-Version", version)
	}
	resp, err := c.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// tFaultLostAnswer is the lost-answer case of TestFaults (JSON-RPC, 0.3
// and 1.0): the first real send's connection drops with no answer, its
// task created (the trace names it); a resend of the same message is
// answered with that task (A2A 1.0 §3.3.1), and a send of the same text
// under a new messageId creates another task. Probes are left alone.
func tFaultLostAnswer(t *testing.T, e *tFaultEnv) {
	for _, d := range tDialects[1:] {
		e.add(t, "x", Spec("lost-answer", LostAnswer{})) // the one before has lost its one answer
		tWantState(t, "probe", e.send(t, d.D, ProbeText, ""), "completed")
		p := tSendParams(d.D, "lost work", "")
		seq := e.f.Trace().Seq()
		if err := tPostLost(t, e.c, e.rpc, d.Version, tEnvelope(d.Send, p)); err == nil {
			t.Fatalf("%s: the lost answer came", d.Send)
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend && !ev.Probe })
		if ev.TaskID == "" || ev.Status != 0 || !strings.Contains(ev.Note, "answer lost") || !slices.Contains(ev.Faults, "lost-answer") {
			t.Errorf("%s: trace of the lost answer: task %q status %d note %q faults %v", d.Send, ev.TaskID, ev.Status, ev.Note, ev.Faults)
		}
		again := tRPC(t, e.c, e.rpc, d.Version, d.Send, p)
		if got, _ := tTask(again)["id"].(string); got != ev.TaskID {
			t.Errorf("%s: the resend got task %q, want the lost answer's %q: %s", d.Send, got, ev.TaskID, again.Body)
		}
		fresh := tSendParams(d.D, "lost work", "")
		other := tRPC(t, e.c, e.rpc, d.Version, d.Send, fresh)
		if got, _ := tTask(other)["id"].(string); got == "" || got == ev.TaskID {
			t.Errorf("%s: a new messageId got task %q (the lost one is %q)", d.Send, got, ev.TaskID)
		}
	}
}

// TestResendDeduplicated: on both of D's bindings, a resend of a message
// (same messageId, parts, skill and blocking mode, the task's context or
// none) is answered with the task it created; the same messageId with
// other parts, another contextId or another blocking mode is new work;
// with lost-answer, the resend after the lost answer gets the lost task.
func TestResendDeduplicated(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}})
	c := tClient(t, f, tViaResolve)
	rpc := "https://" + HostRPCD + DefaultRPCPath
	msg := func(id, text, ctx string) map[string]any {
		m := map[string]any{"role": "ROLE_USER", "messageId": id, "parts": []any{map[string]any{"text": text}}}
		if ctx != "" {
			m["contextId"] = ctx
		}
		return m
	}
	type send func(params map[string]any) *tResp
	bindings := map[string]struct {
		send send
		lost func(params map[string]any) error
	}{
		"jsonrpc": {
			send: func(p map[string]any) *tResp { return tRPC(t, c, rpc, "1.0", "SendMessage", p) },
			lost: func(p map[string]any) error { return tPostLost(t, c, rpc, "1.0", tEnvelope("SendMessage", p)) },
		},
		"http+json": {
			send: func(p map[string]any) *tResp {
				b, _ := json.Marshal(p)
				return tREST(t, c, "POST", "/message:send", string(b), nil)
			},
			lost: func(p map[string]any) error {
				b, _ := json.Marshal(p)
				return tPostLost(t, c, tRESTD+"/message:send", "1.0", b)
			},
		},
	}
	for name, b := range bindings {
		t.Run(name, func(t *testing.T) {
			id := "m-dedup-" + name
			fid, err := f.AddFault("d", Spec("lost-answer", LostAnswer{}))
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = f.RemoveFault("d", fid) }()
			seq := f.Trace().Seq()
			if err := b.lost(map[string]any{"message": msg(id, "work", "")}); err == nil {
				t.Fatal("the lost answer came")
			}
			lost := tWaitEvent(t, f, seq, func(ev Event) bool { return ev.Op == OpSend })
			first := b.send(map[string]any{"message": msg(id, "work", "")})
			tid, _ := tAnyTask(first)["id"].(string)
			ctx, _ := tAnyTask(first)["contextId"].(string)
			if tid == "" || tid != lost.TaskID {
				t.Fatalf("resend after the lost answer: task %q, want %q: %s", tid, lost.TaskID, first.Body)
			}
			cases := []struct {
				what   string
				params map[string]any
				same   bool
			}{
				{"resend, no context", map[string]any{"message": msg(id, "work", "")}, true},
				{"resend in the task's context", map[string]any{"message": msg(id, "work", ctx)}, true},
				{"same id, other parts", map[string]any{"message": msg(id, "other work", "")}, false},
				{"same id, another context", map[string]any{"message": msg(id, "work", "ctx-other")}, false},
				{"same id, return immediately", map[string]any{"message": msg(id, "work", ""), "configuration": map[string]any{"returnImmediately": true}}, false},
				{"new id", map[string]any{"message": msg(id+"-2", "work", "")}, false},
			}
			for _, tc := range cases {
				r := b.send(tc.params)
				got, _ := tAnyTask(r)["id"].(string)
				if got == "" || (got == tid) != tc.same {
					t.Errorf("%s: task %q (first %q), same want %v: %s", tc.what, got, tid, tc.same, r.Body)
				}
			}
		})
	}
}

// tAnyTask is the task a send answered on either binding: the JSON-RPC
// result's, or the HTTP+JSON body's (a SendMessageResponse).
func tAnyTask(r *tResp) map[string]any {
	if task := tTask(r); task != nil {
		return task
	}
	task, _ := r.JSON["task"].(map[string]any)
	return task
}
