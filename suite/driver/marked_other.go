//go:build unix && !linux

package driver

import "syscall"

// signalMarked finds no marked processes where there is no /proc: only the
// OUT's process group is signalled.
func signalMarked(marker string, sig syscall.Signal) int { return 0 }
