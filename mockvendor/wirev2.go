package mockvendor

// EXPERIMENT (issue 15 part 3): the JSON fast path ported to
// github.com/go-json-experiment/json: the envelope and send params decoded
// into structs with jsontext.Value members, the send answers of 0.3 and
// 1.0 encoded from typed structs instead of maps, all with the v1
// semantics (jsonv1.DefaultOptionsV1) so that the answers stay byte for
// byte those of encoding/json. Selected by Fleet.jsonPort (benchmarks only).

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

var (
	v1opts = jsonv1.DefaultOptionsV1()
	v2enc  = jsonv2.JoinOptions(jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true))
)

// plainMessage reports whether m has no metadata and only text parts
// without media type or file name.
func plainMessage(m *Message) bool {
	if len(m.Metadata) > 0 {
		return false
	}
	for _, p := range m.Parts {
		if p.Kind != "text" || p.MediaType != "" || p.Filename != "" || len(p.Metadata) > 0 {
			return false
		}
	}
	return true
}

type envV2 struct {
	JSONRPC jsontext.Value `json:"jsonrpc"`
	Method  jsontext.Value `json:"method"`
	ID      jsontext.Value `json:"id"`
	Params  jsontext.Value `json:"params"`
}

// envDecoders are reusable jsontext decoders for readEnvelopeV2.
var envDecoders = sync.Pool{New: func() any {
	e := &envDecoder{}
	e.d = jsontext.NewDecoder(&e.rd)
	return e
}}

type envDecoder struct {
	rd bytes.Reader
	d  *jsontext.Decoder
}

// readEnvelopeV2 reads the members of the envelope of a body known to be
// valid JSON with a jsontext decoder, as json.Unmarshal would; it declines
// a duplicate member, a non-ASCII name, or a name that matches a field
// only case-insensitively (json.Unmarshal matches those).
func readEnvelopeV2(b []byte) (env rpcEnvelope, ok bool) {
	e := envDecoders.Get().(*envDecoder)
	defer func() { e.rd.Reset(nil); envDecoders.Put(e) }()
	e.rd.Reset(b)
	d := e.d
	d.Reset(&e.rd)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return env, false
	}
	for d.PeekKind() == '"' {
		name, err := d.ReadToken()
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
			for i := 0; i < len(k); i++ {
				if k[i] >= 0x80 {
					return rpcEnvelope{}, false
				}
			}
			for _, f := range [...]string{"jsonrpc", "method", "id", "params"} {
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

type partV2 struct {
	Type      string         `json:"type,omitempty"`
	Kind      string         `json:"kind,omitempty"`
	Text      *string        `json:"text,omitempty"`
	Data      jsontext.Value `json:"data,omitempty"`
	File      jsontext.Value `json:"file,omitempty"`
	Raw       jsontext.Value `json:"raw,omitempty"`
	URL       jsontext.Value `json:"url,omitempty"`
	MediaType string         `json:"mediaType,omitempty"`
	Filename  string         `json:"filename,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

type messageV2 struct {
	Kind      string         `json:"kind,omitempty"`
	Role      string         `json:"role"`
	MessageID string         `json:"messageId,omitempty"`
	ContextID string         `json:"contextId,omitempty"`
	TaskID    string         `json:"taskId,omitempty"`
	Parts     []partV2       `json:"parts"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

type sendParamsV2 struct {
	ID            string         `json:"id"`
	SessionID     string         `json:"sessionId"`
	Message       *messageV2     `json:"message"`
	Configuration sendConfig     `json:"configuration"`
	Metadata      map[string]any `json:"metadata"`
}

// decodeSendV2 is decodeSendFast on the v2 engine.
func decodeSendV2(params []byte, d Dialect, sp *sendParams) (*Message, bool) {
	if n, ok := countMember(params, "message"); !ok || n != 1 {
		return nil, false
	}
	var p sendParamsV2
	if err := jsonv2.Unmarshal(params, &p, v1opts); err != nil || p.Message == nil {
		return nil, false
	}
	wm := &wireMessage{Kind: p.Message.Kind, Role: p.Message.Role, MessageID: p.Message.MessageID, ContextID: p.Message.ContextID,
		TaskID: p.Message.TaskID, Metadata: p.Message.Metadata}
	if p.Message.Parts != nil {
		wm.Parts = make([]wirePart, len(p.Message.Parts))
	}
	for i, x := range p.Message.Parts {
		wm.Parts[i] = wirePart{Type: x.Type, Kind: x.Kind, Text: x.Text, Data: []byte(x.Data), File: []byte(x.File), Raw: []byte(x.Raw),
			URL: []byte(x.URL), MediaType: x.MediaType, Filename: x.Filename, Metadata: x.Metadata}
	}
	msg, err := buildMessage(wm, d)
	if err != nil {
		return nil, false
	}
	sp.ID, sp.SessionID, sp.Metadata, sp.Configuration = p.ID, p.SessionID, p.Metadata, p.Configuration
	return msg, true
}

// The send answers as typed structs, members in the order json.Marshal
// writes a map's keys (sorted).

type statusV2 struct {
	State     string `json:"state"`
	Timestamp string `json:"timestamp"`
}

type textPart10 struct {
	Text string `json:"text"`
}

type textPart03 struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type artifactV2 struct {
	ArtifactID string `json:"artifactId"`
	Name       string `json:"name"`
	Parts      []any  `json:"parts"`
}

type message10 struct {
	ContextID string         `json:"contextId,omitempty"`
	MessageID string         `json:"messageId"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	Parts     []any          `json:"parts"`
	Role      string         `json:"role"`
	TaskID    string         `json:"taskId,omitempty"`
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

type task10 struct {
	Artifacts []artifactV2 `json:"artifacts,omitempty"`
	ContextID string       `json:"contextId"`
	History   []message10  `json:"history"`
	ID        string       `json:"id"`
	Status    statusV2     `json:"status"`
}

type task03 struct {
	Artifacts []artifactV2 `json:"artifacts,omitempty"`
	ContextID string       `json:"contextId"`
	History   []message03  `json:"history"`
	ID        string       `json:"id"`
	Kind      string       `json:"kind"`
	Status    statusV2     `json:"status"`
}

type answer10 struct {
	ID      jsontext.Value `json:"id"`
	JSONRPC string         `json:"jsonrpc"`
	Result  struct {
		Task task10 `json:"task"`
	} `json:"result"`
}

type answer03 struct {
	ID      jsontext.Value `json:"id"`
	JSONRPC string         `json:"jsonrpc"`
	Result  task03         `json:"result"`
}

func partsV2(ps []Part, d Dialect) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		plain := p.Kind == "text" && p.MediaType == "" && p.Filename == "" && len(p.Metadata) == 0
		switch {
		case plain && d == Dialect10:
			out = append(out, textPart10{Text: p.Text})
		case plain && d == Dialect03:
			out = append(out, textPart03{Kind: "text", Text: p.Text})
		default:
			out = append(out, encodePart(p, d))
		}
	}
	return out
}

// encodeSendAnswerV2 encodes the answer of a 0.3 or 1.0 send.
func encodeSendAnswerV2(id []byte, t *task, d Dialect, state string, now time.Time) ([]byte, bool) {
	if d == Dialect10 {
		if b, ok := encodeSendAnswer10Tokens(id, t, state, now); ok {
			return b, true
		}
	}
	st := statusV2{State: stateName(state, d), Timestamp: now.UTC().Format(time.RFC3339Nano)}
	var arts []artifactV2
	if state == "completed" {
		arts = []artifactV2{{ArtifactID: "a-" + t.id, Name: "result", Parts: partsV2([]Part{{Kind: "text", Text: t.output}}, d)}}
	}
	m := t.input
	var v any
	switch d {
	case Dialect10:
		a := answer10{ID: jsontext.Value(idOrNull(id)), JSONRPC: "2.0"}
		a.Result.Task = task10{Artifacts: arts, ContextID: t.contextID, ID: t.id, Status: st,
			History: []message10{{ContextID: t.contextID, MessageID: m.MessageID, Metadata: m.Metadata, Parts: partsV2(m.Parts, d), Role: "ROLE_" + upperRole(m.Role), TaskID: t.id}}}
		v = &a
	case Dialect03:
		v = &answer03{ID: jsontext.Value(idOrNull(id)), JSONRPC: "2.0", Result: task03{Artifacts: arts, ContextID: t.contextID, ID: t.id, Kind: "task", Status: st,
			History: []message03{{ContextID: t.contextID, Kind: "message", MessageID: m.MessageID, Metadata: m.Metadata, Parts: partsV2(m.Parts, d), Role: m.Role, TaskID: t.id}}}}
	default:
		return nil, false
	}
	if plainMessage(m) {
		// v2's own options give json.Marshal's bytes for these shapes
		// (no maps, valid UTF-8: an error otherwise, then the v1 options).
		if b, err := jsonv2.Marshal(v, v2enc); err == nil {
			return b, true
		}
	}
	b, err := jsonv2.Marshal(v, v1opts)
	if err != nil {
		return nil, false
	}
	return b, true
}

func upperRole(r string) string {
	switch r {
	case "user":
		return "USER"
	case "agent":
		return "AGENT"
	}
	return ""
}

// taskEncoders are reusable jsontext encoders for encodeSendAnswer10Tokens.
var taskEncoders = sync.Pool{New: func() any {
	te := &taskEncoder{}
	te.e = jsontext.NewEncoder(&te.buf, v2enc)
	return te
}}

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

// encodeSendAnswer10Tokens writes a 1.0 send's answer token by token with
// a jsontext encoder, for a plain message (plainMessage); ok is false when
// it cannot (the caller then marshals the structs).
func encodeSendAnswer10Tokens(id []byte, t *task, state string, now time.Time) ([]byte, bool) {
	m := t.input
	if !plainMessage(m) {
		return nil, false
	}
	te := taskEncoders.Get().(*taskEncoder)
	defer taskEncoders.Put(te)
	te.buf.Reset()
	te.e.Reset(&te.buf, v2enc)
	te.err = nil
	te.tok(jsontext.BeginObject)
	te.str("id")
	if te.err == nil {
		te.err = te.e.WriteValue(jsontext.Value(idOrNull(id)))
	}
	te.str("jsonrpc")
	te.str("2.0")
	te.str("result")
	te.tok(jsontext.BeginObject)
	te.str("task")
	te.tok(jsontext.BeginObject)
	if state == "completed" {
		te.str("artifacts")
		te.tok(jsontext.BeginArray)
		te.tok(jsontext.BeginObject)
		te.str("artifactId")
		te.str("a-" + t.id)
		te.str("name")
		te.str("result")
		te.str("parts")
		te.tok(jsontext.BeginArray)
		te.tok(jsontext.BeginObject)
		te.str("text")
		te.str(t.output)
		te.tok(jsontext.EndObject)
		te.tok(jsontext.EndArray)
		te.tok(jsontext.EndObject)
		te.tok(jsontext.EndArray)
	}
	te.str("contextId")
	te.str(t.contextID)
	te.str("history")
	te.tok(jsontext.BeginArray)
	te.tok(jsontext.BeginObject)
	if t.contextID != "" {
		te.str("contextId")
		te.str(t.contextID)
	}
	te.str("messageId")
	te.str(m.MessageID)
	te.str("parts")
	te.tok(jsontext.BeginArray)
	for _, p := range m.Parts {
		te.tok(jsontext.BeginObject)
		te.str("text")
		te.str(p.Text)
		te.tok(jsontext.EndObject)
	}
	te.tok(jsontext.EndArray)
	te.str("role")
	te.str("ROLE_" + upperRole(m.Role))
	if t.id != "" {
		te.str("taskId")
		te.str(t.id)
	}
	te.tok(jsontext.EndObject)
	te.tok(jsontext.EndArray)
	te.str("id")
	te.str(t.id)
	te.str("status")
	te.tok(jsontext.BeginObject)
	te.str("state")
	te.str(stateName(state, Dialect10))
	te.str("timestamp")
	te.str(now.UTC().Format(time.RFC3339Nano))
	te.tok(jsontext.EndObject)
	te.tok(jsontext.EndObject)
	te.tok(jsontext.EndObject)
	te.tok(jsontext.EndObject)
	if te.err != nil {
		return nil, false
	}
	return bytes.Clone(bytes.TrimSuffix(te.buf.Bytes(), []byte("\n"))), true
}
