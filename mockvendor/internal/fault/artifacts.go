package fault

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TaskArtifacts gives the real tasks a vendor completes the artifacts of
// its config in place of the one text artifact an honest vendor answers
// with: artifacts of text, file (by URI or inline bytes) and data parts,
// and artifacts a stream sends in chunks. Probes are left alone, and a
// task that does not complete (task-outcome) has no artifacts, as before.
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
// send's answer hold. An artifact with AppendFirst sends its first chunk
// with append true too, an id the client has not seen: the proto's comment
// on append describes an append to "a previously sent artifact with the
// same ID", and A2A 1.0.1 says nothing of one that was not sent (its
// append/lastChunk semantics are an open question, a2aproject/A2A#1231),
// so such a vendor stretches a description and breaks no MUST. It names
// the id first in the message of its working status update, as an agent
// that announces its work does, not as an artifact. 0.1 has the index, append and lastChunk members
// inside the Artifact and no artifactId (0.1 a2a.json Artifact).
type TaskArtifacts struct {
	// Artifacts are the artifacts of a completed task, in order. Empty
	// means the default set: one artifact, "result", of three parts (the
	// task's usual text, a PDF by URI, the data {"status":"done"}) in three
	// chunks.
	Artifacts []a2a.ArtifactSpec `json:"artifacts,omitempty" doc:"the artifacts of a completed task (name, description, parts, chunks, appendFirst, metadata); empty means one artifact \"result\" of a text, a file and a data part in three chunks"`
	// AskAfter makes the task pause at input-required once its artifacts
	// are out, in place of completing: the input-required status carries
	// a message whose text is AskAfter (the agent's question, A2A 1.0
	// §3.7 "Status Messages"; §6.3 shows one), after the artifacts on a
	// stream, beside them in a task. Empty means the task completes.
	AskAfter string `json:"askAfter,omitempty" doc:"the question the task pauses at input-required with once its artifacts are out; empty means it completes"`
}

func init() {
	Register("artifacts", "completed tasks hold the configured artifacts (text, file and data parts), streamed in chunks", func() any { return &TaskArtifacts{} })
}

// defaultArtifacts is what TaskArtifacts with no artifacts gives.
var defaultArtifacts = []a2a.ArtifactSpec{{
	Name: "result",
	Parts: []a2a.ArtifactPart{
		{Kind: "text"},
		{Kind: "file", URI: "https://files.example/reports/result.pdf", MimeType: "application/pdf", Name: "result.pdf"},
		{Kind: "data", Data: json.RawMessage(`{"status":"done"}`)},
	},
	Chunks: 3,
}}

func (a *TaskArtifacts) validate() error {
	for i := range a.Artifacts {
		if err := a.Artifacts[i].Check(fmt.Sprintf("artifacts[%d]", i)); err != nil {
			// a2a.FieldError names the member at fault: New places it
			// under config.
			if fe := (*a2a.FieldError)(nil); errors.As(err, &fe) {
				return &ConfigError{Field: fe.Field, Msg: fe.Msg}
			}
			return err
		}
	}
	if len(a.Artifacts) == 0 {
		a.Artifacts = defaultArtifacts
	}
	return nil
}

// OnCall gives the task a real send or stream creates the configured
// artifacts (CallHook).
func (a *TaskArtifacts) OnCall(c *Call) *CallError {
	if c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream) {
		return nil
	}
	c.Artifacts = a.Artifacts
	if a.AskAfter != "" {
		c.Question, c.EndState = a.AskAfter, "input-required"
	}
	c.Faults = append(c.Faults, "artifacts")
	return nil
}
