package mockvendor

import "time"

// Call is one JSON-RPC call as the faults see it. Faults may change the
// fields below "fault outputs".
type Call struct {
	Vendor *Vendor
	// Host is the host the call reached (bare-IP hosts as 127.0.0.1:PORT).
	Host    string
	hostKey string // configured name; "127.0.0.1" for bare-IP hosts
	Region  string
	Method  string
	Op      Op
	Dialect Dialect
	// A2AVersion is the request's A2A-Version header ("" when absent).
	A2AVersion string
	// Skill is the skill id the message names ("" = the default skill).
	Skill string
	// Probe is true for a probe send.
	Probe bool
	// Message is the decoded message of a send or stream (nil otherwise).
	Message *Message

	// Fault outputs.

	// AnySkill makes the endpoint run any skill (a reseller gateway's runtime).
	AnySkill bool
	// Hold keeps the task the call creates open (working) until cancelled.
	Hold bool
	// StreamAsJSON answers a stream method with a plain JSON response.
	StreamAsJSON bool
	// FirstFrameDelay holds a stream open this long before its first event.
	FirstFrameDelay time.Duration
	// EndState is the state (0.3 spelling) the task the call creates
	// reaches in place of completed ("": completed), and WorkFor how long
	// it stays working first (0: it is there when the send is answered).
	EndState string
	WorkFor  time.Duration
	// Artifacts are the artifacts the task the call creates holds once
	// completed, in place of its one text artifact (nil: that one; the
	// artifacts fault).
	Artifacts []ArtifactSpec
	// MessageReply answers a send or stream with a Message and creates no
	// task (0.3 and 1.0; a 0.1 send always answers a task).
	MessageReply bool
	// StreamCut ends a stream after its first StreamCut events, the task
	// still running (0: no cut); StreamAbort breaks the connection off
	// there instead of ending the stream cleanly.
	StreamCut   int
	StreamAbort bool
	// Coercions are the parts a fault changed.
	Coercions []Coercion
	// Faults names the faults that acted on the call.
	Faults []string
}
