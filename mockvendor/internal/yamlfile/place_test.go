package yamlfile

import (
	"testing"
)

// The places of a document's fields: keys of mappings, elements of lists,
// keys inside raw JSON, and a field an extra key sets.
func TestPosition(t *testing.T) {
	// A list element is placed at its first token: a mapping's first
	// colon, which is on the element's line.
	const text = `vendors:
  - id: a
    hosts:
      - name: a.example
  - id: b
    config:
      region: eu
      list: [1, 2]
    signing:
      kid: k1
      keyFile: a.pem
timeout: 3s
`
	d := withKeyFile(map[string]string{"a.pem": "PEM"})
	var cfg testConfig
	if err := d.Decode([]byte(text), &cfg); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path         string
		line, column int
		exact        bool // Position finds it; else only Nearest, at a parent
	}{
		{"vendors", 1, 1, true},
		{"vendors[0]", 2, 7, true},
		{"vendors[0].hosts[0].name", 4, 9, true},
		{"vendors[1].id", 5, 5, true},
		{"vendors[1].config", 6, 5, true},
		{"vendors[1].config.region", 7, 7, true},
		{"vendors[1].config.list[1]", 8, 17, true},
		{"vendors[1].signing.keyFile", 11, 7, true},
		{"vendors[1].signing.keyPEM", 11, 7, true},
		{"timeout", 12, 1, true},
		{"vendors[0].signing", 2, 7, false},
		{"vendors[1].config.list[1].deep", 8, 17, false},
		{"vendors[0].hosts[0].card", 4, 13, false},
	}
	for _, c := range cases {
		p, ok := d.Position(c.path)
		if ok != c.exact || (ok && (p.Line != c.line || p.Column != c.column)) {
			t.Errorf("Position(%q) = %+v, %v; want %d:%d, %v", c.path, p, ok, c.line, c.column, c.exact)
		}
		p, ok = d.Nearest(c.path)
		if !ok || p.Line != c.line || p.Column != c.column {
			t.Errorf("Nearest(%q) = %+v, %v; want %d:%d", c.path, p, ok, c.line, c.column)
		}
	}
	for _, path := range []string{"", "limits", "limits.readTimeout"} {
		if p, ok := d.Nearest(path); ok {
			t.Errorf("Nearest(%q) = %+v, want none: the file does not set it", path, p)
		}
	}
}

func TestParentPath(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a[1].b", "a[1]"},
		{"a[1]", "a"},
		{"a", ""},
		{"a.b.c", "a.b"},
		{"a[1][2]", "a[1]"},
		{"", ""},
	}
	for _, c := range cases {
		if got := parentPath(c.in); got != c.want {
			t.Errorf("parentPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	cases := []struct {
		e    Error
		want string
	}{
		{Error{Line: 3, Column: 5, Field: "a.b", Msg: "want a list"}, "3:5: a.b: want a list"},
		{Error{Line: 2, Column: 1, Msg: "unknown alias *x"}, "2:1: unknown alias *x"},
		{Error{Field: "a", Msg: "m"}, "a: m"},
		{Error{Msg: "m"}, "m"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
