package cardsig

import (
	"testing"
)

func TestCanonicalGolden(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		jcs       string
		dropEmpty string
		wantErr   bool
	}{
		{
			name: "sorted keys, numbers, escapes, signatures removed",
			in: `{"version":"1.0.0", "name":"Agent \u00e9 \"q\"", "numbers":[1.0, 1e3, 0.1, -0, 123456789012345678901],
				"signatures":[{"protected":"x","signature":"y"}],
				"capabilities":{"streaming":true,"pushNotifications":false},
				"b":"", "c":[], "d":{}, "e":null, "ctl":"\u000f"}`,
			jcs:       `{"b":"","c":[],"capabilities":{"pushNotifications":false,"streaming":true},"ctl":"\u000f","d":{},"e":null,"name":"Agent é \"q\"","numbers":[1,1000,0.1,0,123456789012345680000],"version":"1.0.0"}`,
			dropEmpty: `{"capabilities":{"pushNotifications":false,"streaming":true},"ctl":"\u000f","name":"Agent é \"q\"","numbers":[1,1000,0.1,0,123456789012345680000],"version":"1.0.0"}`,
		},
		{
			name:      "empty values cascade away, zero and false stay",
			in:        `{"a":{"b":[{}, "", null, []]},"z":0,"f":false,"s":[{"x":""},"k"]}`,
			jcs:       `{"a":{"b":[{},"",null,[]]},"f":false,"s":[{"x":""},"k"],"z":0}`,
			dropEmpty: `{"f":false,"s":["k"],"z":0}`,
		},
		{
			name:      "everything empty",
			in:        `{"signatures":[],"a":""}`,
			jcs:       `{"a":""}`,
			dropEmpty: `{}`,
		},
		{name: "duplicate member", in: `{"a":1,"a":2}`, wantErr: true},
		{name: "nested duplicate member", in: `{"a":{"b":1,"b":1}}`, wantErr: true},
		{name: "not an object", in: `[1,2]`, wantErr: true},
		{name: "trailing data", in: `{"a":1} {"b":2}`, wantErr: true},
		{name: "not json", in: `{"a":`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tc.in))
			gotDrop, errDrop := CanonicalizeDropEmpty([]byte(tc.in))
			if tc.wantErr {
				if err == nil || errDrop == nil {
					t.Fatalf("want errors, got %v / %v", err, errDrop)
				}
				return
			}
			if err != nil || errDrop != nil {
				t.Fatalf("unexpected errors: %v / %v", err, errDrop)
			}
			if string(got) != tc.jcs {
				t.Errorf("Canonicalize:\n got %s\nwant %s", got, tc.jcs)
			}
			if string(gotDrop) != tc.dropEmpty {
				t.Errorf("CanonicalizeDropEmpty:\n got %s\nwant %s", gotDrop, tc.dropEmpty)
			}
		})
	}
}
