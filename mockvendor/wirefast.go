package mockvendor

// Fast paths for the hot JSON-RPC send: reading the envelope and the send
// parameters with a small scanner and writing answers without reflection.
// Each one hands back to encoding/json (or reports !ok) whenever it cannot
// be sure to give the same result; the differential fuzz targets in
// encode_fuzz_test.go hold them to that.

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

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

// headerGet is h.Get(key) for a key already in canonical form.
func headerGet(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
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

// readAllSized is io.ReadAll with a first buffer of the announced size (so
// a body kept in the trace holds no slack); size <= 0 means unknown.
func readAllSized(rd io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > 1<<20 {
		return io.ReadAll(rd)
	}
	b := make([]byte, 0, size+1) // +1: the read that finds EOF needs room
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// sendParamsMsg is sendParams with the message decoded in the same pass.
type sendParamsMsg struct {
	ID            string       `json:"id"`
	SessionID     string       `json:"sessionId"`
	Message       *wireMessage `json:"message"`
	Configuration struct {
		Blocking          *bool `json:"blocking"`
		ReturnImmediately bool  `json:"returnImmediately"`
	} `json:"configuration"`
	Metadata map[string]any `json:"metadata"`
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
	sp.Configuration.Blocking, sp.Configuration.ReturnImmediately = p.Configuration.Blocking, p.Configuration.ReturnImmediately
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
