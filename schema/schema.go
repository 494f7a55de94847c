// Package schema holds the JSON Schemas (draft 2020-12) of what a2a-conform
// exchanges and writes: the driver contract's messages (contract/*.json:
// DelegationRequest, DelegationOutcome, hello, reset) and the JSON report
// (report-v2.json). The files are the published form; this package embeds
// them so that tools and tests can load them without a path.
//
// Each schema's $id is under https://a2a-conform.dev/schema/; the report
// refers to the contract schemas by relative reference, so a validator
// needs all of them added as resources under their $id (nothing is
// fetched from the network).
package schema

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
)

//go:embed report-v2.json contract/*.json
var files embed.FS

// Files are the schema files, by path relative to this directory
// ("report-v2.json", "contract/delegation-request.json", ...).
func Files() fs.FS { return files }

// The schema files.
const (
	Report            = "report-v2.json"
	DelegationRequest = "contract/delegation-request.json"
	DelegationOutcome = "contract/delegation-outcome.json"
	Hello             = "contract/hello.json"
	Reset             = "contract/reset.json"
	Close             = "contract/close.json"
)

// All lists every schema file.
var All = []string{Report, DelegationRequest, DelegationOutcome, Hello, Reset, Close}

// Base is the URL every schema's $id is relative to.
const Base = "https://a2a-conform.dev/schema/"

// ID returns the $id of a schema file.
func ID(file string) string { return Base + path.Clean(file) }

// Load returns a schema file's JSON and checks that its $id is ID(file).
func Load(file string) ([]byte, error) {
	b, err := files.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var head struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("schema %s: %w", file, err)
	}
	if head.ID != ID(file) {
		return nil, fmt.Errorf("schema %s: $id %q, want %q", file, head.ID, ID(file))
	}
	return b, nil
}
