// Package grpc is the fleet's gRPC binding (A2A 1.0.1 §10), layer 6 of
// the mock vendor fleet: an adapter between grpc-go and the stages every
// binding shares (mockvendor/internal/binding), beside the JSON-RPC and
// HTTP+JSON bindings. It serves A2A 1.0 only.
//
// A host with HostConfig.GRPC offers ALPN "h2" after "http/1.1". The
// fleet's server does the TLS handshake (the host's certificate, CONNECT
// proxy, resolve map, connection cap and connection faults apply as on
// every host) and hands each connection that negotiated h2 to
// Server.ServeConn, which serves it on grpc-go's own transport
// ((*grpc.Server).Serve, transport.go): HTTP/2 on a gRPC host is gRPC.
// The stats handler opens each call's trace event from the connection's
// host (TransportHost.OpenCall) before its message is read and completes
// it once its status is out; the call reaches the service through the
// context. A lost answer and a broken-off stream are reset with
// RST_STREAM by the connection's writer (frames.go), grpc-go having no
// reset of its own.
//
// One implementation of each operation: each of the 11 methods of
// A2AService (service.go, one handler per operation) turns its request
// message into its protojson form, the 1.0 JSON the other bindings read,
// and runs binding.Handle (version from the a2a-version metadata, absent
// meaning 0.3 as for the HTTP header, A2A 1.0.1 §3.6.1, §10.2; the tenant
// field; credentials from the authorization and API-key metadata; the
// a2a-extensions metadata; the faults; ops.Run). The JSON answer, or each
// stream event, is turned back into the proto with protojson, unknown
// members dropped (write.go). Errors map to a gRPC status in one place
// (status.go: A2A 1.0.1 §5.4, §10.6).
//
// The trace records a call as the other bindings' operation (Event.Op),
// Binding "GRPC", its metadata as the headers they are on the wire, and
// its request as its protojson JSON, so every check judges it unchanged.
//
// It may import mockvendor/internal/binding, mockvendor/internal/ops,
// mockvendor/internal/a2a and mockvendor/internal/trace, and no package
// of its own layer (the other bindings) or above. The root package
// mockvendor imports it; nothing below it may.
package grpc
