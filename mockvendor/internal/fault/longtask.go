package fault

import (
	"fmt"
	"math"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// LongTask makes the real tasks a vendor creates work for a long time, or
// for ever, as an honest agent doing long work does: a blocking send
// (one that did not ask to return immediately) is held open until the
// task is terminal (A2A 1.0 §3.2.2: a blocking send MUST wait until the
// task is terminal or interrupted), a send that asked to return
// immediately is answered at once with the task working, a stream sends
// the task and its working status at once and the rest when the work
// ends, and GetTask answers working meanwhile. Probes are left alone.
//
// The vendor breaks no MUST of A2A 1.0 §3.2.2 with it. (§3.1.1 says a send
// MUST return immediately with task information; on that reading a held
// blocking send is late, and a client that asked to return immediately is
// answered as that clause wants.) A task that works for ever is honest
// too: no clause bounds a task's work. RefuseCancel answers a cancel of a
// working task with TaskNotCancelableError (-32002), which A2A 1.0 §3.1.5
// allows (success is not guaranteed; cancellation may not be supported at
// the task's current stage).
//
// The held answer ties up one server goroutine and the client's
// connection until the work ends, the client leaves, the task is
// cancelled or the fleet closes, whichever comes first.
type LongTask struct {
	// WorkMs is how long the task works before it completes, in
	// milliseconds. Zero means 40,000 (longer than the common 30 s HTTP
	// client timeout).
	WorkMs int `json:"workMs,omitempty" doc:"milliseconds the task works before it completes; 0 means 40000"`
	// Forever keeps the task working until it is cancelled: it never
	// completes (WorkMs is then ignored). False means it completes.
	Forever bool `json:"forever,omitempty" doc:"the task works until cancelled and never completes; false means it completes after workMs"`
	// RefuseCancel answers a cancel of a task still working with -32002
	// (TaskNotCancelableError). False means a cancel is honoured.
	RefuseCancel bool `json:"refuseCancel,omitempty" doc:"a cancel of a working task gets -32002; false means cancels are honoured"`
}

// foreverWork is the work of a task that never completes: about 146
// years, which no timer reaches.
const foreverWork = time.Duration(math.MaxInt64 / 2)

// longTaskDefault is LongTask's work when WorkMs is zero.
const longTaskDefault = 40 * time.Second

func init() {
	Register("long-task", "real tasks work long (or for ever); a blocking send is held until the task ends", func() any { return &LongTask{} })
}

func (l *LongTask) validate() error {
	if l.WorkMs < 0 {
		return fmt.Errorf("workMs must not be negative")
	}
	return nil
}

// work is how long a task works.
func (l *LongTask) work() time.Duration {
	switch {
	case l.Forever:
		return foreverWork
	case l.WorkMs == 0:
		return longTaskDefault
	}
	return time.Duration(l.WorkMs) * time.Millisecond
}

// OnCall makes a real send's or stream's task work long, its blocking
// answer held; with RefuseCancel, cancels are refused (CallHook).
func (l *LongTask) OnCall(c *Call) *CallError {
	switch {
	case c.Op == trace.OpCancel && l.RefuseCancel:
		c.RefuseCancel = true
	case c.Probe || (c.Op != trace.OpSend && c.Op != trace.OpStream):
		return nil
	default:
		c.WorkFor = l.work()
		c.HoldBlocking = true
	}
	c.Faults = append(c.Faults, "long-task")
	return nil
}
