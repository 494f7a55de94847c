package fault

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// UnknownRole has the agent's messages carry a Role value that A2A 1.0.1
// does not define, as a later version's agent might: every message of a
// real task's answers that the agent sends (role ROLE_AGENT, 0.3 "agent")
// takes Role instead, and each status of a real task past submitted that
// has no message gets one, from the agent in Role, whose one part is Note
// (the agent's remark on its progress). The task's state and its
// artifacts are as honest; probes are left alone.
//
// Proto3 enums are open (a value outside the enum is kept, not refused),
// and A2A 1.0.1 §5.7 asks implementations to ignore unrecognized fields
// for forward compatibility; but §5.5 spells enum values as the proto
// names them, and Role has no such value: a vendor speaking 1.0 that
// sends it departs from §5.5 as a later version's would. The READ-002
// check is therefore delegation-safety. The 0.3 dialect sends Role
// lowercased without its ROLE_ prefix.
type UnknownRole struct {
	// Role is the role sent, in the 1.0 spelling. Empty means
	// ROLE_SYSTEM.
	Role string `json:"role,omitempty" doc:"the role the agent's messages carry, 1.0 spelling; empty means ROLE_SYSTEM"`
	// Note is the text of the status message added where a status has
	// none. Empty means "Working through the ledger."
	Note string `json:"note,omitempty" doc:"the text of the status message added where a status has none; empty means a fixed sentence"`
}

// defaultRoleNote is UnknownRole's Note when its config names none.
const defaultRoleNote = "Working through the ledger."

func init() {
	Register("unknown-role", "the agent's messages carry a Role value A2A 1.0.1 does not define; statuses get such a message", func() any { return &UnknownRole{} })
}

func (u *UnknownRole) validate() error {
	switch strings.ToUpper(u.Role) {
	case "ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED", "USER", "AGENT":
		return &ConfigError{Field: "role", Msg: fmt.Sprintf("%q is a role clients know; want one A2A 1.0.1 does not define", u.Role)}
	}
	return nil
}

// role is the role sent in dialect d.
func (u *UnknownRole) role(d a2a.Dialect) string {
	r := cmp.Or(u.Role, "ROLE_SYSTEM")
	if d != a2a.Dialect10 {
		r = strings.ToLower(strings.TrimPrefix(r, "ROLE_"))
	}
	return r
}

// OnAnswer gives the agent's messages of a real task's answer the role
// (AnswerHook).
func (u *UnknownRole) OnAnswer(c *Call, v map[string]any) {
	if c.Probe {
		return
	}
	role := u.role(c.Dialect)
	var taskID, ctxID string
	acted := false
	walkAnswer(v, func(k objKind, m map[string]any) {
		switch k {
		case objTask:
			taskID, _ = m["id"].(string)
			ctxID, _ = m["contextId"].(string)
		case objStatusUpdate:
			taskID, _ = m["taskId"].(string)
			ctxID, _ = m["contextId"].(string)
		case objStatus:
			if _, has := m["message"]; !has && taskID != "" && !submitted(m["state"]) {
				m["message"] = u.note(c.Dialect, taskID, ctxID)
				acted = true
			}
		case objMessage:
			if r, _ := m["role"].(string); r == "ROLE_AGENT" || r == "agent" {
				m["role"] = role
				acted = true
			}
		}
	})
	if acted {
		c.Faults = appendOnce(c.Faults, "unknown-role")
	}
}

// note is the status message added, from the agent in the unknown role.
// Its role is set as the walk reaches it (objMessage after objStatus).
func (u *UnknownRole) note(d a2a.Dialect, taskID, ctxID string) map[string]any {
	text := cmp.Or(u.Note, defaultRoleNote)
	m := &a2a.Message{Role: "agent", MessageID: "m-note-" + taskID, TaskID: taskID, ContextID: ctxID,
		Parts: []a2a.Part{{Kind: "text", Text: text}}}
	return a2a.EncodeMessage(m, d)
}

// submitted reports whether a status's state is submitted, in any
// dialect's spelling.
func submitted(state any) bool {
	s, _ := state.(string)
	return a2a.NormalState(s) == "submitted"
}
