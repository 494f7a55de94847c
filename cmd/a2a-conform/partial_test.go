package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPartialReportsSurviveAKill: a harness killed in the middle of a run
// (SIGKILL, as the kernel's OOM killer does; here the orchestrator kills
// its parent during the second scenario, one scenario at a time) leaves the reports of the
// scenarios that finished: valid, Complete false, the first scenario in
// them, the second not.
func TestPartialReportsSurviveAKill(t *testing.T) {
	cli, _ := built(t)
	dir := t.TempDir()
	counter := filepath.Join(dir, "delegations")
	orch := filepath.Join(dir, "orch.sh")
	// Each scenario starts the orchestrator afresh; the counter file spans
	// them. The first delegation is answered (with a wrong id: no outcome,
	// which is enough, once its 1 s deadline has run out); the second kills
	// the harness.
	script := `#!/bin/sh
while read -r line; do
  case "$line" in
  *'"delegate"'*)
    echo x >> "$1"
    if [ "$(wc -l < "$1")" -ge 2 ]; then kill -9 "$PPID"; exit 0; fi
    echo '{"contract":1,"id":"none","outcome":"failed","reason":"other"}' ;;
  esac
done
`
	if err := os.WriteFile(orch, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	jsonReport, junitReport := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml")
	cmd := exec.Command(cli, "run", "--orchestrator", "exec:"+orch+" "+counter,
		"--parallel", "1", "--deadline", "1s", "--label-filter", "CARD-001 || CARD-002", "--json-report", jsonReport, "--junit-report", junitReport)
	out, err := cmd.CombinedOutput()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the harness was not killed (err %v):\n%s", err, out)
	}
	r := readReport(t, jsonReport)
	var ids []string
	for _, s := range r.Scenarios {
		ids = append(ids, s.ID)
	}
	if r.Complete || len(ids) != 1 || ids[0] != "CARD-001" {
		t.Errorf("partial report: complete %v, scenarios %v; want incomplete with CARD-001 alone", r.Complete, ids)
	}
	if b, err := os.ReadFile(junitReport); err != nil || !strings.Contains(string(b), "CARD-001") || strings.Contains(string(b), "CARD-002") {
		t.Errorf("partial JUnit report (err %v) lacks CARD-001 or holds CARD-002:\n%.400s", err, b)
	}
}
