package mockvendor

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/a2a-conform/a2a-conform/schema"
)

// TestReportSchemaListsEveryOp: the report schema's enum of an event's op
// is exactly the Ops the trace records, so a report validates whatever
// its events did.
func TestReportSchemaListsEveryOp(t *testing.T) {
	b, err := schema.Load("report-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Enum []Op `json:"enum"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var enum []Op
	for name, def := range doc.Defs {
		if e := def.Properties["op"].Enum; e != nil {
			if enum != nil {
				t.Fatalf("two definitions with an op enum (the second: %s)", name)
			}
			enum = e
		}
	}
	if !slices.Equal(enum, Ops()) {
		t.Errorf("report-v2.json lists ops %q\nthe trace records %q", enum, Ops())
	}
}
