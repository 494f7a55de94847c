//go:build !linux

package driver

// orphanOwner is a no-op where there is no child subreaper: on other Unix
// systems (macOS, the BSDs) a descendant that leaves the OUT's process
// group and the session marker's reach is reparented to init and is not
// found; on Windows the job object holds every descendant (group_windows.go).
type orphanOwner struct{}

func sessionClock() uint64 { return 0 }

func newOrphanOwner(start uint64) *orphanOwner { return &orphanOwner{} }

func (o *orphanOwner) add(pid int, marker string) {}

func (o *orphanOwner) close() int { return 0 }
