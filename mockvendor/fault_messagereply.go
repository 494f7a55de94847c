package mockvendor

// MessageReply makes a vendor answer every send with a Message and create
// no task, and every stream with that one Message: a reply that is the
// whole interaction (A2A 1.0 §3.1.1, a send answers a Task or a Message;
// A2A CLI A2ACLI_SEND_003). It breaks no clause: an agent MAY answer a
// send with a Message (§3.1.1). Probes get a message too. A 0.1 send, whose
// answer is always a task, is left alone.
type MessageReply struct{}

func init() {
	registerFault("message-reply", "sends and streams answer a Message and create no task", func() any { return &MessageReply{} })
}

func (MessageReply) onCall(c *Call) *CallError {
	if (c.Op == OpSend || c.Op == OpStream) && c.Dialect != Dialect01 {
		c.MessageReply = true
		c.Faults = append(c.Faults, "message-reply")
	}
	return nil
}
