package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// FaultType describes a registered fault type for documentation and the
// admin API.
type FaultType struct {
	Name   string       `json:"name"`
	Doc    string       `json:"doc"`
	Fields []FaultField `json:"fields"`
}

// FaultField documents one config field of a fault type.
type FaultField struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Doc  string `json:"doc"`
}

type faultKind struct {
	doc  string
	make func() any
}

// faultKinds is filled by the init functions of the fault files and never
// changed afterwards.
var faultKinds = map[string]faultKind{}

func registerFault(name, doc string, make func() any) {
	if _, dup := faultKinds[name]; dup {
		panic("mockvendor: fault type registered twice: " + name)
	}
	faultKinds[name] = faultKind{doc: doc, make: make}
}

// FaultTypes lists the registered fault types, sorted by name, with their
// config fields (read from the config structs' json and doc tags).
func FaultTypes() []FaultType {
	var out []FaultType
	for name, k := range faultKinds {
		ft := FaultType{Name: name, Doc: k.doc}
		t := reflect.TypeOf(k.make()).Elem()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			jn, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			ft.Fields = append(ft.Fields, FaultField{Name: jn, Type: jsonTypeName(f.Type), Doc: f.Tag.Get("doc")})
		}
		out = append(out, ft)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		return "number"
	case reflect.Slice:
		return "array of " + jsonTypeName(t.Elem())
	case reflect.Map, reflect.Interface, reflect.Struct:
		return "object"
	}
	return t.String()
}

// newFault builds a fault of type typ from its JSON config (FaultSpec's
// Type and Config), rejecting unknown types and unknown or ill-typed config
// fields with an error that names the field.
func newFault(typ string, config json.RawMessage) (any, error) {
	k, ok := faultKinds[typ]
	if !ok {
		return nil, &ConfigError{Field: "type", Msg: fmt.Sprintf("unknown fault type %q", typ)}
	}
	f := k.make()
	if len(config) > 0 && string(config) != "null" {
		dec := json.NewDecoder(bytes.NewReader(config))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f); err != nil {
			return nil, &ConfigError{Field: "config", Msg: fmt.Sprintf("%s: %v", typ, err)}
		}
	}
	if v, ok := f.(interface{ validate() error }); ok {
		if err := v.validate(); err != nil {
			// A fault that names the field at fault (a *ConfigError) has
			// it placed under config.
			var ce *ConfigError
			if errors.As(err, &ce) {
				return nil, &ConfigError{Field: "config." + ce.Field, Msg: fmt.Sprintf("%s: %s", typ, ce.Msg)}
			}
			return nil, &ConfigError{Field: "config", Msg: fmt.Sprintf("%s: %v", typ, err)}
		}
	}
	return f, nil
}

// ConfigError is a configuration the fleet refuses: an unknown fault type,
// an unknown vendor or host, a field with the wrong type.
type ConfigError struct {
	// Field names the field at fault ("config.region", "hosts").
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }
