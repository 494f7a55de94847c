// Package gcbudget sets the Go garbage collector of a harness process for
// its memory budget.
//
// The fleet keeps a large, long-lived heap (the trace of every request and
// the task store), and with Go's default GOGC=100 the collector rescans it
// each time the heap grows by its own size again: at the load of `make
// bench` that is a third of the fleet's CPU per request. The harness
// instead lets the heap grow to five times the live data (GC percent 400)
// and caps it with a soft memory limit below the run's 1 GiB budget
// (README, "Bounds"), so collections are rare while memory is plentiful
// and frequent again near the limit. A user's GOGC or GOMEMLIMIT
// environment variable wins over either default.
package gcbudget

import (
	"os"
	"runtime/debug"
)

const (
	// Percent is the GC percent used when GOGC is not set.
	Percent = 400
	// Limit is the soft memory limit, in bytes, used when GOMEMLIMIT is not
	// set: 800 MiB, leaving room under the 1 GiB budget for what the Go
	// runtime does not count (stacks' slack, fragmentation).
	Limit = 800 << 20
)

// Apply sets the defaults above unless the environment sets them, and
// returns the GC percent and the memory limit in force afterwards.
func Apply() (percent int, limit int64) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(Percent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(Limit)
	}
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
