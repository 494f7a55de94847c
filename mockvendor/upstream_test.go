package mockvendor

import (
	"encoding/json"
	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tAgent starts an honest agent on a bare-IP host (a fleet of its own,
// standing for a real agent: the TCK passes it) and returns its base
// URL and a PEM file of the CA that verifies it.
func tAgent(t testing.TB) (base, caFile string) {
	t.Helper()
	_, base, caFile = tAgentFleet(t)
	return base, caFile
}

// tAgentFleet is tAgent with the agent's fleet, to change the agent.
func tAgentFleet(t testing.TB) (ag *Fleet, base, caFile string) {
	t.Helper()
	ag = tStart(t, Config{Vendors: []VendorConfig{{
		ID: "agent", Organization: "Agent Co",
		Hosts:  []HostConfig{{Card: true, RPCPath: DefaultRPCPath}},
		Card:   CardConfig{Streaming: true, Skills: []string{SkillInvoice}},
		Skills: []SkillConfig{{ID: SkillInvoice, Name: "Invoice reconciliation"}},
	}}})
	for _, h := range ag.Vendor("agent").Hosts() {
		base = "https://" + h
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ag.CA().CertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	return ag, base, caFile
}

// tProxy starts a fleet whose vendor p stands in front of the agent at
// base, with faults.
func tProxy(t testing.TB, base, caFile string, faults ...FaultSpec) *Fleet {
	t.Helper()
	return tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Organization: "Proxied",
		Hosts:    []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath, RESTPath: "/a2a/rest", Region: RegionB, GRPC: true}},
		Upstream: &UpstreamConfig{URL: base, CAFile: caFile},
		Faults:   faults,
	}}})
}

func TestUpstreamForwardsCardAndCalls(t *testing.T) {
	base, caFile := tAgent(t)
	f := tProxy(t, base, caFile)
	c := tClient(t, f, tViaResolve)
	card := tGet(t, c, tURL(t, f, "agent.proxied.example", CardPath), nil)
	if card.Status != http.StatusOK {
		t.Fatalf("card: HTTP %d %s", card.Status, card.Body)
	}
	if got := tSkillIDs(card.JSON); len(got) != 1 || got[0] != SkillInvoice {
		t.Errorf("card skills = %v, want the agent's [%s]", got, SkillInvoice)
	}
	if u, _ := card.JSON["url"].(string); u != "https://agent.proxied.example"+DefaultRPCPath {
		t.Errorf("card url = %q, want the proxy's endpoint", u)
	}
	rpc := tURL(t, f, "agent.proxied.example", DefaultRPCPath)
	r := tSend(t, c, rpc, Dialect03, "hello", SkillInvoice)
	if got := tState(r); got != "completed" {
		t.Fatalf("send through the proxy: state %q, body %s", got, r.Body)
	}
	ev := tLastFinished(t, f, "agent.proxied.example")
	if ev.Upstream == nil || ev.Upstream.Status != http.StatusOK || !strings.HasPrefix(ev.Upstream.URL, base) {
		t.Errorf("trace upstream = %+v, want the agent's 200 at %s", ev.Upstream, base)
	}
	if ev.TaskID == "" || ev.State != "completed" {
		t.Errorf("trace task %q state %q, want the agent's task, completed", ev.TaskID, ev.State)
	}
	resp := tStream(t, c, rpc, "", "message/stream", tSendParams(Dialect03, "hello", SkillInvoice))
	defer resp.Body.Close()
	evs := tReadSSE(t, resp.Body)
	if len(evs) < 2 {
		t.Fatalf("stream through the proxy: %d events, want the agent's stream", len(evs))
	}
	last := evs[len(evs)-1]
	if st, _ := tPath(last, "result", "status", "state").(string); st != "completed" {
		t.Errorf("last stream event %v, want completed", last)
	}
}

func TestUpstreamFaultsAct(t *testing.T) {
	base, caFile := tAgent(t)
	f := tProxy(t, base, caFile, Spec("region-gate", RegionGate{Region: RegionB, GatedSkills: []string{SkillInvoice}}))
	c := tClient(t, f, tViaResolve)
	r := tSend(t, c, tURL(t, f, "agent.proxied.example", DefaultRPCPath), Dialect03, "hello", SkillInvoice)
	if r.Code() != -32004 {
		t.Fatalf("gated send: %s, want -32004 from the proxy", r.Body)
	}
	if ev := tLastFinished(t, f, "agent.proxied.example"); ev.Upstream != nil {
		t.Errorf("a gated call reached the agent: %+v", ev.Upstream)
	}
	if _, err := NewFleet(Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{URL: base},
		Faults:   []FaultSpec{Spec("long-task", nil)},
	}}}); err == nil || !strings.Contains(err.Error(), "long-task") {
		t.Errorf("long-task on an upstream vendor: %v, want it refused", err)
	}
}

func TestUpstreamStaleCardFreezes(t *testing.T) {
	ag, base, caFile := tAgentFleet(t)
	f := tProxy(t, base, caFile, Spec("stale-card", StaleCard{Freeze: true}))
	c := tClient(t, f, tViaResolve)
	u := tURL(t, f, "agent.proxied.example", CardPath)
	first := tGet(t, c, u, nil)
	if first.Status != http.StatusOK || first.JSON["x-marker"] != nil {
		t.Fatalf("first card: HTTP %d %s", first.Status, first.Body)
	}
	if _, err := ag.AddFault("agent", Spec("unknown-fields", nil)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the agent card's TTL
	cached := tGet(t, c, u, nil)
	if cached.Header.Get("ETag") != first.Header.Get("ETag") || string(cached.Body) != string(first.Body) {
		t.Errorf("the CDN copy moved with the agent: ETag %s then %s", first.Header.Get("ETag"), cached.Header.Get("ETag"))
	}
	origin := tGet(t, c, u, map[string]string{"Cache-Control": "no-cache"})
	if origin.Header.Get("ETag") == first.Header.Get("ETag") || string(origin.Body) == string(first.Body) {
		t.Errorf("the origin did not follow the agent's new card: %s", origin.Body)
	}
}

func TestUpstreamCoercionReachesAgent(t *testing.T) {
	base, caFile := tAgent(t)
	f := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Skills:   []SkillConfig{{ID: SkillInvoice, InputModes: []string{"application/json"}}},
		Upstream: &UpstreamConfig{URL: base, CAFile: caFile, OwnCard: true},
		Faults:   []FaultSpec{Spec("input-mode-coercion", nil)},
	}}})
	c := tClient(t, f, tViaResolve)
	r := tSend(t, c, tURL(t, f, "agent.proxied.example", DefaultRPCPath), Dialect03, "hello", SkillInvoice)
	ev := tLastFinished(t, f, "agent.proxied.example")
	if len(ev.Coercions) != 1 || ev.Upstream == nil || ev.Upstream.Status != http.StatusOK {
		t.Fatalf("coercions %v upstream %+v (answer %s), want one coercion forwarded", ev.Coercions, ev.Upstream, r.Body)
	}
	hist, _ := tPath(r.JSON, "result", "history").([]any)
	if len(hist) == 0 || !strings.Contains(string(tMustJSON(t, hist[0])), `"kind":"data"`) {
		t.Errorf("the agent got %v, want the coerced data part", hist)
	}
}

func tMustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestUpstreamCardSignedAndFaulted(t *testing.T) {
	base, caFile := tAgent(t)
	cases := []struct {
		name   string
		faults []FaultSpec
		check  func(t *testing.T, card map[string]any)
	}{
		{"signed", nil, func(t *testing.T, card map[string]any) {
			if sigs, _ := card["signatures"].([]any); len(sigs) != 1 {
				t.Errorf("signatures %v, want the proxy's one", card["signatures"])
			}
		}},
		{"unsigned-card", []FaultSpec{Spec("unsigned-card", nil)}, func(t *testing.T, card map[string]any) {
			if card["signatures"] != nil {
				t.Errorf("signatures %v, want none", card["signatures"])
			}
		}},
		{"tampered-card", []FaultSpec{Spec("tampered-card", nil)}, func(t *testing.T, card map[string]any) {
			if sigs, _ := card["signatures"].([]any); len(sigs) != 1 || len(tSkillIDs(card)) < 2 {
				t.Errorf("want a signature and a skill added after it; card %v", card)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{{
				ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
				Signing:  &SigningConfig{KID: "p-1"},
				Upstream: &UpstreamConfig{URL: base, CAFile: caFile},
				Faults:   tc.faults,
			}}})
			r := tGet(t, tClient(t, f, tViaResolve), tURL(t, f, "agent.proxied.example", CardPath), nil)
			if r.Status != http.StatusOK {
				t.Fatalf("card: HTTP %d %s", r.Status, r.Body)
			}
			tc.check(t, r.JSON)
		})
	}
}

func TestUpstreamStreamFaults(t *testing.T) {
	base, caFile := tAgent(t)
	cases := []struct {
		name   string
		fault  FaultSpec
		events int    // events the client reads (-1: plain JSON)
		last   string // the last event's error code, or state
		minDur time.Duration
	}{
		{"honest", FaultSpec{}, 4, "completed", 0},
		{"stream-cut", Spec("stream-cut", StreamCut{AfterEvents: 1}), 1, "", 0},
		{"stream-error-event", Spec("stream-error-event", nil), 3, "-32001", 0},
		{"slow-first-frame", Spec("slow-first-frame", SlowFirstFrame{DelayMs: 300}), 4, "completed", 300 * time.Millisecond},
		{"stream-content-type-lie", Spec("stream-content-type-lie", nil), -1, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var faults []FaultSpec
			if tc.fault.Type != "" {
				faults = []FaultSpec{tc.fault}
			}
			f := tProxy(t, base, caFile, faults...)
			c := tClient(t, f, tViaResolve)
			start := time.Now()
			resp := tStream(t, c, tURL(t, f, "agent.proxied.example", DefaultRPCPath), "", "message/stream", tSendParams(Dialect03, "hello", SkillInvoice))
			defer resp.Body.Close()
			if tc.events < 0 {
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q, want the lie's application/json", ct)
				}
				return
			}
			evs := tReadSSE(t, resp.Body)
			if len(evs) != tc.events {
				t.Fatalf("%d events %v, want %d", len(evs), evs, tc.events)
			}
			if time.Since(start) < tc.minDur {
				t.Errorf("stream took %v, want at least %v", time.Since(start), tc.minDur)
			}
			last := evs[len(evs)-1]
			got, _ := tPath(last, "result", "status", "state").(string)
			if code, ok := tPath(last, "error", "code").(float64); ok {
				got = strconv.Itoa(int(code))
			}
			if tc.last != "" && got != tc.last {
				t.Errorf("last event %v, want %s", last, tc.last)
			}
		})
	}
}

func TestUpstreamVersionHeaderLie(t *testing.T) {
	base, caFile := tAgent(t)
	f := tProxy(t, base, caFile, Spec("version-header-lie", VersionHeaderLie{Version: "0.2"}))
	r := tSend(t, tClient(t, f, tViaResolve), tURL(t, f, "agent.proxied.example", DefaultRPCPath), Dialect03, "hello", SkillInvoice)
	if got := r.Header.Get("A2A-Version"); got != "0.2" {
		t.Errorf("A2A-Version %q, want the lie 0.2 over the agent's answer", got)
	}
	if tState(r) != "completed" {
		t.Errorf("answer %s, want the agent's completed task", r.Body)
	}
}

func TestUpstreamOverGRPC(t *testing.T) {
	base, caFile := tAgent(t)
	f := tProxy(t, base, caFile)
	client := tGRPCDial(t, f, tViaResolve, "agent.proxied.example")
	resp, err := client.SendMessage(tGRPCCtx(t), tGRPCSend("hello", SkillInvoice))
	if err != nil {
		t.Fatalf("SendMessage through the proxy: %v", err)
	}
	if st := resp.GetTask().GetStatus().GetState(); st != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("task state %v, want the agent's completed task", st)
	}
	ev := tLastFinished(t, f, "agent.proxied.example")
	if ev.Binding != BindingGRPC || ev.Upstream == nil || ev.Upstream.Method != "SendMessage" {
		t.Errorf("trace binding %q upstream %+v, want a gRPC call forwarded as the agent's SendMessage", ev.Binding, ev.Upstream)
	}
	st, err := client.SendStreamingMessage(tGRPCCtx(t), tGRPCSend("hello", SkillInvoice))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := tRecv(t, st)
	if err != nil || tFinalState(evs) != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("stream through the proxy: %d events, err %v, want the agent's stream to completed", len(evs), err)
	}
}

// tLastFinished is the host's last trace event once it is finished (an
// event is finished a moment after its client saw the answer).
func tLastFinished(t testing.TB, f *Fleet, host string) Event {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		ev := tLastEvent(t, f, host)
		if !ev.Pending && ev.Status != 0 || time.Now().After(deadline) {
			return ev
		}
		time.Sleep(10 * time.Millisecond)
	}
}
