package yamlfile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestMarshal(t *testing.T) {
	cases := []struct {
		name string
		in   testConfig
		want string
	}{
		{"empty", testConfig{}, "vendors: null\nPlain: false\n"},
		{"members in json order, secret left out, raw JSON in its order",
			testConfig{Secret: "s", Timeout: 3 * time.Second, Vendors: []testVendor{{ID: "a", Hosts: []testHost{{Name: "a.example", Card: true}}, Config: json.RawMessage(`{"z":1,"a":[2.5,"x"]}`)}}},
			`vendors:
  - id: a
    hosts:
      - name: a.example
        card: true
    config:
      z: 1
      a:
        - 2.5
        - x
timeout: 3000000000
Plain: false
`},
		{"multi-line text as a literal block",
			testConfig{Vendors: []testVendor{{ID: "a", Signing: &testSigning{Kid: "k", KeyPEM: "line one\nline two\n"}}}},
			"vendors:\n  - id: a\n    hosts: null\n    signing:\n      kid: k\n      keyPEM: |\n        line one\n        line two\nPlain: false\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := Marshal(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", b, c.want)
			}
		})
	}
}

// What Marshal writes, a Decoder reads back to an equal value, raw JSON
// byte for byte when its numbers are as encoding/json writes them (3.5e-7
// comes back 3.5e-07).
func TestMarshalRoundTrip(t *testing.T) {
	in := testConfig{
		Timeout: 1500 * time.Millisecond,
		Plain:   true,
		Vendors: []testVendor{
			{ID: "1.0", Hosts: []testHost{{Name: "a.example"}, {Name: "b.example", Card: true}}, Weight: 0.25,
				Config: json.RawMessage(`{"z":{"y":[1,-2,0.125,"x: y",true,null]},"a":""}`),
				Tags:   map[string]any{"k": "v", "n": 2.0}},
			{ID: "b", Signing: &testSigning{Kid: "k", KeyPEM: "-----BEGIN-----\nAAA\n-----END-----\n"}},
		},
	}
	b, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var got testConfig
	if err := new(Decoder).Decode(b, &got); err != nil {
		t.Fatalf("Decode of what Marshal wrote: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip changed the value\nfile:\n%s\ngot  %+v\nwant %+v", b, got, in)
	}
	if !strings.Contains(string(b), "keyPEM: |") {
		t.Errorf("the PEM is not a literal block:\n%s", b)
	}
}

func TestMarshalError(t *testing.T) {
	if _, err := Marshal(map[string]any{"f": func() {}}); err == nil {
		t.Error("Marshal of a func: no error")
	}
}
