package a2a

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestArtifactCheck: what Check accepts (and how it normalizes the parts)
// and what it refuses, by the field path it names.
func TestArtifactCheck(t *testing.T) {
	file := func(ap ArtifactPart) ArtifactSpec {
		ap.Kind = "file"
		return ArtifactSpec{Parts: []ArtifactPart{ap}}
	}
	cases := []struct {
		name  string
		spec  ArtifactSpec
		field string // "": accepted
	}{
		{"a text part", ArtifactSpec{Parts: []ArtifactPart{{}}}, ""},
		{"a data part", ArtifactSpec{Parts: []ArtifactPart{{Kind: "data", Data: []byte(` { "a" : 1 } `)}}}, ""},
		{"a file by URI", file(ArtifactPart{URI: "https://f.example/x.pdf", MimeType: "application/pdf", Name: "x.pdf"}), ""},
		{"a file by bytes", file(ArtifactPart{Bytes: "aGk="}), ""},
		{"three parts in three chunks", ArtifactSpec{Parts: make([]ArtifactPart, 3), Chunks: 3}, ""},
		{"no parts", ArtifactSpec{}, "a[0].parts"},
		{"more chunks than parts", ArtifactSpec{Parts: make([]ArtifactPart, 2), Chunks: 3}, "a[0].chunks"},
		{"negative chunks", ArtifactSpec{Parts: make([]ArtifactPart, 2), Chunks: -1}, "a[0].chunks"},
		{"an unknown kind", ArtifactSpec{Parts: []ArtifactPart{{}, {Kind: "image"}}}, "a[0].parts[1].kind"},
		{"a text part with data", ArtifactSpec{Parts: []ArtifactPart{{Data: []byte(`{}`)}}}, "a[0].parts[0].data"},
		{"a text part with a uri", ArtifactSpec{Parts: []ArtifactPart{{URI: "https://f.example/"}}}, "a[0].parts[0].uri"},
		{"a data part with text", ArtifactSpec{Parts: []ArtifactPart{{Kind: "data", Text: "t"}}}, "a[0].parts[0].text"},
		{"a data part with a name", ArtifactSpec{Parts: []ArtifactPart{{Kind: "data", Name: "n"}}}, "a[0].parts[0].name"},
		{"a data array", ArtifactSpec{Parts: []ArtifactPart{{Kind: "data", Data: []byte(`[1]`)}}}, "a[0].parts[0].data"},
		{"bad data JSON", ArtifactSpec{Parts: []ArtifactPart{{Kind: "data", Data: []byte(`{"a":}`)}}}, "a[0].parts[0].data"},
		{"a file of neither", file(ArtifactPart{}), "a[0].parts[0].uri"},
		{"a file of both", file(ArtifactPart{URI: "https://f.example/", Bytes: "aGk="}), "a[0].parts[0].bytes"},
		{"a relative URI", file(ArtifactPart{URI: "/x.pdf"}), "a[0].parts[0].uri"},
		{"bytes not base64", file(ArtifactPart{Bytes: "a-b_"}), "a[0].parts[0].bytes"},
		{"a file with text", file(ArtifactPart{URI: "https://f.example/", Text: "t"}), "a[0].parts[0].text"},
		{"a file with data", file(ArtifactPart{URI: "https://f.example/", Data: []byte(`{}`)}), "a[0].parts[0].data"},
	}
	for _, c := range cases {
		err := c.spec.Check("a[0]")
		var fe *FieldError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.field != "" && !errors.As(err, &fe):
			t.Errorf("%s: err = %v, want a *FieldError on %s", c.name, err, c.field)
		case c.field != "" && (fe.Field != c.field || fe.Msg == ""):
			t.Errorf("%s: refused %s (%q), want %s", c.name, fe.Field, fe.Msg, c.field)
		}
	}
}

// TestArtifactCheckNormalizes: an empty kind is text, data is compact,
// absent data is {}.
func TestArtifactCheckNormalizes(t *testing.T) {
	s := ArtifactSpec{Parts: []ArtifactPart{{}, {Kind: "data", Data: []byte(" { \"a\" : [1, 2] } ")}, {Kind: "data"}}}
	if err := s.Check("a"); err != nil {
		t.Fatal(err)
	}
	if s.Parts[0].Kind != "text" || string(s.Parts[1].Data) != `{"a":[1,2]}` || string(s.Parts[2].Data) != `{}` {
		t.Errorf("parts after Check: %+v", s.Parts)
	}
}

// TestArtifactPart: each kind of part in each dialect.
func TestArtifactPart(t *testing.T) {
	uri := ArtifactPart{Kind: "file", URI: "https://f.example/x.pdf", MimeType: "application/pdf", Name: "x.pdf"}
	raw := ArtifactPart{Kind: "file", Bytes: "aGk="}
	cases := []struct {
		ap   ArtifactPart
		d    Dialect
		want Part
	}{
		{ArtifactPart{Kind: "text"}, Dialect03, Part{Kind: "text", Text: "the output"}},
		{ArtifactPart{Kind: "text", Text: "mine", Metadata: map[string]any{"m": 1}}, Dialect10, Part{Kind: "text", Text: "mine", Metadata: map[string]any{"m": 1}}},
		{ArtifactPart{Kind: "data", Data: []byte(`{"s":1}`)}, Dialect01, Part{Kind: "data", Data: []byte(`{"s":1}`)}},
		{uri, Dialect10, Part{Kind: "file", File: []byte(`{"url":"https://f.example/x.pdf"}`), MediaType: "application/pdf", Filename: "x.pdf"}},
		{raw, Dialect10, Part{Kind: "file", File: []byte(`{"raw":"aGk="}`)}},
		{uri, Dialect03, Part{Kind: "file", File: []byte(`{"uri":"https://f.example/x.pdf","mimeType":"application/pdf","name":"x.pdf"}`)}},
		{raw, Dialect01, Part{Kind: "file", File: []byte(`{"bytes":"aGk="}`)}},
	}
	for _, c := range cases {
		got := c.ap.Part(c.d, "the output")
		if got.Kind != c.want.Kind || got.Text != c.want.Text || string(got.Data) != string(c.want.Data) || string(got.File) != string(c.want.File) ||
			got.MediaType != c.want.MediaType || got.Filename != c.want.Filename || len(got.Metadata) != len(c.want.Metadata) {
			t.Errorf("%+v in %s: %+v, want %+v", c.ap, c.d, got, c.want)
		}
	}
}

// TestChunkEnds: parts split into consecutive chunks, the first ones a
// part longer.
func TestChunkEnds(t *testing.T) {
	cases := []struct {
		parts, chunks int
		want          []int
	}{
		{1, 0, []int{1}},
		{3, 0, []int{3}},
		{3, 1, []int{3}},
		{3, 3, []int{1, 2, 3}},
		{5, 2, []int{3, 5}},
		{7, 3, []int{3, 5, 7}},
	}
	for _, c := range cases {
		s := ArtifactSpec{Parts: make([]ArtifactPart, c.parts), Chunks: c.chunks}
		if got := s.ChunkEnds(); !slices.Equal(got, c.want) {
			t.Errorf("%d parts in %d chunks: ends %v, want %v", c.parts, c.chunks, got, c.want)
		}
	}
	if e := (&FieldError{Field: "a.parts", Msg: "m"}).Error(); !strings.HasPrefix(e, "a.parts: ") {
		t.Errorf("FieldError text %q", e)
	}
}
