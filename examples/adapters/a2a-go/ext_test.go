package main

import (
	"context"
	"testing"

	"github.com/a2aproject/a2a-go/a2aclient"
)

// TestActivation: the caller's extensions become one X-A2A-Extensions
// value in the call's metadata; none, or only blanks, add no interceptor.
func TestActivation(t *testing.T) {
	cases := []struct {
		name string
		exts []string
		want string // "" means no interceptor
	}{
		{"none", nil, ""},
		{"blanks only", []string{"", "  "}, ""},
		{"one", []string{"urn:a"}, "urn:a"},
		{"two, blanks dropped", []string{"urn:a", " ", "urn:b"}, "urn:a,urn:b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ic := activation(c.exts)
			if c.want == "" {
				if ic != nil {
					t.Fatalf("activation(%q) = %v, want none", c.exts, ic)
				}
				return
			}
			if ic == nil {
				t.Fatalf("activation(%q) = nil, want an interceptor", c.exts)
			}
			req := &a2aclient.Request{}
			if _, err := ic.Before(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			if got := req.Meta[extensionHeader]; len(got) != 1 || got[0] != c.want {
				t.Fatalf("Meta[%s] = %q, want [%q]", extensionHeader, got, c.want)
			}
		})
	}
}
