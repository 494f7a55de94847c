package a2a

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A2A 1.0's JSON is the ProtoJSON form of a2a.proto (A2A 1.0.1 §5.5:
// JSON names are lowerCamelCase), and a ProtoJSON parser takes a field
// under its JSON name or its proto name: "history_length" as well as
// "historyLength" (protobuf.dev, ProtoJSON format, "JSON options": parsers
// accept both). Clients built on protobuf send the proto names: the
// official TCK's JSON-RPC client sends task_id, context_id, page_size,
// history_length and include_artifacts (a2a-tck 357c4a8,
// tck/transport/jsonrpc_client.py). So the 1.0 decoders read params
// after ProtoNamesToJSON; 0.3 and 0.1 have plain JSON schemas with
// camelCase names and get no such help.

// ProtoNamesToJSON returns the params raw with every member name spelled
// the proto way (with an underscore) renamed to its JSON name, in the params
// object and in every object and array below it, except inside the
// values of metadata and data members (google.protobuf.Struct and Value,
// whose keys are the client's own). Where both spellings of a member are
// there, the JSON name's value is kept. raw itself is returned when
// nothing is renamed or it is not JSON.
func ProtoNamesToJSON(raw json.RawMessage) json.RawMessage {
	if out, changed := renameProtoNames(raw); changed {
		return out
	}
	return raw
}

// renameProtoNames renames within raw and reports whether it changed
// anything.
func renameProtoNames(raw json.RawMessage) (json.RawMessage, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' && t[0] != '[' || bytes.IndexByte(t, '_') < 0 {
		return raw, false
	}
	if t[0] == '[' {
		var vs []json.RawMessage
		if json.Unmarshal(t, &vs) != nil {
			return raw, false
		}
		changed := false
		for i, v := range vs {
			if nv, ok := renameProtoNames(v); ok {
				vs[i], changed = nv, true
			}
		}
		return marshalRenamed(vs, raw, changed)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return raw, false
	}
	out := make(map[string]json.RawMessage, len(m))
	changed := false
	for k, v := range m {
		name := JSONName(k)
		if name != k {
			changed = true
			if _, both := m[name]; both {
				continue
			}
		}
		if name != "metadata" && name != "data" {
			if nv, ok := renameProtoNames(v); ok {
				v, changed = nv, true
			}
		}
		out[name] = v
	}
	return marshalRenamed(out, raw, changed)
}

func marshalRenamed(v any, raw json.RawMessage, changed bool) (json.RawMessage, bool) {
	if !changed {
		return raw, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw, false
	}
	return b, true
}

// JSONName is the JSON name protoc gives a field of proto name: each
// underscore dropped and the letter after it capitalized ("task_id" ->
// "taskId"). A name without an underscore is returned as it is.
func JSONName(proto string) string {
	if !strings.Contains(proto, "_") {
		return proto
	}
	var b strings.Builder
	up := false
	for i := 0; i < len(proto); i++ {
		c := proto[i]
		switch {
		case c == '_':
			up = true
		case up && 'a' <= c && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}
