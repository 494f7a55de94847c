package reference

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

// The reference reads what a vendor sends tolerantly: a field it does not
// know is ignored (A2A 1.0 §5.7), a Role it does not know is kept as it
// is, a timestamp is never parsed, and results come from the fields 1.0.1
// defines only (results.go). The reading breaks below turn that off, each
// in one way a strict or guessing client does.

// knownFields are the fields A2A 1.0.1 defines (and 0.3's kind, final and
// file) for each object an answer holds.
var knownFields = map[string][]string{
	"response":        {"task", "message", "statusUpdate", "artifactUpdate"},
	"task":            {"id", "contextId", "status", "artifacts", "history", "metadata", "kind"},
	"status":          {"state", "message", "timestamp"},
	"message":         {"messageId", "contextId", "taskId", "role", "parts", "metadata", "extensions", "referenceTaskIds", "kind"},
	"artifact":        {"artifactId", "name", "description", "parts", "metadata", "extensions"},
	"part":            {"text", "raw", "url", "data", "metadata", "filename", "mediaType", "kind", "file"},
	"status-update":   {"taskId", "contextId", "status", "metadata", "kind", "final"},
	"artifact-update": {"taskId", "contextId", "artifact", "append", "lastChunk", "metadata", "kind"},
}

// millisTimestamp is the only timestamp form MillisTimestampsOnly reads.
var millisTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// strictRead is the error the reading breaks find in an answer (nil when
// none is on, or the answer passes them).
func (r *run) strictRead(raw json.RawMessage) error {
	br := r.br
	if !br.RejectUnknownFields && !br.RejectUnknownRole && !br.MillisTimestampsOnly || len(raw) == 0 {
		return nil
	}
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var err error
	walkObjects(v, func(kind string, m map[string]any) {
		if err != nil {
			return
		}
		if br.RejectUnknownFields {
			for k := range m {
				if !slices.Contains(knownFields[kind], k) {
					err = fmt.Errorf("%s has unknown field %q", kind, k)
					return
				}
			}
		}
		if role, ok := m["role"].(string); br.RejectUnknownRole && kind == "message" && ok && !slices.Contains([]string{"ROLE_USER", "ROLE_AGENT", "user", "agent"}, role) {
			err = fmt.Errorf("message has unknown role %q", role)
		}
		if ts, ok := m["timestamp"].(string); br.MillisTimestampsOnly && kind == "status" && ok && !millisTimestamp.MatchString(ts) {
			err = fmt.Errorf("status timestamp %q is not YYYY-MM-DDTHH:mm:ss.sssZ", ts)
		}
	})
	return err
}

// walkObjects calls fn on the A2A objects of an answer, by kind: a 1.0
// wrapper ("response"), a task, its status, messages, artifacts, parts,
// and the update events; 0.3 objects by their kind.
func walkObjects(v map[string]any, fn func(kind string, m map[string]any)) {
	var task, status, message, artifact, update func(kind string, m map[string]any)
	parts := func(m map[string]any) {
		for _, p := range objects(m["parts"]) {
			fn("part", p)
		}
	}
	message = func(_ string, m map[string]any) { fn("message", m); parts(m) }
	artifact = func(_ string, m map[string]any) { fn("artifact", m); parts(m) }
	status = func(_ string, m map[string]any) {
		fn("status", m)
		if msg, ok := m["message"].(map[string]any); ok {
			message("", msg)
		}
	}
	task = func(_ string, m map[string]any) {
		fn("task", m)
		if s, ok := m["status"].(map[string]any); ok {
			status("", s)
		}
		for _, h := range objects(m["history"]) {
			message("", h)
		}
		for _, a := range objects(m["artifacts"]) {
			artifact("", a)
		}
	}
	update = func(kind string, m map[string]any) {
		fn(kind, m)
		if s, ok := m["status"].(map[string]any); ok {
			status("", s)
		}
		if a, ok := m["artifact"].(map[string]any); ok {
			artifact("", a)
		}
	}
	wrapped := map[string]func(string, map[string]any){"task": task, "message": message, "statusUpdate": update, "artifactUpdate": update}
	kinds := map[string]string{"statusUpdate": "status-update", "artifactUpdate": "artifact-update"}
	for key, walk := range wrapped {
		if m, ok := v[key].(map[string]any); ok {
			fn("response", v)
			walk(kinds[key], m)
			return
		}
	}
	switch kind, _ := v["kind"].(string); kind {
	case "task":
		task("", v)
	case "message":
		message("", v)
	case "status-update", "artifact-update":
		update(kind, v)
	default:
		if v["id"] != nil && v["status"] != nil {
			task("", v)
		}
	}
}

// objects are the members of a JSON array that are objects.
func objects(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// futureArtifacts are the artifacts FutureArtifacts reads from a task's
// members it does not know: each list of objects with parts.
func futureArtifacts(raw json.RawMessage) []keptArtifact {
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	t, ok := v["task"].(map[string]any)
	if !ok {
		t = v
	}
	var out []keptArtifact
	for k, val := range t {
		if slices.Contains(knownFields["task"], k) {
			continue
		}
		for _, o := range objects(val) {
			if _, has := o["parts"]; !has {
				continue
			}
			b, err := json.Marshal(o)
			var a keptArtifact
			if err == nil && json.Unmarshal(b, &a) == nil {
				out = append(out, a)
			}
		}
	}
	return out
}
