// Package binding is layer 5 of the mock vendor fleet: what every
// protocol binding of the fleet's endpoints shares (A2A 1.0 §5.3), the
// part of the request path between a binding's own reading and writing
// and the operations (internal/ops).
//
// It holds:
//   - Binding, the interface a binding implements for each request (its
//     name and versions, the tenant the request names, whether it gets an
//     answer, the send params' decoding, the rendering of answers, stream
//     events and errors), Request (a binding's request type embeds it)
//     and Host, the host as the bindings see it (the vendor's facts and
//     hooks: versions and tenants its card declares, authentication, the
//     faults' call and header hooks, the body limit), which the root
//     package mockvendor implements;
//   - Handle, the stages every binding runs once it knows the method:
//     version negotiation (A2A 1.0 §3.6), the tenant (§8.3.2), the params
//     and the fault.Call, authentication, the faults' call hooks, and
//     ops.Run, one implementation of each operation. It is the layer just
//     above ops rather than a part of it: negotiation and tenants are
//     facts of an endpoint (a binding at a URL), which ops never sees;
//   - what every writer of an answer shares, whatever its wire:
//     AnswerHeader (the A2A-Version, the extensions activated, the
//     header hooks), TraceCall and TraceError (the faults' record, the
//     error), Settle (the task and state the answer carries, a held or
//     lost answer, the answer hooks) and StreamEvents (a stream's events,
//     waits and end, sent to a binding's FrameSink); and Respond, the
//     HTTP writer built on them (JSON or server-sent events, the
//     authentication challenge, a connection closed or an HTTP/2 stream
//     reset);
//   - reading a body under the body limit (ReadBody), the Content-Type
//     check (CheckContentType), and WireError, the one place where an
//     error becomes an A2A error and an HTTP status.
//
// The bindings themselves are its subpackages, one per binding
// (binding/jsonrpc, binding/rest, binding/grpc): each reads its envelope
// into a Request, calls Handle, and renders answers and errors in its
// form, the HTTP ones through Respond, the gRPC one through the shared
// steps Respond is built on. A new binding is one more such package, and
// the root package's dispatch to it.
//
// No *trace.Event passes through an interface method here (Binding and
// Host take none): the stages and the writer are plain functions the
// compiler sees through, so each request's Event stays on the stack.
//
// It may import mockvendor/internal/a2a, mockvendor/internal/trace,
// mockvendor/internal/fault and mockvendor/internal/ops, and no package
// of its own layer or above. Its subpackages (layer 6) and the root
// package import it; nothing below it may.
package binding
