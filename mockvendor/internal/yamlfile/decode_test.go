package yamlfile

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A small configuration shaped like the fleet's: lists of structs, a
// pointer, a raw JSON field, a duration, a field the file never sees.
type testHost struct {
	Name string `json:"name"`
	Card bool   `json:"card,omitempty"`
}

type testSigning struct {
	Kid    string `json:"kid"`
	KeyPEM string `json:"keyPEM,omitempty"`
}

type testVendor struct {
	ID      string          `json:"id"`
	Hosts   []testHost      `json:"hosts"`
	Signing *testSigning    `json:"signing,omitempty"`
	Config  json.RawMessage `json:"config,omitempty"`
	Weight  float64         `json:"weight,omitempty"`
	Tags    map[string]any  `json:"tags,omitempty"`
}

type testConfig struct {
	Vendors []testVendor  `json:"vendors"`
	Timeout time.Duration `json:"timeout,omitempty"`
	Secret  string        `json:"-"`
	Plain   bool
	hidden  int
}

// withKeyFile is a Decoder whose signing sections take keyFile: a "file"
// looked up in files, which sets keyPEM.
func withKeyFile(files map[string]string) *Decoder {
	return &Decoder{What: "a test file", Extra: map[reflect.Type]map[string]ExtraFunc{
		reflect.TypeFor[testSigning](): {"keyFile": func(v any, k *Key) error {
			name, ok := k.Text()
			if !ok {
				return k.ValueErrorf("want a file path")
			}
			data, ok := files[name]
			if !ok {
				return k.ValueErrorf("no file %q", name)
			}
			sc := v.(*testSigning)
			if sc.KeyPEM != "" {
				return k.Errorf("give keyPEM or keyFile, not both")
			}
			sc.KeyPEM = data
			k.Sets("keyPEM")
			return nil
		}},
	}}
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name, text string
		want       testConfig
	}{
		{"empty", "", testConfig{}},
		{"comments only", "# nothing\n", testConfig{}},
		{"nested lists and a pointer", "vendors:\n  - id: a\n    hosts:\n      - name: a.example\n        card: true\n    signing: {kid: k1}\n",
			testConfig{Vendors: []testVendor{{ID: "a", Hosts: []testHost{{Name: "a.example", Card: true}}, Signing: &testSigning{Kid: "k1"}}}}},
		{"a number as a string", "vendors: [{id: 1.0}]\n", testConfig{Vendors: []testVendor{{ID: "1.0"}}}},
		{"duration as text", "timeout: 1m30s\n", testConfig{Timeout: 90 * time.Second}},
		{"duration as nanoseconds", "timeout: 2500\n", testConfig{Timeout: 2500}},
		{"raw JSON keeps key order", "vendors:\n  - id: a\n    config: {z: 1, a: [x, 2.5, true, null], m: {k: v}}\n",
			testConfig{Vendors: []testVendor{{ID: "a", Config: json.RawMessage(`{"z":1,"a":["x",2.5,true,null],"m":{"k":"v"}}`)}}}},
		{"numbers and maps through encoding/json", "vendors: [{id: a, weight: 0.5, tags: {n: 1}}]\n",
			testConfig{Vendors: []testVendor{{ID: "a", Weight: 0.5, Tags: map[string]any{"n": 1.0}}}}},
		{"a field without a json tag by its Go name", "Plain: true\n", testConfig{Plain: true}},
		{"JSON is YAML", `{"vendors": [{"id": "a", "hosts": [{"name": "a.example"}]}]}`,
			testConfig{Vendors: []testVendor{{ID: "a", Hosts: []testHost{{Name: "a.example"}}}}}},
		{"anchors and aliases", "vendors:\n  - &v {id: a}\n  - *v\n", testConfig{Vendors: []testVendor{{ID: "a"}, {ID: "a"}}}},
		{"null is the zero value", "vendors: ~\ntimeout: null\n", testConfig{}},
		{"extra key", "vendors:\n  - id: a\n    signing:\n      kid: k1\n      keyFile: a.pem\n",
			testConfig{Vendors: []testVendor{{ID: "a", Signing: &testSigning{Kid: "k1", KeyPEM: "PEM"}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got testConfig
			if err := withKeyFile(map[string]string{"a.pem": "PEM"}).Decode([]byte(c.text), &got); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	const vendor = "vendors:\n  - id: a\n    hosts:\n      - name: a.example\n"
	cases := []struct {
		name, text   string
		line, column int
		field, msg   string
		syntax       bool
	}{
		{"unknown field", "vendor: []\n", 1, 1, "vendor", `unknown field "vendor"`, false},
		{"unknown nested field", vendor + "        crad: true\n", 5, 9, "vendors[0].hosts[0].crad", `unknown field "crad"`, false},
		{"a field json:\"-\" hides", "Secret: x\n", 1, 1, "Secret", `unknown field "Secret"`, false},
		{"an unexported field", "hidden: 1\n", 1, 1, "hidden", `unknown field "hidden"`, false},
		{"wrong type: bool", vendor + "        card: sometimes\n", 5, 15, "vendors[0].hosts[0].card", `want boolean, not "sometimes"`, false},
		{"wrong type: number", "vendors: [{id: a, weight: heavy}]\n", 1, 27, "vendors[0].weight", `want number, not "heavy"`, false},
		{"wrong type: string", "vendors: [{id: [a]}]\n", 1, 16, "vendors[0].id", "want a string", false},
		{"wrong type: list", "vendors: {id: a}\n", 1, 10, "vendors", "want a list", false},
		{"wrong type: mapping", "vendors: [a]\n", 1, 11, "vendors[0]", "want a mapping", false},
		{"bad duration", "timeout: soon\n", 1, 10, "timeout", `want a duration ("10s") or a number of nanoseconds, not "soon"`, false},
		{"duration not a scalar", "timeout: [1]\n", 1, 10, "timeout", `want a duration ("10s") or a number of nanoseconds`, false},
		{"duplicate key in a flow mapping", "vendors: [{id: a, id: b}]\n", 1, 19, "", `mapping key "id" already defined at [1:12]`, true},
		{"merge key", "vendors:\n  - <<: {id: a}\n", 2, 5, "vendors[0]", "merge keys (<<) are not supported", false},
		{"merge key in raw JSON", vendor + "    config: {<<: {a: 1}}\n", 5, 14, "vendors[0].config", "merge keys (<<) are not supported", false},
		{"unknown alias", "vendors:\n  - *nope\n", 2, 5, "", "unknown alias *nope", false},
		{"unsupported value in raw JSON", vendor + "    config: {n: .inf}\n", 5, 17, "vendors[0].config.n", "unsupported YAML value Infinity", false},
		{"two documents", "vendors: []\n---\nvendors: []\n", 3, 8, "", "a test file holds one document", false},
		{"syntax error", "vendors:\n  - id: a\n    hosts: [\n", 3, 12, "", "sequence end token ']' not found", true},
		{"extra key on a type without it", vendor + "    keyFile: a.pem\n", 5, 5, "vendors[0].keyFile", `unknown field "keyFile"`, false},
		{"extra key: error at the value", vendor + "    signing:\n      keyFile: b.pem\n", 6, 16, "vendors[0].signing.keyFile", `no file "b.pem"`, false},
		{"extra key: error at the key", vendor + "    signing:\n      keyFile: a.pem\n      keyPEM: x\n", 6, 7, "vendors[0].signing.keyFile", "give keyPEM or keyFile, not both", false},
		{"extra key: value not a scalar", vendor + "    signing:\n      keyFile: [a.pem]\n", 6, 16, "vendors[0].signing.keyFile", "want a file path", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got testConfig
			err := withKeyFile(map[string]string{"a.pem": "PEM"}).Decode([]byte(c.text), &got)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want an *Error", err, err)
			}
			if e.Line != c.line || e.Column != c.column || e.Field != c.field || e.Msg != c.msg {
				t.Errorf("got %d:%d field %q msg %q\nwant %d:%d field %q msg %q", e.Line, e.Column, e.Field, e.Msg, c.line, c.column, c.field, c.msg)
			}
			if (e.Err != nil) != c.syntax {
				t.Errorf("Err = %v, want a parser error: %v", e.Err, c.syntax)
			}
		})
	}
}

func TestDecodeNeedsPointer(t *testing.T) {
	var cfg testConfig
	for _, v := range []any{cfg, (*testConfig)(nil), nil} {
		if err := new(Decoder).Decode([]byte("vendors: []\n"), v); err == nil || errors.As(err, new(*Error)) {
			t.Errorf("Decode(%T) = %v, want a plain error", v, err)
		}
	}
}

func TestDecoderWhatDefault(t *testing.T) {
	var cfg testConfig
	err := new(Decoder).Decode([]byte("a: 1\n---\nb: 2\n"), &cfg)
	if err == nil || !strings.HasSuffix(err.Error(), "a document holds one document") {
		t.Errorf("err = %v", err)
	}
}

// TestJSONTypeName: each kind of Go type by its JSON name.
func TestJSONTypeName(t *testing.T) {
	var n *int
	cases := []struct {
		v    any
		want string
	}{
		{"", "string"},
		{true, "boolean"},
		{0, "number"},
		{int64(0), "number"},
		{int32(0), "number"},
		{0.5, "number"},
		{n, "number"},
		{[]string{}, "array of string"},
		{[][]bool{}, "array of array of boolean"},
		{map[string]any{}, "object"},
		{testHost{}, "object"},
		{json.RawMessage{}, "array of uint8"},
		{time.Duration(0), "number"},
		{uint(0), "uint"},
	}
	for _, c := range cases {
		if got := JSONTypeName(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("JSONTypeName(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}
