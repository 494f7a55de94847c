// Package trace is layer 0 of the mock vendor fleet: the wire trace, the
// record of every request the fleet saw and how it answered, that the
// checks judge a client by.
//
// It holds Event (one request or outbound push delivery), the normalized
// operations (Op), Coercion, Presented and SeenState, the Trace that keeps
// events in arrival order within its caps (events, request-body bytes),
// and the body keeping that bounds what one event holds: every text field
// cut to MaxTracedField, bodies a strict parser refuses left out
// (CheckText), bodies nested deeper than MaxTracedDepth kept as text, and
// the JSON depth helper (NestedDeeper) the fleet's parsers share for
// MaxBodyDepth.
//
// It imports no other package of the fleet (mockvendor or
// mockvendor/internal/...): every other layer may import it, and it must
// stay free of the vendors, the dialects and the faults. The package
// mockvendor re-exports its public names by aliases (mockvendor.Event,
// mockvendor.Trace, mockvendor.OpSend, ...); the recording side (New,
// Trace.Begin, Trace.Finish, Trace.Add, Clip, CheckText) is for the fleet.
package trace
