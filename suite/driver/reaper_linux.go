package driver

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the harness makes itself a child subreaper
// (PR_SET_CHILD_SUBREAPER) when it starts its first exec OUT: a descendant
// of an OUT whose parent exits (a double fork) is then reparented to the
// harness instead of init, however it left the OUT's process group
// (setsid) and whatever it did to its environment (the session marker).
// When a session closes, the harness kills the orphans that belong to it
// (orphanOwner.close).
//
// The harness also runs the fleet and may start other programs; a child
// it started itself is never touched: os/exec holds a pidfd for every
// process it starts and waits for, so a process reparented to the
// harness is one for which the harness holds no pidfd. Where the kernel
// gives os/exec no pidfd (before Linux 5.4), the sweep is off and only the
// process group and the marker reach escaped descendants.
//
// An orphan belongs to a session when its environment holds one of the
// session's markers, when it is still in one of the session's process
// groups, or else by time: it started while the session was open. With
// several sessions open at once (tests in parallel; the CLI runs one
// scenario at a time, a Ginkgo parallel run one per process) an orphan
// that only time attributes is killed when the last session that was open
// at its start closes.

var (
	reaperOnce sync.Once
	reaperOn   bool // the harness is a subreaper

	ownersMu sync.Mutex
	owners   = map[*orphanOwner]bool{}
)

// enableSubreaper makes the harness a child subreaper, once.
func enableSubreaper() bool {
	reaperOnce.Do(func() {
		reaperOn = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
	return reaperOn
}

var (
	pidfdMu      sync.Mutex
	pidfdChecked bool
	pidfdOK      bool
)

// pidfdsWork reports whether os/exec holds a pidfd for its children, from
// pid, a child it has just started (checked once, while one is alive).
func pidfdsWork(pid int) bool {
	pidfdMu.Lock()
	defer pidfdMu.Unlock()
	if !pidfdChecked {
		if _, alive := readStat(pid); !alive {
			return true // gone already: ask again with the next one
		}
		pidfdChecked, pidfdOK = true, pidfdPids()[pid]
	}
	return pidfdOK
}

// orphanOwner is an exec session as the orphan sweep sees it.
type orphanOwner struct {
	start   uint64 // when it opened (before its first process), clock ticks since boot
	end     uint64 // when it closed (0: open)
	groups  map[int]bool
	markers map[string]bool
	// sweep is false when orphans cannot be told from the harness's own
	// children (no subreaper, no pidfds).
	sweep bool
}

// sessionClock is the time a session opens, as newOrphanOwner takes it:
// read before its first process starts.
func sessionClock() uint64 { return ticksNow() }

// newOrphanOwner registers a session that opened at start (sessionClock)
// and has started its first process. Its close must be called.
func newOrphanOwner(start uint64) *orphanOwner {
	o := &orphanOwner{start: start, groups: map[int]bool{}, markers: map[string]bool{}, sweep: enableSubreaper()}
	ownersMu.Lock()
	owners[o] = true
	ownersMu.Unlock()
	return o
}

// add records a process the session started (the leader of its own
// process group) and its marker.
func (o *orphanOwner) add(pid int, marker string) {
	if o == nil {
		return
	}
	ownersMu.Lock()
	defer ownersMu.Unlock()
	o.groups[pid] = true
	if marker != "" {
		o.markers[marker] = true
	}
	if o.sweep && !pidfdsWork(pid) {
		o.sweep = false // os/exec holds no pidfds here: our children cannot be told apart
	}
}

// close ends the session and kills the orphans reparented to the harness
// that belong to it (or to sessions already closed), with their process
// groups; it reaps them and any orphan that has already exited. It
// returns how many it killed.
func (o *orphanOwner) close() int {
	if o == nil {
		return 0
	}
	ownersMu.Lock()
	defer ownersMu.Unlock()
	o.end = ticksNow() + 1
	killed := 0
	if o.sweep {
		// A killed orphan's own children are reparented to the harness in
		// turn: a few rounds reach them.
		for round := 0; round < 5; round++ {
			n := o.sweepOnce()
			killed += n
			if n == 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	open := false
	for w := range owners {
		open = open || w.end == 0
	}
	if !open {
		clear(owners) // nothing left for a later orphan to belong to
	}
	return killed
}

// sweepOnce kills the orphans that belong to closed sessions; the caller
// holds ownersMu.
func (o *orphanOwner) sweepOnce() int {
	self := os.Getpid()
	// Processes first, pidfds second: a child os/exec starts meanwhile
	// has its pidfd from its birth, so it is in the second list.
	var kids []procStat
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.ppid == self {
			kids = append(kids, st)
		}
	}
	ours := pidfdPids()
	myGroup := syscall.Getpgrp()
	killed := 0
	for _, st := range kids {
		if ours[st.pid] {
			continue
		}
		if st.state == 'Z' { // an orphan that exited: reap it
			var ws unix.WaitStatus
			_, _ = unix.Wait4(st.pid, &ws, unix.WNOHANG, nil)
			continue
		}
		w := ownerOf(st)
		if w == nil || w.end == 0 {
			continue
		}
		if st.pgrp == st.pid && st.pgrp != myGroup {
			_ = syscall.Kill(-st.pgrp, syscall.SIGKILL)
		}
		if syscall.Kill(st.pid, syscall.SIGKILL) == nil {
			killed++
			go func(pid int) {
				var ws unix.WaitStatus
				_, _ = unix.Wait4(pid, &ws, 0, nil)
			}(st.pid)
		}
	}
	return killed
}

// ownerOf is the session an orphan belongs to: by marker, by process
// group, else by time; nil when none, or when time leaves more than one
// and one of them is still open. The caller holds ownersMu.
func ownerOf(st procStat) *orphanOwner {
	env, _ := os.ReadFile("/proc/" + strconv.Itoa(st.pid) + "/environ")
	for w := range owners {
		if w.groups[st.pgrp] {
			return w
		}
		for m := range w.markers {
			if hasEnvEntry(env, []byte(m)) {
				return w
			}
		}
	}
	var found *orphanOwner
	for w := range owners {
		if w.start > st.start || (w.end != 0 && w.end < st.start) {
			continue
		}
		if w.end == 0 {
			return nil // an open session may own it: its close decides
		}
		found = w
	}
	return found
}

// procStat is what the sweep reads of /proc/PID/stat.
type procStat struct {
	pid, ppid, pgrp int
	state           byte
	start           uint64 // clock ticks since boot
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	st := procStat{pid: pid, state: f[0][0]}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.start, _ = strconv.ParseUint(f[19], 10, 64)
	return st, true
}

// ticksNow is the time since boot in clock ticks (USER_HZ, 100 on Linux),
// the unit of a process's start time.
func ticksNow() uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	up, _ := strconv.ParseFloat(f[0], 64)
	return uint64(up * 100)
}

// pidfdPids are the processes this process holds a pidfd for: the children
// os/exec started and still waits for.
func pidfdPids() map[int]bool {
	out := map[int]bool{}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return out
	}
	for _, d := range fds {
		if l, err := os.Readlink("/proc/self/fd/" + d.Name()); err != nil || l != "anon_inode:[pidfd]" {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + d.Name())
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(line, "Pid:"); ok {
				if pid, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					out[pid] = true
				}
			}
		}
	}
	return out
}
