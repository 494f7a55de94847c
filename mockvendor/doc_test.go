package mockvendor

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tRegisteredFaults lists the registered fault types, sorted.
func tRegisteredFaults() []string {
	var names []string
	for _, ft := range FaultTypes() {
		names = append(names, ft.Name)
	}
	return names
}

// tDocFaultTable reads the fault table of the package doc (doc.go): an
// entry starts with a tab and the type's name, continuation lines are
// indented further. It returns each entry's text by type, in order.
func tDocFaultTable(t *testing.T) (names []string, text map[string]string) {
	t.Helper()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "//\ttype ") })
	if start < 0 {
		t.Fatal(`doc.go has no fault table (a line "//\ttype ...")`)
	}
	entry := regexp.MustCompile(`^//\t([a-z0-9-]+)\s+(.*)$`)
	text = map[string]string{}
	cur := ""
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "//\t") {
			break
		}
		if m := entry.FindStringSubmatch(l); m != nil {
			cur = m[1]
			names = append(names, cur)
			text[cur] = m[2]
			continue
		}
		text[cur] += " " + strings.TrimSpace(strings.TrimPrefix(l, "//\t"))
	}
	return names, text
}

// TestPackageDocListsEveryFault checks the fault table of doc.go against
// the registry: every registered type exactly once (in the table's own
// grouping, not sorted), no type that is not registered, and each config
// field of a type named in its entry.
func TestPackageDocListsEveryFault(t *testing.T) {
	names, text := tDocFaultTable(t)
	registered := tRegisteredFaults()
	for _, n := range names {
		if !slices.Contains(registered, n) {
			t.Errorf("doc.go's fault table lists %s, which is not a registered fault type", n)
		}
	}
	for _, ft := range FaultTypes() {
		if c := tCount(names, ft.Name); c != 1 {
			t.Errorf("doc.go's fault table lists %s %d times, want once", ft.Name, c)
			continue
		}
		for _, f := range ft.Fields {
			if f.Doc == "" {
				t.Errorf("%s.%s has no doc tag", ft.Name, f.Name)
			}
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(text[ft.Name]) {
				t.Errorf("doc.go's entry for %s does not name its config field %s: %q", ft.Name, f.Name, text[ft.Name])
			}
		}
	}
}

// TestFleetConfigDocListsEveryFault checks the list of fault types in
// docs/fleet-config.md ("The fault types are: a, b, ... z.") against the
// registry: the same names, sorted.
func TestFleetConfigDocListsEveryFault(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "fleet-config.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)The fault types are: ([a-z0-9,\s-]+)\.`).FindSubmatch(doc)
	if m == nil {
		t.Fatal(`docs/fleet-config.md has no "The fault types are: ..." list`)
	}
	var listed []string
	for _, n := range strings.Split(string(m[1]), ",") {
		listed = append(listed, strings.TrimSpace(n))
	}
	if want := tRegisteredFaults(); !slices.Equal(listed, want) {
		t.Errorf("docs/fleet-config.md lists the fault types\n%v\nthe registry has (sorted)\n%v", listed, want)
	}
}

func tCount(list []string, s string) int {
	n := 0
	for _, e := range list {
		if e == s {
			n++
		}
	}
	return n
}
