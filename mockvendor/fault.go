package mockvendor

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// A fault is a small type in its own file: a JSON-tagged config struct that
// implements one or more of the hook interfaces below, and one line in that
// file's init that registers it. Adding a fault never changes the fleet, the
// admin API or the config format.

// callHook sees every JSON-RPC call before the vendor acts on it. It may
// change the call (coerce parts, hold a task open, delay a stream) or answer
// it with an error. Hooks run in the order the faults were attached; the
// first error answers the call.
type callHook interface {
	onCall(c *Call) *RPCError
}

// headerHook adjusts the headers of every JSON-RPC answer of the host.
type headerHook interface {
	onResponseHeader(h http.Header)
}

// cardHook changes the card document a card host serves. cdn says whether
// the copy is the CDN's (true) or the origin's (false).
type cardHook interface {
	onCard(v *Vendor, card map[string]any, cdn bool)
}

// signHook signs the card in place of the vendor's honest signature (or
// leaves it unsigned); card is the unsigned card JSON, and the result is
// the document to serve.
type signHook interface {
	signCard(s *vendorSigner, card []byte) ([]byte, error)
}

// jwksHook changes the keys a JWKS fetch returns; n counts the vendor's
// JWKS fetches from 1.
type jwksHook interface {
	onJWKS(s *vendorSigner, keys []jose.JSONWebKey, n int) []jose.JSONWebKey
}

// certHook replaces the certificate a host presents.
type certHook interface {
	certificate(hostName string, ca *CA) (tls.Certificate, error)
}

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

// newFault builds a fault from its JSON form, rejecting unknown types and
// unknown or ill-typed config fields with an error that names the field.
func newFault(spec FaultSpec) (any, error) {
	k, ok := faultKinds[spec.Type]
	if !ok {
		return nil, &ConfigError{Field: "type", Msg: fmt.Sprintf("unknown fault type %q", spec.Type)}
	}
	f := k.make()
	if len(spec.Config) > 0 && string(spec.Config) != "null" {
		dec := json.NewDecoder(bytes.NewReader(spec.Config))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f); err != nil {
			return nil, &ConfigError{Field: "config", Msg: fmt.Sprintf("%s: %v", spec.Type, err)}
		}
	}
	if v, ok := f.(interface{ validate() error }); ok {
		if err := v.validate(); err != nil {
			// A fault that names the field at fault (a *ConfigError) has
			// it placed under config.
			var ce *ConfigError
			if errors.As(err, &ce) {
				return nil, &ConfigError{Field: "config." + ce.Field, Msg: fmt.Sprintf("%s: %s", spec.Type, ce.Msg)}
			}
			return nil, &ConfigError{Field: "config", Msg: fmt.Sprintf("%s: %v", spec.Type, err)}
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

// attachedFault is a fault attached to a vendor.
type attachedFault struct {
	id    string
	spec  FaultSpec
	hosts map[string]bool // empty: every host
	impl  any
}

func (a *attachedFault) appliesTo(host string) bool {
	return len(a.hosts) == 0 || a.hosts[host]
}

// AttachedFault is a fault as the admin API lists it.
type AttachedFault struct {
	ID string `json:"id"`
	FaultSpec
}
