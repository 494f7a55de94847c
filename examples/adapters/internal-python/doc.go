// Package kitpython holds the Go side of the tests of the Python driver
// kit (a2a_conform_contract.py, shared by the Python framework adapters):
// kit_test.go runs its unittest module, which summarises the artifact
// vectors of contract/testdata/artifact-vectors.json as package contract
// does.
package kitpython
