package mockvendor

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
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
