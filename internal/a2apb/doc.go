// Package a2apb is the Go code protoc generates from the A2A 1.0.1
// protocol buffer definition (proto/lf/a2a/v1/a2a.proto, a2aproject/A2A
// tag v1.0.1): the messages and the A2AService client and server
// interfaces of the gRPC binding (A2A §10).
//
// Nothing here is written by hand: make proto regenerates it with the
// pinned protoc, protoc-gen-go and protoc-gen-go-grpc (proto/generate.sh),
// and TestGeneratedCodeIsCurrent fails when the committed files differ from
// what those tools make of proto/.
package a2apb
