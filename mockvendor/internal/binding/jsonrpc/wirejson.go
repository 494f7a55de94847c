package jsonrpc

// The JSON-RPC endpoint's JSON path on github.com/go-json-experiment/json
// (the basis of encoding/json/v2), with encoding/json's own semantics (the
// v1 options), so that every request reads and every answer encodes as
// encoding/json would, byte for byte. It replaced a hand-written scanner
// and encoder (wirefast.go): the envelope is read and checked with a
// jsontext decoder in one pass, the common send params token by token
// (others decoded into structs), the answer to a send of plain text
// appended to a buffer (member names are constants; strings are quoted by
// jsontext.AppendQuote unless encoding/json would escape them otherwise)
// and any other 0.3 one encoded from typed structs instead of maps.
// Whatever this path declines (a duplicate member, a name only a
// case-insensitive match finds, invalid UTF-8) goes to encoding/json, as
// everything does with Config.PlainJSON. The
// differential fuzz targets in encode_fuzz_test.go and
// TestPlainJSONSameAnswers hold the two paths to the same results.

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

var (
	// v1Options are encoding/json's semantics on the v2 engine.
	v1Options = jsonv1.DefaultOptionsV1()
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

// readEnvelopeFast reads the members of the envelope b as json.Unmarshal
// into envelope would, the values as slices of b, and checks that b is
// that one object and nothing else: ok true means b is valid JSON (valid
// UTF-8 too, which json.Valid does not ask). It declines (ok false) what
// encoding/json could read differently or refuse: a body that is not an
// object, invalid JSON, a repeated member, a name with an escape or a
// non-ASCII one, a name that matches a member only case-insensitively.
// The decoder leaves repeated names to this function (AllowDuplicateNames):
// those of the envelope are declined, those inside a value are the
// business of whoever decodes it.
func readEnvelopeFast(b []byte) (env envelope, ok bool) {
	e := envelopeDecoders.Get().(*envelopeDecoder)
	defer func() { e.rd.Reset(nil); envelopeDecoders.Put(e) }()
	e.rd.Reset(b)
	d := e.d
	d.Reset(&e.rd, jsontext.AllowDuplicateNames(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return env, false
	}
	var seen [len(envelopeFields)]bool
	for d.PeekKind() == '"' {
		name, err := d.ReadValue() // the quoted name as it stands
		if err != nil || bytes.IndexByte(name, '\\') >= 0 {
			return envelope{}, false
		}
		i := envelopeField(name[1 : len(name)-1]) // name is the decoder's until the next read
		if i == -2 {
			return envelope{}, false
		}
		val, err := d.ReadValue()
		if err != nil {
			return envelope{}, false
		}
		if i == -1 {
			continue
		}
		if seen[i] {
			return envelope{}, false
		}
		end := int(d.InputOffset())
		raw := json.RawMessage(b[end-len(val) : end : end])
		seen[i] = true
		switch i {
		case 0:
			env.JSONRPC = raw
		case 1:
			env.Method = raw
		case 2:
			env.ID = raw
		case 3:
			env.Params = raw
		}
	}
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '}' {
		return envelope{}, false
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return envelope{}, false // more after the object, or bad JSON there
	}
	return env, true
}

// envelopeField returns the index of name in envelopeFields, -1 for
// another name, or -2 for one json.Unmarshal might still match to a field
// (non-ASCII, or equal but for case), which readEnvelopeFast declines.
func envelopeField(name []byte) int {
	for i, f := range envelopeFields {
		if string(name) == f {
			return i
		}
	}
	if !plainASCII(string(name)) {
		return -2
	}
	for _, f := range envelopeFields {
		if strings.EqualFold(string(name), f) {
			return -2
		}
	}
	return -1
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
// UTF-8). A known method's name comes from methodNames, not a new string.
func readMethodFast(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if in := raw[1 : len(raw)-1]; bytes.IndexByte(in, '\\') < 0 {
		if name, ok := methodNames[string(in)]; ok {
			return name, true
		}
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// methodNames maps each method of the methods table to itself.
var methodNames = func() map[string]string {
	m := make(map[string]string, len(methods))
	for k := range methods {
		m[k] = k
	}
	return m
}()

// sendParamsMsg is ops.SendParams with the message decoded in the same pass.
type sendParamsMsg struct {
	ID            string           `json:"id"`
	SessionID     string           `json:"sessionId"`
	Message       *a2a.WireMessage `json:"message"`
	Configuration ops.SendConfig   `json:"configuration"`
	Metadata      ops.SendMetadata `json:"metadata"`
}

// decodeSendFast decodes send params and their message in one pass,
// filling sp (all but sp.Message) as json.Unmarshal would. It returns ok
// false whenever the two-step decoding (json.Unmarshal into ops.SendParams,
// then a2a.DecodeMessage) could answer differently: an error, an absent
// message, a member set twice; the caller then decodes the two-step way,
// which gives the same result or the error.
func decodeSendFast(params json.RawMessage, scanned *sendParamsMsg, d a2a.Dialect, sp *ops.SendParams) (*a2a.Message, bool) {
	var p sendParamsMsg
	ok := scanned != nil
	if ok {
		p = *scanned
	} else {
		p, ok = decodeSendTokens(params)
	}
	if !ok {
		if d == a2a.Dialect10 {
			params = a2a.ProtoNamesToJSON(params) // the token path takes JSON names only
		}
		p = sendParamsMsg{}
		if err := ops.DecodeStrict(params, &p); err != nil {
			return nil, false
		}
	}
	if p.Message == nil {
		return nil, false
	}
	msg, err := a2a.BuildMessage(p.Message, d)
	if err != nil {
		return nil, false
	}
	sp.ID, sp.SessionID, sp.Metadata, sp.Configuration = p.ID, p.SessionID, p.Metadata, p.Configuration
	return msg, true
}

// The members of the common send shape, written once for both of its
// readers (tokenReader here, requestScan in wirescan.go): each function
// returns the string field a member fills (nil for one whose value is not
// a string) and the bit that marks it read in its object (0: not a member
// of the shape, which the readers decline).

// Bits of the members of send params whose values are objects.
const (
	memberMessage  uint8 = 4
	memberMetadata uint8 = 8
)

func paramsMember(p *sendParamsMsg, name []byte) (*string, uint8) {
	switch string(name) {
	case "id":
		return &p.ID, 1
	case "sessionId":
		return &p.SessionID, 2
	case "message":
		return nil, memberMessage
	case "metadata":
		return nil, memberMetadata
	}
	return nil, 0
}

// messageMember's one member that is not a string is parts.
func messageMember(wm *a2a.WireMessage, name []byte) (*string, uint8) {
	switch string(name) {
	case "kind":
		return &wm.Kind, 1
	case "role":
		return &wm.Role, 2
	case "messageId":
		return &wm.MessageID, 4
	case "contextId":
		return &wm.ContextID, 8
	case "taskId":
		return &wm.TaskID, 16
	case "parts":
		return nil, 32
	}
	return nil, 0
}

// partMember's members are all strings; text is set when present.
func partMember(wp *a2a.WirePart, name []byte) (*string, uint8) {
	switch string(name) {
	case "kind":
		return &wp.Kind, 1
	case "type":
		return &wp.Type, 2
	case "text":
		wp.Text = new(string)
		return wp.Text, 4
	}
	return nil, 0
}

// metadataKey tells the metadata members the fleet reads apart: 1 for
// skillId, 2 for a2a_probe, 0 for the others.
func metadataKey(name []byte) int {
	switch string(name) {
	case "skillId":
		return 1
	case "a2a_probe":
		return 2
	}
	return 0
}

// take reads metadata member key (metadataKey) whose value is the string
// str (kind '"') or a literal (kind 't', 'f' or 'n'), as UnmarshalJSON
// would: the last one given wins.
func takeMetadata(m *ops.SendMetadata, key int, str string, kind byte) {
	switch key {
	case 1:
		m.SkillID = ""
		if kind == '"' {
			m.SkillID = str
		}
	case 2:
		m.Probe = kind == 't'
	}
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
	sd.d.Reset(&sd.rd, jsontext.AllowDuplicateNames(true)) // once reads its names
	d := sd.d
	r := tokenReader{d: d}
	if !r.begin('{') {
		return p, false
	}
	var seen uint8
	for r.more() {
		field, bit := paramsMember(&p, r.name())
		r.once(&seen, bit)
		switch {
		case r.bad:
			return p, false
		case field != nil:
			*field = r.str()
		case bit == memberMessage:
			p.Message = r.message()
		default:
			p.Metadata = r.metadata()
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

// once marks the member bit of an object seen, and a member seen before
// or no member of the shape (bit 0) as bad: encoding/json would merge or
// overwrite where the token path reads once. (A map's repeated key needs
// no mark: both keep the last.)
func (r *tokenReader) once(seen *uint8, bit uint8) {
	if bit == 0 || *seen&bit != 0 {
		r.bad = true
	}
	*seen |= bit
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

// metadata reads a metadata object as ops.SendMetadata.UnmarshalJSON does
// (ops.SendMetadata.take). Members are skipped when their value is a string, a
// boolean or null; a number, object or array is bad (encoding/json may
// refuse it, 1e400 for one, and then the whole send).
func (r *tokenReader) metadata() ops.SendMetadata {
	var m ops.SendMetadata
	if !r.begin('{') {
		return m
	}
	for r.more() {
		key := metadataKey(r.name())
		kind := byte(r.d.PeekKind())
		if kind == '"' && key == 1 {
			takeMetadata(&m, key, r.str(), kind)
			continue
		}
		takeMetadata(&m, key, "", kind)
		r.skipScalar()
	}
	r.end('}')
	return m
}

// skipScalar skips the next value when it is a string, a boolean or
// null, and marks anything else bad.
func (r *tokenReader) skipScalar() {
	switch r.d.PeekKind() {
	case '"', 't', 'f', 'n':
		r.next()
	default:
		r.bad = true
	}
}

// message reads a message of string members and plain parts.
func (r *tokenReader) message() *a2a.WireMessage {
	wm := &a2a.WireMessage{}
	if !r.begin('{') {
		return nil
	}
	var seen uint8
	for r.more() {
		field, bit := messageMember(wm, r.name())
		r.once(&seen, bit)
		if field != nil {
			*field = r.str()
		} else if !r.bad {
			wm.Parts = r.parts()
		}
	}
	r.end('}')
	return wm
}

// parts reads an array of parts whose members are kind, type and text,
// each a string.
func (r *tokenReader) parts() []a2a.WirePart {
	if !r.begin('[') {
		return nil
	}
	var ps []a2a.WirePart
	for r.more() {
		var wp a2a.WirePart
		if !r.begin('{') {
			return nil
		}
		var seen uint8
		for r.more() {
			field, bit := partMember(&wp, r.name())
			r.once(&seen, bit)
			if field != nil {
				*field = r.str()
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

// parts03 are the parts as a2a.EncodePart writes them in 0.3, plain text parts
// as structs.
func parts03(ps []a2a.Part) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		if plainText(p) {
			out = append(out, textPart03{Kind: "text", Text: p.Text})
		} else {
			out = append(out, a2a.EncodePart(p, a2a.Dialect03))
		}
	}
	return out
}

func plainText(p a2a.Part) bool {
	return p.Kind == "text" && p.MediaType == "" && p.Filename == "" && len(p.Metadata) == 0
}

// plainMessage reports whether m has no metadata and only plain text parts.
func plainMessage(m *a2a.Message) bool {
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
// task t in state, as json.Marshal encodes it built from ops.EncodeTaskAt's
// maps: appended for a plain message, from typed structs for any
// other 0.3 one. ok is false when it cannot (configured artifacts, ...:
// the caller then builds the maps).
func encodeSendAnswerFast(id json.RawMessage, t *tasks.Task, d a2a.Dialect, state string, now time.Time) ([]byte, bool) {
	if t.Artifacts != nil || d != a2a.Dialect03 && d != a2a.Dialect10 {
		return nil, false // configured artifacts (the artifacts fault): the maps
	}
	if plainMessage(t.Input) {
		return appendSendAnswer(id, t, d, state, now)
	}
	if d == a2a.Dialect10 {
		return nil, false
	}
	m := t.Input
	a := &answer03{ID: jsontext.Value(idOrNull(id)), JSONRPC: "2.0", Result: task03{
		ContextID: t.ContextID, ID: t.ID, Kind: "task",
		Status:  status03{State: a2a.StateName(state, d), Timestamp: now.UTC().Format(time.RFC3339Nano)},
		History: []message03{{ContextID: t.ContextID, Kind: "message", MessageID: m.MessageID, Metadata: m.Metadata, Parts: parts03(m.Parts), Role: m.Role, TaskID: t.ID}},
	}}
	if state == "completed" {
		a.Result.Artifacts = []artifact03{{ArtifactID: "a-" + t.ID, Name: "result", Parts: parts03([]a2a.Part{{Kind: "text", Text: t.Output}})}}
	}
	b, err := jsonv2.Marshal(a, v1Encode)
	return b, err == nil
}

// answerWriter appends the JSON of a send's answer to b. Member names are
// constants written as they are; string values go through str, which
// writes the bytes as they are only where json.Marshal would (printable
// ASCII without a quote, backslash or an HTML-special character) and hands
// anything else to encoding/json's own string encoding.
type answerWriter struct{ b []byte }

// name writes a member name (a constant of plain ASCII) and its colon,
// after a comma unless it opens the object.
func (w *answerWriter) name(n string) {
	if c := w.b[len(w.b)-1]; c != '{' && c != '[' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, n...)
	w.b = append(w.b, '"', ':')
}

// str writes a string value as encoding/json quotes it.
func (w *answerWriter) str(s string) { w.prefixed("", s) }

// prefixed writes the string prefix+s (prefix plain ASCII) without
// building it, escaped as encoding/json escapes a string: \", \\, \b,
// \f, \n, \r, \t, \u00XX for other control characters and for <, > and
// &, \u2028 and \u2029, \ufffd for each byte of invalid UTF-8; the rest
// as it is.
func (w *answerWriter) prefixed(prefix, s string) {
	w.b = append(w.b, '"')
	w.b = append(w.b, prefix...)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if e := asciiEscape[c]; e != "" {
				w.b = append(w.b, e...)
			} else {
				w.b = append(w.b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			w.b = append(w.b, `\ufffd`...)
		case r == '\u2028':
			w.b = append(w.b, `\u2028`...)
		case r == '\u2029':
			w.b = append(w.b, `\u2029`...)
		default:
			w.b = append(w.b, s[i:i+n]...)
		}
		i += n
	}
	w.b = append(w.b, '"')
}

// asciiEscape is how encoding/json writes each ASCII byte it escapes
// ("" for the bytes it writes as they are).
var asciiEscape = func() (t [0x80]string) {
	const hex = "0123456789abcdef"
	for c := 0; c < 0x20; c++ {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xf])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	t['"'], t['\\'] = `\"`, `\\`
	t['<'], t['>'], t['&'] = `\u003c`, `\u003e`, `\u0026`
	return t
}()

func (w *answerWriter) member(name, value string) {
	w.name(name)
	w.str(value)
}

// open and close write a bracket or brace; open writes a comma first when
// the value follows another element.
func (w *answerWriter) open(c byte) {
	if p := w.b[len(w.b)-1]; p == '}' || p == ']' || p == '"' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, c)
}

func (w *answerWriter) close(c byte) { w.b = append(w.b, c) }

// appendSendAnswer writes the answer to a 0.3 or 1.0 send of a
// plain message (plainMessage), members in the order json.Marshal writes
// ops.EncodeTaskAt's maps: in 1.0 {"id","jsonrpc","result":{"task":{artifacts,
// contextId, history, id, status}}}, in 0.3 the task is the result and
// has "kind":"task" after its id. ok is false for an id encoding/json
// refuses.
func appendSendAnswer(id json.RawMessage, t *tasks.Task, d a2a.Dialect, state string, now time.Time) ([]byte, bool) {
	buf := answerBufs.Get().(*[]byte)
	defer answerBufs.Put(buf)
	w := answerWriter{b: (*buf)[:0]}
	defer func() { *buf = w.b[:0] }()
	w.b = append(w.b, `{"id":`...)
	w.b = appendID(w.b, idOrNull(id))
	if w.b == nil {
		return nil, false
	}
	w.b = append(w.b, `,"jsonrpc":"2.0","result":{`...)
	if d == a2a.Dialect10 {
		w.b = append(w.b, `"task":{`...)
	}
	if state == "completed" {
		w.name("artifacts")
		w.open('[')
		w.artifact(t, d)
		w.close(']')
	}
	w.member("contextId", t.ContextID)
	w.name("history")
	w.open('[')
	w.message(t.Input, t, d)
	w.close(']')
	w.member("id", t.ID)
	if d == a2a.Dialect03 {
		w.member("kind", "task")
	}
	w.name("status")
	w.open('{')
	w.member("state", a2a.StateName(state, d))
	w.name("timestamp")
	w.b = append(w.b, '"')
	w.b = now.UTC().AppendFormat(w.b, time.RFC3339Nano)
	w.b = append(w.b, '"', '}')
	if d == a2a.Dialect10 {
		w.close('}') // task
	}
	w.close('}') // result
	w.close('}')
	return bytes.Clone(w.b), true
}

// answerBufs are the buffers appendSendAnswer writes in.
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendID appends the request id rid (valid JSON) as json.Marshal
// writes a json.RawMessage: as it is when that changes nothing, else
// through encoding/json (which escapes HTML-special characters). It
// returns nil when encoding/json refuses it.
func appendID(b []byte, rid json.RawMessage) []byte {
	for _, c := range rid {
		if c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(rid)
			if err != nil {
				return nil
			}
			return append(b, q...)
		}
	}
	return append(b, rid...)
}

// artifact writes artifact(t, d): {"artifactId","name","parts":[text]}.
func (w *answerWriter) artifact(t *tasks.Task, d a2a.Dialect) {
	w.open('{')
	w.name("artifactId")
	w.prefixed("a-", t.ID)
	w.member("name", "result")
	w.name("parts")
	w.open('[')
	w.textPart(t.Output, d)
	w.close(']')
	w.close('}')
}

// textPart writes a plain text part: {"kind":"text","text"} in 0.3,
// {"text"} in 1.0.
func (w *answerWriter) textPart(text string, d a2a.Dialect) {
	w.open('{')
	if d == a2a.Dialect03 {
		w.member("kind", "text")
	}
	w.member("text", text)
	w.close('}')
}

// message writes the plain message m of task t as a2a.EncodeMessage does:
// contextId, kind (0.3), messageId, parts, role (ROLE_* in 1.0), taskId.
func (w *answerWriter) message(m *a2a.Message, t *tasks.Task, d a2a.Dialect) {
	w.open('{')
	if t.ContextID != "" {
		w.member("contextId", t.ContextID)
	}
	if d == a2a.Dialect03 {
		w.member("kind", "message")
	}
	w.member("messageId", m.MessageID)
	w.name("parts")
	w.open('[')
	for _, p := range m.Parts {
		w.textPart(p.Text, d)
	}
	w.close(']')
	if d == a2a.Dialect03 {
		w.member("role", m.Role)
	} else {
		w.name("role")
		w.prefixed("ROLE_", strings.ToUpper(m.Role))
	}
	if t.ID != "" {
		w.member("taskId", t.ID)
	}
	w.close('}')
}
