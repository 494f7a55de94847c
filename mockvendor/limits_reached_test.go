package mockvendor

import (
	"net"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLimitsHit: each limit that costs evidence or changes an answer is
// reported once reached, with its count; ordinary traffic and the limits
// that stay within their design (a body cut to its digest, a 413 past
// MaxBody) report nothing.
func TestLimitsHit(t *testing.T) {
	cases := []struct {
		name   string
		limits Limits
		run    func(t *testing.T, f *Fleet)
		want   string // the Limit reported ("" = none)
	}{
		{"ordinary traffic", Limits{}, func(t *testing.T, f *Fleet) {
			c := tClient(t, f, tViaProxy)
			for i := 0; i < 5; i++ {
				tSend(t, c, tRPCD, Dialect03, "x", "")
			}
		}, ""},
		{"a body cut to its digest", Limits{}, func(t *testing.T, f *Fleet) {
			tSend(t, tClient(t, f, tViaResolve), tRPCD, Dialect03, strings.Repeat("x", 2*MaxTracedBody), "")
		}, ""},
		{"a body past MaxBody", Limits{MaxBody: 1000}, func(t *testing.T, f *Fleet) {
			if r := tSend(t, tClient(t, f, tViaResolve), tRPCD, Dialect03, strings.Repeat("x", 2000), ""); r.Status != 413 {
				t.Fatalf("status %d, want 413", r.Status)
			}
		}, ""},
		{"trace events", Limits{MaxTraceEvents: 10}, func(t *testing.T, f *Fleet) {
			c := tClient(t, f, tViaResolve)
			for i := 0; i < 20; i++ {
				tGet(t, c, "https://"+HostCardD+CardPath, nil)
			}
		}, "MaxTraceEvents"},
		{"trace body budget", Limits{MaxTraceBodyBytes: 1000}, func(t *testing.T, f *Fleet) {
			c := tClient(t, f, tViaResolve)
			for i := 0; i < 3; i++ {
				tSend(t, c, tRPCD, Dialect03, strings.Repeat("x", 500), "")
			}
		}, "MaxTraceBodyBytes"},
		{"idle connections reclaimed", Limits{MaxConns: 2}, func(t *testing.T, f *Fleet) {
			pu, _ := url.Parse(f.ProxyURL())
			for i := 0; i < 5; i++ {
				c, err := net.DialTimeout("tcp", pu.Host, time.Second)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
			}
			tWaitFor(t, func() bool { return f.ConnsReclaimed() == 3 })
		}, ""},
		{"connections", Limits{MaxConns: 2}, func(t *testing.T, f *Fleet) {
			tFillWithBusy(t, f)
			if r := tGet(t, tClient(t, f, tViaResolve), "https://"+HostCardD+CardPath, nil); r.Status != 503 {
				t.Fatalf("past the cap: %d, want 503", r.Status)
			}
		}, "MaxConns"},
		{"tunnels", Limits{MaxTunnels: 1}, func(t *testing.T, f *Fleet) {
			c, _ := tConnect(t, f, HostCardD+":443")
			defer c.Close()
			if _, status := tConnect(t, f, HostCardD+":443"); status != 503 {
				t.Fatalf("second tunnel: %d, want 503", status)
			}
		}, "MaxTunnels"},
		{"task count", Limits{MaxTasks: 10}, func(t *testing.T, f *Fleet) {
			c := tClient(t, f, tViaResolve)
			for i := 0; i < 15; i++ {
				tSend(t, c, tRPCD, Dialect03, "x", "")
			}
		}, "MaxTasks"},
		{"task bytes", Limits{MaxTaskBytes: 100 << 10, MaxVendorTaskBytes: 100 << 10}, func(t *testing.T, f *Fleet) {
			c := tClient(t, f, tViaResolve)
			for i := 0; i < 3; i++ {
				tSend(t, c, tRPCD, Dialect03, strings.Repeat("x", 60<<10), "")
			}
		}, "MaxTaskBytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: tc.limits})
			tc.run(t, f)
			hits := f.LimitsHit()
			switch {
			case tc.want == "" && len(hits) > 0:
				t.Errorf("limits hit: %+v, want none", hits)
			case tc.want != "" && (len(hits) != 1 || hits[0].Limit != tc.want || hits[0].Count < 1 || !strings.Contains(hits[0].What, "Limits."+tc.want)):
				t.Errorf("limits hit: %+v, want %s alone", hits, tc.want)
			case len(hits) == 1 && hits[0].EventsLost != (tc.want == "MaxTraceEvents"):
				t.Errorf("%s: EventsLost %v; only dropped trace events lose events", tc.want, hits[0].EventsLost)
			}
		})
	}
}

// tWaitFor polls cond for up to 2 s.
func tWaitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not met within 2 s")
}
