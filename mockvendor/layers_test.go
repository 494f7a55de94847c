package mockvendor

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	grpcbinding "github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/grpc"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/jsonrpc"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/rest"
)

// fleetPath is the import path of the fleet's root package.
const fleetPath = "github.com/a2a-conform/a2a-conform/mockvendor"

// layers places every package of the fleet (by its path below mockvendor,
// "" for the root) on its layer, as doc.go's "Layers" describes them. A
// package may import another of the fleet's packages only when that one's
// layer is lower: imports point down.
var layers = map[string]int{
	"internal/trace":           0,
	"internal/netx":            0,
	"internal/yamlfile":        0,
	"internal/a2a":             1,
	"internal/credentials":     1,
	"internal/tasks":           2,
	"internal/card":            2,
	"internal/push":            3,
	"internal/upstream":        2,
	"internal/fault":           3,
	"internal/ops":             4,
	"internal/binding":         5,
	"internal/binding/jsonrpc": 6,
	"internal/binding/rest":    6,
	"internal/binding/grpc":    6,
	"":                         9, // the public face and the wiring
	"admin":                    10,
}

// mayImport narrows, for the packages it names, the fleet packages each
// may import (below its layer) to those its doc lists; nil or empty: none.
var mayImport = map[string][]string{
	"internal/a2a":             nil,
	"internal/credentials":     {"internal/netx"},
	"internal/tasks":           {"internal/a2a", "internal/trace"},
	"internal/card":            {"internal/a2a", "internal/credentials", "internal/trace", "internal/netx", "internal/yamlfile"},
	"internal/push":            {"internal/trace", "internal/a2a", "internal/tasks", "internal/netx", "internal/credentials"},
	"internal/fault":           {"internal/a2a", "internal/trace", "internal/netx", "internal/yamlfile"},
	"internal/upstream":        {"internal/a2a", "internal/trace"},
	"internal/ops":             {"internal/a2a", "internal/trace", "internal/tasks", "internal/push", "internal/fault", "internal/upstream"},
	"internal/binding":         {"internal/a2a", "internal/trace", "internal/fault", "internal/ops", "internal/upstream"},
	"internal/binding/jsonrpc": {"internal/binding", "internal/ops", "internal/a2a", "internal/tasks", "internal/trace"},
	"internal/binding/rest":    {"internal/binding", "internal/ops", "internal/a2a", "internal/trace"},
	"internal/binding/grpc":    {"internal/binding", "internal/ops", "internal/a2a", "internal/trace"},
}

// importViolations lists what breaks the layering in imports, which maps
// each fleet package (as in layers) to the fleet packages it imports: an
// import at the importer's layer or above, an import mayImport does not
// list for a package it names, and a package layers does not place.
func importViolations(layers map[string]int, mayImport, imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		layer, placed := layers[pkg]
		if !placed {
			out = append(out, "mockvendor/"+pkg+" has no layer: give it one in layers and in doc.go")
			continue
		}
		allowed, narrowed := mayImport[pkg]
		for _, to := range imps {
			if l, ok := layers[to]; ok && l >= layer {
				out = append(out, "mockvendor/"+pkg+" (layer "+strconv.Itoa(layer)+") imports mockvendor/"+to+" (layer "+strconv.Itoa(l)+"): imports must point down")
			} else if narrowed && !slices.Contains(allowed, to) {
				out = append(out, "mockvendor/"+pkg+" imports mockvendor/"+to+", which its doc (and mayImport) does not allow")
			}
		}
	}
	for pkg := range layers {
		if _, ok := imports[pkg]; !ok {
			out = append(out, "layers places mockvendor/"+pkg+", which does not exist")
		}
	}
	sort.Strings(out)
	return out
}

// fleetImports reads the non-test imports of every package under the
// current directory (the fleet's root), keeping the fleet's own.
func fleetImports(t *testing.T) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(dir string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(filepath.ToSlash(dir), ".")
		out[rel] = []string{}
		for _, imp := range pkg.Imports {
			if to, ok := strings.CutPrefix(imp, fleetPath); ok && (to == "" || to[0] == '/') {
				out[rel] = append(out[rel], strings.TrimPrefix(to, "/"))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportsPointDown holds the fleet's packages to their layers.
func TestImportsPointDown(t *testing.T) {
	for _, v := range importViolations(layers, mayImport, fleetImports(t)) {
		t.Error(v)
	}
}

// TestImportViolations shows the layering check failing on an import that
// points up or sideways, and on a package without a layer.
func TestImportViolations(t *testing.T) {
	table := map[string]int{"internal/low": 0, "internal/low2": 0, "internal/mid": 1, "": 2}
	cases := []struct {
		name    string
		imports map[string][]string
		want    int
	}{
		{"imports point down", map[string][]string{"internal/low": {}, "internal/low2": {}, "internal/mid": {"internal/low"}, "": {"internal/mid", "internal/low"}}, 0},
		{"an import points up", map[string][]string{"internal/low": {"internal/mid"}, "internal/low2": {}, "internal/mid": {}, "": {}}, 1},
		{"an import within a layer", map[string][]string{"internal/low": {"internal/low2"}, "internal/low2": {}, "internal/mid": {}, "": {}}, 1},
		{"a package with no layer", map[string][]string{"internal/low": {}, "internal/low2": {}, "internal/mid": {}, "": {}, "internal/new": {}}, 1},
		{"a layer with no package", map[string][]string{"internal/low": {}, "internal/low2": {}, "": {}}, 1},
		{"an import down that the doc does not allow", map[string][]string{"internal/low": {}, "internal/low2": {}, "internal/mid": {"internal/low2"}, "": {}}, 1},
		{"the root is not narrowed", map[string][]string{"internal/low": {}, "internal/low2": {}, "internal/mid": {}, "": {"internal/low2", "internal/mid"}}, 0},
	}
	narrow := map[string][]string{"internal/mid": {"internal/low"}}
	for _, c := range cases {
		if got := importViolations(table, narrow, c.imports); len(got) != c.want {
			t.Errorf("%s: %d violations %q, want %d", c.name, len(got), got, c.want)
		}
	}
}

// TestBindingNames: each binding package names itself as the card does
// (the public BindingJSONRPC and BindingREST).
func TestBindingNames(t *testing.T) {
	for _, c := range [][2]string{{jsonrpc.Name, BindingJSONRPC}, {rest.Name, BindingREST}, {grpcbinding.Name, BindingGRPC}} {
		if c[0] != c[1] {
			t.Errorf("binding package names itself %q, the card %q", c[0], c[1])
		}
	}
}
