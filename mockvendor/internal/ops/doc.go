// Package ops is layer 4 of the mock vendor fleet: the A2A operations, one
// implementation each, whatever the binding that carried the request
// (A2A 1.0 §3.1: send, stream, get, cancel, list, subscribe, the push
// config methods, the extended card, and the answer to a method the fleet
// knows but does not offer).
//
// It holds the binding-neutral request and result (Request: operation,
// method, dialect, version, params, the decoded params of a send
// (SendParams) or of a task method (TaskParams), the fault.Call the faults
// filled, the time; Result: a value, a sent task, or stream events, with
// the task and state the trace records and a stream's timing and abort),
// Run, which answers a Request for a Vendor, and the encoding of tasks in
// each dialect that answers and push notifications share (EncodeTaskAt,
// EncodeTaskView, StreamEvents, StatusFrame, Result.ResultValue).
//
// The name is the package's subject: what an agent does for each A2A
// operation, apart from how a binding reads or writes it. It sees a vendor
// only through Vendor, a small interface it declares (the vendor's id and
// organization, its skills by region, its card's capabilities and
// document, the task store, its push store, the work-time clock) and that
// the root package mockvendor implements; errors are a2a.Error values the
// bindings render.
//
// It may import mockvendor/internal/a2a, mockvendor/internal/trace,
// mockvendor/internal/tasks, mockvendor/internal/push and
// mockvendor/internal/fault, and no package of its own layer or above. The
// bindings and the root package import it; nothing below it may.
package ops
