package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

func startFleet(t *testing.T) (*mockvendor.Fleet, string) {
	t.Helper()
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	ca, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	return f, ca
}

func delegateLine(t *testing.T, f *mockvendor.Fleet, ca, id, cardHost, skill string) contract.DelegationRequest {
	t.Helper()
	return contract.DelegationRequest{
		Contract: 1, Type: contract.TypeDelegate, ID: id,
		Task: contract.Task{Skill: skill,
			Message: json.RawMessage(`{"role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile INV-1042"}]}`)},
		Candidates: []string{"https://" + cardHost + mockvendor.CardPath},
		Trust: contract.Trust{CAFile: ca, Issuers: map[string]contract.Issuer{
			"https://" + mockvendor.HostVendorA: {Operators: []string{mockvendor.HostVendorA}}}},
		Network:    contract.Network{Proxy: f.ProxyURL(), Resolve: f.Resolve()},
		DeadlineMs: 10000,
	}
}

// TestRunNDJSON feeds the program's loop hello, two delegations, reset and
// an unknown line, and reads one answer per message.
func TestRunNDJSON(t *testing.T) {
	f, ca := startFleet(t)
	var in bytes.Buffer
	enc := func(v any) {
		b, _ := contract.MarshalLine(v)
		in.Write(b)
	}
	enc(contract.NewHello())
	enc(delegateLine(t, f, ca, "d-1", mockvendor.HostCardB, mockvendor.SkillInvoice))
	in.WriteString("not json\n")
	enc(contract.NewReset())
	enc(delegateLine(t, f, ca, "d-2", mockvendor.HostVendorA, mockvendor.SkillSummarize))
	var out, errw bytes.Buffer
	if code := run(nil, &in, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	sc := bufio.NewScanner(&out)
	var lines []map[string]any
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) != 4 {
		t.Fatalf("%d answers, want 4: %s", len(lines), out.String())
	}
	if lines[0]["type"] != "hello" || lines[0]["name"] != "a2a-conform-reference" {
		t.Errorf("hello answer %v", lines[0])
	}
	if lines[1]["id"] != "d-1" || lines[1]["outcome"] != "completed" || lines[1]["skill"] != mockvendor.SkillInvoiceV2 {
		t.Errorf("d-1 answer %v", lines[1])
	}
	if lines[2]["type"] != "reset" || lines[2]["ok"] != true {
		t.Errorf("reset answer %v", lines[2])
	}
	if lines[3]["id"] != "d-2" || lines[3]["trustMode"] != "full" || lines[3]["cardTrust"] != "authoritative" {
		t.Errorf("d-2 answer %v", lines[3])
	}
	if !strings.Contains(errw.String(), "not JSON") {
		t.Errorf("stderr %q does not mention the skipped line", errw.String())
	}
}

func TestBreakFlags(t *testing.T) {
	var out, errw bytes.Buffer
	if code := run([]string{"-list-breaks"}, strings.NewReader(""), &out, &errw); code != 0 || !strings.Contains(out.String(), "no-probe") {
		t.Fatalf("list: exit %d, %q", code, out.String())
	}
	if code := run([]string{"--break", "no-such-break"}, strings.NewReader(""), &out, &errw); code != 2 {
		t.Fatalf("unknown break: exit %d", code)
	}
	out.Reset()
	in := strings.NewReader(`{"contract":1,"type":"hello"}` + "\n")
	if code := run([]string{"--break", "no-probe,extra-calls"}, in, &out, &errw); code != 0 ||
		!strings.Contains(out.String(), "+break.no-probe.extra-calls") {
		t.Fatalf("hello with breaks: exit %d, %q", code, out.String())
	}
}

// TestExecDriver builds the program and runs it under the suite's exec
// driver, as `a2a-conform run --orchestrator exec:...` would, with and
// without a break.
func TestExecDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "reference")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	f, ca := startFleet(t)
	for _, tc := range []struct {
		args    string
		outcome string
		noProbe bool
	}{
		{"", contract.OutcomeCompleted, false},
		// Without a probe the old skill goes straight to B as a real task;
		// the -32004 still re-routes, so only the probe count differs.
		{" --break no-probe", contract.OutcomeCompleted, true},
		{" --break escalate-on-skill-error", contract.OutcomeEscalated, false},
	} {
		t.Run(tc.args, func(t *testing.T) {
			d, err := driver.Parse("exec:"+bin+tc.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := d.Open(context.Background(), driver.Env{Proxy: f.ProxyURL(), CAFile: ca})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			h, err := s.Hello(context.Background())
			if err != nil || h.Name != "a2a-conform-reference" {
				t.Fatalf("hello %+v %v", h, err)
			}
			seq := f.Trace().Seq()
			res := s.Delegate(context.Background(), delegateLine(t, f, ca, "x-1", mockvendor.HostCardB, mockvendor.SkillInvoice))
			if res.Outcome == nil {
				t.Fatalf("no outcome: %s (%+v)", res.NoOutcome, s.Close())
			}
			probes := 0
			for _, e := range f.Trace().Since(seq) {
				if e.Probe {
					probes++
				}
			}
			if res.Outcome.Outcome != tc.outcome || (probes == 0) != tc.noProbe {
				t.Errorf("outcome %+v, %d probes", res.Outcome, probes)
			}
		})
	}
}
