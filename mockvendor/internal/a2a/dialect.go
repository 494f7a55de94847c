package a2a

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Dialect is the A2A wire generation a request speaks.
type Dialect string

// The three dialects the fleet speaks. Dialect01 is 0.1 as the source documents
// use it (tasks/send, parts with "type"); Dialect03 covers 0.2 and 0.3
// (message/send, "kind"); Dialect10 is 1.0 (SendMessage, member-named parts,
// TASK_STATE_* enums, error data as an array).
const (
	Dialect01 Dialect = "0.1"
	Dialect03 Dialect = "0.3"
	Dialect10 Dialect = "1.0"
)

// Part is a message part in dialect-neutral form.
type Part struct {
	// Kind is "text", "data" or "file".
	Kind string
	Text string
	// Data is the data part's value; File the 0.x file object or the 1.0
	// part's raw/url members.
	Data      json.RawMessage
	File      json.RawMessage
	MediaType string
	Filename  string
	Metadata  map[string]any
}

// Message is a message in dialect-neutral form.
type Message struct {
	Role      string // "user" or "agent"
	MessageID string
	ContextID string
	TaskID    string
	Parts     []Part
	Metadata  map[string]any
}

// WirePart is a part as any dialect writes it on the wire: the union of
// the members of a 0.1, 0.3 and 1.0 part. BuildMessage reads it the way
// one dialect does.
type WirePart struct {
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

// WireMessage is a message as any dialect writes it on the wire (the
// union of the 0.1, 0.3 and 1.0 members), before BuildMessage checks it
// against one dialect.
type WireMessage struct {
	Kind      string         `json:"kind,omitempty"`
	Role      string         `json:"role"`
	MessageID string         `json:"messageId,omitempty"`
	ContextID string         `json:"contextId,omitempty"`
	TaskID    string         `json:"taskId,omitempty"`
	Parts     []WirePart     `json:"parts"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// DecodeMessage reads the JSON message raw (params.message of a send) in
// dialect d. Parts must carry the dialect's discriminator; the error of a
// message the dialect cannot read names the offending member, for an
// invalid-params answer.
func DecodeMessage(raw json.RawMessage, d Dialect) (*Message, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("params.message is required")
	}
	var wm WireMessage
	if err := json.Unmarshal(raw, &wm); err != nil {
		return nil, fmt.Errorf("params.message: %v", err)
	}
	return BuildMessage(&wm, d)
}

// BuildMessage turns a decoded wire message into a Message the way dialect
// d reads it: DecodeMessage's checks after decoding, for callers that
// decode the JSON themselves.
func BuildMessage(wm *WireMessage, d Dialect) (*Message, error) {
	if len(wm.Parts) == 0 {
		return nil, fmt.Errorf("params.message.parts must hold at least one part")
	}
	if d != Dialect01 && wm.MessageID == "" {
		// Required in 0.3 (Message.messageId) and 1.0 (message_id,
		// REQUIRED in a2a.proto); 0.1 messages had none.
		return nil, fmt.Errorf("params.message.messageId is required")
	}
	m := &Message{MessageID: wm.MessageID, ContextID: wm.ContextID, TaskID: wm.TaskID, Metadata: wm.Metadata}
	// Each dialect reads its own shapes only: 1.0 roles are ROLE_*, and a
	// 1.0 message and its parts carry no kind (nor 0.1 type).
	switch {
	case d == Dialect10 && wm.Role == "ROLE_USER", d != Dialect10 && wm.Role == "user":
		m.Role = "user"
	case d == Dialect10 && wm.Role == "ROLE_AGENT", d != Dialect10 && wm.Role == "agent":
		m.Role = "agent"
	default:
		return nil, fmt.Errorf("params.message.role %q is not a role of the %s dialect", wm.Role, d)
	}
	if d == Dialect10 && wm.Kind != "" {
		return nil, fmt.Errorf("params.message.kind is a 0.3 member; a 1.0 message has none")
	}
	for i, wp := range wm.Parts {
		p := Part{Metadata: wp.Metadata, MediaType: wp.MediaType, Filename: wp.Filename}
		kind := wp.Kind
		switch d {
		case Dialect01:
			kind = wp.Type
		case Dialect10:
			if wp.Kind != "" || wp.Type != "" {
				return nil, fmt.Errorf("params.message.parts[%d]: kind and type are 0.x members; a 1.0 part is named by its text, data, raw or url member", i)
			}
			switch {
			case wp.Text != nil:
				kind = "text"
			case wp.Data != nil:
				kind = "data"
			case wp.Raw != nil || wp.URL != nil:
				kind = "file"
			default:
				kind = ""
			}
		}
		switch kind {
		case "text":
			if wp.Text == nil {
				return nil, fmt.Errorf("params.message.parts[%d]: text part without text", i)
			}
			p.Kind, p.Text = "text", *wp.Text
		case "data":
			if wp.Data == nil {
				return nil, fmt.Errorf("params.message.parts[%d]: data part without data", i)
			}
			p.Kind, p.Data = "data", json.RawMessage(wp.Data)
		case "file":
			p.Kind = "file"
			if d == Dialect10 {
				f := map[string]json.RawMessage{}
				if wp.Raw != nil {
					f["raw"] = json.RawMessage(wp.Raw)
				}
				if wp.URL != nil {
					f["url"] = json.RawMessage(wp.URL)
				}
				b, _ := json.Marshal(f)
				p.File = b
			} else {
				p.File = json.RawMessage(wp.File)
			}
		default:
			disc := map[Dialect]string{Dialect01: `"type"`, Dialect03: `"kind"`, Dialect10: "a text, data, raw or url member"}[d]
			return nil, fmt.Errorf("params.message.parts[%d]: a %s part needs %s", i, d, disc)
		}
		m.Parts = append(m.Parts, p)
	}
	return m, nil
}

// EncodeMessage writes m in dialect d, as a map json.Marshal encodes: role
// and parts spelled the dialect's way, the 0.3 kind, and the ids the
// dialect has.
func EncodeMessage(m *Message, d Dialect) map[string]any {
	out := map[string]any{}
	parts := make([]any, 0, len(m.Parts))
	for _, p := range m.Parts {
		parts = append(parts, EncodePart(p, d))
	}
	out["parts"] = parts
	switch d {
	case Dialect01:
		out["role"] = m.Role
	case Dialect03:
		out["kind"] = "message"
		out["role"] = m.Role
		out["messageId"] = m.MessageID
		if m.ContextID != "" {
			out["contextId"] = m.ContextID
		}
		if m.TaskID != "" {
			out["taskId"] = m.TaskID
		}
	case Dialect10:
		out["role"] = "ROLE_" + strings.ToUpper(m.Role)
		out["messageId"] = m.MessageID
		if m.ContextID != "" {
			out["contextId"] = m.ContextID
		}
		if m.TaskID != "" {
			out["taskId"] = m.TaskID
		}
	}
	if len(m.Metadata) > 0 {
		out["metadata"] = m.Metadata
	}
	return out
}

// EncodePart writes p in dialect d, as a map json.Marshal encodes: named
// by "type" in 0.1, by "kind" in 0.3 and by its member (text, data, raw or
// url) in 1.0.
func EncodePart(p Part, d Dialect) map[string]any {
	out := map[string]any{}
	switch d {
	case Dialect01:
		out["type"] = p.Kind
	case Dialect03:
		out["kind"] = p.Kind
	case Dialect10:
		if p.MediaType != "" {
			out["mediaType"] = p.MediaType
		}
		if p.Filename != "" {
			out["filename"] = p.Filename
		}
	}
	switch p.Kind {
	case "text":
		out["text"] = p.Text
	case "data":
		out["data"] = p.Data
	case "file":
		if d == Dialect10 {
			var f map[string]json.RawMessage
			_ = json.Unmarshal(p.File, &f)
			for k, v := range f {
				if v != nil {
					out[k] = v
				}
			}
		} else {
			out["file"] = p.File
		}
	}
	if len(p.Metadata) > 0 {
		out["metadata"] = p.Metadata
	}
	return out
}
