package mockvendor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLifecycleProbeGetIsRecorded: a get for a synthetic task id marked as
// a probe (an id starting __probe__, or params.metadata.a2a_probe) is seed
// 000's lifecycle probe [Condition of Validity]. Every vendor records it as
// a probe with the task id as sent, whether it answers -32001 itself or a
// fault (stub-endpoint) answers first; an unmarked get is no probe.
func TestLifecycleProbeGetIsRecorded(t *testing.T) {
	gets := []struct {
		name    string
		version string
		method  string
		params  map[string]any
		wantID  string
		probe   bool
	}{
		{"0.3 probe id", "0.3", "tasks/get", map[string]any{"id": "__probe__-lifecycle"}, "__probe__-lifecycle", true},
		{"1.0 probe id", "1.0", "GetTask", map[string]any{"id": "__probe__-lifecycle"}, "__probe__-lifecycle", true},
		{"0.3 probe metadata", "0.3", "tasks/get", map[string]any{"id": "synthetic-1", "metadata": map[string]any{"a2a_probe": true}}, "synthetic-1", true},
		{"1.0 probe metadata", "1.0", "GetTask", map[string]any{"id": "synthetic-1", "metadata": map[string]any{"a2a_probe": true}}, "synthetic-1", true},
		{"1.0 probe by name", "1.0", "GetTask", map[string]any{"name": "tasks/__probe__-2"}, "__probe__-2", true},
		{"unmarked get", "0.3", "tasks/get", map[string]any{"id": "t-never-issued"}, "t-never-issued", false},
		{"unmarked cancel", "1.0", "CancelTask", map[string]any{"id": "t-never-issued"}, "t-never-issued", false},
	}
	faults := []struct {
		name     string
		spec     *FaultSpec
		wantCode int
	}{
		{"honest", nil, -32001},
		{"stub-endpoint", &FaultSpec{Type: "stub-endpoint"}, -32601},
	}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) {
			f := tDefault(t)
			stubbed := map[string]bool{}
			for _, h := range f.hosts {
				if h.cfg.RPCPath == "" {
					continue
				}
				if v := h.vendor.cfg.ID; fc.spec != nil && !stubbed[v] {
					if _, err := f.AddFault(v, *fc.spec); err != nil {
						t.Fatal(err)
					}
					stubbed[v] = true
				}
				for _, g := range gets {
					body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": g.method, "params": g.params})
					r := httptest.NewRequest(http.MethodPost, "https://"+h.name+h.cfg.RPCPath, bytes.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("A2A-Version", g.version)
					before := f.Trace().Seq()
					h.serve(httptest.NewRecorder(), r)
					evs := f.Trace().Since(before)
					if len(evs) != 1 {
						t.Fatalf("%s %s: %d events", h.name, g.name, len(evs))
					}
					ev := evs[0]
					if ev.Probe != g.probe || ev.TaskID != g.wantID || ev.ErrorCode != fc.wantCode {
						t.Errorf("%s %s: probe %v task %q code %d, want probe %v task %q code %d",
							h.name, g.name, ev.Probe, ev.TaskID, ev.ErrorCode, g.probe, g.wantID, fc.wantCode)
					}
				}
			}
		})
	}
}

// TestPlainJSONSameAnswers: with Config.PlainJSON (the fast path off) the
// endpoint answers every request of the FuzzRPC seed corpus and of a table
// of sends, streams, gets and bad requests in every dialect with the same
// status, headers, body and trace event as with the fast path on (task and
// context ids and timestamps aside).
func TestPlainJSONSameAnswers(t *testing.T) {
	var bodies [][]byte
	files, err := filepath.Glob("testdata/fuzz/FuzzRPC/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no FuzzRPC seeds: %v", err)
	}
	for _, fn := range files {
		b, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if s, ok := strings.CutPrefix(lines[1], "[]byte("); ok {
			if body, err := strconv.Unquote(strings.TrimSuffix(s, ")")); err == nil {
				bodies = append(bodies, []byte(body))
			}
		}
	}
	for _, d := range tDialects {
		for _, text := range []string{"hi <b>&</b> \u00e9", ProbeText} {
			bodies = append(bodies, tEnvelope(d.Send, tSendParams(d.D, text, "")), tEnvelope(d.Stream, tSendParams(d.D, text, "")))
		}
		bodies = append(bodies, tEnvelope(d.Send, tSendParams(d.D, "x", "no-such-skill")), tEnvelope(d.Get, map[string]any{"id": "t-unknown"}),
			tEnvelope(d.Cancel, map[string]any{"id": 5}))
	}
	bodies = append(bodies, []byte(`{"jsonrpc":"2.0","id":"q","method":"tasks/pushNotificationConfig/set","params":{}}`), []byte(`[1]`), []byte(`{"jsonrpc":"2.0","id":[],"method":"x"}`))
	norm := regexp.MustCompile(`(t|ctx|a-t)-[0-9a-f]{16}|\d{4}-\d\d-\d\dT[0-9:.]+Z`)
	answers := func(plain bool) []string {
		cfg := DefaultConfig()
		cfg.PlainJSON = plain
		cfg.Limits.WorkTime = time.Hour
		f := tStart(t, cfg)
		var out []string
		for _, h := range f.hosts {
			if h.cfg.RPCPath == "" {
				continue
			}
			for _, version := range []string{"", "0.3", "1.0"} {
				for _, body := range bodies {
					r := httptest.NewRequest(http.MethodPost, "https://"+h.name+h.cfg.RPCPath, bytes.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("A2A-Version", version)
					before := f.Trace().Seq()
					w := httptest.NewRecorder()
					h.serve(w, r)
					evs := f.Trace().Since(before)
					for i := range evs {
						evs[i].Seq, evs[i].Time, evs[i].DurationMs = 0, time.Time{}, 0
					}
					ej, _ := json.Marshal(evs)
					out = append(out, norm.ReplaceAllString(fmt.Sprintf("%s %s %q %s\n%d %v\n%s\n%s", h.name, version, body, body, w.Code, w.Header(), w.Body, ej), "X"))
				}
			}
		}
		return out
	}
	fast, plain := answers(false), answers(true)
	if len(fast) != len(plain) {
		t.Fatalf("%d answers with the fast path, %d without", len(fast), len(plain))
	}
	diffs := 0
	for i := range fast {
		if fast[i] != plain[i] && diffs < 5 {
			diffs++
			t.Errorf("fast path:\n%s\nplain JSON:\n%s", fast[i], plain[i])
		}
	}
}
