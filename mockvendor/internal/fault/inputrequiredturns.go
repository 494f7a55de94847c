package fault

import (
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// InputRequiredTurns makes the real tasks a vendor creates ask the caller
// before they complete: the task pauses at input-required with a question
// in its status message, Turns times, and completes with its result
// artifact after the caller's Turns-th answer, each a message that names
// the task (taskId, and its contextId or none) sent while it asks (A2A 1.0
// §3.4.3, Input Required State). A send is answered at the question (a
// blocking send returns at an interrupted state, §3.2.2); a stream closes
// there (§11.7). Probes are left alone. It breaks no clause: an agent may
// ask for more input.
//
// With EndsMeanwhile set, the task waits for its last answer in vain: it
// ends in that state just as the answer arrives, which the vendor then
// refuses as a message to a terminal task (-32004 UnsupportedOperationError,
// A2A 1.0 §3.1.1). That is an agent that gave up waiting, which no clause
// forbids either.
type InputRequiredTurns struct {
	// Turns is how many times the task asks. Zero means once.
	Turns int `json:"turns,omitempty" doc:"how many times the task pauses at input-required before it completes; 0 means once"`
	// Question is the text of the agent's question; the task's turn
	// number follows it. Empty means "Which ledger should I reconcile?".
	Question string `json:"question,omitempty" doc:"the text of the agent's question (the turn number follows it); empty means a default question"`
	// EndsMeanwhile is the terminal state (failed, canceled or rejected)
	// the task reaches just before its last answer arrives, so that the
	// answer is refused. Empty means the task takes every answer.
	EndsMeanwhile string `json:"endsMeanwhile,omitempty" doc:"terminal state (failed, canceled, rejected) the task reaches just before its last answer arrives, which is then refused with -32004; empty means every answer is taken"`
}

// DefaultQuestion is the question of an InputRequiredTurns with none.
const DefaultQuestion = "Which ledger should I reconcile?"

// endsMeanwhileStates are the states InputRequiredTurns.EndsMeanwhile may
// name.
var endsMeanwhileStates = []string{"failed", "canceled", "rejected"}

func init() {
	Register("input-required-turns", "real tasks pause at input-required with a question, turns times, and complete after the last answer (or end before it arrives)", func() any { return &InputRequiredTurns{} })
}

func (o *InputRequiredTurns) validate() error {
	if o.Turns < 0 {
		return fmt.Errorf("turns must not be negative")
	}
	if o.EndsMeanwhile != "" && !slices.Contains(endsMeanwhileStates, a2a.NormalState(o.EndsMeanwhile)) {
		return fmt.Errorf("endsMeanwhile %q is not one of %v", o.EndsMeanwhile, endsMeanwhileStates)
	}
	return nil
}

// OnCall makes the task a real send or stream creates ask (CallHook). A
// continuation is left alone: the task it names keeps its own turns.
func (o *InputRequiredTurns) OnCall(c *Call) *CallError {
	if c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream) || c.Message != nil && c.Message.TaskID != "" {
		return nil
	}
	c.Asks = max(o.Turns, 1)
	c.Question = o.Question
	if c.Question == "" {
		c.Question = DefaultQuestion
	}
	c.EndsMeanwhile = a2a.NormalState(o.EndsMeanwhile)
	c.Faults = append(c.Faults, "input-required-turns")
	return nil
}
