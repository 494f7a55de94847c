// Package rest is the fleet's HTTP+JSON binding (A2A 1.0 §11), layer 6
// of the mock vendor fleet: an adapter between HTTP and the stages every
// binding shares (mockvendor/internal/binding). It serves A2A 1.0 only.
//
// It holds Serve, which maps a route (routes.go: the HTTP method and the
// path below HostConfig.RESTPath, with an optional /{tenant} segment) to
// the operation and its 1.0 method name, reads the body (POST) or the
// query (GET) into the params the JSON-RPC method would take, then calls
// binding.Handle and binding.Respond; and the rendering (render.go): a
// bare result, a stream of bare StreamResponses, an error as a
// google.rpc.Status with the HTTP status of its code (httpStatus).
//
// It is one package per binding for the reasons the JSON-RPC binding's
// doc gives (mockvendor/internal/binding/jsonrpc).
//
// It may import mockvendor/internal/binding, mockvendor/internal/ops,
// mockvendor/internal/a2a and mockvendor/internal/trace, and no package
// of its own layer (the other bindings) or above. The root package
// mockvendor imports it; nothing below it may.
package rest
