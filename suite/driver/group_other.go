//go:build !unix && !windows

package driver

import "os/exec"

// procGroup is the process of an exec OUT; on this system the harness
// cannot reach the processes it starts, so only the process itself is
// stopped.
type procGroup struct{ proc *exec.Cmd }

func prepareGroup(cmd *exec.Cmd) {}

func newGroup(cmd *exec.Cmd) *procGroup { return &procGroup{proc: cmd} }

func (g *procGroup) terminate() { g.kill() }

func (g *procGroup) kill() { _ = g.proc.Process.Kill() }

func (g *procGroup) release() {}
