package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// catalogDoc is the generated catalog page, checked in.
var catalogDoc = filepath.Join("..", "..", "docs", "catalog.md")

// TestCatalogDoc fails when docs/catalog.md is not what `list --markdown`
// prints: the page is generated from the code and must not go stale.
// -update rewrites it.
func TestCatalogDoc(t *testing.T) {
	var b bytes.Buffer
	writeCatalogMarkdown(&b)
	if *update {
		if err := os.WriteFile(catalogDoc, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(catalogDoc)
	if err != nil {
		t.Fatalf("%v (write it with: go test ./cmd/a2a-conform -run TestCatalogDoc -update)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/catalog.md is stale: the catalog in scenarios/ changed; rewrite it with go test ./cmd/a2a-conform -run TestCatalogDoc -update")
	}
}

// TestListJSON: list --json prints every check once, each with its id,
// scenario (none for a global), title, profiles with levels, and sources
// as data.
func TestListJSON(t *testing.T) {
	r := runCLI(t, "list", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got []struct {
		ID       string             `json:"id"`
		Scenario string             `json:"scenario"`
		Global   bool               `json:"global"`
		Title    string             `json:"title"`
		Profiles map[string]string  `json:"profiles"`
		Sources  []scenarios.Source `json:"sources"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("list --json is not a JSON array of checks: %v", err)
	}
	want := len(scenarios.GlobalChecks())
	for _, s := range scenarios.All() {
		want += len(s.Checks)
	}
	if len(got) != want {
		t.Errorf("%d checks listed, the catalog has %d", len(got), want)
	}
	seen := map[string]bool{}
	for _, c := range got {
		if seen[c.ID] {
			t.Errorf("%s listed twice", c.ID)
		}
		seen[c.ID] = true
		if c.Title == "" || len(c.Profiles) == 0 || (c.Scenario == "") != c.Global {
			t.Errorf("%s: title %q, profiles %v, scenario %q, global %v", c.ID, c.Title, c.Profiles, c.Scenario, c.Global)
		}
	}
	if r := runCLI(t, "list", "--json", "--markdown"); r.code != 2 {
		t.Errorf("--json with --markdown: exit %d, want 2", r.code)
	}
}
