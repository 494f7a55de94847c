package ops

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// The artifacts of a completed task as each dialect renders them: the
// honest one text artifact, or those the artifacts fault configured
// (Call.Artifacts, kept in the task's Artifacts), whole or in the chunks of a
// stream (TaskArtifacts in internal/fault says how each dialect spells them;
// ArtifactPart.Part and a2a.ArtifactSpec.ChunkEnds in internal/a2a do the parts).

// configuredArtifact encodes artifact i of task t (spec s) in dialect d
// with the parts from..to.
func configuredArtifact(t *tasks.Task, s *a2a.ArtifactSpec, i int, d a2a.Dialect, from, to int) map[string]any {
	parts := make([]any, 0, to-from)
	for j := from; j < to; j++ {
		parts = append(parts, a2a.EncodePart(s.Parts[j].Part(d, t.Output), d))
	}
	a := map[string]any{"parts": parts}
	if d == a2a.Dialect01 {
		a["index"] = i
	} else {
		a["artifactId"] = artifactID(t, i)
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
func taskArtifacts(t *tasks.Task, d a2a.Dialect) []any {
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
func artifactEvents(t *tasks.Task, d a2a.Dialect) []any {
	if t.Artifacts == nil {
		switch d {
		case a2a.Dialect01:
			return []any{map[string]any{"id": t.ID, "artifact": artifact(t, d)}}
		case a2a.Dialect03:
			return []any{map[string]any{"kind": "artifact-update", "taskId": t.ID, "contextId": t.ContextID, "artifact": artifact(t, d), "lastChunk": true}}
		}
		return []any{map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "artifact": artifact(t, d), "lastChunk": true}}}
	}
	var evs []any
	for i := range t.Artifacts {
		s := &t.Artifacts[i]
		ends := s.ChunkEnds()
		from := 0
		for k, to := range ends {
			a := configuredArtifact(t, s, i, d, from, to)
			from = to
			appendChunk, last := k > 0 || s.AppendFirst, k == len(ends)-1
			switch d {
			case a2a.Dialect01:
				a["append"], a["lastChunk"] = appendChunk, last
				evs = append(evs, map[string]any{"id": t.ID, "artifact": a})
			case a2a.Dialect03:
				evs = append(evs, map[string]any{"kind": "artifact-update", "taskId": t.ID, "contextId": t.ContextID, "artifact": a, "append": appendChunk, "lastChunk": last})
			default:
				evs = append(evs, map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "artifact": a, "append": appendChunk, "lastChunk": last}})
			}
		}
	}
	return evs
}
