// Package jsonrpc is the fleet's JSON-RPC binding (A2A 1.0 §9), layer 6
// of the mock vendor fleet: an adapter between HTTP and the stages every
// binding shares (mockvendor/internal/binding).
//
// It holds Serve, which reads a request (the body under the body limit,
// its Content-Type, the JSON-RPC envelope: jsonrpc, method, id, params)
// and settles the method's operation and dialect from the method table
// (methods.go: every method name of the 0.1, 0.3 and 1.0 generations),
// then calls binding.Handle and binding.Respond; the rendering of answers,
// stream events and errors as JSON-RPC response objects (render.go:
// errorObject is the error object of each dialect); and the fast JSON
// path (wirejson.go, wirescan.go: the envelope and the common send params
// read in one pass, a send's answer appended to a buffer), with its
// differential fuzz targets and their corpora (fuzz_test.go,
// testdata/fuzz), which hold it to encoding/json byte for byte.
//
// One package per binding, rather than every binding in one package:
// each binding's envelope, method names and fast path are its own, the
// shared part is already one package below, and a new binding (gRPC) is
// then one more package beside this one.
//
// It may import mockvendor/internal/binding, mockvendor/internal/ops,
// mockvendor/internal/a2a, mockvendor/internal/tasks and
// mockvendor/internal/trace, and no package of its own layer (the other
// bindings) or above. The root package mockvendor imports it; nothing
// below it may.
package jsonrpc
