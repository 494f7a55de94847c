package mockvendor

import (
	"bytes"

	"encoding/json"
	"github.com/a2a-conform/a2a-conform/internal/sdkupstream"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tSession sends, gets the task back and streams through the proxy fleet
// f in dialect d, and returns what the client saw: the sent task's state
// and artifact text, the got task's state, and the stream's events.
func tSession(t *testing.T, f *Fleet, d Dialect) []string {
	t.Helper()
	dc := tDialectOf(t, d)
	c := tClient(t, f, tViaResolve)
	rpc := tURL(t, f, "agent.proxied.example", DefaultRPCPath)
	hdr := map[string]string{"Authorization": "Bearer orchestrator-secret-1", "Content-Type": "application/json"}
	if dc.Version != "" {
		hdr["A2A-Version"] = dc.Version
	}
	sent := tPost(t, c, rpc, tEnvelope(dc.Send, tSendParams(d, "hello", SkillInvoice)), hdr)
	task := tTask(sent)
	id, _ := task["id"].(string)
	art, _ := tPath(task, "artifacts", 0, "parts", 0, "text").(string)
	got := tRPC(t, c, rpc, dc.Version, dc.Get, map[string]any{"id": id})
	out := []string{tState(sent), art, tState(got)}
	resp := tStream(t, c, rpc, dc.Version, dc.Stream, tSendParams(d, "hello", SkillInvoice))
	defer resp.Body.Close()
	for _, ev := range tReadSSE(t, resp.Body) {
		b, _ := json.Marshal(tPath(ev, "result"))
		out = append(out, "event:"+tEventKind(b))
	}
	return out
}

// tEventKind names a stream event by the members it has (its ids vary).
func tEventKind(b []byte) string {
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for _, k := range []string{"task", "statusUpdate", "artifactUpdate", "message"} {
		if inner, ok := m[k].(map[string]any); ok {
			st, _ := tPath(inner, "status", "state").(string)
			return k + ":" + st
		}
	}
	st, _ := tPath(m, "status", "state").(string)
	kind, _ := m["kind"].(string)
	return kind + ":" + st
}

func TestUpstreamRecordReplays(t *testing.T) {
	base, caFile := tAgent(t)
	file := filepath.Join(t.TempDir(), "agent.recording.json")
	live := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{URL: base, CAFile: caFile, Record: file, Header: map[string]string{"X-Api-Key": "upstream-secret-2"}},
	}}})
	want := tSession(t, live, Dialect03)
	if want[0] != "completed" || want[1] == "" || len(want) < 5 {
		t.Fatalf("live session %v, want a completed task, its text and a stream", want)
	}
	live.Close() // the recording written as it is
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"orchestrator-secret-1", "upstream-secret-2"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the recording holds the secret %q", secret)
		}
	}
	var rec Recording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rec.Redacted, "Authorization") || !slices.Contains(rec.Redacted, "X-Api-Key") || len(rec.Exchanges) != 3 {
		t.Errorf("redacted %v, %d exchanges; want Authorization and X-Api-Key named, 3 exchanges", rec.Redacted, len(rec.Exchanges))
	}
	t.Logf("recording of a send, a get and a stream: %d bytes", len(b))
	replay := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{Replay: file},
	}}})
	if got := tSession(t, replay, Dialect03); !slices.Equal(got, want) {
		t.Errorf("replayed %v, want what the agent answered %v", got, want)
	}
	card := tGet(t, tClient(t, replay, tViaResolve), tURL(t, replay, "agent.proxied.example", CardPath), nil)
	if tSkillIDs(card.JSON)[0] != SkillInvoice {
		t.Errorf("replayed card %s, want the agent's", card.Body)
	}
}

func TestUpstreamConfigNamesItsAgentOnce(t *testing.T) {
	for _, uc := range []UpstreamConfig{{}, {URL: "https://a.example", Replay: "r.json"}, {Replay: "r.json", Record: "s.json"}} {
		_, err := NewFleet(Config{Vendors: []VendorConfig{{ID: "p", Hosts: []HostConfig{{Card: true}}, Upstream: &uc}}})
		if err == nil {
			t.Errorf("upstream %+v accepted", uc)
		}
	}
}

// TestSDKRecordingsReplay records a session with each real SDK server
// behind the proxy and replays it: the same answers, with no agent.
func TestSDKRecordingsReplay(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		dialect Dialect
	}{{"a2a-go", Dialect03}, {"a2a-js", Dialect10}} {
		t.Run(tc.kind, func(t *testing.T) {
			base := sdkupstream.Start(t, tc.kind, "--skill", SkillInvoice)
			file := filepath.Join(t.TempDir(), tc.kind+".recording.json")
			hosts := []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}}
			live := tStart(t, Config{Vendors: []VendorConfig{{ID: "p", Hosts: hosts, Upstream: &UpstreamConfig{URL: base, Record: file}}}})
			want := tSession(t, live, tc.dialect)
			if want[0] != "completed" || want[1] != "echo: hello" {
				t.Fatalf("through the proxy to %s: %v, want its completed echo", tc.kind, want)
			}
			live.Close() // the recording written as it is
			info, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: recording of a send, a get and a stream: %d bytes; answers %v", tc.kind, info.Size(), want)
			replay := tStart(t, Config{Vendors: []VendorConfig{{ID: "p", Hosts: hosts, Upstream: &UpstreamConfig{Replay: file}}}})
			if got := tSession(t, replay, tc.dialect); !slices.Equal(got, want) {
				t.Errorf("replayed %v, want what %s answered %v", got, tc.kind, want)
			}
		})
	}
}
