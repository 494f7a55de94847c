package mockvendor

import (
	"os"
	"strings"
	"testing"
)

// TestPackageDocListsEveryFault keeps the fault table of doc.go complete.
func TestPackageDocListsEveryFault(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, ft := range FaultTypes() {
		if !strings.Contains(string(doc), "//\t"+ft.Name+" ") {
			t.Errorf("doc.go's fault table lacks %s", ft.Name)
		}
		for _, f := range ft.Fields {
			if f.Doc == "" {
				t.Errorf("%s.%s has no doc tag", ft.Name, f.Name)
			}
		}
	}
}
