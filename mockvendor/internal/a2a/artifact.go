package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
)

// ArtifactSpec is an artifact a task holds once completed, in a form of its
// own that names what every dialect can say (the artifacts fault's config;
// the fleet keeps a task's in tasks.Task.Artifacts). Check validates one;
// ArtifactPart.Part and ChunkEnds give what a dialect's encoder needs.
type ArtifactSpec struct {
	// Name is the artifact's name; empty leaves it out.
	Name string `json:"name,omitempty"`
	// Description is its description; empty leaves it out.
	Description string `json:"description,omitempty"`
	// Parts are its parts, at least one.
	Parts []ArtifactPart `json:"parts"`
	// Chunks is how many TaskArtifactUpdateEvents a stream sends it in,
	// from 1 to the number of parts; 0 means 1.
	Chunks int `json:"chunks,omitempty"`
	// Metadata is the artifact's metadata; empty leaves it out.
	Metadata map[string]any `json:"metadata,omitempty"`
	// AppendFirst makes a stream send every chunk of the artifact with
	// append true, the first too: an append to an artifactId the client
	// has not seen, which the working status update's message announces
	// by id beforehand. False: the first chunk has append false.
	AppendFirst bool `json:"appendFirst,omitempty"`
}

// ArtifactPart is one part of an artifact, in a form of its own that names
// what every dialect can say.
type ArtifactPart struct {
	// Kind is "text", "file" or "data"; empty means text.
	Kind string `json:"kind,omitempty"`
	// Text is a text part's text; empty means the task's usual answer
	// ("<organization> ran <skill> on <message>").
	Text string `json:"text,omitempty"`
	// URI is a file part's location (an absolute URL); Bytes its content,
	// base64 (standard alphabet, padded). A file part has exactly one.
	URI   string `json:"uri,omitempty"`
	Bytes string `json:"bytes,omitempty"`
	// MimeType and Name are a file part's media type and file name (1.0:
	// mediaType and filename); empty leaves them out. Only file parts
	// have them, as in 0.x.
	MimeType string `json:"mimeType,omitempty"`
	Name     string `json:"name,omitempty"`
	// Data is a data part's value, a JSON object (0.x DataPart.data is an
	// object; 1.0 takes any value); absent means {}.
	Data json.RawMessage `json:"data,omitempty"`
	// Metadata is the part's metadata; empty leaves it out.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// FieldError is a member of an ArtifactSpec that Check refuses: Field is
// its path ("artifacts[0].parts[1].uri"), Msg says why.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Check validates the artifact, which sits at field path p of a
// configuration, normalizing its parts (an empty kind becomes text, a data
// part's data compact JSON, {} when absent) so that Part needs no checks.
// What it refuses is a *FieldError below p.
func (s *ArtifactSpec) Check(p string) error {
	if len(s.Parts) == 0 {
		return &FieldError{Field: p + ".parts", Msg: "an artifact needs at least one part (A2A 1.0 §4.1.7)"}
	}
	if s.Chunks < 0 || s.Chunks > len(s.Parts) {
		return &FieldError{Field: p + ".chunks", Msg: fmt.Sprintf("%d: a chunk carries at least one part, so chunks is 0 (one chunk) to %d (the number of parts)", s.Chunks, len(s.Parts))}
	}
	for j := range s.Parts {
		if err := s.Parts[j].check(fmt.Sprintf("%s.parts[%d]", p, j)); err != nil {
			return err
		}
	}
	return nil
}

// check validates and normalizes the part at field path p.
func (ap *ArtifactPart) check(p string) error {
	if ap.Kind == "" {
		ap.Kind = "text"
	}
	switch ap.Kind {
	case "text":
		if len(ap.Data) > 0 {
			return &FieldError{Field: p + ".data", Msg: "only a data part has data"}
		}
		return ap.fileOnly(p)
	case "data":
		return ap.checkData(p)
	case "file":
		return ap.checkFile(p)
	}
	return &FieldError{Field: p + ".kind", Msg: fmt.Sprintf("%q is not text, file or data", ap.Kind)}
}

// fileOnly refuses the members only a file part has.
func (ap *ArtifactPart) fileOnly(p string) error {
	for _, f := range [...]struct{ name, v string }{{"uri", ap.URI}, {"bytes", ap.Bytes}, {"mimeType", ap.MimeType}, {"name", ap.Name}} {
		if f.v != "" {
			return &FieldError{Field: p + "." + f.name, Msg: "only a file part has " + f.name}
		}
	}
	return nil
}

// checkData validates a data part, compacting its data ({} when absent).
func (ap *ArtifactPart) checkData(p string) error {
	if ap.Text != "" {
		return &FieldError{Field: p + ".text", Msg: "only a text part has text"}
	}
	if err := ap.fileOnly(p); err != nil {
		return err
	}
	if len(ap.Data) == 0 {
		ap.Data = json.RawMessage(`{}`)
	}
	if b := bytes.TrimSpace(ap.Data); len(b) == 0 || b[0] != '{' {
		return &FieldError{Field: p + ".data", Msg: "must be a JSON object (0.x DataPart.data is an object)"}
	}
	var c bytes.Buffer
	if err := json.Compact(&c, ap.Data); err != nil {
		return &FieldError{Field: p + ".data", Msg: err.Error()}
	}
	ap.Data = c.Bytes()
	return nil
}

// checkFile validates a file part: exactly one of an absolute URI and
// base64 bytes.
func (ap *ArtifactPart) checkFile(p string) error {
	if ap.Text != "" {
		return &FieldError{Field: p + ".text", Msg: "only a text part has text"}
	}
	if len(ap.Data) > 0 {
		return &FieldError{Field: p + ".data", Msg: "only a data part has data"}
	}
	switch {
	case ap.URI == "" && ap.Bytes == "":
		return &FieldError{Field: p + ".uri", Msg: "a file part needs uri or bytes"}
	case ap.URI != "" && ap.Bytes != "":
		return &FieldError{Field: p + ".bytes", Msg: "a file part has uri or bytes, not both (0.3 FileWithUri | FileWithBytes; 1.0 url | raw)"}
	case ap.URI != "":
		if u, err := url.Parse(ap.URI); err != nil || !u.IsAbs() || u.Host == "" {
			return &FieldError{Field: p + ".uri", Msg: fmt.Sprintf("%q is not an absolute URL", ap.URI)}
		}
	default:
		if _, err := base64.StdEncoding.DecodeString(ap.Bytes); err != nil {
			return &FieldError{Field: p + ".bytes", Msg: "is not base64 (standard alphabet, padded): " + err.Error()}
		}
	}
	return nil
}

// Part is the part (checked by ArtifactSpec.Check) in dialect-neutral
// form, as EncodePart renders it in dialect d; output stands in for an
// empty text. A file part is 1.0's oneof member ("url" or "raw") with its
// mediaType and filename beside it, and 0.x's file object {"uri"|"bytes",
// "mimeType", "name"} otherwise.
func (ap *ArtifactPart) Part(d Dialect, output string) Part {
	p := Part{Kind: ap.Kind, Metadata: ap.Metadata}
	switch ap.Kind {
	case "text":
		p.Text = ap.Text
		if p.Text == "" {
			p.Text = output
		}
	case "data":
		p.Data = ap.Data
	case "file":
		if d == Dialect10 {
			// Part's oneof member, the file's name and type beside it.
			m := map[string]string{"url": ap.URI}
			if ap.Bytes != "" {
				m = map[string]string{"raw": ap.Bytes}
			}
			p.File, _ = json.Marshal(m)
			p.MediaType, p.Filename = ap.MimeType, ap.Name
		} else {
			p.File, _ = json.Marshal(struct {
				URI      string `json:"uri,omitempty"`
				Bytes    string `json:"bytes,omitempty"`
				MimeType string `json:"mimeType,omitempty"`
				Name     string `json:"name,omitempty"`
			}{ap.URI, ap.Bytes, ap.MimeType, ap.Name})
		}
	}
	return p
}

// ChunkEnds splits the artifact's parts into its Chunks consecutive groups
// (0: one; the first len(Parts)%Chunks groups one part longer) and returns
// the end of each group: the parts of chunk k are Parts[ends[k-1]:ends[k]].
func (s *ArtifactSpec) ChunkEnds() []int {
	n, chunks := len(s.Parts), max(s.Chunks, 1)
	ends := make([]int, 0, chunks)
	end := 0
	for i := range chunks {
		end += n / chunks
		if i < n%chunks {
			end++
		}
		ends = append(ends, end)
	}
	return ends
}
