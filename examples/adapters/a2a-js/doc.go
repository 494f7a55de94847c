// Package a2ajs holds the Go side of the @a2a-js/sdk interop tests: the
// adapter itself (adapter.mjs) and the SDK operation script (sdkops.mjs)
// are Node programs; sdkops_test.go runs the script against a fleet's
// vendor D and checks each operation's result (docs/tck.md, "What the
// SDK clients get from D").
package a2ajs
