package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Part is a message part in a generation-neutral form.
type Part struct {
	// Kind is "text", "data" or "file".
	Kind string
	// Text of a text part.
	Text string
	// Data of a data part (any JSON value).
	Data json.RawMessage
	// File parts: inline base64 bytes or a URI, with name and media type.
	Bytes, URI, Name, MediaType string
	// Metadata of the part. Nil means none.
	Metadata map[string]any
}

// Message is an A2A message in a generation-neutral form.
type Message struct {
	MessageID string
	ContextID string
	TaskID    string
	Parts     []Part
	Metadata  map[string]any
}

// wirePart accepts every generation's part: 0.1 "type", 0.2-0.3 "kind",
// 1.0 member names.
type wirePart struct {
	Type      string          `json:"type"`
	Kind      string          `json:"kind"`
	Text      *string         `json:"text"`
	Data      json.RawMessage `json:"data"`
	File      *wireFile       `json:"file"`
	Raw       string          `json:"raw"`
	URL       string          `json:"url"`
	Filename  string          `json:"filename"`
	MediaType string          `json:"mediaType"`
	Metadata  map[string]any  `json:"metadata"`
}

type wireFile struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Bytes    string `json:"bytes"`
	URI      string `json:"uri"`
}

type wireMessage struct {
	MessageID string         `json:"messageId"`
	ContextID string         `json:"contextId"`
	TaskID    string         `json:"taskId"`
	Parts     []wirePart     `json:"parts"`
	Metadata  map[string]any `json:"metadata"`
}

// ParseMessage reads a message in the 0.1, 0.3 or 1.0 shape.
func ParseMessage(raw json.RawMessage) (*Message, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("task.message is missing")
	}
	var wm wireMessage
	if err := json.Unmarshal(raw, &wm); err != nil {
		return nil, fmt.Errorf("task.message: %w", err)
	}
	if len(wm.Parts) == 0 {
		return nil, errors.New("task.message has no parts")
	}
	m := &Message{MessageID: wm.MessageID, ContextID: wm.ContextID, TaskID: wm.TaskID, Metadata: wm.Metadata}
	for i, wp := range wm.Parts {
		kind := wp.Kind
		if kind == "" {
			kind = wp.Type
		}
		if kind == "" {
			switch {
			case wp.Text != nil:
				kind = "text"
			case wp.Data != nil:
				kind = "data"
			case wp.Raw != "" || wp.URL != "":
				kind = "file"
			}
		}
		p := Part{Kind: kind, Metadata: wp.Metadata, MediaType: wp.MediaType, Name: wp.Filename}
		switch kind {
		case "text":
			if wp.Text == nil {
				return nil, fmt.Errorf("task.message.parts[%d]: text part without text", i)
			}
			p.Text = *wp.Text
		case "data":
			if wp.Data == nil {
				return nil, fmt.Errorf("task.message.parts[%d]: data part without data", i)
			}
			p.Data = wp.Data
		case "file":
			if wp.File != nil {
				p.Bytes, p.URI = wp.File.Bytes, wp.File.URI
				if p.Name == "" {
					p.Name = wp.File.Name
				}
				if p.MediaType == "" {
					p.MediaType = wp.File.MimeType
				}
			} else {
				p.Bytes, p.URI = wp.Raw, wp.URL
			}
		default:
			return nil, fmt.Errorf("task.message.parts[%d]: unknown part", i)
		}
		m.Parts = append(m.Parts, p)
	}
	return m, nil
}

// Clone returns a deep enough copy of m to change parts and metadata.
func (m *Message) Clone() *Message {
	c := *m
	c.Parts = append([]Part(nil), m.Parts...)
	c.Metadata = cloneMap(m.Metadata)
	return &c
}

func cloneMap(in map[string]any) map[string]any {
	if in == nil {
		return nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// V10 renders m in the A2A 1.0 shape: role ROLE_USER, member-named parts,
// no kind discriminators.
func (m *Message) V10() map[string]any {
	parts := make([]any, 0, len(m.Parts))
	for _, p := range m.Parts {
		out := map[string]any{}
		switch p.Kind {
		case "text":
			out["text"] = p.Text
		case "data":
			out["data"] = p.Data
		case "file":
			if p.URI != "" {
				out["url"] = p.URI
			} else {
				out["raw"] = p.Bytes
			}
			if p.Name != "" {
				out["filename"] = p.Name
			}
		}
		if p.MediaType != "" {
			out["mediaType"] = p.MediaType
		}
		if len(p.Metadata) > 0 {
			out["metadata"] = p.Metadata
		}
		parts = append(parts, out)
	}
	out := map[string]any{"role": "ROLE_USER", "messageId": m.MessageID, "parts": parts}
	m.common(out)
	return out
}

// V03 renders m in the A2A 0.3 shape: kind discriminators, role "user".
func (m *Message) V03() map[string]any {
	parts := make([]any, 0, len(m.Parts))
	for _, p := range m.Parts {
		out := map[string]any{"kind": p.Kind}
		switch p.Kind {
		case "text":
			out["text"] = p.Text
		case "data":
			out["data"] = p.Data
		case "file":
			f := map[string]any{}
			if p.URI != "" {
				f["uri"] = p.URI
			} else {
				f["bytes"] = p.Bytes
			}
			if p.Name != "" {
				f["name"] = p.Name
			}
			if p.MediaType != "" {
				f["mimeType"] = p.MediaType
			}
			out["file"] = f
		}
		if len(p.Metadata) > 0 {
			out["metadata"] = p.Metadata
		}
		parts = append(parts, out)
	}
	out := map[string]any{"kind": "message", "role": "user", "messageId": m.MessageID, "parts": parts}
	m.common(out)
	return out
}

func (m *Message) common(out map[string]any) {
	if m.ContextID != "" {
		out["contextId"] = m.ContextID
	}
	if m.TaskID != "" {
		out["taskId"] = m.TaskID
	}
	if len(m.Metadata) > 0 {
		out["metadata"] = m.Metadata
	}
}

// Text returns the text of m's text parts joined by newlines (data parts
// as their JSON), for senders that only speak text.
func (m *Message) Text() string {
	var b []string
	for _, p := range m.Parts {
		switch p.Kind {
		case "text":
			b = append(b, p.Text)
		case "data":
			b = append(b, string(p.Data))
		}
	}
	return strings.Join(b, "\n")
}

// NormalState turns any generation's task state spelling into the 0.3 one
// ("TASK_STATE_INPUT_REQUIRED" -> "input-required").
func NormalState(s string) string {
	if rest, ok := strings.CutPrefix(s, "TASK_STATE_"); ok {
		return strings.ReplaceAll(strings.ToLower(rest), "_", "-")
	}
	return strings.ToLower(s)
}

// Terminal reports whether a normalized state is terminal.
func Terminal(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}
