//go:build unix

package driver_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

func TestExecSingleRequest(t *testing.T) {
	tests := []struct {
		behaviour  string
		deadlineMs int
		check      func(t *testing.T, r driver.Result, tr driver.Transcript, dir string)
	}{
		{"echo", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil || r.Outcome.Outcome != "completed" || r.Outcome.Detail != "unit" {
				t.Fatalf("result %+v", r)
			}
		}},
		{"exit89", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if !r.Unimplemented || r.Outcome != nil || r.NoOutcome != "" {
				t.Fatalf("result %+v, want Unimplemented alone", r)
			}
		}},
		{"unimplemented-word", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if !r.Unimplemented || r.Outcome == nil || r.Outcome.Detail != "no streaming" {
				t.Fatalf("result %+v, want Unimplemented with its outcome", r)
			}
		}},
		{"crash", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.NoOutcome != "exited with status 3" || r.BrokeContract {
				t.Fatalf("NoOutcome %q, broke the contract %v: an exit breaks no answer", r.NoOutcome, r.BrokeContract)
			}
			if !strings.Contains(tr.Stderr, "boom: crashing on purpose") {
				t.Fatalf("stderr not captured: %q", tr.Stderr)
			}
		}},
		{"hang", 300, func(t *testing.T, r driver.Result, tr driver.Transcript, dir string) {
			if r.NoOutcome != "timeout" || r.BrokeContract {
				t.Fatalf("NoOutcome %q, broke the contract %v", r.NoOutcome, r.BrokeContract)
			}
			pgid := readPid(t, filepath.Join(dir, "pid"))
			if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Fatalf("process group %d still there after timeout: kill -0 = %v", pgid, err)
			}
			if len(tr.Exits) != 1 || !strings.Contains(tr.Exits[0], "killed after timeout: exited on signal: killed") {
				t.Fatalf("exits %q", tr.Exits)
			}
			// 300ms deadline + 200ms grace, then 200ms between TERM and KILL.
			if r.Elapsed < 650*time.Millisecond || r.Elapsed > 3*time.Second {
				t.Fatalf("elapsed %v", r.Elapsed)
			}
		}},
		{"garbage", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil || r.Outcome.Detail != "after garbage" {
				t.Fatalf("result %+v", r)
			}
			if !hasNote(tr, `not json: "this is not json"`) || !hasNote(tr, `not json: "{\"truncated\": "`) {
				t.Fatalf("garbage not noted: %q", tr.Notes)
			}
		}},
		{"garbage-only", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if !strings.HasPrefix(r.NoOutcome, "not json: ") || !r.BrokeContract {
				t.Fatalf("NoOutcome %q, broke the contract %v", r.NoOutcome, r.BrokeContract)
			}
		}},
		{"wrongid", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil || r.Outcome.Detail != "right id" {
				t.Fatalf("result %+v", r)
			}
			if !hasNote(tr, `answer with wrong id "someone-else"`) {
				t.Fatalf("wrong id not noted: %q", tr.Notes)
			}
		}},
		{"longline", 300, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.NoOutcome != "line too long" || !r.BrokeContract {
				t.Fatalf("NoOutcome %q, broke the contract %v", r.NoOutcome, r.BrokeContract)
			}
		}},
		{"longline-then-answer", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil || r.Outcome.Detail != "after long line" || !hasNote(tr, "line too long") {
				t.Fatalf("result %+v, notes %q", r, tr.Notes)
			}
		}},
		{"stderr", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil {
				t.Fatalf("result %+v", r)
			}
			if !strings.Contains(tr.Stderr, "diagnostic: last words") || !strings.Contains(tr.Stderr, "earlier bytes dropped") {
				t.Fatalf("stderr tail wrong: %.200q", tr.Stderr)
			}
			if len(tr.Stderr) > driver.DefaultStderrLimit+100 {
				t.Fatalf("stderr kept %d bytes", len(tr.Stderr))
			}
		}},
		{"huge-text", 5000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			// The outcome comes whole: the suite looks for credentials in
			// it before it clips it (contract.DelegationOutcome.Clip).
			if r.Outcome == nil || len(r.Outcome.Detail) != 450<<10 {
				t.Fatalf("result %+v", r.NoOutcome)
			}
			if !utf8.ValidString(tr.Stderr) || !strings.HasPrefix(tr.Stderr, "[") || len(tr.Stderr) > driver.DefaultStderrLimit+100 {
				t.Errorf("stderr tail: %d bytes, valid UTF-8 %v, %.60q", len(tr.Stderr), utf8.ValidString(tr.Stderr), tr.Stderr)
			}
			if len(tr.Notes) != driver.MaxNotes+1 || !hasNote(tr, "more notes dropped") || !hasNote(tr, "more bytes]") {
				t.Errorf("%d notes (want %d, the last counting the rest), none clipped with a count: %.100q...", len(tr.Notes), driver.MaxNotes+1, tr.Notes[:min(2, len(tr.Notes))])
			}
			for _, n := range tr.Notes {
				if len(n) > driver.MaxNoteBytes+contract.MaxClipMarker || !utf8.ValidString(n) {
					t.Errorf("a note of %d bytes (valid UTF-8 %v): %.80q", len(n), utf8.ValidString(n), n)
				}
			}
		}},
		{"huge-word", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome != nil || !strings.HasPrefix(r.NoOutcome, "invalid outcome: unknown outcome") || !strings.Contains(r.NoOutcome, "more bytes]") || len(r.NoOutcome) > 1<<10 {
				t.Fatalf("NoOutcome of %d bytes: %.120q", len(r.NoOutcome), r.NoOutcome)
			}
		}},
		{"unknown-reason", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.Outcome == nil || r.Outcome.Reason != "cosmic-rays" || !hasNote(tr, `unknown reason "cosmic-rays"`) {
				t.Fatalf("result %+v, notes %q", r, tr.Notes)
			}
		}},
		{"bad-contract", 2000, func(t *testing.T, r driver.Result, tr driver.Transcript, _ string) {
			if r.NoOutcome != "invalid outcome: contract 2, want 1" {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.behaviour, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			s := open(t, helperDriver(t, tc.behaviour, dir), driver.Env{})
			r := s.Delegate(context.Background(), request("r1", tc.deadlineMs))
			tr := s.Close()
			t.Logf("result: outcome=%v unimplemented=%v noOutcome=%q elapsed=%v; exits=%q notes=%d",
				r.Outcome != nil, r.Unimplemented, r.NoOutcome, r.Elapsed.Round(time.Millisecond), tr.Exits, len(tr.Notes))
			tc.check(t, r, tr, dir)
		})
	}
}

// TestExecKeepsProcessPerSession checks that one process serves a whole
// session, that sessions do not share a process, and that Hello works.
func TestExecKeepsProcessPerSession(t *testing.T) {
	t.Parallel()
	d := helperDriver(t, "echo")
	pids := map[string]bool{}
	for i := 0; i < 2; i++ {
		s := open(t, d, driver.Env{})
		h, err := s.Hello(context.Background())
		if err != nil || h.Name != "echo-out" || h.Version != "0.1" {
			t.Fatalf("hello %+v, %v", h, err)
		}
		r1 := s.Delegate(context.Background(), request("a", 2000))
		r2 := s.Delegate(context.Background(), request("b", 2000))
		if r1.Outcome == nil || r2.Outcome == nil || r1.Outcome.TaskID != r2.Outcome.TaskID {
			t.Fatalf("session %d: %+v / %+v", i, r1, r2)
		}
		pids[r1.Outcome.TaskID] = true
		tr := s.Close()
		if len(tr.Exits) != 1 || tr.Exits[0] != "pid "+r1.Outcome.TaskID+": exited with status 0" {
			t.Fatalf("exits %q", tr.Exits)
		}
		if again := s.Close(); len(again.Exits) != 1 {
			t.Fatalf("second Close changed the transcript: %+v", again)
		}
	}
	if len(pids) != 2 {
		t.Fatalf("sessions shared a process: %v", pids)
	}
}

func TestExecHelloOptional(t *testing.T) {
	t.Parallel()
	s := open(t, helperDriver(t, "silent-hello"), driver.Env{})
	start := time.Now()
	h, err := s.Hello(context.Background())
	if err != nil || h.Name != "" {
		t.Fatalf("hello %+v, %v", h, err)
	}
	if el := time.Since(start); el < 250*time.Millisecond || el > 2*time.Second {
		t.Fatalf("hello waited %v", el)
	}
	if r := s.Delegate(context.Background(), request("a", 2000)); r.Outcome == nil {
		t.Fatalf("delegate after silent hello: %+v", r)
	}
	if tr := s.Close(); !hasNote(tr, "treated as unnamed") {
		t.Fatalf("notes %q", tr.Notes)
	}
}

func TestExecOneShot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, helperDriver(t, "oneshot", dir), driver.Env{})
	r1 := s.Delegate(context.Background(), request("a", 2000))
	r2 := s.Delegate(context.Background(), request("b", 2000))
	count, _ := os.ReadFile(filepath.Join(dir, "count"))
	if r1.Outcome == nil || r2.Outcome == nil || r1.Outcome.ID != "a" || r2.Outcome.ID != "b" {
		t.Fatalf("results %+v / %+v", r1, r2)
	}
	if string(count) != "xx" {
		t.Fatalf("started %d times, want 2", len(count))
	}
	// Whether the exit is seen before the next write (as here, after a
	// pause) or after it (above), the request reaches a fresh process.
	time.Sleep(300 * time.Millisecond)
	r3 := s.Delegate(context.Background(), request("c", 2000))
	tr := s.Close()
	count, _ = os.ReadFile(filepath.Join(dir, "count"))
	if r3.Outcome == nil || r3.Outcome.ID != "c" || string(count) != "xxx" {
		t.Fatalf("third: %+v, started %d times; notes %q", r3, len(count), tr.Notes)
	}
	if len(tr.Exits) != 3 {
		t.Fatalf("exits %q", tr.Exits)
	}
	t.Logf("one-shot: execs=%d exits=%q notes=%q", len(count), tr.Exits, tr.Notes)
}

// TestExecRestartAfterTimeout: the first process hangs and is killed; the
// next request gets a fresh process.
func TestExecRestartAfterTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, helperDriver(t, "hang-first", dir), driver.Env{})
	defer s.Close()
	if r := s.Delegate(context.Background(), request("a", 200)); r.NoOutcome != "timeout" {
		t.Fatalf("first: %+v", r)
	}
	hung := readPid(t, filepath.Join(dir, "pid"))
	r := s.Delegate(context.Background(), request("b", 2000))
	if r.Outcome == nil || r.Outcome.TaskID == strconv.Itoa(hung) {
		t.Fatalf("second: %+v (hung pid %d)", r, hung)
	}
}

func TestExecGrandchildHoldsStdout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, helperDriver(t, "grandchild", dir), driver.Env{})
	r := s.Delegate(context.Background(), request("a", 2000))
	gc := readPid(t, filepath.Join(dir, "grandchild"))
	t.Cleanup(func() { syscall.Kill(gc, syscall.SIGKILL) })
	if r.Outcome == nil {
		t.Fatalf("result %+v", r)
	}
	start := time.Now()
	tr := s.Close()
	el := time.Since(start)
	t.Logf("Close with a grandchild holding stdout returned in %v; exits %q", el.Round(time.Millisecond), tr.Exits)
	if el > 3*time.Second {
		t.Fatalf("Close took %v", el)
	}
	if err := syscall.Kill(gc, 0); err != nil {
		t.Logf("grandchild already gone: %v", err) // it escaped the group on purpose; not an error either way
	}
}

// TestExecEnvironment starts the helper with each fleet environment and
// checks the variables it saw: the proxy and CA variables for Go, Node,
// Python requests, curl and gRPC, the ones removed, and the ones left as
// the harness had them.
func TestExecEnvironment(t *testing.T) {
	// Not parallel: t.Setenv.
	t.Setenv("NO_PROXY", "corp.example")
	t.Setenv("no_proxy", "corp.example")
	t.Setenv("ALL_PROXY", "socks5://corp.example")
	t.Setenv("HTTPS_PROXY", "http://corp-proxy.example:3128")
	t.Setenv("A2A_CONFORM_CONTRACT", "7")
	t.Setenv("NODE_EXTRA_CA_CERTS", "/corp/ca.pem")
	t.Setenv("REQUESTS_CA_BUNDLE", "/corp/ca.pem")
	t.Setenv("NODE_USE_ENV_PROXY", "0")
	t.Setenv("CURL_CA_BUNDLE", "/corp/curl.pem")
	t.Setenv("A2A_CONFORM_STARTUP_GRACE_MS", "99")
	const proxy, ca = "http://127.0.0.1:41233", "/abs/ca.pem"
	caVars := []string{"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH"}
	proxyVars := []string{"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"}
	for _, tc := range []struct {
		name   string
		env    driver.Env
		grace  time.Duration     // the driver's StartupGrace
		want   map[string]string // exact values
		absent []string
	}{
		{"proxy and CA", driver.Env{Proxy: proxy, CAFile: ca}, 0, func() map[string]string {
			m := map[string]string{"A2A_CONFORM_CONTRACT": "1", "NODE_USE_ENV_PROXY": "1"}
			for _, k := range proxyVars {
				m[k] = proxy
			}
			for _, k := range caVars {
				m[k] = ca
			}
			return m
		}(), []string{"NO_PROXY", "no_proxy", "ALL_PROXY", "A2A_CONFORM_STARTUP_GRACE_MS"}},
		{"no proxy, no CA", driver.Env{}, 0,
			// The CA variables stay as the harness has them; the proxy ones go.
			map[string]string{"A2A_CONFORM_CONTRACT": "1", "NODE_EXTRA_CA_CERTS": "/corp/ca.pem",
				"REQUESTS_CA_BUNDLE": "/corp/ca.pem", "CURL_CA_BUNDLE": "/corp/curl.pem", "NODE_USE_ENV_PROXY": "0"},
			append([]string{"NO_PROXY", "no_proxy", "ALL_PROXY", "A2A_CONFORM_STARTUP_GRACE_MS"}, proxyVars...)},
		// A process told its startup grace can finish its imports before
		// it answers hello (the harness's own value is never passed on).
		{"startup grace", driver.Env{}, 7500 * time.Millisecond,
			map[string]string{"A2A_CONFORM_CONTRACT": "1", "A2A_CONFORM_STARTUP_GRACE_MS": "7500"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.env.Dir = dir
			d := helperDriver(t, "env")
			d.StartupGrace = tc.grace
			s := open(t, d, tc.env)
			r := s.Delegate(context.Background(), request("a", 2000))
			s.Close()
			if r.Outcome == nil {
				t.Fatalf("result %+v", r)
			}
			var got map[string]string
			if err := json.Unmarshal([]byte(r.Outcome.Detail), &got); err != nil {
				t.Fatal(err)
			}
			t.Logf("OUT saw: %v", got)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			for _, k := range tc.absent {
				if v, ok := got[k]; ok {
					t.Errorf("%s is set (%q)", k, v)
				}
			}
			if real, _ := filepath.EvalSymlinks(dir); got["cwd"] != dir && got["cwd"] != real {
				t.Errorf("cwd %q, want %q", got["cwd"], dir)
			}
		})
	}
}

func TestExecOpenFails(t *testing.T) {
	t.Parallel()
	d := driver.NewExec([]string{filepath.Join(t.TempDir(), "no-such-program")})
	if _, err := d.Open(context.Background(), driver.Env{}); err == nil {
		t.Fatal("Open of a missing program succeeded")
	}
}
