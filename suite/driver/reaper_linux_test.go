package driver_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestOrphanSweep: a descendant of an exec OUT that double-forks, calls
// setsid and clears its environment (so neither the process group nor the
// session marker reaches it) is reparented to the harness, a child
// subreaper, and killed when the session closes; the harness's own child
// and an orphan from outside any session are left alone.
func TestOrphanSweep(t *testing.T) {
	dir := t.TempDir()
	sleeper := func(pidFile string) string {
		// sh forks sleep and exits: sleep is orphaned, in a session of its
		// own, with an empty environment.
		return "env -i setsid sh -c 'sleep 30 </dev/null >/dev/null 2>&1 & printf %s $! > " + pidFile + "'"
	}
	// A first session makes the harness a subreaper.
	warm := open(t, driver.NewExec([]string{"sh", "-c", "exec cat"}), driver.Env{})
	warm.Close()

	outside := filepath.Join(dir, "outside")
	if out, err := exec.Command("sh", "-c", sleeper(outside)).CombinedOutput(); err != nil {
		t.Fatalf("starting the outside orphan: %v %s", err, out)
	}
	own := exec.Command("sleep", "30")
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = own.Process.Kill(); _ = own.Wait() })
	time.Sleep(20 * time.Millisecond) // the session opens a clock tick later

	escaped := filepath.Join(dir, "escaped")
	s := open(t, driver.NewExec([]string{"sh", "-c", sleeper(escaped) + "; exec cat"}), driver.Env{})
	escapedPid := readPid(t, escaped)
	outsidePid := readPid(t, outside)
	t.Cleanup(func() { _ = syscall.Kill(outsidePid, syscall.SIGKILL) })
	if ppid := parentOf(t, escapedPid); ppid != os.Getpid() {
		t.Fatalf("the escaped orphan's parent is %d, want the harness %d (no subreaper?)", ppid, os.Getpid())
	}
	tr := s.Close()
	if !hasNote(tr, "killed 1 orphaned descendants") {
		t.Errorf("the transcript does not note the killed orphan: %q", tr.Notes)
	}
	cases := []struct {
		name  string
		pid   int
		alive bool
	}{
		{"double fork, setsid, cleared env", escapedPid, false},
		{"the harness's own child", own.Process.Pid, true},
		{"an orphan from outside any session", outsidePid, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := running(c.pid); got != c.alive {
				t.Errorf("pid %d running = %v, want %v", c.pid, got, c.alive)
			}
		})
	}
}

// running reports whether pid is a live process (a zombie is not), giving
// a killed one a moment to go.
func running(pid int) bool {
	for i := 0; i < 50; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || zombie(b) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func zombie(stat []byte) bool {
	for i := len(stat) - 1; i >= 0; i-- {
		if stat[i] == ')' {
			return i+2 < len(stat) && stat[i+2] == 'Z'
		}
	}
	return false
}

func parentOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	var ppid int
	for _, line := range strings.Split(string(b), "\n") {
		if n, ok := strings.CutPrefix(line, "PPid:"); ok {
			ppid, _ = strconv.Atoi(strings.TrimSpace(n))
		}
	}
	return ppid
}
