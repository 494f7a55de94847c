package fault

import (
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TaskOutcome makes the real tasks a vendor creates end in another state
// than completed, pause at an interrupted state, or stay working for a
// while first: the lifecycle of a real agent beyond submitted -> working
// -> completed (the proto's enum TaskState; A2A 1.0 §3.2.2 names the
// terminal and interrupted states). Probes are left alone. A send is
// answered at once with the task as it is then (working, while WorkingMs
// runs), whatever its blocking mode asks, as an agent that answers long
// work early does (a blocking send held for the whole work would hide the
// polling the LIFE scenarios judge); a stream sends the task and its
// working status at once and the rest when the work ends, and closes at an
// interrupted state too (A2A 1.0 §11.7). Each dialect spells the state its
// own way (TASK_STATE_* in 1.0; 0.1, which has neither rejected nor
// auth-required, says failed and input-required).
//
// With WorkingMs set, the early answer to a blocking send (one that did
// not ask to return immediately) breaks A2A 1.0 §3.2.2 and the proto's
// SendMessageConfiguration.return_immediately: a blocking send MUST wait
// until the task is terminal or interrupted. (§3.1.1 says a send MUST
// return immediately with task information; on that reading the answer is
// honest.) Closing the stream at auth-required goes against A2A 1.0
// §7.6.1, which asks an agent to keep it open (SHOULD). Without WorkingMs
// the vendor breaks no clause: a task may end in any of these states.
type TaskOutcome struct {
	// State is the state the task reaches, in the 0.3 spelling: completed,
	// failed, rejected, canceled, input-required or auth-required. Empty
	// means completed.
	State string `json:"state,omitempty" doc:"the state the task reaches (completed, failed, rejected, canceled, input-required, auth-required); empty means completed"`
	// WorkingMs is how long the task stays working before it reaches
	// State, in milliseconds. Zero means it is there when the send is
	// answered.
	WorkingMs int `json:"workingMs,omitempty" doc:"milliseconds the task stays working first; 0 means none"`
}

// taskOutcomeStates are the states TaskOutcome.State may name.
var taskOutcomeStates = []string{"completed", "failed", "rejected", "canceled", "input-required", "auth-required"}

func init() {
	Register("task-outcome", "real tasks end in another state, pause at an interrupted one, or stay working first", func() any { return &TaskOutcome{} })
}

func (o *TaskOutcome) validate() error {
	if o.State != "" && !slices.Contains(taskOutcomeStates, a2a.NormalState(o.State)) {
		return fmt.Errorf("state %q is not one of %v", o.State, taskOutcomeStates)
	}
	if o.WorkingMs < 0 {
		return fmt.Errorf("workingMs must not be negative")
	}
	return nil
}

// OnCall sets the end state and working time of the task a real send or
// stream creates (CallHook).
func (o *TaskOutcome) OnCall(c *Call) *CallError {
	if c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream) {
		return nil
	}
	c.EndState = a2a.NormalState(o.State)
	c.WorkFor = time.Duration(o.WorkingMs) * time.Millisecond
	c.Faults = append(c.Faults, "task-outcome")
	return nil
}
