package mockvendor

import (
	"encoding/json"
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// The artifacts of a completed task as each dialect renders them: the
// honest one text artifact, or those the artifacts fault configured
// (Call.Artifacts, kept in the task's Artifacts), whole or in the chunks of a
// stream (fault_artifacts.go says how each dialect spells them).

// artifactPart is a configured artifact part (the artifacts fault) in
// dialect-neutral form, as a2a.EncodePart renders it in dialect d; output
// stands in for an empty text.
func artifactPart(ap *ArtifactPart, d Dialect, output string) Part {
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

// chunkBounds splits n parts into chunks consecutive groups (the first
// n%chunks one part longer) and returns each group's end.
func chunkBounds(n, chunks int) []int {
	chunks = max(chunks, 1)
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

// configuredArtifact encodes artifact i of task t (spec s) in dialect d
// with the parts from..to.
func configuredArtifact(t *task, s *ArtifactSpec, i int, d Dialect, from, to int) map[string]any {
	parts := make([]any, 0, to-from)
	for j := from; j < to; j++ {
		parts = append(parts, a2a.EncodePart(artifactPart(&s.Parts[j], d, t.Output), d))
	}
	a := map[string]any{"parts": parts}
	if d == Dialect01 {
		a["index"] = i
	} else {
		a["artifactId"] = fmt.Sprintf("a-%s-%d", t.ID, i)
	}
	if s.Name != "" {
		a["name"] = s.Name
	}
	if s.Description != "" {
		a["description"] = s.Description
	}
	if len(s.Metadata) > 0 {
		a["metadata"] = s.Metadata
	}
	return a
}

// taskArtifacts are the artifacts of completed task t in dialect d: the
// configured ones, whole, or the honest one.
func taskArtifacts(t *task, d Dialect) []any {
	if t.Artifacts == nil {
		return []any{artifact(t, d)}
	}
	out := make([]any, 0, len(t.Artifacts))
	for i := range t.Artifacts {
		s := &t.Artifacts[i]
		out = append(out, configuredArtifact(t, s, i, d, 0, len(s.Parts)))
	}
	return out
}

// artifactEvents are the stream results that carry the artifacts of
// completed task t in dialect d: one TaskArtifactUpdateEvent per chunk
// of each configured artifact, or the honest artifact's one event.
func artifactEvents(t *task, d Dialect) []any {
	if t.Artifacts == nil {
		switch d {
		case Dialect01:
			return []any{map[string]any{"id": t.ID, "artifact": artifact(t, d)}}
		case Dialect03:
			return []any{map[string]any{"kind": "artifact-update", "taskId": t.ID, "contextId": t.ContextID, "artifact": artifact(t, d), "lastChunk": true}}
		}
		return []any{map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "artifact": artifact(t, d), "lastChunk": true}}}
	}
	var evs []any
	for i := range t.Artifacts {
		s := &t.Artifacts[i]
		ends := chunkBounds(len(s.Parts), s.Chunks)
		from := 0
		for k, to := range ends {
			a := configuredArtifact(t, s, i, d, from, to)
			from = to
			appendChunk, last := k > 0, k == len(ends)-1
			switch d {
			case Dialect01:
				a["append"], a["lastChunk"] = appendChunk, last
				evs = append(evs, map[string]any{"id": t.ID, "artifact": a})
			case Dialect03:
				evs = append(evs, map[string]any{"kind": "artifact-update", "taskId": t.ID, "contextId": t.ContextID, "artifact": a, "append": appendChunk, "lastChunk": last})
			default:
				evs = append(evs, map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "artifact": a, "append": appendChunk, "lastChunk": last}})
			}
		}
	}
	return evs
}
