// Package a2a is layer 1 of the mock vendor fleet: the A2A model in
// dialect-neutral form (Dialect, Message, Part, task states) and the
// converters at the edge that read and write it in each dialect the fleet
// speaks, 0.1, 0.3 (with 0.2) and 1.0: DecodeMessage and BuildMessage,
// EncodeMessage and EncodePart, StateName and NormalState, and
// ProtoNamesToJSON and JSONName for the proto field names a 1.0 client
// may send (A2A 1.0.1 §5.5); MajorMinor, the form versions are
// negotiated and declared in (A2A 1.0 §3.6); and the artifacts a task may
// hold, in a form of their own that names what every dialect can say
// (ArtifactSpec, ArtifactPart: their check, each part as a Part, a
// stream's chunks).
// It holds the A2A error model too (errors.go): Error (the root package's
// RPCError) with its codes, the constructors of every error the fleet
// answers (InvalidParams, TaskNotFound, VersionNotSupported, ...), and the
// ErrorInfo reasons and domains of A2A 1.0.1 §9.5 and §11.6 (CodeReason,
// Error.Domain, Error.Details), which each binding renders in its own
// form.
//
// It imports no other mockvendor package; the layers above it (the task
// store, the faults, the operations, the bindings and the root package mockvendor, which
// re-exports Dialect, Message, Part, ArtifactSpec and ArtifactPart by
// alias) import it, and nothing below it may.
package a2a
