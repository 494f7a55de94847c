package mockvendor

// The encoder half of the JSON fast path (the decoder is in
// wirefast_decode.go): the answers of the JSON-RPC endpoint written without
// reflection, byte for byte what json.Marshal writes for the same values.
// Each function hands back to encoding/json (or reports failure) whenever
// it cannot be sure to give the same bytes; FuzzMarshalAnswer and
// FuzzAppendTask10 hold it to that. Config.PlainJSON switches the fast path
// off (encodeAnswer then uses json.Marshal alone).

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// encodeAnswer encodes a JSON-RPC answer: with marshalAnswer on the fast
// path, with json.Marshal when fast is false. Both return nil on error.
func encodeAnswer(v any, fast, port bool) []byte {
	if port {
		b, err := jsonv2.Marshal(v, v1opts)
		if err != nil {
			return nil
		}
		return b
	}
	if fast {
		return marshalAnswer(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// encodeSendAnswer10 encodes the common answer, a 1.0 send's task, as the
// whole response object without building maps:
// {"id":...,"jsonrpc":"2.0","result":{"task":...}}, byte for byte what
// marshalAnswer writes for it. ok is false when it cannot.
func encodeSendAnswer10(id json.RawMessage, t *task, state string, now time.Time) ([]byte, bool) {
	b, err := appendJSON(append(make([]byte, 0, 1024), `{"id":`...), idOrNull(id))
	if err == nil {
		b, err = appendTask10(append(b, `,"jsonrpc":"2.0","result":{"task":`...), t, state, now)
	}
	if err != nil {
		return nil, false
	}
	return append(b, "}}"...), true
}

// appendTask10 appends the task in state as encodeTask(t, Dialect10, now)
// encodes it with json.Marshal, without building the task's maps.
func appendTask10(b []byte, t *task, state string, now time.Time) ([]byte, error) {
	const d = Dialect10
	var err error
	b = append(b, '{')
	if state == "completed" {
		// artifact(t, Dialect10): {"artifactId","name","parts":[{"text"}]}
		b = append(b, `"artifacts":[{"artifactId":`...)
		if b, err = appendJSONString(b, "a-"+t.id); err != nil {
			return nil, err
		}
		b = append(b, `,"name":"result","parts":[{"text":`...)
		if b, err = appendJSONString(b, t.output); err != nil {
			return nil, err
		}
		b = append(b, "}]}],"...)
	}
	b = append(b, `"contextId":`...)
	if b, err = appendJSONString(b, t.contextID); err != nil {
		return nil, err
	}
	b = append(b, `,"history":[`...)
	if b, err = appendMessage10(b, t.input, t.id, t.contextID); err != nil {
		return nil, err
	}
	b = append(b, `],"id":`...)
	if b, err = appendJSONString(b, t.id); err != nil {
		return nil, err
	}
	b = append(b, `,"status":{"state":`...)
	if b, err = appendJSONString(b, stateName(state, d)); err != nil {
		return nil, err
	}
	b = append(b, `,"timestamp":`...)
	if b, err = appendJSONString(b, now.UTC().Format(time.RFC3339Nano)); err != nil {
		return nil, err
	}
	return append(b, "}}"...), nil
}

// appendMessage10 appends m with the task's ids as encodeMessage encodes
// it in the 1.0 dialect with json.Marshal (members sorted: contextId,
// messageId, metadata, parts, role, taskId).
func appendMessage10(b []byte, m *Message, taskID, contextID string) ([]byte, error) {
	var err error
	b = append(b, '{')
	if contextID != "" {
		b = append(b, `"contextId":`...)
		if b, err = appendJSONString(b, contextID); err != nil {
			return nil, err
		}
		b = append(b, ',')
	}
	b = append(b, `"messageId":`...)
	if b, err = appendJSONString(b, m.MessageID); err != nil {
		return nil, err
	}
	if len(m.Metadata) > 0 {
		b = append(b, `,"metadata":`...)
		if b, err = appendJSON(b, m.Metadata); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"parts":[`...)
	for i, p := range m.Parts {
		if i > 0 {
			b = append(b, ',')
		}
		if p.Kind == "text" && p.MediaType == "" && p.Filename == "" && len(p.Metadata) == 0 {
			b = append(b, `{"text":`...)
			if b, err = appendJSONString(b, p.Text); err != nil {
				return nil, err
			}
			b = append(b, '}')
			continue
		}
		if b, err = appendJSON(b, encodePart(p, Dialect10)); err != nil {
			return nil, err
		}
	}
	b = append(b, `],"role":`...)
	if b, err = appendJSONString(b, "ROLE_"+strings.ToUpper(m.Role)); err != nil {
		return nil, err
	}
	if taskID != "" {
		b = append(b, `,"taskId":`...)
		if b, err = appendJSONString(b, taskID); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// marshalAnswer encodes a JSON-RPC answer built of the values the endpoint
// uses (map[string]any, []any, string, bool, int, nil) byte for byte as
// json.Marshal would, without reflection on the common shapes: keys sorted,
// the same escaping (anything but plain printable ASCII is left to
// encoding/json). Other values go through json.Marshal. Like json.Marshal
// it returns nil on error.
func marshalAnswer(v any) []byte {
	b, err := appendJSON(make([]byte, 0, 1024), v)
	if err != nil {
		return nil
	}
	return b
}

func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, x)
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		var small [16]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONString(b, k); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = appendJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, enc...), nil
}

// appendJSONString writes s quoted; strings with anything encoding/json
// would escape are handed to it.
func appendJSONString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			enc, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			return append(b, enc...), nil
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}
