package mockvendor

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// tEveryField writes a JSON value of type t in which every tagged field of
// every struct is present with a value of its own (so a scanner that skips
// a field, or puts it in another, decodes differently from json.Unmarshal).
func tEveryField(t reflect.Type, name string) string {
	switch {
	case t == reflect.TypeFor[json.RawMessage]():
		return `{"raw":"` + name + `"}`
	case t.Kind() == reflect.Pointer:
		return tEveryField(t.Elem(), name)
	case t.Kind() == reflect.String:
		return `"v-` + name + `"`
	case t.Kind() == reflect.Bool:
		return "true"
	case t.Kind() == reflect.Map:
		return `{"k":"` + name + `"}`
	case t.Kind() == reflect.Slice:
		return "[" + tEveryField(t.Elem(), name+"[0]") + "," + tEveryField(t.Elem(), name+"[1]") + "]"
	case t.Kind() == reflect.Struct:
		var members []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || n == "-" {
				continue
			}
			if n == "" {
				n = f.Name
			}
			members = append(members, `"`+n+`":`+tEveryField(f.Type, name+"."+n))
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	panic("tEveryField: no sample for " + t.String())
}

// TestFastDecoderFieldsMatchTags proves the scanner's member lists (read
// from the struct tags) and its switches agree with the structs: for an
// object with every tagged field present, scanEnvelope and scanSendParams
// (with the message and parts they scan) accept it and fill exactly what
// json.Unmarshal fills.
func TestFastDecoderFieldsMatchTags(t *testing.T) {
	cases := []struct {
		name string
		typ  reflect.Type
		scan func(b []byte) (any, bool)
		std  func(b []byte) (any, error)
	}{
		{"envelope", reflect.TypeFor[rpcEnvelope](),
			func(b []byte) (any, bool) { env, ok := scanEnvelope(b); return env, ok },
			func(b []byte) (any, error) { var env rpcEnvelope; err := json.Unmarshal(b, &env); return env, err }},
		{"send params", reflect.TypeFor[sendParamsMsg](),
			func(b []byte) (any, bool) { var p sendParamsMsg; ok := scanSendParams(b, &p); return p, ok },
			func(b []byte) (any, error) { var p sendParamsMsg; err := json.Unmarshal(b, &p); return p, err }},
		{"message", reflect.TypeFor[wireMessage](),
			func(b []byte) (any, bool) { var m wireMessage; ok := scanWireMessage(b, &m); return m, ok },
			func(b []byte) (any, error) { var m wireMessage; err := json.Unmarshal(b, &m); return m, err }},
		{"part", reflect.TypeFor[wirePart](),
			func(b []byte) (any, bool) { var p wirePart; ok := scanWirePart(b, &p); return p, ok },
			func(b []byte) (any, error) { var p wirePart; err := json.Unmarshal(b, &p); return p, err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := []byte(tEveryField(c.typ, c.name))
			want, err := c.std(b)
			if err != nil {
				t.Fatalf("json.Unmarshal: %v\n%s", err, b)
			}
			got, ok := c.scan(b)
			if !ok {
				t.Fatalf("the scanner declined an object of every field\n%s", b)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the scanner read\n%+v\njson.Unmarshal read\n%+v\nfrom %s", got, want, b)
			}
		})
	}
}
