package fault

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// MessageReply makes a vendor answer every send with a Message and create
// no task, and every stream with that one Message: a reply that is the
// whole interaction (A2A 1.0 §3.1.1, a send answers a Task or a Message;
// A2A CLI A2ACLI_SEND_003). It breaks no clause: an agent MAY answer a
// send with a Message (§3.1.1). Probes get a message too. A 0.1 send, whose
// answer is always a task, is left alone.
type MessageReply struct{}

func init() {
	Register("message-reply", "sends and streams answer a Message and create no task", func() any { return &MessageReply{} })
}

// OnCall has a 0.3 or 1.0 send or stream answered with a Message
// (CallHook).
func (MessageReply) OnCall(c *Call) *CallError {
	if (c.Op == trace.OpSend || c.Op == trace.OpStream) && c.Dialect != a2a.Dialect01 {
		c.MessageReply = true
		c.Faults = append(c.Faults, "message-reply")
	}
	return nil
}
