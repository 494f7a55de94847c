package a2a

import "testing"

func TestMajorMinor(t *testing.T) {
	cases := map[string]string{
		"":        "0.3",
		"  ":      "0.3",
		"1.0":     "1.0",
		"1.0.1":   "1.0",
		" 0.3.0":  "0.3",
		"2":       "2",
		"1.2.3.4": "1.2",
	}
	for in, want := range cases {
		if got := MajorMinor(in); got != want {
			t.Errorf("MajorMinor(%q) = %q, want %q", in, got, want)
		}
	}
}
