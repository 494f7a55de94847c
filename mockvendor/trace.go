package mockvendor

import (
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The wire trace lives in mockvendor/internal/trace (layer 0); these
// aliases keep its public names here, where the fleet's users find them.

// Results is what an answer delivered of a task's results (Event.Results):
// the artifacts whole and the text of the status message.
type Results = trace.Results

// UpstreamExchange is what the event of a vendor in front of a real agent
// records of its exchange with the agent (Event.Upstream): the request
// forwarded, the agent's answer or why none came.
type UpstreamExchange = trace.Upstream

// Op is the normalized operation a request performed, whatever its dialect.
type Op = trace.Op

// The normalized operations of the catalog's wire trace (the trace
// package documents each).
const (
	OpCardFetch = trace.OpCardFetch
	OpJWKSFetch = trace.OpJWKSFetch
	OpSend      = trace.OpSend
	OpStream    = trace.OpStream
	OpGet       = trace.OpGet
	OpCancel    = trace.OpCancel
	// OpList is ListTasks (A2A 1.0 §3.1.4).
	OpList = trace.OpList
	// OpSubscribe is SubscribeToTask (A2A 1.0 §3.1.6), and 0.3's
	// tasks/resubscribe.
	OpSubscribe = trace.OpSubscribe
	// OpPushConfig is one of the four push-notification config methods
	// (A2A 1.0 §3.1.7 to §3.1.10, and their 0.1 and 0.3 names).
	OpPushConfig = trace.OpPushConfig
	// OpExtendedCard is GetExtendedAgentCard (A2A 1.0 §3.1.11) and 0.3's
	// agent/getAuthenticatedExtendedCard.
	OpExtendedCard = trace.OpExtendedCard
	// OpOther is a request no operation answers: an unknown method, a
	// path no route serves.
	OpOther = trace.OpOther
	// OpRefused is a proxy refusal: a connection attempt to a host outside
	// the fleet.
	OpRefused = trace.OpRefused
	// OpTLSFailed is a connection whose TLS handshake the client broke off
	// after its ClientHello (it did not accept the host's certificate).
	OpTLSFailed = trace.OpTLSFailed
	// OpConnRefused is a connection a dead endpoint (the
	// refuse-connections fault) closed at once, before TLS.
	OpConnRefused = trace.OpConnRefused
	// OpToken is a request to an OAuth 2.0 token endpoint of the fleet
	// (RFC 6749 §3.2, HostConfig.TokenPath).
	OpToken = trace.OpToken
	// OpConnLimit is a request refused because it came on a connection
	// past Limits.MaxConns with no idle connection to reclaim.
	OpConnLimit = trace.OpConnLimit
	// OpPushDelivery is an outbound event: one attempt to POST a push
	// notification to a config's URL, or a notification (or a retry) not
	// made (push_deliver.go).
	OpPushDelivery = trace.OpPushDelivery
)

// The bounds on what one event keeps (the trace package documents each).
const (
	// MaxTracedBody is the largest request body an event keeps (64 KiB).
	// All kept bodies together stay within Limits.MaxTraceBodyBytes.
	MaxTracedBody = trace.MaxTracedBody
	// MaxTracedErrorData is the largest error data object an event keeps
	// (4 KiB).
	MaxTracedErrorData = trace.MaxTracedErrorData
	// MaxTracedField is the most bytes an event keeps of any one text
	// field (256); a longer value is cut and named in Event.Clipped.
	MaxTracedField = trace.MaxTracedField
	// MaxTracedSeen is the most states an event's Seen lists (16).
	MaxTracedSeen = trace.MaxTracedSeen
	// MaxTracedDepth is the deepest nesting of arrays and objects a JSON
	// value the trace keeps as JSON may have (32); a body nested deeper
	// is kept as text (Event.RequestText).
	MaxTracedDepth = trace.MaxTracedDepth
	// MaxBodyDepth is the deepest a request body may nest arrays and
	// objects (10,000); a body nested deeper is answered -32700 saying
	// "nested deeper than 10000" (a2a.TooDeep).
	MaxBodyDepth = trace.MaxBodyDepth
)

// Event is one request as the fleet saw and answered it (or one outbound
// push delivery).
type Event = trace.Event

// Coercion records a part the vendor silently changed.
type Coercion = trace.Coercion

// Webhook is a push-notification config as a request registered it
// (Event.Webhook): its URL and a fingerprint of its credentials.
type Webhook = trace.Webhook

// Kinds of push notification of the push-trials fault (Event.Delivery;
// the trace package documents each).
const (
	DeliveryGenuine     = trace.DeliveryGenuine
	DeliveryDuplicate   = trace.DeliveryDuplicate
	DeliveryUnknownTask = trace.DeliveryUnknownTask
	DeliveryForged      = trace.DeliveryForged
	DeliveryUnsigned    = trace.DeliveryUnsigned
)

// Presented is one credential a request presented, as the trace records
// it: whose it was (a vendor id, or CredentialUnknown) and how.
type Presented = trace.Presented

// SeenState is one task state a stream frame delivered (Event.Seen).
type SeenState = trace.SeenState

// Trace is the fleet's record of every request to every host, in arrival
// order, as its users read it (Fleet.Trace); the fleet alone records into
// it. It is safe for concurrent use. Past its cap it drops the oldest
// events.
type Trace struct{ t *trace.Trace }

// Open returns how many requests have arrived and are not answered yet.
func (t *Trace) Open() int { return t.t.Open() }

// Events returns a copy of the recorded events in arrival order.
func (t *Trace) Events() []Event { return t.t.Events() }

// Since returns the events with a sequence number greater than seq.
func (t *Trace) Since(seq int64) []Event { return t.t.Since(seq) }

// Seq returns the sequence number of the newest event (0 when empty).
func (t *Trace) Seq() int64 { return t.t.Seq() }

// BodiesLeftOut counts the request bodies not kept because the trace's
// body budget (Limits.MaxTraceBodyBytes) was spent.
func (t *Trace) BodiesLeftOut() int64 { return t.t.BodiesLeftOut() }

// Dropped counts the events dropped past the cap.
func (t *Trace) Dropped() int64 { return t.t.Dropped() }

// Reset forgets every event.
func (t *Trace) Reset() { t.t.Reset() }

// Subscribe returns a channel that receives each new event (buffered; a
// reader that falls behind misses events) and a function that ends the
// subscription.
func (t *Trace) Subscribe() (<-chan Event, func()) { return t.t.Subscribe() }

// MarshalJSON exports the events as a JSON array.
func (t *Trace) MarshalJSON() ([]byte, error) { return t.t.MarshalJSON() }

// Ops lists every Op the trace records.
func Ops() []Op { return slices.Clone(trace.Ops) }
