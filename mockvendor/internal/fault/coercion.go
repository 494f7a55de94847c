package fault

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// InputModeCoercion silently turns each text part sent to a skill whose input
// modes do not accept text into a data part {"text": ...}, and records the
// coercion [card as claim, not contract: What Was Observed, step 5]. Coercing
// instead of refusing breaks A2A 1.0 §3.3.2: servers MUST validate all input
// parameters, and an unsupported content type is a validation error
// (ContentTypeNotSupportedError, -32005, in §5.4).
type InputModeCoercion struct{}

func init() {
	Register("input-mode-coercion", "text parts for a non-text skill become data parts {\"text\": ...}", func() any { return &InputModeCoercion{} })
}

// OnCall turns the text parts of a message for a skill that takes no text
// into data parts and records each coercion (CallHook).
func (InputModeCoercion) OnCall(c *Call) *CallError {
	if c.Message == nil {
		return nil
	}
	skill := c.Skill
	if skill == "" {
		skill = c.Vendor.DefaultSkill()
	}
	if acceptsText(c.Vendor.InputModes(skill)) {
		return nil
	}
	for i, p := range c.Message.Parts {
		if p.Kind != "text" {
			continue
		}
		data, _ := json.Marshal(map[string]string{"text": p.Text})
		c.Message.Parts[i] = a2a.Part{Kind: "data", Data: data, Metadata: p.Metadata}
		c.Coercions = append(c.Coercions, trace.Coercion{Part: i, From: "text", To: "data"})
	}
	if len(c.Coercions) > 0 {
		c.Faults = append(c.Faults, "input-mode-coercion")
	}
	return nil
}

// acceptsText reports whether input modes take text parts.
func acceptsText(modes []string) bool {
	return slices.ContainsFunc(modes, func(m string) bool { return m == "text/plain" || m == "text" || strings.HasPrefix(m, "text/") })
}
