package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestRunNDJSON: the naive program answers hello, reset and a delegation,
// escalating B's -32004 as the seed's failing orchestrator does.
func TestRunNDJSON(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ca, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	req := contract.DelegationRequest{
		Contract: 1, Type: contract.TypeDelegate, ID: "d-1",
		Task: contract.Task{Skill: mockvendor.SkillInvoice,
			Message: json.RawMessage(`{"role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile INV-1042"}]}`)},
		Candidates: []string{"https://" + mockvendor.HostCardB + mockvendor.CardPath},
		Trust:      contract.Trust{CAFile: ca},
		Network:    contract.Network{Resolve: f.Resolve()},
		DeadlineMs: 5000,
	}
	var in bytes.Buffer
	for _, v := range []any{contract.NewHello(), contract.NewReset(), req} {
		b, _ := contract.MarshalLine(v)
		in.Write(b)
	}
	var out, errw bytes.Buffer
	if code := run(&in, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	var lines []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) != 3 || lines[0]["name"] != "a2a-conform-naive" || lines[1]["ok"] != true {
		t.Fatalf("answers %v", lines)
	}
	if lines[2]["outcome"] != "escalated" || lines[2]["cardTrust"] != "authoritative" {
		t.Errorf("delegation answer %v", lines[2])
	}
}
