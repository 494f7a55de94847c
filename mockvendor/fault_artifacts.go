package mockvendor

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
)

// TaskArtifacts gives the real tasks a vendor completes the artifacts of
// its config in place of the one text artifact an honest vendor answers
// with: artifacts of text, file (by URI or inline bytes) and data parts,
// and artifacts a stream sends in chunks (issue 11, item 2). Probes are
// left alone, and a task that does not complete (task-outcome) has no
// artifacts, as before.
//
// Each dialect renders the parts its own way: 0.1 names a part by "type",
// 0.2/0.3 by "kind" (a file part is {"kind":"file","file":{"uri"|"bytes",
// "mimeType","name"}}, types.ts FilePart at v0.3.0), and 1.0 by its member
// (Part's oneof: "text", "raw", "url" or "data", with "mediaType" and
// "filename" beside it; a2a.proto message Part, spec §4.1.6). The
// HTTP+JSON binding carries the 1.0 shapes.
//
// A stream sends each artifact as TaskArtifactUpdateEvents (spec §4.2.2;
// 0.3 §7.2's example): an artifact of Chunks chunks is split into that many
// consecutive groups of its parts, the first event with append false, the
// later ones with append true, the last with lastChunk true, each carrying
// the artifact's id, name, description and metadata. A client that appends
// the parts of each chunk to the artifact of the same id gets the whole
// artifact, which GetTask, ListTasks (includeArtifacts) and a blocking
// send's answer hold. 0.1 has the index, append and lastChunk members
// inside the Artifact and no artifactId (0.1 a2a.json Artifact).
type TaskArtifacts struct {
	// Artifacts are the artifacts of a completed task, in order. Empty
	// means the default set: one artifact, "result", of three parts (the
	// task's usual text, a PDF by URI, the data {"status":"done"}) in three
	// chunks.
	Artifacts []ArtifactSpec `json:"artifacts,omitempty" doc:"the artifacts of a completed task (name, description, parts, chunks, metadata); empty means one artifact \"result\" of a text, a file and a data part in three chunks"`
}

// ArtifactSpec is one artifact of TaskArtifacts.
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

func init() {
	registerFault("artifacts", "completed tasks hold the configured artifacts (text, file and data parts), streamed in chunks", func() any { return &TaskArtifacts{} })
}

// defaultArtifacts is what TaskArtifacts with no artifacts gives.
var defaultArtifacts = []ArtifactSpec{{
	Name: "result",
	Parts: []ArtifactPart{
		{Kind: "text"},
		{Kind: "file", URI: "https://files.example/reports/result.pdf", MimeType: "application/pdf", Name: "result.pdf"},
		{Kind: "data", Data: json.RawMessage(`{"status":"done"}`)},
	},
	Chunks: 3,
}}

func (a *TaskArtifacts) validate() error {
	for i := range a.Artifacts {
		if err := a.Artifacts[i].check(fmt.Sprintf("artifacts[%d]", i)); err != nil {
			return err
		}
	}
	if len(a.Artifacts) == 0 {
		a.Artifacts = defaultArtifacts
	}
	return nil
}

// check validates the artifact at field path p, normalizing its parts
// (kind, data) so that rendering needs no checks.
func (s *ArtifactSpec) check(p string) error {
	if len(s.Parts) == 0 {
		return &ConfigError{Field: p + ".parts", Msg: "an artifact needs at least one part (A2A 1.0 §4.1.7)"}
	}
	if s.Chunks < 0 || s.Chunks > len(s.Parts) {
		return &ConfigError{Field: p + ".chunks", Msg: fmt.Sprintf("%d: a chunk carries at least one part, so chunks is 0 (one chunk) to %d (the number of parts)", s.Chunks, len(s.Parts))}
	}
	for j := range s.Parts {
		if err := s.Parts[j].check(fmt.Sprintf("%s.parts[%d]", p, j)); err != nil {
			return err
		}
	}
	return nil
}

func (ap *ArtifactPart) check(p string) error {
	if ap.Kind == "" {
		ap.Kind = "text"
	}
	fileOnly := func() error {
		for _, f := range [...]struct{ name, v string }{{"uri", ap.URI}, {"bytes", ap.Bytes}, {"mimeType", ap.MimeType}, {"name", ap.Name}} {
			if f.v != "" {
				return &ConfigError{Field: p + "." + f.name, Msg: "only a file part has " + f.name}
			}
		}
		return nil
	}
	switch ap.Kind {
	case "text":
		if len(ap.Data) > 0 {
			return &ConfigError{Field: p + ".data", Msg: "only a data part has data"}
		}
		return fileOnly()
	case "data":
		if ap.Text != "" {
			return &ConfigError{Field: p + ".text", Msg: "only a text part has text"}
		}
		if err := fileOnly(); err != nil {
			return err
		}
		if len(ap.Data) == 0 {
			ap.Data = json.RawMessage(`{}`)
		}
		if b := bytes.TrimSpace(ap.Data); len(b) == 0 || b[0] != '{' {
			return &ConfigError{Field: p + ".data", Msg: "must be a JSON object (0.x DataPart.data is an object)"}
		}
		var c bytes.Buffer
		if err := json.Compact(&c, ap.Data); err != nil {
			return &ConfigError{Field: p + ".data", Msg: err.Error()}
		}
		ap.Data = c.Bytes()
	case "file":
		if ap.Text != "" {
			return &ConfigError{Field: p + ".text", Msg: "only a text part has text"}
		}
		if len(ap.Data) > 0 {
			return &ConfigError{Field: p + ".data", Msg: "only a data part has data"}
		}
		switch {
		case ap.URI == "" && ap.Bytes == "":
			return &ConfigError{Field: p + ".uri", Msg: "a file part needs uri or bytes"}
		case ap.URI != "" && ap.Bytes != "":
			return &ConfigError{Field: p + ".bytes", Msg: "a file part has uri or bytes, not both (0.3 FileWithUri | FileWithBytes; 1.0 url | raw)"}
		case ap.URI != "":
			if u, err := url.Parse(ap.URI); err != nil || !u.IsAbs() || u.Host == "" {
				return &ConfigError{Field: p + ".uri", Msg: fmt.Sprintf("%q is not an absolute URL", ap.URI)}
			}
		default:
			if _, err := base64.StdEncoding.DecodeString(ap.Bytes); err != nil {
				return &ConfigError{Field: p + ".bytes", Msg: "is not base64 (standard alphabet, padded): " + err.Error()}
			}
		}
	default:
		return &ConfigError{Field: p + ".kind", Msg: fmt.Sprintf("%q is not text, file or data", ap.Kind)}
	}
	return nil
}

func (a *TaskArtifacts) onCall(c *Call) *CallError {
	if c.Probe || (c.Op != OpSend && c.Op != OpStream) {
		return nil
	}
	c.Artifacts = a.Artifacts
	c.Faults = append(c.Faults, "artifacts")
	return nil
}
