package driver

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// signalMarked sends sig to every process whose environment holds the
// session marker, and returns how many it signalled. Descendants inherit
// the marker through exec, setsid and double forks, so it reaches the
// processes that left the OUT's process group; only one that scrubs its own
// environment escapes it. The harness's own environment never holds it.
func signalMarked(marker string, sig syscall.Signal) int {
	if marker == "" {
		return 0
	}
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	want := []byte(marker)
	self := os.Getpid()
	n := 0
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil || !hasEnvEntry(env, want) {
			continue
		}
		if syscall.Kill(pid, sig) == nil {
			n++
		}
	}
	return n
}

// hasEnvEntry reports whether a NUL-separated environment holds entry.
func hasEnvEntry(env, entry []byte) bool {
	for _, e := range bytes.Split(env, []byte{0}) {
		if bytes.Equal(e, entry) {
			return true
		}
	}
	return false
}
