// Package tasks is layer 2 of the mock vendor fleet: the task store, which
// keeps the tasks the fleet's vendors issue, and its byte budget.
//
// It holds Task (one task: who issued it, its first message and
// follow-ups, its state, derived from the clock, and the signal its
// streams wait on for a cancel), Store (the fleet's tasks by vendor and
// id, within a count cap, MaxPerVendor per vendor and MaxHistory messages
// per task, the oldest forgotten first), Budget (the bytes the store keeps,
// for the fleet and per vendor, with the counts of what it forgot or cut
// to stay within them), Terminal and NewID.
//
// The store knows nothing of bindings, dialect spellings or faults: a
// task's state is a plain 0.3 name ("working", "completed"), and the
// artifacts a fault configured for a task (a2a.ArtifactSpec, the model's)
// are kept and never read. Its limits come from the root package's Limits
// as plain numbers (NewStore, NewBudget).
//
// It may import mockvendor/internal/a2a (the Message and the artifacts a
// task holds) and mockvendor/internal/trace (the clip of a stub message's
// strings), and no other package of the fleet. The layers above it (the
// operations, push delivery, the bindings and the root package mockvendor,
// which re-exports MaxTaskHistory and MaxTasksPerVendor) import it; nothing
// below it may.
package tasks
