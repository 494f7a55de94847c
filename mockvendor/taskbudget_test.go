package mockvendor

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTaskBudget: the task store keeps within Limits.MaxTaskBytes and
// Limits.MaxVendorTaskBytes whatever the clients send: new tasks make room
// by forgetting the oldest (of the vendor past its budget, of the fleet
// past the fleet's), follow-ups past the budget are kept as stubs, a
// vendor's flood does not forget another vendor's tasks while the fleet's
// budget holds, and a reset returns every byte.
func TestTaskBudget(t *testing.T) {
	big := strings.Repeat("x", 60<<10)
	const budget = 1 << 20
	cases := []struct {
		name   string
		limits Limits
		run    func(t *testing.T, f *Fleet, c tCaller)
	}{
		{"new tasks forget the oldest", Limits{MaxTaskBytes: budget, MaxVendorTaskBytes: budget}, func(t *testing.T, f *Fleet, c tCaller) {
			var ids []string
			for i := 0; i < 100; i++ { // 6 MiB of text into a 1 MiB budget
				ids = append(ids, c.send(t, tRPCD, big, nil))
				tWantBudget(t, f, "d", budget)
			}
			tWantCode(t, "oldest", c.get(t, tRPCD, ids[0]), -32001)
			got := c.get(t, tRPCD, ids[99])
			if text, _ := tPath(tTask(got), "history", 0, "parts", 0, "text").(string); text != big {
				t.Errorf("the newest task's message has %d bytes of text, want %d", len(text), len(big))
			}
			if n := f.tasks.Budget().Forgotten(); n < 80 {
				t.Errorf("%d tasks forgotten to make room, want at least 80 of 100", n)
			}
		}},
		{"follow-ups past the budget are stubs", Limits{MaxTaskBytes: budget, MaxVendorTaskBytes: budget, WorkTime: time.Hour}, func(t *testing.T, f *Fleet, c tCaller) {
			id := c.send(t, tRPCD, "first", map[string]any{"blocking": false})
			for i := 0; i < 40; i++ { // 2.4 MiB of follow-ups
				r := c.follow(t, tRPCD, id, big)
				if r.Err() != nil {
					t.Fatalf("follow-up %d: %v", i, r.Err())
				}
				tWantBudget(t, f, "d", budget)
			}
			hist := tAsList(tTask(c.get(t, tRPCD, id))["history"])
			var kept, stubs int
			for _, m := range hist {
				text, _ := tPath(m, "parts", 0, "text").(string)
				switch {
				case text == big:
					kept++
				case strings.HasPrefix(text, "[message not kept: about 6"):
					stubs++
				}
			}
			if kept < 10 || kept > 17 || stubs != 40-kept || len(hist) != 41 {
				t.Errorf("history of %d: %d full follow-ups, %d stubs; want 10-17 full (1 MiB of 60 KiB) and the rest stubs", len(hist), kept, stubs)
			}
			if n := f.tasks.Budget().Stubbed(); n != int64(stubs) {
				t.Errorf("stubbed counts %d, the history holds %d stubs", n, stubs)
			}
		}},
		{"a vendor's flood spares another vendor", Limits{MaxTaskBytes: 4 * budget, MaxVendorTaskBytes: budget}, func(t *testing.T, f *Fleet, c tCaller) {
			rpcC := "https://" + HostC + DefaultRPCPath
			keep := c.send(t, rpcC, big, nil)
			for i := 0; i < 50; i++ {
				c.send(t, tRPCD, big, nil)
				tWantBudget(t, f, "d", budget)
			}
			tWantState(t, "C's task", c.get(t, rpcC, keep), "completed")
		}},
		{"reset returns every byte", Limits{}, func(t *testing.T, f *Fleet, c tCaller) {
			for i := 0; i < 10; i++ {
				c.send(t, tRPCD, big, nil)
			}
			if all, _ := f.tasks.Budget().InUse("d"); all < 10*60<<10 {
				t.Errorf("10 tasks of 60 KiB charge %d bytes", all)
			}
			if err := f.Reset(); err != nil {
				t.Fatal(err)
			}
			if all, d := f.tasks.Budget().InUse("d"); all != 0 || d != 0 {
				t.Errorf("after a reset the budget holds %d bytes (%d of D)", all, d)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{VendorC(), VendorD()}, Limits: tc.limits})
			tc.run(t, f, tCaller{tClient(t, f, tViaResolve)})
		})
	}
}

// tWantBudget checks that the store charges at most max bytes to vendor
// and to the fleet, plus one task (the documented overshoot).
func tWantBudget(t *testing.T, f *Fleet, vendor string, max int64) {
	t.Helper()
	slack := int64(64 << 10)
	if all, v := f.tasks.Budget().InUse(vendor); v > max+slack || all > f.limits.MaxTaskBytes+slack {
		t.Fatalf("the task store charges %d bytes (%d to %s), budgets %d and %d", all, v, vendor, f.limits.MaxTaskBytes, max)
	}
}

// tCaller sends 0.3 requests.
type tCaller struct{ c *http.Client }

func (c tCaller) send(t *testing.T, u, text string, config map[string]any) string {
	t.Helper()
	p := map[string]any{"message": tMessage(Dialect03, text, nil)}
	if config != nil {
		p["configuration"] = config
	}
	r := tRPC(t, c.c, u, "0.3", "message/send", p)
	id, _ := tTask(r)["id"].(string)
	if id == "" {
		t.Fatalf("send to %s: no task: %s", u, r.Body)
	}
	return id
}

func (c tCaller) follow(t *testing.T, u, id, text string) *tResp {
	t.Helper()
	m := tMessage(Dialect03, text, nil)
	m["taskId"] = id
	return tRPC(t, c.c, u, "0.3", "message/send", map[string]any{"message": m})
}

func (c tCaller) get(t *testing.T, u, id string) *tResp {
	t.Helper()
	return tRPC(t, c.c, u, "0.3", "tasks/get", map[string]any{"id": id})
}
