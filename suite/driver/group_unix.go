//go:build unix

package driver

import (
	"os/exec"
	"syscall"
)

// procGroup is the process group an exec OUT runs in: its own, led by the
// process, so that children it starts are stopped with it; and, for the
// descendants that leave the group (setsid), the session marker in their
// environment (see sessionMarker).
type procGroup struct {
	pid    int
	marker string
}

// prepareGroup makes cmd start in a new process group.
func prepareGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// newGroup returns the group of the started cmd.
func newGroup(cmd *exec.Cmd) *procGroup {
	return &procGroup{pid: cmd.Process.Pid, marker: markerIn(cmd.Env)}
}

// terminate asks every process of the group, and every marked descendant,
// to stop (SIGTERM).
func (g *procGroup) terminate() {
	_ = syscall.Kill(-g.pid, syscall.SIGTERM)
	signalMarked(g.marker, syscall.SIGTERM)
}

// kill stops every process of the group, and every marked descendant, at
// once (SIGKILL).
func (g *procGroup) kill() {
	_ = syscall.Kill(-g.pid, syscall.SIGKILL)
	signalMarked(g.marker, syscall.SIGKILL)
}

// release frees what the group holds; the group's processes are not touched.
func (g *procGroup) release() {}
