package mockvendor

// The JSON-RPC endpoint's JSON path on github.com/go-json-experiment/json
// (the basis of encoding/json/v2), with encoding/json's own semantics (the
// v1 options), so that every request reads and every answer encodes as
// encoding/json would, byte for byte. It replaced a hand-written scanner
// and encoder (wirefast.go) that bought the same CPU: the envelope is read
// with a jsontext decoder, the send params decoded into structs, a 1.0
// send's answer written token by token and a 0.3 send's from typed
// structs instead of maps. Whatever this path declines (a duplicate member,
// a name only a case-insensitive match finds, invalid UTF-8) goes to
// encoding/json, as everything does with Config.PlainJSON. The
// differential fuzz targets in encode_fuzz_test.go and
// TestPlainJSONSameAnswers hold the two paths to the same results.

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

var (
	// v1Options are encoding/json's semantics on the v2 engine.
	v1Options = jsonv1.DefaultOptionsV1()
	// v1Decode is v1Options refusing an object that sets a field twice
	// (encoding/json keeps the last, merging into a pointer it already
	// filled; the caller then uses encoding/json).
	v1Decode = jsonv2.JoinOptions(v1Options, jsontext.AllowDuplicateNames(false))
	// v1Encode is v1Options refusing invalid UTF-8, which encoding/json
	// writes as \ufffd escapes and the v2 engine as the raw replacement
	// character (the caller then uses encoding/json).
	v1Encode = jsonv2.JoinOptions(v1Options, jsontext.AllowInvalidUTF8(false))
	// v2Encode writes strings as encoding/json does (HTML and JavaScript
	// line terminators escaped); it refuses invalid UTF-8, which
	// encoding/json replaces, and sorts no map keys: used for shapes
	// without maps only.
	v2Encode = jsonv2.JoinOptions(jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true))
)

// encodeAnswer encodes a JSON-RPC answer (maps, slices, strings, numbers)
// as json.Marshal does: on the v2 engine when fast (invalid UTF-8 aside),
// with encoding/json otherwise. It returns nil on error.
func encodeAnswer(v any, fast bool) []byte {
	if fast {
		if b, err := jsonv2.Marshal(v, v1Encode); err == nil {
			return b
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// envelopeDecoders are reusable jsontext decoders for readEnvelopeFast.
var envelopeDecoders = sync.Pool{New: func() any {
	e := &envelopeDecoder{}
	e.d = jsontext.NewDecoder(&e.rd)
	return e
}}

type envelopeDecoder struct {
	rd bytes.Reader
	d  *jsontext.Decoder
}

// envelopeFields are the members of a JSON-RPC envelope.
var envelopeFields = [...]string{"jsonrpc", "method", "id", "params"}

// readEnvelopeFast reads the members of the envelope b (valid JSON) as
// json.Unmarshal into rpcEnvelope would, the values as slices of b. It
// declines (ok false) what encoding/json could read differently: a body
// that is not an object, a repeated member, a non-ASCII name or one that
// matches a member only case-insensitively.
func readEnvelopeFast(b []byte) (env rpcEnvelope, ok bool) {
	e := envelopeDecoders.Get().(*envelopeDecoder)
	defer func() { e.rd.Reset(nil); envelopeDecoders.Put(e) }()
	e.rd.Reset(b)
	d := e.d
	d.Reset(&e.rd)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return env, false
	}
	for d.PeekKind() == '"' {
		name, err := d.ReadToken() // a repeated name is an error
		if err != nil {
			return rpcEnvelope{}, false
		}
		k := name.String()
		val, err := d.ReadValue()
		if err != nil {
			return rpcEnvelope{}, false
		}
		end := int(d.InputOffset())
		raw := json.RawMessage(b[end-len(val) : end : end])
		switch k {
		case "jsonrpc":
			env.JSONRPC = raw
		case "method":
			env.Method = raw
		case "id":
			env.ID = raw
		case "params":
			env.Params = raw
		default:
			if !plainASCII(k) {
				return rpcEnvelope{}, false
			}
			for _, f := range envelopeFields {
				if strings.EqualFold(k, f) {
					return rpcEnvelope{}, false
				}
			}
		}
	}
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '}' {
		return rpcEnvelope{}, false
	}
	return env, true
}

func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// readMethodFast reads the method, a JSON string; ok is false for
// anything else and for strings json.Unmarshal would change (invalid
// UTF-8).
func readMethodFast(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// decodeFast decodes b into v with the fast path's options.
func decodeFast(b []byte, v any) error { return jsonv2.Unmarshal(b, v, v1Decode) }

// sendParamsMsg is sendParams with the message decoded in the same pass.
type sendParamsMsg struct {
	ID            string         `json:"id"`
	SessionID     string         `json:"sessionId"`
	Message       *wireMessage   `json:"message"`
	Configuration sendConfig     `json:"configuration"`
	Metadata      map[string]any `json:"metadata"`
}

// decodeSendFast decodes send params and their message in one pass,
// filling sp (all but sp.Message) as json.Unmarshal would. It returns ok
// false whenever the two-step decoding (json.Unmarshal into sendParams,
// then decodeMessage) could answer differently: an error, an absent
// message, a member set twice; the caller then decodes the two-step way,
// which gives the same result or the error.
func decodeSendFast(params json.RawMessage, d Dialect, sp *sendParams) (*Message, bool) {
	p, ok := decodeSendTokens(params)
	if !ok {
		p = sendParamsMsg{}
		if err := decodeFast(params, &p); err != nil {
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
	sp.ID, sp.SessionID, sp.Metadata, sp.Configuration = p.ID, p.SessionID, p.Metadata, p.Configuration
	return msg, true
}

// sendTokenDecoders are reusable decoders for decodeSendTokens, each
// reading from its own bytes.Reader.
var sendTokenDecoders = sync.Pool{New: func() any {
	sd := &sendTokenDecoder{}
	sd.d = jsontext.NewDecoder(&sd.rd)
	return sd
}}

type sendTokenDecoder struct {
	rd bytes.Reader
	d  *jsontext.Decoder
}

// decodeSendTokens reads the common shape of send params token by token,
// without reflection: members id, sessionId, message and metadata only,
// spelled exactly so; a message of string members (kind, role, messageId,
// contextId, taskId) and parts whose members (kind, type, text) are
// strings; metadata whose values are strings. ok is false for anything
// else (another member, another case, a value of another type, a
// duplicate name, invalid UTF-8), and decodeSendFast then decodes by
// reflection, as json.Unmarshal would.
func decodeSendTokens(params []byte) (p sendParamsMsg, ok bool) {
	sd := sendTokenDecoders.Get().(*sendTokenDecoder)
	defer sendTokenDecoders.Put(sd)
	sd.rd.Reset(params)
	sd.d.Reset(&sd.rd, jsontext.AllowDuplicateNames(false))
	d := sd.d
	r := tokenReader{d: d}
	if !r.begin('{') {
		return p, false
	}
	for r.more() {
		switch string(r.name()) {
		case "id":
			p.ID = r.str()
		case "sessionId":
			p.SessionID = r.str()
		case "message":
			p.Message = r.message()
		case "metadata":
			p.Metadata = r.strings()
		default:
			return p, false
		}
	}
	r.end('}')
	if _, err := d.ReadToken(); err != io.EOF {
		r.bad = true
	}
	return p, !r.bad && p.Message != nil
}

// tokenReader reads tokens, remembering the first surprise in bad.
type tokenReader struct {
	d   *jsontext.Decoder
	bad bool
}

func (r *tokenReader) next() jsontext.Token {
	if r.bad {
		return jsontext.Null
	}
	t, err := r.d.ReadToken()
	if err != nil {
		r.bad = true
	}
	return t
}

// begin reads an opening '{' or '['.
func (r *tokenReader) begin(kind jsontext.Kind) bool {
	if r.next().Kind() != kind {
		r.bad = true
	}
	return !r.bad
}

// end reads a closing '}' or ']'.
func (r *tokenReader) end(kind jsontext.Kind) {
	if r.next().Kind() != kind {
		r.bad = true
	}
}

// more reports whether the object or array has another member or element.
func (r *tokenReader) more() bool {
	k := r.d.PeekKind()
	return !r.bad && k != '}' && k != ']' && k != 0
}

// name reads a member name, as it stands between its quotes (no copy: a
// name with an escape is bad, which hands the params on).
func (r *tokenReader) name() []byte {
	if r.bad {
		return nil
	}
	v, err := r.d.ReadValue()
	if err != nil || len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		r.bad = true
		return nil
	}
	return v[1 : len(v)-1]
}

// str reads a string value.
func (r *tokenReader) str() string {
	t := r.next()
	if t.Kind() != '"' {
		r.bad = true
		return ""
	}
	return t.String()
}

// strings reads an object of string values.
func (r *tokenReader) strings() map[string]any {
	m := map[string]any{}
	if !r.begin('{') {
		return nil
	}
	for r.more() {
		k := string(r.name())
		m[k] = r.str()
	}
	r.end('}')
	return m
}

// message reads a message of string members and plain parts.
func (r *tokenReader) message() *wireMessage {
	wm := &wireMessage{}
	if !r.begin('{') {
		return nil
	}
	for r.more() {
		switch string(r.name()) {
		case "kind":
			wm.Kind = r.str()
		case "role":
			wm.Role = r.str()
		case "messageId":
			wm.MessageID = r.str()
		case "contextId":
			wm.ContextID = r.str()
		case "taskId":
			wm.TaskID = r.str()
		case "parts":
			wm.Parts = r.parts()
		default:
			r.bad = true
		}
	}
	r.end('}')
	return wm
}

// parts reads an array of parts whose members are kind, type and text,
// each a string.
func (r *tokenReader) parts() []wirePart {
	if !r.begin('[') {
		return nil
	}
	var ps []wirePart
	for r.more() {
		var wp wirePart
		if !r.begin('{') {
			return nil
		}
		for r.more() {
			switch string(r.name()) {
			case "kind":
				wp.Kind = r.str()
			case "type":
				wp.Type = r.str()
			case "text":
				t := r.str()
				wp.Text = &t
			default:
				r.bad = true
			}
		}
		r.end('}')
		ps = append(ps, wp)
	}
	r.end(']')
	return ps
}

// The answer of a 0.3 send as typed structs, members in the order
// json.Marshal writes a map's keys (sorted).

type status03 struct {
	State     string `json:"state"`
	Timestamp string `json:"timestamp"`
}

type textPart03 struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type artifact03 struct {
	ArtifactID string `json:"artifactId"`
	Name       string `json:"name"`
	Parts      []any  `json:"parts"`
}

type message03 struct {
	ContextID string         `json:"contextId,omitempty"`
	Kind      string         `json:"kind"`
	MessageID string         `json:"messageId"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	Parts     []any          `json:"parts"`
	Role      string         `json:"role"`
	TaskID    string         `json:"taskId,omitempty"`
}

type task03 struct {
	Artifacts []artifact03 `json:"artifacts,omitempty"`
	ContextID string       `json:"contextId"`
	History   []message03  `json:"history"`
	ID        string       `json:"id"`
	Kind      string       `json:"kind"`
	Status    status03     `json:"status"`
}

type answer03 struct {
	ID      jsontext.Value `json:"id"`
	JSONRPC string         `json:"jsonrpc"`
	Result  task03         `json:"result"`
}

// parts03 are the parts as encodePart writes them in 0.3, plain text parts
// as structs.
func parts03(ps []Part) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		if plainText(p) {
			out = append(out, textPart03{Kind: "text", Text: p.Text})
		} else {
			out = append(out, encodePart(p, Dialect03))
		}
	}
	return out
}

func plainText(p Part) bool {
	return p.Kind == "text" && p.MediaType == "" && p.Filename == "" && len(p.Metadata) == 0
}

// plainMessage reports whether m has no metadata and only plain text parts.
func plainMessage(m *Message) bool {
	if len(m.Metadata) > 0 {
		return false
	}
	for _, p := range m.Parts {
		if !plainText(p) {
			return false
		}
	}
	return true
}

// encodeSendAnswerFast encodes the whole answer to a 0.3 or 1.0 send of
// task t in state, as json.Marshal encodes it built from encodeTaskAt's
// maps: token by token for a plain message, from typed structs for any
// other 0.3 one. ok is false when it cannot (configured artifacts, ...:
// the caller then builds the maps).
func encodeSendAnswerFast(id json.RawMessage, t *task, d Dialect, state string, now time.Time) ([]byte, bool) {
	if t.artifacts != nil || d != Dialect03 && d != Dialect10 {
		return nil, false // configured artifacts (the artifacts fault): the maps
	}
	if plainMessage(t.input) {
		return encodeSendAnswerTokens(id, t, d, state, now)
	}
	if d == Dialect10 {
		return nil, false
	}
	m := t.input
	a := &answer03{ID: jsontext.Value(idOrNull(id)), JSONRPC: "2.0", Result: task03{
		ContextID: t.contextID, ID: t.id, Kind: "task",
		Status:  status03{State: stateName(state, d), Timestamp: now.UTC().Format(time.RFC3339Nano)},
		History: []message03{{ContextID: t.contextID, Kind: "message", MessageID: m.MessageID, Metadata: m.Metadata, Parts: parts03(m.Parts), Role: m.Role, TaskID: t.id}},
	}}
	if state == "completed" {
		a.Result.Artifacts = []artifact03{{ArtifactID: "a-" + t.id, Name: "result", Parts: parts03([]Part{{Kind: "text", Text: t.output}})}}
	}
	b, err := jsonv2.Marshal(a, v1Encode)
	return b, err == nil
}

// taskEncoders are reusable jsontext encoders for encodeSendAnswerTokens.
var taskEncoders = sync.Pool{New: func() any {
	te := &taskEncoder{}
	te.e = jsontext.NewEncoder(&te.buf, v2Encode)
	return te
}}

// taskEncoder writes tokens, keeping the first error.
type taskEncoder struct {
	buf bytes.Buffer
	e   *jsontext.Encoder
	err error
}

func (te *taskEncoder) tok(t jsontext.Token) {
	if te.err == nil {
		te.err = te.e.WriteToken(t)
	}
}

func (te *taskEncoder) str(s string) { te.tok(jsontext.String(s)) }

func (te *taskEncoder) member(name, value string) {
	te.str(name)
	te.str(value)
}

// encodeSendAnswerTokens writes the answer to a 0.3 or 1.0 send of a
// plain message (plainMessage) token by token, members in the order
// json.Marshal writes encodeTaskAt's maps: in 1.0
// {"id","jsonrpc","result":{"task":{artifacts, contextId, history, id,
// status}}}, in 0.3 the task is the result and has "kind":"task" after
// its id. ok is false when it cannot (invalid UTF-8).
func encodeSendAnswerTokens(id json.RawMessage, t *task, d Dialect, state string, now time.Time) ([]byte, bool) {
	te := taskEncoders.Get().(*taskEncoder)
	defer taskEncoders.Put(te)
	te.buf.Reset()
	te.e.Reset(&te.buf, v2Encode)
	te.err = nil
	te.tok(jsontext.BeginObject)
	te.str("id")
	if te.err == nil {
		te.err = te.e.WriteValue(jsontext.Value(idOrNull(id)))
	}
	te.member("jsonrpc", "2.0")
	te.str("result")
	te.tok(jsontext.BeginObject)
	if d == Dialect10 {
		te.str("task")
		te.tok(jsontext.BeginObject)
	}
	if state == "completed" {
		te.str("artifacts")
		te.tok(jsontext.BeginArray)
		te.artifact(t, d)
		te.tok(jsontext.EndArray)
	}
	te.member("contextId", t.contextID)
	te.str("history")
	te.tok(jsontext.BeginArray)
	te.message(t.input, t, d)
	te.tok(jsontext.EndArray)
	te.member("id", t.id)
	if d == Dialect03 {
		te.member("kind", "task")
	}
	te.str("status")
	te.tok(jsontext.BeginObject)
	te.member("state", stateName(state, d))
	te.member("timestamp", now.UTC().Format(time.RFC3339Nano))
	te.tok(jsontext.EndObject)
	if d == Dialect10 {
		te.tok(jsontext.EndObject) // task
	}
	te.tok(jsontext.EndObject) // result
	te.tok(jsontext.EndObject)
	if te.err != nil {
		return nil, false
	}
	// The encoder ends a top-level value with a newline.
	return bytes.Clone(bytes.TrimSuffix(te.buf.Bytes(), []byte("\n"))), true
}

// artifact writes artifact(t, d): {"artifactId","name","parts":[text]}.
func (te *taskEncoder) artifact(t *task, d Dialect) {
	te.tok(jsontext.BeginObject)
	te.member("artifactId", "a-"+t.id)
	te.member("name", "result")
	te.str("parts")
	te.tok(jsontext.BeginArray)
	te.textPart(t.output, d)
	te.tok(jsontext.EndArray)
	te.tok(jsontext.EndObject)
}

// textPart writes a plain text part: {"kind":"text","text"} in 0.3,
// {"text"} in 1.0.
func (te *taskEncoder) textPart(text string, d Dialect) {
	te.tok(jsontext.BeginObject)
	if d == Dialect03 {
		te.member("kind", "text")
	}
	te.member("text", text)
	te.tok(jsontext.EndObject)
}

// message writes the plain message m of task t as encodeMessage does:
// contextId, kind (0.3), messageId, parts, role (ROLE_* in 1.0), taskId.
func (te *taskEncoder) message(m *Message, t *task, d Dialect) {
	te.tok(jsontext.BeginObject)
	if t.contextID != "" {
		te.member("contextId", t.contextID)
	}
	if d == Dialect03 {
		te.member("kind", "message")
	}
	te.member("messageId", m.MessageID)
	te.str("parts")
	te.tok(jsontext.BeginArray)
	for _, p := range m.Parts {
		te.textPart(p.Text, d)
	}
	te.tok(jsontext.EndArray)
	if d == Dialect03 {
		te.member("role", m.Role)
	} else {
		te.member("role", "ROLE_"+strings.ToUpper(m.Role))
	}
	if t.id != "" {
		te.member("taskId", t.id)
	}
	te.tok(jsontext.EndObject)
}
