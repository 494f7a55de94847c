package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Op is the normalized operation a request performed, whatever its dialect.
type Op string

// The normalized operations of the catalog's wire trace.
const (
	OpCardFetch Op = "card-fetch"
	OpJWKSFetch Op = "jwks-fetch"
	OpSend      Op = "send"
	OpStream    Op = "stream"
	OpGet       Op = "get"
	OpCancel    Op = "cancel"
	// OpList is ListTasks (A2A 1.0 §3.1.4).
	OpList Op = "list"
	// OpSubscribe is SubscribeToTask (A2A 1.0 §3.1.6), and 0.3's
	// tasks/resubscribe.
	OpSubscribe Op = "subscribe"
	// OpPushConfig is one of the four push-notification config methods
	// (A2A 1.0 §3.1.7 to §3.1.10, and their 0.1 and 0.3 names).
	OpPushConfig Op = "push-config"
	// OpExtendedCard is GetExtendedAgentCard (A2A 1.0 §3.1.11) and 0.3's
	// agent/getAuthenticatedExtendedCard.
	OpExtendedCard Op = "extended-card"
	// OpOther is a request no operation answers: an unknown method, a
	// path no route serves.
	OpOther Op = "other"
	// OpRefused is a proxy refusal: a connection attempt to a host outside
	// the fleet.
	OpRefused Op = "proxy-refused"
	// OpTLSFailed is a connection whose TLS handshake the client broke off
	// after its ClientHello (it did not accept the host's certificate): the
	// only trace of a client that verified and refused.
	OpTLSFailed Op = "tls-handshake-failed"
	// OpConnRefused is a connection a dead endpoint (the
	// refuse-connections fault) closed at once, before TLS.
	OpConnRefused Op = "connection-refused"
	// OpConnLimit is a request refused because it came on a connection
	// past the fleet's Limits.MaxConns with no idle connection to
	// reclaim: answered 503 with Retry-After, its host (or proxy target),
	// method and path kept.
	OpConnLimit Op = "connection-limit"
	// OpPushDelivery is an outbound event: one attempt to POST a push
	// notification to a config's URL, or a notification (or a retry) not
	// made: its URL is not loopback, it was dropped from a full queue, or
	// the fleet closed first. Event.URL names the target, Event.Attempt
	// the attempt (0 for one not made), Event.Status the receiver's HTTP
	// status (0 when none came), Event.DeliveryError why it failed or was
	// not made.
	OpPushDelivery Op = "push-delivery"
	// OpToken is a request to an OAuth 2.0 token endpoint of the fleet
	// (RFC 6749 §3.2): Event.Note says the grant, how the client
	// authenticated and which access token was issued, or why none was.
	OpToken Op = "token"
)

// Ops lists every Op, in the order above.
var Ops = []Op{OpCardFetch, OpJWKSFetch, OpSend, OpStream, OpGet, OpCancel, OpList, OpSubscribe,
	OpPushConfig, OpExtendedCard, OpOther, OpRefused, OpTLSFailed, OpConnRefused, OpConnLimit, OpPushDelivery, OpToken}

// MaxTracedBody is the largest request body an event keeps (64 KiB). All
// kept bodies together stay within the trace's body budget (the fleet's
// Limits.MaxTraceBodyBytes).
const MaxTracedBody = 64 << 10

// MaxTracedErrorData is the largest error data object an event keeps
// (4 KiB).
const MaxTracedErrorData = 4 << 10

// MaxTracedField is the most bytes an event keeps of any one text field
// (a header, the path, the method, the skill, the task id, the JSON-RPC id,
// a message): a longer value is cut to this many bytes (at a UTF-8
// boundary) and the field is named in Event.Clipped. Ordinary values are a
// few dozen bytes; the cap bounds what a hostile client can make one event
// hold.
const MaxTracedField = 256

// maxTracedCoercions is the most coercions an event lists.
const maxTracedCoercions = 16

// Coercion records a part the vendor silently changed.
type Coercion struct {
	// Part is the index of the part in the message.
	Part int `json:"part"`
	// From and To are the part kinds before and after ("text" -> "data").
	From string `json:"from"`
	To   string `json:"to"`
}

// Event is one request as the fleet saw and answered it.
type Event struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	// DurationMs is how long the answer took, in milliseconds.
	DurationMs float64 `json:"durationMs"`
	// Vendor is the id of the vendor that owns the host ("" for refusals).
	Vendor string `json:"vendor,omitempty"`
	// Host is the fleet host name the request reached ("rpc.agent-b.example",
	// or "127.0.0.1:PORT" for a bare-IP host; the refused target for
	// refusals).
	Host string `json:"host"`
	// ServerName is the TLS SNI the client sent ("" when none or plain HTTP).
	ServerName string `json:"serverName,omitempty"`
	HTTPMethod string `json:"httpMethod,omitempty"`
	Path       string `json:"path,omitempty"`
	Op         Op     `json:"op"`
	// Method is the raw JSON-RPC method; Dialect is "0.1", "0.3" or "1.0".
	Method  string `json:"method,omitempty"`
	Dialect string `json:"dialect,omitempty"`
	// Binding is "HTTP+JSON" for a request to the 1.0 REST binding, "GRPC"
	// for a call of the gRPC binding (the method is then the operation's
	// 1.0 name; for a method A2AService does not have, the full gRPC
	// method name); empty for JSON-RPC.
	Binding string `json:"binding,omitempty"`
	// RPCID is the JSON-RPC id as sent (absent for notifications).
	RPCID json.RawMessage `json:"rpcId,omitempty"`
	// Headers that matter to the checks.
	A2AVersion    string `json:"a2aVersion,omitempty"`
	HasA2AVersion bool   `json:"hasA2aVersion,omitempty"`
	// A2AVersionQuery is the A2A-Version query parameter, which a client
	// may send instead of the header [A2A 1.0 §3.6.1] ("" when absent).
	A2AVersionQuery string `json:"a2aVersionQuery,omitempty"`
	CacheControl    string `json:"cacheControl,omitempty"`
	Pragma          string `json:"pragma,omitempty"`
	IfNoneMatch     string `json:"ifNoneMatch,omitempty"`
	Authorization   bool   `json:"authorization,omitempty"`
	// A2AExtensions is the request's A2A-Extensions header, the extension
	// URIs a 1.0 client activates (A2A 1.0 §3.2.6, §9.2); XA2AExtensions
	// its X-A2A-Extensions header, the name 0.3 gave it. Several header
	// lines are joined with ", ". Empty when absent.
	A2AExtensions  string `json:"a2aExtensions,omitempty"`
	XA2AExtensions string `json:"xA2aExtensions,omitempty"`
	// Credentials are the credentials the request presented: whose each
	// was (a vendor id, or the fleet's CredentialUnknown) and how, never
	// the value (the fleet's auth.go). Empty means none.
	Credentials []Presented `json:"credentials,omitempty"`
	// Request is the JSON-RPC request as received, when it parsed as JSON,
	// is valid UTF-8, is nested at most MaxTracedDepth deep, is at most
	// MaxTracedBody bytes and fits in what is left of the body budget
	// (Limits.MaxTraceBodyBytes); other requests are judged from the other
	// fields (the fleet parsed them in full). The checks read it through
	// Body.
	Request json.RawMessage `json:"request,omitempty"`
	// RequestText is a body that would be in Request but for its nesting
	// deeper than MaxTracedDepth: its text, as a JSON string (at most
	// MaxTracedBody bytes, counted in the body budget). Empty otherwise.
	RequestText string `json:"requestText,omitempty"`
	// RequestNotKept says why a JSON body that arrived is not in Request
	// ("over the trace's body budget", "not valid UTF-8 (or a lone
	// surrogate escape)": what strict parsers refuse; "nested deeper than
	// 32 levels: kept as text in requestText"), and RequestSize is then its
	// length in bytes. Both are empty when Request holds the body, or when
	// the body was not JSON or over MaxTracedBody.
	RequestNotKept string `json:"requestNotKept,omitempty"`
	RequestSize    int    `json:"requestSize,omitempty"`
	// Clipped names the fields cut to MaxTracedField bytes ("path",
	// "rpcId", ...), and "coercions" when more than 16 were made.
	Clipped []string `json:"clipped,omitempty"`
	// Tenant is the tenant the request named: params.tenant (JSON-RPC) or
	// the /{tenant}/ path segment (HTTP+JSON); "" when none.
	Tenant string `json:"tenant,omitempty"`
	// Skill is the skill id the message was for ("" = the default skill).
	Skill string `json:"skill,omitempty"`
	// Probe is true for a send whose only text is __probe__ or whose metadata
	// has a2a_probe: true, and for a get or cancel of a synthetic task id
	// marked the same way (params.metadata.a2a_probe, or an id starting
	// with __probe__).
	Probe bool `json:"probe,omitempty"`
	// TaskID is the task issued (send/stream) or referenced (get/cancel).
	TaskID string `json:"taskId,omitempty"`
	// Status is the HTTP status answered; ContentType its content type.
	// A gRPC call (always HTTP 200 on the wire) records the status the
	// other bindings record for its outcome: 200, or 401 for an
	// authentication refusal (its gRPC status is UNAUTHENTICATED); its
	// error is in ErrorCode as theirs is.
	Status      int    `json:"status"`
	ContentType string `json:"contentType,omitempty"`
	// State is the task state answered, normalized to the 0.3 spelling.
	// For a stream (a streamed send, a subscription) it is the last state
	// its frames delivered, "" when none was written: what the client
	// could have seen, not where the task was headed.
	State string `json:"state,omitempty"`
	// Seen lists, for a stream, each task state a frame delivered, in the
	// order written, with the time the frame was written and flushed:
	// when the client could first have seen it. A stream cut or left
	// before its final frame does not list the final state. At most
	// MaxTracedSeen entries (then "seen" is named in Clipped). Empty for
	// a plain answer, whose State the client saw when it was answered
	// (Time plus DurationMs).
	Seen []SeenState `json:"seen,omitempty"`
	// MessageReply is true when a send or stream was answered by a Message
	// and no task (TaskID is then empty).
	MessageReply bool `json:"messageReply,omitempty"`
	// ErrorCode and ErrorMessage are set when a JSON-RPC error was answered.
	ErrorCode    int    `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// ErrorData is the error's data object as the vendor built it (the 0.x
	// dialects send it as data; 1.0 wraps it in an ErrorInfo array), such
	// as a gateway's availableSkills; at most MaxTracedErrorData bytes and
	// MaxTracedDepth deep, or left out and "errorData" named in Clipped.
	ErrorData json.RawMessage `json:"errorData,omitempty"`
	// Served says which copy of a card answered: "cdn", "origin" or
	// "not-modified"; for a JWKS, the fetch number.
	Served string `json:"served,omitempty"`
	// Coercions applied to the message's parts.
	Coercions []Coercion `json:"coercions,omitempty"`
	// Faults names the faults that changed the answer.
	Faults []string `json:"faults,omitempty"`
	// Results is what the answer delivered of the task's results (its
	// artifacts whole, its status message's text), set by KeepResults.
	// Nil means it delivered none, or they were past MaxTracedResults
	// ("results" is then named in Clipped).
	Results *Results `json:"results,omitempty"`
	// Note is free text (why a request was refused, for one).
	Note string `json:"note,omitempty"`
	// Pending is true while the request is still being answered (a stream
	// held open): the fields the answer fills in are not there yet.
	Pending bool `json:"pending,omitempty"`
	// URL, Attempt and DeliveryError describe an outbound push
	// notification (Op OpPushDelivery, the fleet's push_deliver.go): the
	// config's URL, the attempt (1 to the fleet's MaxPushAttempts; 0 for
	// one not made) and why it failed or was not made ("" when the
	// receiver answered 2xx). Status is then the receiver's answer, 0 when
	// none came; Host is the URL's host, State the task state notified.
	// Empty for requests.
	URL           string `json:"url,omitempty"`
	Attempt       int    `json:"attempt,omitempty"`
	DeliveryError string `json:"deliveryError,omitempty"`
	// Delivery says, for a push notification of a task the push-trials
	// fault follows, which kind of delivery it is (one of the Delivery*
	// constants): genuine, a duplicate of a genuine one, one about a task
	// the client never created, or a forgery. Empty for every other
	// notification: an honest vendor's, all genuine.
	Delivery string `json:"delivery,omitempty"`
	// Webhook is the push-notification config a request registered (a
	// push-config create, or a send that carried one), as the vendor
	// stored it; nil when the request registered none.
	Webhook *Webhook `json:"webhook,omitempty"`
	// Upstream is the exchange with the real agent a proxied vendor
	// forwarded the request to; nil for every other vendor, and for a
	// request the fleet answered itself (a fault's error, a refusal).
	Upstream *Upstream `json:"upstream,omitempty"`
}

// Kinds of push notification of the push-trials fault (Event.Delivery).
const (
	// DeliveryGenuine carries the task's own events with the credentials
	// the client registered.
	DeliveryGenuine = "genuine"
	// DeliveryDuplicate repeats a genuine delivery byte for byte, its
	// headers too (A2A 1.0 §4.3.3: duplicate deliveries may occur).
	DeliveryDuplicate = "duplicate"
	// DeliveryUnknownTask carries the client's credentials and a task id
	// the client never created.
	DeliveryUnknownTask = "unknown-task"
	// DeliveryForged names the client's task with a wrong credential;
	// DeliveryUnsigned names it with none.
	DeliveryForged   = "forged"
	DeliveryUnsigned = "unsigned"
)

// Webhook is a push-notification config as a request registered it: the
// webhook's URL and what authenticates the deliveries to it, told by a
// fingerprint, never the value.
type Webhook struct {
	// URL is the webhook's URL, at most MaxTracedField bytes.
	URL string `json:"url"`
	// Scheme is the authentication scheme the config named ("Bearer";
	// 0.x: the first of its schemes); empty when none.
	Scheme string `json:"scheme,omitempty"`
	// Token is true when the config carried a token.
	Token bool `json:"token,omitempty"`
	// Credential is a fingerprint of the config's credentials (its token
	// and authentication credentials): the first 16 hex digits of their
	// SHA-256, the same for the same credentials; empty when it carried
	// none. Two configs with one fingerprint share their credentials.
	Credential string `json:"credential,omitempty"`
}

// Presented is one credential a request presented, as the trace records it.
type Presented struct {
	// Owner is the id of the vendor that issued the credential, or
	// the fleet's CredentialUnknown.
	Owner string `json:"owner"`
	// Via says how it was presented: "bearer" (Authorization: Bearer),
	// "authorization" (the Authorization header in another form),
	// "header:<Name>" (a request header) or "query:<name>" (a URL query
	// parameter), each with "secret:" before it when the value was an
	// OAuth 2.0 client secret ("secret:basic": inside an Authorization:
	// Basic header; "secret:body": in the request body).
	Via string `json:"via"`
	// Token is the serial number of the OAuth 2.0 access token presented
	// (1 for the first the vendor issued). Zero means the credential was
	// no access token.
	Token int `json:"token,omitempty"`
}

// SeenState is one task state a stream frame delivered (Event.Seen).
type SeenState struct {
	// State is the task state the frame announced, in the 0.3 spelling.
	State string `json:"state"`
	// Time is when the frame was written.
	Time time.Time `json:"time"`
}

// MaxTracedSeen is the most states an event's Seen lists. The fleet's
// streams announce a handful (submitted, working, the end); the cap
// bounds what an event can hold whatever a fault makes a stream send.
const MaxTracedSeen = 16

// Trace records every request to every host in arrival order. It is safe for
// concurrent use. Past its cap it drops the oldest events.
type Trace struct {
	mu sync.Mutex
	// The kept events are the n events from chunks[0][head] on, in
	// chunks of traceChunk events: a new event never moves the old ones
	// (a slice grown by doubling copies every event again, each 568
	// bytes, and leaves the old array to the collector), and dropping the
	// oldest moves head, freeing a chunk once head leaves it.
	chunks  [][]Event
	head, n int
	seq     int64
	max     int
	dropped int64
	open    int // begun and not finished
	subs    map[chan Event]struct{}
	// bodies is the size of the kept events' Request bodies; bodyBudget
	// caps it (the fleet's Limits.MaxTraceBodyBytes).
	bodies, bodyBudget int64
	// bodiesLeftOut counts the bodies not kept for the budget.
	bodiesLeftOut int64
}

// traceChunk is the number of events in one chunk of a trace.
const traceChunk = 1024

// at returns the i-th kept event (0 the oldest).
func (t *Trace) at(i int) *Event {
	j := t.head + i
	return &t.chunks[j/traceChunk][j%traceChunk]
}

// push appends e after the newest event, adding a chunk when the last one
// is full.
func (t *Trace) push(e Event) {
	if j := t.head + t.n; j/traceChunk == len(t.chunks) {
		t.chunks = append(t.chunks, make([]Event, traceChunk))
	}
	*t.at(t.n) = e
	t.n++
}

// dropOldest forgets the k oldest events.
func (t *Trace) dropOldest(k int) {
	for i := 0; i < k; i++ {
		t.bodies -= int64(len(t.at(i).Request) + len(t.at(i).RequestText))
		*t.at(i) = Event{} // let the GC have what it held
	}
	t.head += k
	t.n -= k
	for t.head >= traceChunk {
		t.chunks[0] = nil
		t.chunks = t.chunks[1:]
		t.head -= traceChunk
	}
}

// copyTo copies the kept events from the i-th on into dst, in order, and
// returns how many it copied.
func (t *Trace) copyTo(dst []Event, i int) int {
	m := 0
	for i < t.n && m < len(dst) {
		j := t.head + i
		c := t.chunks[j/traceChunk][j%traceChunk:]
		c = c[:min(len(c), t.n-i)]
		k := copy(dst[m:], c)
		m += k
		i += k
	}
	return m
}

// New returns an empty trace that keeps at most maxEvents events (past
// them it drops the oldest tenth) and at most bodyBudget bytes of request
// bodies (the fleet's Limits.MaxTraceEvents and Limits.MaxTraceBodyBytes,
// after their defaults).
func New(maxEvents int, bodyBudget int64) *Trace {
	return &Trace{max: maxEvents, bodyBudget: bodyBudget, subs: map[chan Event]struct{}{}}
}

// Begin records the arrival of a request and returns its sequence number;
// Finish completes the event once it has been answered. Events keep their
// arrival order even when a slow answer (a stream) finishes after later
// ones. Begin clips the event's text fields (Clip); the fleet calls it,
// not the readers of the trace.
func (t *Trace) Begin(e Event) int64 {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	t.open++
	if t.n >= t.max {
		n := max(t.n/10, 1)
		t.dropOldest(n)
		t.dropped += int64(n)
	}
	t.push(e)
	kept := t.at(t.n - 1)
	kept.Seq, kept.Pending = t.seq, true
	Clip(kept) // on the kept copy: &e would move e to the heap
	return t.seq
}

// Finish applies fill to the event seq (if it is still kept), clips it
// (Clip), keeps its request body only while the body budget lasts, and
// hands the completed event to the subscribers. What fill sets must have
// passed CheckText. The fleet calls it, not the readers of the trace.
func (t *Trace) Finish(seq int64, fill func(*Event)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.open--
	i := t.index(seq)
	if i == t.n || t.at(i).Seq != seq {
		return
	}
	e := t.at(i)
	fill(e)
	e.Pending = false
	Clip(e)
	t.keepBody(e)
	e.DurationMs = float64(time.Since(e.Time).Microseconds()) / 1000
	for ch := range t.subs {
		select {
		case ch <- *e:
		default: // a slow subscriber loses events rather than stalling the fleet
		}
	}
}

// Open returns how many requests have arrived and are not answered yet.
func (t *Trace) Open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.open
}

// strictText reports whether JSON text b is valid UTF-8 with no lone
// surrogate escape (\ud800 without its pair): what a strict parser
// accepts. Outside strings valid JSON has no backslash, so every one
// starts an escape.
func strictText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		if b[i+1] != 'u' {
			i++ // a two-byte escape: \\ \" \n ...
			continue
		}
		r, ok := hex4(b, i+2)
		switch {
		case !ok:
			return false
		case r >= 0xdc00 && r <= 0xdfff:
			return false // a low surrogate alone
		case r >= 0xd800 && r <= 0xdbff:
			lo, ok := hex4(b, i+8)
			if !ok || i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' || lo < 0xdc00 || lo > 0xdfff {
				return false
			}
			i += 11
		default:
			i += 5
		}
	}
	return true
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// CheckText drops what a strict parser would refuse from e, before the
// event is handed to Finish or Add (outside the trace's lock: it reads
// the whole body): a body that is not valid UTF-8 or has a lone surrogate
// escape (the event keeps its size and why), and such an id (replaced by
// a description, see Clip). A body nested deeper than MaxTracedDepth,
// which many readers refuse, is kept as text (keepShallow; an id is a
// string, a number or null: the fleet's validID). It copies the id out
// of the body.
func CheckText(e *Event) {
	// The id is a slice of the request body: a copy, or every event would
	// keep its whole body alive whatever the body budget says.
	e.RPCID = bytes.Clone(e.RPCID)
	if len(e.Request) > 0 && !strictText(e.Request) {
		e.RequestNotKept = "not valid UTF-8 (or a lone surrogate escape)"
		e.RequestSize, e.Request = len(e.Request), nil
	}
	keepShallow(e)
	if len(e.RPCID) > 0 && len(e.RPCID) <= MaxTracedField && !strictText(e.RPCID) {
		e.RPCID, _ = json.Marshal("(an id a strict parser refuses, not kept)")
		e.Clipped = AppendOnce(e.Clipped, "rpcId")
	}
}

// keepBody keeps e's request body only when it fits in the body budget;
// otherwise the event records its size and why. The body's text was
// checked before (CheckText).
func (t *Trace) keepBody(e *Event) {
	n := int64(len(e.Request) + len(e.RequestText))
	if n == 0 {
		return
	}
	switch {
	case t.bodies+n > t.bodyBudget:
		e.RequestNotKept = fmt.Sprintf("over the trace's body budget (%d bytes)", t.bodyBudget)
		t.bodiesLeftOut++
	default:
		t.bodies += n
		return
	}
	e.RequestSize, e.Request, e.RequestText = int(n), nil, ""
}

// clipEventField cuts the text field s of e to MaxTracedField bytes, naming it
// in e.Clipped.
func clipEventField(e *Event, name string, s *string) {
	if len(*s) > MaxTracedField {
		// A copy: a slice would keep the whole value alive.
		*s = strings.Clone(CutUTF8(*s, MaxTracedField))
		e.Clipped = AppendOnce(e.Clipped, name)
	}
}

// Clip cuts every text field of e to MaxTracedField bytes, replaces a
// JSON-RPC id longer than that by a description, and keeps at most
// MaxTracedSeen seen states and 16 coercions, naming what it cut in
// e.Clipped. Begin and Finish clip every event; the fleet also clips an
// event before CheckText reads it.
func Clip(e *Event) {
	// One call per field, not a table of pointers into e: the table would
	// move every caller's event to the heap.
	clipEventField(e, "vendor", &e.Vendor)
	clipEventField(e, "host", &e.Host)
	clipEventField(e, "serverName", &e.ServerName)
	clipEventField(e, "httpMethod", &e.HTTPMethod)
	clipEventField(e, "path", &e.Path)
	clipEventField(e, "method", &e.Method)
	clipEventField(e, "dialect", &e.Dialect)
	clipEventField(e, "a2aVersion", &e.A2AVersion)
	clipEventField(e, "a2aVersionQuery", &e.A2AVersionQuery)
	clipEventField(e, "cacheControl", &e.CacheControl)
	clipEventField(e, "pragma", &e.Pragma)
	clipEventField(e, "ifNoneMatch", &e.IfNoneMatch)
	clipEventField(e, "a2aExtensions", &e.A2AExtensions)
	clipEventField(e, "xA2aExtensions", &e.XA2AExtensions)
	clipEventField(e, "skill", &e.Skill)
	clipEventField(e, "taskId", &e.TaskID)
	clipEventField(e, "tenant", &e.Tenant)
	clipEventField(e, "contentType", &e.ContentType)
	clipEventField(e, "state", &e.State)
	clipEventField(e, "errorMessage", &e.ErrorMessage)
	clipEventField(e, "served", &e.Served)
	clipEventField(e, "note", &e.Note)
	clipEventField(e, "url", &e.URL)
	clipEventField(e, "deliveryError", &e.DeliveryError)
	if e.Webhook != nil && len(e.Webhook.URL) > MaxTracedField {
		w := *e.Webhook
		w.URL = strings.Clone(CutUTF8(w.URL, MaxTracedField))
		e.Webhook = &w
		e.Clipped = AppendOnce(e.Clipped, "webhook")
	}
	if len(e.RPCID) > MaxTracedField {
		// Still an id (the checks tell a call without one apart), but
		// one that says what was sent instead of holding it.
		e.RPCID, _ = json.Marshal(fmt.Sprintf("(id of %d bytes not kept)", len(e.RPCID)))
		e.Clipped = AppendOnce(e.Clipped, "rpcId")
	}
	if len(e.Seen) > MaxTracedSeen {
		e.Seen = append([]SeenState(nil), e.Seen[:MaxTracedSeen]...)
		e.Clipped = AppendOnce(e.Clipped, "seen")
	}
	if len(e.Coercions) > maxTracedCoercions {
		e.Coercions = append([]Coercion(nil), e.Coercions[:maxTracedCoercions]...)
		e.Clipped = AppendOnce(e.Clipped, "coercions")
	}
}

// CutUTF8 returns at most n bytes of s, not splitting a UTF-8 sequence
// (a slice of s, not a copy).
func CutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// AppendOnce returns list with s appended unless list holds it already:
// how a field is named once in Event.Clipped however often it is cut.
func AppendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// index returns the position of the first kept event with a sequence
// number >= seq (t.n when none). Kept events have consecutive numbers, so
// it is a subtraction; the search is a safeguard.
func (t *Trace) index(seq int64) int {
	if t.n == 0 {
		return 0
	}
	first := t.at(0).Seq
	if seq <= first {
		return 0
	}
	if i := seq - first; i < int64(t.n) && t.at(int(i)).Seq == seq {
		return int(i)
	}
	return sort.Search(t.n, func(i int) bool { return t.at(i).Seq >= seq })
}

// Add records an event that is complete on arrival (a proxy refusal, a
// broken TLS handshake, a push delivery): it checks its text (CheckText),
// then begins and finishes it at once.
func (t *Trace) Add(e Event) {
	CheckText(&e)
	t.Finish(t.Begin(e), func(*Event) {})
}

// Events returns a copy of the recorded events in arrival order.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		return nil
	}
	out := make([]Event, t.n)
	t.copyTo(out, 0)
	return out
}

// Since returns the events with a sequence number greater than seq.
func (t *Trace) Since(seq int64) []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 || t.at(t.n-1).Seq <= seq {
		return nil
	}
	i := t.index(seq + 1)
	out := make([]Event, t.n-i)
	t.copyTo(out, i)
	return out
}

// Seq returns the sequence number of the newest event (0 when empty).
func (t *Trace) Seq() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// BodiesLeftOut counts the request bodies not kept because the trace's
// body budget (the fleet's Limits.MaxTraceBodyBytes) was spent.
func (t *Trace) BodiesLeftOut() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bodiesLeftOut
}

// Dropped counts the events dropped past the cap.
func (t *Trace) Dropped() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped
}

// Reset forgets every event.
func (t *Trace) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.chunks, t.head, t.n = nil, 0, 0
	t.bodies = 0
}

// Subscribe returns a channel that receives each new event (buffered; a
// reader that falls behind misses events) and a function that ends the
// subscription.
func (t *Trace) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 256)
	t.mu.Lock()
	t.subs[ch] = struct{}{}
	t.mu.Unlock()
	return ch, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if _, ok := t.subs[ch]; ok {
			delete(t.subs, ch)
			close(ch)
		}
	}
}

// MarshalJSON exports the events as a JSON array.
func (t *Trace) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.Events())
}
