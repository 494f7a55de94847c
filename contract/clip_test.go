package contract

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipText(t *testing.T) {
	cases := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "ok", 256, "ok"},
		{"exact", "abcd", 4, "abcd"},
		{"ascii", "abcdef", 4, "abcd… [clipped: 2 more bytes]"},
		// "é" is two bytes: a cut inside it keeps the whole rune out.
		{"inside a rune", "aé" + "x", 2, "a… [clipped: 3 more bytes]"},
		{"inside a 3-byte rune", "日本", 4, "日… [clipped: 3 more bytes]"},
		{"thousands", strings.Repeat("d", 1000<<10), 1000, strings.Repeat("d", 1000) + "… [clipped: 1,023,000 more bytes]"},
		{"zero", "abc", 0, "… [clipped: 3 more bytes]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ClipText(c.in, c.max)
			if got != c.want {
				t.Errorf("ClipText(%.20q, %d) = %.60q (%d bytes), want %.60q (%d bytes)", c.in, c.max, got, len(got), c.want, len(c.want))
			}
			if !utf8.ValidString(got) {
				t.Errorf("ClipText(%.20q, %d) = %q: not valid UTF-8", c.in, c.max, got)
			}
			if len(got) > c.max+MaxClipMarker {
				t.Errorf("ClipText: %d bytes, bound %d + %d", len(got), c.max, MaxClipMarker)
			}
		})
	}
	if m := "… [clipped: " + thousands(math.MaxInt) + " more bytes]"; len(m) > MaxClipMarker {
		t.Errorf("the longest marker %q is %d bytes, MaxClipMarker %d", m, len(m), MaxClipMarker)
	}
}

// TestClipMessages: every text field of a hello and an outcome is cut to
// its bound, and an honest message is left as it was.
func TestClipMessages(t *testing.T) {
	long := strings.Repeat("é<", 300<<10) // 900 KiB
	h := Hello{Contract: Version, Type: TypeHello, Name: long, Version: long}
	h.Clip()
	o := DelegationOutcome{Contract: Version, ID: long, Outcome: long, Agent: long, Skill: long, TaskID: long,
		TaskState: long, CardTrust: long, TrustMode: long, Reason: long, Detail: long, ContextID: long, StatusText: long}
	o.Clip()
	for _, v := range []any{h, o} {
		rv := reflect.ValueOf(v)
		for i := range rv.NumField() {
			f := rv.Field(i)
			if f.Kind() != reflect.String || f.Len() == 0 {
				continue
			}
			name := rv.Type().Field(i).Name
			bound := MaxFieldBytes
			switch name {
			case "Detail":
				bound = MaxDetailBytes
			case "StatusText":
				bound = MaxArtifactTextBytes
			}
			if s := f.String(); name != "Type" && (len(s) > bound+MaxClipMarker || !strings.Contains(s, "more bytes]") || !utf8.ValidString(s)) {
				t.Errorf("%T.%s: %d bytes (bound %d + marker), %.40q...", v, name, len(s), bound, s)
			}
		}
	}
	honest := DelegationOutcome{Contract: Version, ID: "CARD-001-1-abc", Outcome: OutcomeCompleted, Agent: "https://rpc.agent-b.example/a2a/v1",
		Skill: "invoice-reconciliation", Reason: ReasonOK, Detail: "message/send to B"}
	honest.Artifacts = []Artifact{{ArtifactID: "a-1", Name: "result", Parts: []PartDigest{{Kind: PartKindText, SHA256: strings.Repeat("0", 64)}}, Text: "done"}}
	honest.Error = &RemoteError{Code: -32004, Reason: "UNSUPPORTED_OPERATION"}
	before := honest
	before.Artifacts = slices.Clone(honest.Artifacts)
	before.Error = &RemoteError{Code: -32004, Reason: "UNSUPPORTED_OPERATION"}
	honest.Clip()
	if !reflect.DeepEqual(honest, before) {
		t.Errorf("an honest outcome changed: %+v", honest)
	}
}

// TestClipResults: an outcome's artifacts, their parts and texts are cut
// to their bounds.
func TestClipResults(t *testing.T) {
	long := strings.Repeat("é", 100<<10)
	part := PartDigest{Kind: PartKindText, SHA256: strings.Repeat("a", 64)}
	a := Artifact{ArtifactID: long, Name: long, Text: long, Parts: slices.Repeat([]PartDigest{part}, MaxArtifactParts+5)}
	o := DelegationOutcome{Artifacts: slices.Repeat([]Artifact{a}, MaxArtifacts+3), Error: &RemoteError{Code: 1, Reason: long, Message: long}}
	o.Clip()
	if len(o.Artifacts) != MaxArtifacts {
		t.Fatalf("%d artifacts kept, want %d", len(o.Artifacts), MaxArtifacts)
	}
	got := o.Artifacts[0]
	for name, c := range map[string]struct {
		n, bound int
	}{
		"artifactId": {len(got.ArtifactID), MaxFieldBytes}, "name": {len(got.Name), MaxFieldBytes},
		"text": {len(got.Text), MaxArtifactTextBytes}, "parts": {len(got.Parts), MaxArtifactParts},
		"error.reason": {len(o.Error.Reason), MaxFieldBytes}, "error.message": {len(o.Error.Message), MaxFieldBytes},
	} {
		if c.n > c.bound+MaxClipMarker {
			t.Errorf("%s: %d, bound %d", name, c.n, c.bound)
		}
	}
}
