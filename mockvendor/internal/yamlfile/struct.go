package yamlfile

import (
	"reflect"

	"github.com/goccy/go-yaml/ast"
)

// mapping is n as a mapping: a one-pair mapping is a MappingValueNode.
func mapping(n ast.Node) (*ast.MappingNode, bool) {
	switch x := n.(type) {
	case *ast.MappingNode:
		return x, true
	case *ast.MappingValueNode:
		return &ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: []*ast.MappingValueNode{x}}, true
	}
	return nil, false
}

// decodeStruct decodes a mapping into a struct: each key a field by its
// json name, or an Extra key of the type, else an error.
func (d *Decoder) decodeStruct(n ast.Node, v reflect.Value, path string) error {
	m, ok := mapping(n)
	if !ok {
		return errAt(n, path, "want a mapping")
	}
	t := v.Type()
	fields := fieldIndex(t)
	seen := map[string]bool{}
	var extra []*Key
	for _, mv := range m.Values {
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			return errAt(mv.Key, path, "merge keys (<<) are not supported")
		}
		key := mv.Key.GetToken().Value
		fp := childPath(path, key)
		if seen[key] {
			return errAt(mv.Key, fp, "duplicate key")
		}
		seen[key] = true
		d.mark(fp, mv.Key)
		i, ok := fields[key]
		if !ok {
			if d.Extra[t][key] == nil {
				return errAt(mv.Key, fp, "unknown field %q", key)
			}
			extra = append(extra, &Key{Name: key, Path: fp, d: d, parent: path, key: mv.Key, value: mv.Value})
			continue
		}
		if err := d.decode(mv.Value, v.Field(i), fp); err != nil {
			return err
		}
	}
	for _, k := range extra {
		val, err := d.resolve(k.value)
		if err != nil {
			return err
		}
		k.resolved = val
		if err := d.Extra[t][k.Name](v.Addr().Interface(), k); err != nil {
			return err
		}
	}
	return nil
}

// JSONTypeName is the name of Go type t in JSON's terms, as the fleet's
// errors and its fault catalogue say it: "string", "boolean", "number",
// "array of string", "object" (maps, structs, interfaces); a pointer is
// its element's name, and any other type its Go name.
func JSONTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return JSONTypeName(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		return "number"
	case reflect.Slice:
		return "array of " + JSONTypeName(t.Elem())
	case reflect.Map, reflect.Interface, reflect.Struct:
		return "object"
	}
	return t.String()
}
