package driver_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Helpers shared by the tests of every system (the exec tests, which use
// POSIX signals and process groups, are Unix-only).

func request(id string, deadlineMs int) contract.DelegationRequest {
	return contract.DelegationRequest{
		Contract: 1, Type: contract.TypeDelegate, ID: id, Scenario: "unit",
		Task:       contract.Task{Skill: "echo", Message: json.RawMessage(`{"role":"user","parts":[{"kind":"text","text":"hi"}]}`)},
		Candidates: []string{"https://agent-b.example/.well-known/agent-card.json"},
		DeadlineMs: deadlineMs,
	}
}

func open(t *testing.T, d driver.Driver, env driver.Env) driver.Session {
	t.Helper()
	s, err := d.Open(context.Background(), env)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	for i := 0; i < 100; i++ {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			pid, err := strconv.Atoi(string(b))
			if err == nil {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

func hasNote(tr driver.Transcript, sub string) bool {
	for _, n := range tr.Notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

// TestExecSingleRequest runs one request against each misbehaviour.
