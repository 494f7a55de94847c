package mockvendor

import "github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"

// The task store lives in internal/tasks (layer 2); these names keep its
// bounds part of this package's public face and its types short here.

// Bounds of the task store, which a hostile orchestrator may try to flood:
// each task keeps at most MaxTaskHistory messages (its first message and
// the newest follow-ups; older follow-ups are dropped), and each vendor at
// most MaxTasksPerVendor tasks (past it the oldest tenth of that vendor's
// tasks is dropped), within the fleet-wide Limits.MaxTasks; in bytes, the
// store keeps within Limits.MaxTaskBytes and Limits.MaxVendorTaskBytes
// (tasks.Budget).
const (
	MaxTaskHistory    = tasks.MaxHistory
	MaxTasksPerVendor = tasks.MaxPerVendor
)

// task is a task a vendor issued, carrying the artifacts the artifacts
// fault configured for it (nil: its one text artifact).
type task = tasks.Task

// taskStore is the fleet's task store.
type taskStore = tasks.Store

// newTaskStore returns the store of a fleet within limits (already with
// their defaults): Limits.MaxTasks tasks, Limits.MaxTaskBytes bytes,
// Limits.MaxVendorTaskBytes of them per vendor.
func newTaskStore(l Limits) *taskStore {
	return tasks.NewStore(l.MaxTasks, tasks.NewBudget(l.MaxTaskBytes, l.MaxVendorTaskBytes))
}
