package driver

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSignalMarked: a process that left every process group of ours
// (setsid) is found by the marker in its environment and killed; a process
// without the marker is left alone.
func TestSignalMarked(t *testing.T) {
	marker := sessionMarker()
	start := func(env []string) *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.Env = env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Skipf("cannot start sleep: %v", err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	marked := start(append(os.Environ(), marker))
	other := start(os.Environ())
	if n := signalMarked(marker, syscall.SIGKILL); n != 1 {
		t.Errorf("signalled %d processes, want 1", n)
	}
	done := make(chan error, 1)
	go func() { done <- marked.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the marked process is still running")
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the unmarked process was touched: %v", err)
	}
	if signalMarked("", syscall.SIGKILL) != 0 {
		t.Error("an empty marker matched")
	}
}
