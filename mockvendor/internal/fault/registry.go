package fault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/yamlfile"
)

// Type describes a registered fault type for documentation and the admin
// API (the root's FaultType).
type Type struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc"`
	Fields []Field `json:"fields"`
}

// Field documents one config field of a fault type (the root's FaultField).
type Field struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Doc  string `json:"doc"`
}

type kind struct {
	doc  string
	make func() any
}

// kinds is filled by the init functions of the fault files and never
// changed afterwards.
var kinds = map[string]kind{}

// Register registers fault type name, documented by doc, whose config
// make returns as a pointer to its zero value (a JSON-tagged struct whose
// exported fields have a doc tag). The fault files call it from their
// init; a name registered twice panics.
func Register(name, doc string, make func() any) {
	if _, dup := kinds[name]; dup {
		panic("mockvendor: fault type registered twice: " + name)
	}
	kinds[name] = kind{doc: doc, make: make}
}

// Types lists the registered fault types, sorted by name, with their
// config fields (read from the config structs' json and doc tags).
func Types() []Type {
	var out []Type
	for name, k := range kinds {
		ft := Type{Name: name, Doc: k.doc}
		t := reflect.TypeOf(k.make()).Elem()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			jn, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			ft.Fields = append(ft.Fields, Field{Name: jn, Type: yamlfile.JSONTypeName(f.Type), Doc: f.Tag.Get("doc")})
		}
		out = append(out, ft)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// New builds a fault of type typ from its JSON config (mockvendor's
// FaultSpec.Type and Config), rejecting unknown types and unknown or
// ill-typed config fields with a *ConfigError that names the field. The
// fault is the config struct Register's make returned, decoded and
// validated; the vendor asks it for the hook interfaces (hooks.go) it
// implements.
func New(typ string, config json.RawMessage) (any, error) {
	k, ok := kinds[typ]
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
// an unknown vendor or host, a field with the wrong type. The root package
// re-exports it (mockvendor.ConfigError) for every refusal of the fleet's
// configuration, not only the faults'.
type ConfigError struct {
	// Field names the field at fault ("config.region", "hosts").
	Field string
	Msg   string
}

// Error is the field and the message.
func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }
