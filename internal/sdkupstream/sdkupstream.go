// Package sdkupstream starts the real A2A SDK servers of
// examples/upstreams (the a2a-go v0.3.3 and @a2a-js/sdk 1.3.0 echo agents)
// as subprocesses, for the tests that put the fleet's proxy in front of a
// real agent. A missing prerequisite (node, the npm packages) skips the
// test, or fails it under A2A_CONFORM_REQUIRE_NODE=1 (internal/testenv).
package sdkupstream

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
)

// Kinds are the SDK servers Start knows.
var Kinds = []string{"a2a-go", "a2a-js"}

// root is the repository's root (this file is internal/sdkupstream/).
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var (
	goBuild    sync.Once
	goBinary   string
	goBuildErr error
)

// goUpstream builds the a2a-go server once per test binary.
func goUpstream(t testing.TB) string {
	t.Helper()
	goBuild.Do(func() {
		dir, err := os.MkdirTemp("", "sdkupstream-")
		if err != nil {
			goBuildErr = err
			return
		}
		goBinary = filepath.Join(dir, "upstream-a2a-go")
		cmd := exec.Command("go", "build", "-o", goBinary, ".")
		cmd.Dir = filepath.Join(root(), "examples", "upstreams", "a2a-go")
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			goBuildErr = &buildError{out: string(out), err: err}
		}
	})
	if goBuildErr != nil {
		t.Fatalf("building the a2a-go upstream: %v", goBuildErr)
	}
	return goBinary
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// command is the command line of kind's server with args.
func command(t testing.TB, kind string, args []string) *exec.Cmd {
	t.Helper()
	switch kind {
	case "a2a-go":
		return exec.Command(goUpstream(t), args...)
	case "a2a-js":
		dir := filepath.Join(root(), "examples", "upstreams", "a2a-js")
		node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node is not installed", "node")
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@a2a-js", "sdk")); err != nil {
			testenv.Need(t, "A2A_CONFORM_REQUIRE_NODE", "the a2a-js upstream's packages are not installed (make deps, or npm ci in "+dir+")")
		}
		cmd := exec.Command(node, append([]string{"server.mjs"}, args...)...)
		cmd.Dir = dir
		return cmd
	}
	t.Fatalf("sdkupstream: no server %q (want one of %v)", kind, Kinds)
	return nil
}

// Start starts kind's server ("a2a-go" or "a2a-js") with args (--skill ID,
// --slow ...), waits for its "listening on" line (at most a minute) and
// returns its base URL, http://127.0.0.1:PORT. The server stops when the
// test ends.
func Start(t testing.TB, kind string, args ...string) string {
	t.Helper()
	cmd := command(t, kind, args)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the %s upstream: %v", kind, err)
	}
	t.Cleanup(func() {
		stop(cmd, stdin)
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("the %s upstream's stderr (its last 8 KiB):\n%s", kind, stderr.String())
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "A2A upstream listening on "); ok {
				lines <- u
			}
		}
	}()
	select {
	case u := <-lines:
		return u
	case <-time.After(time.Minute):
		t.Fatalf("the %s upstream did not say it was listening within a minute", kind)
	}
	return ""
}

// stop ends the server: its stdin closed and SIGTERM, then SIGKILL after
// five seconds.
func stop(cmd *exec.Cmd, stdin interface{ Close() error }) {
	_ = stdin.Close()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// tailBuffer keeps the last 8 KiB written to it (a server's stderr, shown
// when a test fails: an SDK logs every request it refuses).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - 8<<10; over > 0 {
		b.buf = b.buf[over:]
	}
	return len(p), nil
}

func (b *tailBuffer) Len() int { b.mu.Lock(); defer b.mu.Unlock(); return len(b.buf) }

func (b *tailBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return string(b.buf) }
