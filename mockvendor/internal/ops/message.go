package ops

import (
	"encoding/json"
	"strconv"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// SkillOf reads the skill a message is for: params.metadata.skillId
// (params), then params.message.metadata.skillId.
func SkillOf(params string, msg map[string]any) string {
	if params != "" {
		return params
	}
	if s, ok := msg["skillId"].(string); ok {
		return s
	}
	return ""
}

// ProbeText is the text of a probe part [card as claim, not contract: Decision Boundary].
const ProbeText = "__probe__"

// IsProbe reports whether a send is a probe: its only text part is
// __probe__, or params, message or a part carries a2a_probe: true.
func IsProbe(params SendMetadata, m *a2a.Message) bool {
	if params.Probe || m.Metadata["a2a_probe"] == true {
		return true
	}
	texts := 0
	probeText := false
	for _, p := range m.Parts {
		if p.Metadata["a2a_probe"] == true {
			return true
		}
		switch p.Kind {
		case "text":
			texts++
			probeText = p.Text == ProbeText
		case "data":
			var d map[string]any
			if json.Unmarshal(p.Data, &d) == nil && d["a2a_probe"] == true {
				return true
			}
		}
	}
	return texts == 1 && probeText
}

// summarize describes a message's parts in one line for the trace
// ("text \"...\", data {...}"), each at most 80 bytes of its content.
func summarize(m *a2a.Message) string { return string(appendSummary(nil, m)) }

// appendSummary appends summarize(m) to b.
func appendSummary(b []byte, m *a2a.Message) []byte {
	for i, p := range m.Parts {
		if i > 0 {
			b = append(b, ", "...)
		}
		switch p.Kind {
		case "text":
			b = strconv.AppendQuote(append(b, "text "...), clip(p.Text, 80))
		case "data":
			b = append(append(b, "data "...), clip(string(p.Data), 80)...)
		default:
			b = append(b, p.Kind...)
		}
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
