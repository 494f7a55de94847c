//go:build windows

package driver

import (
	"os/exec"
	"sync"
	"syscall"

	"golang.org/x/sys/windows"
)

// procGroup is the job object an exec OUT runs in. Windows has no process
// groups that can be signalled; a job object is the equivalent: processes
// the OUT starts join it, and terminating the job stops them all. There is
// no polite stop either, so terminate is kill. A process that starts a
// child between its own start and its assignment to the job (a few
// microseconds) leaves that child outside.
type procGroup struct {
	proc *exec.Cmd
	mu   sync.Mutex
	job  windows.Handle // 0 when no job could be made, or released: only the process is stopped
}

// prepareGroup makes cmd start in a new console process group, so a
// console interrupt meant for the harness does not reach the OUT.
func prepareGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// newGroup puts the started cmd into a new job object.
func newGroup(cmd *exec.Cmd) *procGroup {
	g := &procGroup{proc: cmd}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return g
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return g
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return g
	}
	g.job = job
	return g
}

// terminate stops every process of the job (Windows has no SIGTERM).
func (g *procGroup) terminate() { g.kill() }

// kill stops every process of the job.
func (g *procGroup) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
		return
	}
	_ = g.proc.Process.Kill()
}

// release closes the job handle; the job's processes are not touched.
func (g *procGroup) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
