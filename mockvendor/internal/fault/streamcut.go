package fault

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StreamCut ends a stream early, while its task is still running: after
// the task and its working status, the stream either ends cleanly (as a
// load balancer's idle timeout closes it: redpanda-data/console PR 2406,
// a2aproject/a2a-rs issue 186) or, with Abort, breaks off with no proper
// end (the client reads an error). The task itself runs on (with
// task-outcome's WorkingMs, it completes later; without, it has completed
// already, so a resubscription finds it terminal: a2aproject/A2A issue
// 174). Subscriptions are not cut. Probes are left alone.
//
// The clean early end breaks A2A 1.0 §3.1.2: a task's stream MUST close
// when the task reaches a terminal state, so it lasts until then (§11.7:
// until a terminal or interrupted state); the stream ends while the task
// is working, early on either reading. An aborted stream is a network
// interruption to the client (the connection drops mid-stream, no closing
// chunk): no server clause is broken, and A2A 1.0 §3.5.2 names the
// client's remedy, a new stream for the task.
type StreamCut struct {
	// AfterEvents is how many events the stream sends before it ends.
	// Zero means 2 (the task, then its working status). Events count
	// alike in every dialect: a 0.1 stream sends no task event (it starts
	// with the working status), so its wire carries one frame fewer.
	AfterEvents int `json:"afterEvents,omitempty" doc:"events sent before the stream ends; 0 means 2 (the task and its working status)"`
	// Abort breaks the connection off instead of ending the stream
	// cleanly. False means a clean end.
	Abort bool `json:"abort,omitempty" doc:"break the connection off instead of a clean end; false means a clean end"`
}

func init() {
	Register("stream-cut", "a stream ends (or breaks off) while its task is still running", func() any { return &StreamCut{} })
}

func (s *StreamCut) validate() error {
	if s.AfterEvents < 0 {
		return fmt.Errorf("afterEvents must not be negative")
	}
	return nil
}

// OnCall cuts a real stream after its first events (CallHook).
func (s *StreamCut) OnCall(c *Call) *CallError {
	if c.Op != trace.OpStream || c.Probe {
		return nil
	}
	c.StreamCut = s.AfterEvents
	if c.StreamCut == 0 {
		c.StreamCut = 2
	}
	c.StreamAbort = s.Abort
	c.Faults = append(c.Faults, "stream-cut")
	return nil
}
