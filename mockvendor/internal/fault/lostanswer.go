package fault

import (
	"fmt"
	"sync"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// LostAnswer makes the vendor create the task of a real send (or stream)
// and then drop the connection before answering: the client never learns
// the task's id, although the task exists and runs on (a2aproject/A2A#1987,
// a2aproject/A2A#928: a client that retries such a send creates the work twice
// unless the agent can tell the retry from new work). Probes are left
// alone.
//
// An honest vendor deduplicates a resend of the same message (A2A 1.0
// §3.3.1: agents may use the messageId to detect duplicates): a retry
// with the lost send's messageId is answered with the task it created; a
// retry with a new messageId creates a second task. The dropped
// connection breaks no clause: it is a network failure to the client.
type LostAnswer struct {
	// Times is how many real sends lose their answer, the first ones.
	// Zero means 1.
	Times int `json:"times,omitempty" doc:"how many real sends (the first ones) lose their answer; 0 means 1"`

	mu   sync.Mutex
	lost int
}

func init() {
	Register("lost-answer", "a real send's task is created, then the connection drops before the answer", func() any { return &LostAnswer{} })
}

func (l *LostAnswer) validate() error {
	if l.Times < 0 {
		return fmt.Errorf("times must not be negative")
	}
	return nil
}

// OnCall drops the answer of the first Times real sends and streams
// (CallHook).
func (l *LostAnswer) OnCall(c *Call) *CallError {
	if c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream) {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lost >= max(l.Times, 1) {
		return nil
	}
	l.lost++
	c.DropAnswer = true
	c.Faults = append(c.Faults, "lost-answer")
	return nil
}
