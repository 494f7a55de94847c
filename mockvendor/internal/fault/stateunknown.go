package fault

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StateUnknown has a real stream announce its task in a state the client
// may not know, after the working status and before the task goes on to
// its end: TASK_STATE_UNSPECIFIED, the proto's zero value ("an unknown or
// indeterminate state", never terminal: A2A 1.0 §4.1.3 names completed,
// failed, canceled and rejected terminal), or a state no version defines.
// Clients have taken either for the end of the task (a2aproject/a2a-java
// PR 974, a2aproject/a2a-python PR 1217). It breaks the proto's
// TaskStatus.state (REQUIRED: the zero value is no state) or its enum
// TaskState (a state outside the enum). The 1.0 dialect sends State as
// given; 0.3 and 0.1 send "unknown" for TASK_STATE_UNSPECIFIED (their own
// word for it, a state those versions define) and the state lowercased
// otherwise. Probes are left alone.
type StateUnknown struct {
	// State is the state announced, in the 1.0 spelling. Empty means
	// TASK_STATE_UNSPECIFIED.
	State string `json:"state,omitempty" doc:"the state announced, 1.0 spelling; empty means TASK_STATE_UNSPECIFIED"`
}

func init() {
	Register("state-unknown", "a stream announces its task in an unknown or unspecified state before it goes on", func() any { return &StateUnknown{} })
}

func (s *StateUnknown) validate() error {
	if st := a2a.NormalState(s.State); st != "" && knownTaskState(st) {
		return &ConfigError{Field: "state", Msg: fmt.Sprintf("%q is a task state clients know; want TASK_STATE_UNSPECIFIED or an unknown one", s.State)}
	}
	return nil
}

// knownTaskState reports whether a (0.3-spelled) state is one of the
// eight the versions define.
func knownTaskState(st string) bool {
	switch st {
	case "submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected":
		return true
	}
	return false
}

// OnCall inserts the unknown state into a real stream (CallHook).
func (s *StateUnknown) OnCall(c *Call) *CallError {
	if c.Op != trace.OpStream || c.Probe {
		return nil
	}
	st := cmp.Or(s.State, "TASK_STATE_UNSPECIFIED")
	if c.Dialect != a2a.Dialect10 {
		st = strings.ToLower(strings.TrimPrefix(st, "TASK_STATE_"))
		if st == "unspecified" {
			st = "unknown"
		}
	}
	c.StreamState = st
	c.Faults = append(c.Faults, "state-unknown")
	return nil
}
