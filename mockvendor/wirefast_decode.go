package mockvendor

// The decoder half of the JSON fast path (the encoder is in
// wirefast_encode.go): the JSON-RPC envelope and the send parameters read
// with a small scanner instead of encoding/json's reflection. Each function
// declines (reports !ok) whenever it cannot be sure to read its input as
// json.Unmarshal would, and the caller then uses json.Unmarshal;
// FuzzScanEnvelope and FuzzDecodeSendFast hold it to that. The member names
// the scanner knows are read from the struct tags (jsonFieldNames), and
// TestFastDecoderFieldsMatchTags checks the scanner fills every field.
// Config.PlainJSON switches the fast path off.

import (
	"encoding/json"
	"reflect"
	"strings"
)

// The member names of the structs the scanner fills, from their json tags.
var (
	sendParamsFields  = jsonFieldNames(reflect.TypeFor[sendParamsMsg]())
	configFields      = jsonFieldNames(reflect.TypeFor[sendConfig]())
	wireMessageFields = jsonFieldNames(reflect.TypeFor[wireMessage]())
	wirePartFields    = jsonFieldNames(reflect.TypeFor[wirePart]())
)

// jsonFieldNames lists the JSON member names of struct type t's exported
// fields (the json tag's name, else the field's name; "-" skipped).
func jsonFieldNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	if len(names) > 32 {
		panic("mockvendor: members() tracks at most 32 fields")
	}
	return names
}

// scanEnvelope reads the members of a JSON-RPC envelope from b, which must
// already be known to be valid JSON, exactly as json.Unmarshal into
// rpcEnvelope would (the last of repeated members wins). It declines (ok
// false) whatever it cannot be sure to read the same way: a body that is
// not an object, a member name with escapes or non-ASCII bytes, or one that
// matches a field only case-insensitively. The caller then uses
// json.Unmarshal.
func scanEnvelope(b []byte) (env rpcEnvelope, ok bool) {
	if len(b) == 0 || b[0] != '{' {
		return env, false
	}
	i := skipWS(b, 1)
	if i < len(b) && b[i] == '}' {
		return env, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return rpcEnvelope{}, false
		}
		start := i + 1
		j := start
		for j < len(b) && b[j] != '"' {
			if c := b[j]; c == '\\' || c >= 0x80 {
				return rpcEnvelope{}, false
			}
			j++
		}
		key := string(b[start:j])
		i = skipWS(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return rpcEnvelope{}, false
		}
		i = skipWS(b, i+1)
		vstart := i
		i = skipValue(b, i)
		if i < 0 {
			return rpcEnvelope{}, false
		}
		val := json.RawMessage(b[vstart:i:i])
		switch key {
		case "jsonrpc":
			env.JSONRPC = val
		case "method":
			env.Method = val
		case "id":
			env.ID = val
		case "params":
			env.Params = val
		default:
			for _, f := range [...]string{"jsonrpc", "method", "id", "params"} {
				if strings.EqualFold(key, f) {
					return rpcEnvelope{}, false
				}
			}
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return rpcEnvelope{}, false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return env, skipWS(b, i+1) == len(b)
		default:
			return rpcEnvelope{}, false
		}
	}
	return rpcEnvelope{}, false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at b[i]
// (b valid JSON), or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// plainString decodes a JSON string of printable ASCII without escapes
// (what json.Unmarshal would give); ok is false for anything else.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(raw[1 : len(raw)-1]), true
}

// sendParamsMsg is sendParams with the message decoded in the same pass.
type sendParamsMsg struct {
	ID            string         `json:"id"`
	SessionID     string         `json:"sessionId"`
	Message       *wireMessage   `json:"message"`
	Configuration sendConfig     `json:"configuration"`
	Metadata      map[string]any `json:"metadata"`
}

// decodeSendFast decodes send params and their message in one pass, for
// params that decode without error and name "message" exactly once (as a
// plain member name), filling sp (all but sp.Message) as json.Unmarshal
// would. It returns ok false whenever the two-step decoding could answer
// differently (errors, a repeated or absent message); the caller then
// decodes the usual way, which gives the same result or error.
func decodeSendFast(params json.RawMessage, d Dialect, sp *sendParams) (*Message, bool) {
	if n, ok := countMember(params, "message"); !ok || n != 1 {
		return nil, false
	}
	var p sendParamsMsg
	if !scanSendParams(params, &p) {
		p = sendParamsMsg{}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, false
		}
	}
	if p.Message == nil {
		return nil, false
	}
	msg, err := buildMessage(p.Message, d)
	if err != nil {
		return nil, false
	}
	sp.ID, sp.SessionID, sp.Metadata = p.ID, p.SessionID, p.Metadata
	sp.Configuration = p.Configuration
	return msg, true
}

// countMember counts the members of the JSON object b (valid JSON) whose
// name equals name ignoring case; ok is false when b is not an object or a
// member name has escapes or non-ASCII bytes.
func countMember(b []byte, name string) (n int, ok bool) {
	if len(b) == 0 || b[0] != '{' {
		return 0, false
	}
	i := skipWS(b, 1)
	if i < len(b) && b[i] == '}' {
		return 0, true
	}
	for i < len(b) && b[i] == '"' {
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if c := b[j]; c == '\\' || c >= 0x80 {
				return 0, false
			}
			j++
		}
		if strings.EqualFold(string(b[i+1:j]), name) {
			n++
		}
		i = skipWS(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		if i = skipValue(b, skipWS(b, i+1)); i < 0 {
			return 0, false
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return n, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// members calls fn for each member of the JSON object b (valid JSON) in
// order, with the member's raw value. It returns false when b is not an
// object, a member name has escapes or non-ASCII bytes, one of known is
// named twice or only case-insensitively, or fn returns false: the cases
// where json.Unmarshal into a struct with the known fields could read b
// differently from a plain exact-name match.
func members(b []byte, known []string, fn func(key string, val []byte) bool) bool {
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var seen uint32
	i := skipWS(b, 1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if c := b[j]; c == '\\' || c >= 0x80 {
				return false
			}
			j++
		}
		key := b[i+1 : j]
		for k, f := range known {
			if string(key) == f {
				if seen&(1<<k) != 0 {
					return false
				}
				seen |= 1 << k
			} else if strings.EqualFold(string(key), f) {
				return false
			}
		}
		i = skipWS(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		vs := skipWS(b, i+1)
		if i = skipValue(b, vs); i < 0 {
			return false
		}
		if !fn(string(key), b[vs:i:i]) {
			return false
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// scanSendParams reads send params as json.Unmarshal into sendParamsMsg
// would, for the plain shapes clients send (plain strings, objects where
// objects belong); it returns false for anything else.
func scanSendParams(b []byte, p *sendParamsMsg) bool {
	return members(b, sendParamsFields, func(key string, val []byte) bool {
		switch key {
		case "id":
			return setPlain(&p.ID, val)
		case "sessionId":
			return setPlain(&p.SessionID, val)
		case "message":
			p.Message = &wireMessage{}
			return scanWireMessage(val, p.Message)
		case "configuration":
			return members(val, configFields, func(key string, val []byte) bool {
				switch key {
				case "blocking":
					v, ok := plainBool(val)
					p.Configuration.Blocking = &v
					return ok
				case "returnImmediately":
					v, ok := plainBool(val)
					p.Configuration.ReturnImmediately = v
					return ok
				}
				return true
			})
		case "metadata":
			return setObject(&p.Metadata, val)
		}
		return true
	})
}

func scanWireMessage(b []byte, m *wireMessage) bool {
	return members(b, wireMessageFields, func(key string, val []byte) bool {
		switch key {
		case "kind":
			return setPlain(&m.Kind, val)
		case "role":
			return setPlain(&m.Role, val)
		case "messageId":
			return setPlain(&m.MessageID, val)
		case "contextId":
			return setPlain(&m.ContextID, val)
		case "taskId":
			return setPlain(&m.TaskID, val)
		case "metadata":
			return setObject(&m.Metadata, val)
		case "parts":
			if val[0] != '[' {
				return false
			}
			m.Parts = []wirePart{}
			i := skipWS(val, 1)
			if val[i] == ']' {
				return true
			}
			for i < len(val) {
				end := skipValue(val, i)
				if end < 0 {
					return false
				}
				var wp wirePart
				if !scanWirePart(val[i:end], &wp) {
					return false
				}
				m.Parts = append(m.Parts, wp)
				i = skipWS(val, end)
				if i >= len(val) {
					return false
				}
				switch val[i] {
				case ',':
					i = skipWS(val, i+1)
				case ']':
					return true
				default:
					return false
				}
			}
			return false
		}
		return true
	})
}

func scanWirePart(b []byte, p *wirePart) bool {
	return members(b, wirePartFields, func(key string, val []byte) bool {
		switch key {
		case "type":
			return setPlain(&p.Type, val)
		case "kind":
			return setPlain(&p.Kind, val)
		case "text":
			var s string
			p.Text = &s
			return setPlain(&s, val)
		case "data":
			p.Data = json.RawMessage(val)
		case "file":
			p.File = json.RawMessage(val)
		case "raw":
			p.Raw = json.RawMessage(val)
		case "url":
			p.URL = json.RawMessage(val)
		case "mediaType":
			return setPlain(&p.MediaType, val)
		case "filename":
			return setPlain(&p.Filename, val)
		case "metadata":
			return setObject(&p.Metadata, val)
		}
		return true
	})
}

// setPlain sets *dst to the plain string val (see plainString).
func setPlain(dst *string, val []byte) bool {
	s, ok := plainString(val)
	*dst = s
	return ok
}

// setObject decodes the JSON object val into a fresh map.
func setObject(dst *map[string]any, val []byte) bool {
	if val[0] != '{' {
		return false
	}
	var m map[string]any
	if json.Unmarshal(val, &m) != nil {
		return false
	}
	*dst = m
	return true
}

func plainBool(val []byte) (bool, bool) {
	switch string(val) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}
