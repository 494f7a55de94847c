package cardsig

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// jcsVector is one entry of testdata/jcsvectors/vectors.json (see its
// README: the ids and inputs of the A2A TCK's a2a-jcs-v01 corpus, expected
// bytes from an independent ECMAScript oracle).
type jcsVector struct {
	ID          string `json:"id"`
	Disposition string `json:"disposition"`
	Input       string `json:"input"`
	Canonical   string `json:"canonical"`
}

// TestJCSVectors holds Canonicalize to every vector: an accept vector's
// input gives exactly its canonical bytes (and never a top-level
// signatures member), a reject vector's input is refused.
func TestJCSVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/jcsvectors/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors []jcsVector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) != 55 {
		t.Fatalf("%d vectors, want 55 (the corpus's 57 less its two A2 structural rejects)", len(vectors))
	}
	for _, v := range vectors {
		t.Run(v.ID, func(t *testing.T) {
			got, err := Canonicalize([]byte(v.Input))
			switch v.Disposition {
			case "reject":
				if err == nil {
					t.Fatalf("accepted %q as %s, want a refusal", v.Input, got)
				}
			case "accept":
				if err != nil {
					t.Fatalf("refused %q: %v", v.Input, err)
				}
				if !bytes.Equal(got, []byte(v.Canonical)) {
					t.Fatalf("got  %s\nwant %s", got, v.Canonical)
				}
				var top map[string]json.RawMessage
				if json.Unmarshal(got, &top) != nil || top[signaturesMember] != nil {
					t.Fatalf("canonical form %s still holds %q", got, signaturesMember)
				}
			default:
				t.Fatalf("disposition %q", v.Disposition)
			}
		})
	}
}

// TestCheckText covers the surrogate scanner's edges: escaped backslashes
// before a u, pairs, and surrogates outside strings' escapes.
func TestCheckText(t *testing.T) {
	tests := []struct {
		in   string
		fail bool
	}{
		{in: `{"a":"\ud83d\ude00"}`},
		{in: `{"a":"\\ud800"}`},
		{in: `{"a":"\\\ud800"}`, fail: true},
		{in: `{"\ud800":1}`, fail: true},
		{in: `{"a":"\ud800\u0041"}`, fail: true},
		{in: `{"a":"\ud800"}`, fail: true},
		{in: `{"a":"\uDC00"}`, fail: true},
		{in: `{"a":"x\"\ud800"}`, fail: true},
		{in: "{\"a\":\"\xff\"}", fail: true},
		{in: `{"a":"\u00e9\n"}`},
	}
	for _, tc := range tests {
		err := checkText([]byte(tc.in))
		if (err != nil) != tc.fail {
			t.Errorf("checkText(%s) = %v, want failure %v", tc.in, err, tc.fail)
		}
	}
}
