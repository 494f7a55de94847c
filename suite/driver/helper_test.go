//go:build unix

package driver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// The test binary doubles as every orchestrator the exec tests need: run as
// "driver.test -test.run=^TestHelperProcess$ -- helper BEHAVIOUR [DIR]" it
// behaves as BEHAVIOUR and exits without returning to the testing package.

// helperDriver returns an exec driver running the helper with behaviour
// and args, with short timeouts so the suite stays fast.
func helperDriver(t *testing.T, behaviour string, args ...string) *driver.Exec {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := append([]string{self, "-test.run=^TestHelperProcess$", "--", "helper", behaviour}, args...)
	return &driver.Exec{Argv: argv, Grace: 200 * time.Millisecond, HelloTimeout: 300 * time.Millisecond}
}

func helperArgs() []string {
	for i, a := range os.Args {
		if a == "--" && i+1 < len(os.Args) && os.Args[i+1] == "helper" {
			return os.Args[i+2:]
		}
	}
	return nil
}

func TestMain(m *testing.M) {
	// Under -race, a Go program sleeps 1 s at exit by default; helpers must
	// exit as promptly as the programs they imitate.
	if g := os.Getenv("GORACE"); !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
	os.Exit(m.Run())
}

func TestHelperProcess(t *testing.T) {
	args := helperArgs()
	if args == nil {
		return // run as a test, it is not a helper: nothing to do (and nothing skipped)
	}
	os.Exit(runHelper(args[0], args[1:]))
}

// msg is the part of any incoming message the helpers look at.
type msg struct {
	Type       string `json:"type"`
	ID         string `json:"id"`
	Scenario   string `json:"scenario"`
	DeadlineMs int    `json:"deadlineMs"`
}

func emit(v any) {
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

func answer(m msg, detail string) {
	emit(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: contract.OutcomeCompleted,
		Reason: contract.ReasonOK, TaskID: strconv.Itoa(os.Getpid()), Detail: detail})
}

func runHelper(behaviour string, args []string) int {
	in := bufio.NewReader(os.Stdin)
	next := func() (msg, bool) {
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return msg{}, false
			}
			var m msg
			if json.Unmarshal([]byte(line), &m) == nil {
				return m, true
			}
		}
	}
	dir := ""
	if len(args) > 0 {
		dir = args[0]
	}
	switch behaviour {
	case "echo", "silent-hello":
		for {
			m, ok := next()
			if !ok {
				return 0
			}
			switch m.Type {
			case "hello":
				if behaviour == "echo" {
					emit(contract.Hello{Contract: 1, Type: "hello", Name: "echo-out", Version: "0.1"})
				}
			case "delegate":
				answer(m, m.Scenario)
			}
		}
	case "slow-start", "slow-oneshot":
		// A program that takes args[0] ms to start (a heavy import), then
		// answers hello and requests (slow-start) or one request and exits.
		ms, _ := strconv.Atoi(dir)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		for {
			m, ok := next()
			if !ok {
				return 0
			}
			switch m.Type {
			case "hello":
				emit(contract.Hello{Contract: 1, Type: "hello", Name: "slow-out", Version: "0.1"})
			case "delegate":
				answer(m, "after a slow start")
				if behaviour == "slow-oneshot" {
					return 0
				}
			}
		}
	case "deadline":
		// Reports the deadlineMs each request carried.
		for {
			m, ok := next()
			if !ok {
				return 0
			}
			if m.Type == "delegate" {
				answer(m, strconv.Itoa(m.DeadlineMs))
			}
		}
	case "oneshot":
		f, _ := os.OpenFile(filepath.Join(dir, "count"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		f.WriteString("x")
		f.Close()
		if m, ok := next(); ok {
			answer(m, "one-shot")
		}
		return 0
	case "exit89":
		next()
		return 89
	case "crash":
		next()
		fmt.Fprintln(os.Stderr, "boom: crashing on purpose")
		return 3
	case "hang", "hang-first":
		if behaviour == "hang-first" {
			if _, err := os.Stat(filepath.Join(dir, "hung")); err == nil {
				return runHelper("echo", nil)
			}
			os.WriteFile(filepath.Join(dir, "hung"), nil, 0o644)
		}
		signal.Ignore(syscall.SIGTERM)
		os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		next()
		time.Sleep(time.Hour)
	case "garbage":
		m, _ := next()
		fmt.Println("this is not json")
		fmt.Println(`{"truncated": `)
		answer(m, "after garbage")
		return runHelper("echo", nil)
	case "garbage-only":
		next()
		fmt.Println("<html>nope</html>")
		return 0
	case "wrongid":
		m, _ := next()
		emit(contract.DelegationOutcome{Contract: 1, ID: "someone-else", Outcome: "failed"})
		emit(contract.Hello{Contract: 1, Type: "hello", Name: "late"})
		answer(m, "right id")
		return runHelper("echo", nil)
	case "longline", "longline-then-answer":
		m, _ := next()
		os.Stdout.Write([]byte(strings.Repeat("x", 2<<20)))
		if behaviour == "longline" {
			time.Sleep(time.Hour)
		}
		os.Stdout.Write([]byte("\n"))
		answer(m, "after long line")
		return runHelper("echo", nil)
	case "grandchild":
		m, _ := next()
		self, _ := os.Executable()
		gc := exec.Command(self, "-test.run=^TestHelperProcess$", "--", "helper", "sleeper", dir)
		gc.Stdout, gc.Stderr = os.Stdout, os.Stderr          // the grandchild holds both pipes open
		gc.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // and escapes the group kill
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		answer(m, "grandchild started")
		return 0
	case "sleeper":
		os.WriteFile(filepath.Join(dir, "grandchild"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(30 * time.Second)
		return 0
	case "env":
		m, _ := next()
		report := map[string]string{}
		for _, k := range []string{"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy",
			"SSL_CERT_FILE", "A2A_CONFORM_CONTRACT", "NO_PROXY", "no_proxy", "ALL_PROXY",
			"NODE_EXTRA_CA_CERTS", "NODE_USE_ENV_PROXY", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
			"GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", "A2A_CONFORM_STARTUP_GRACE_MS"} {
			if v, ok := os.LookupEnv(k); ok {
				report[k] = v
			}
		}
		report["cwd"], _ = os.Getwd()
		b, _ := json.Marshal(report)
		answer(m, string(b))
		return 0
	case "stderr":
		m, _ := next()
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(os.Stderr, "filler line %04d ..................................................\n", i)
		}
		fmt.Fprintln(os.Stderr, "diagnostic: last words")
		answer(m, "wrote stderr")
		return runHelper("echo", nil)
	case "huge-text":
		// Past every bound, in runes of two and three bytes: a stderr tail
		// that would start inside a rune, wrong ids longer than a note, an
		// outcome whose reason (an unknown word) and detail are 450 KiB each.
		m, _ := next()
		fmt.Fprint(os.Stderr, "x"+strings.Repeat("日", 70<<10/3))
		for i := 0; i < driver.MaxNotes+10; i++ {
			emit(contract.DelegationOutcome{Contract: 1, ID: strings.Repeat("é", 500), Outcome: "completed"})
		}
		emit(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: "failed", Reason: strings.Repeat("é", 225<<10), Detail: strings.Repeat("é", 225<<10)})
		return 0
	case "huge-word":
		m, _ := next()
		emit(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: strings.Repeat("w", 900<<10)})
		return 0
	case "unimplemented-word":
		m, _ := next()
		emit(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: "unimplemented", Detail: "no streaming"})
		return 0
	case "unknown-reason":
		m, _ := next()
		emit(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: "rejected", Reason: "cosmic-rays"})
		return 0
	case "bad-contract":
		m, _ := next()
		emit(contract.DelegationOutcome{Contract: 2, ID: m.ID, Outcome: "completed"})
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper behaviour", behaviour)
	return 2
}
