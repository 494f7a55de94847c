// Package internalnode holds the Go side of the Node adapters' shared kit:
// contract.mjs itself is a Node module, and kit_test.go runs its tests
// (contract.test.mjs, node --test) from go test.
package internalnode
