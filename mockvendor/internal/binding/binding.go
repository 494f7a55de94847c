package binding

import (
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Binding is one protocol binding (A2A 1.0 §5.3) as it serves one
// request: everything about the request and its answer that differs
// between bindings. A binding package's request type embeds Request and
// implements Binding, and sets Request.Binding to itself, so that the
// shared stages (Handle) and writer (Respond) reach the binding's part of
// the request with no allocation. A binding encodes its answers, stream
// events and errors; Respond writes them with what every binding shares
// (headers, trace, server-sent events), so that no *trace.Event passes
// through this interface (escape analysis would then move every request's
// Event to the heap).
type Binding interface {
	// Name is the protocolBinding a card names the binding by.
	Name() string
	// Offers reports whether the binding offers A2A version (Major.Minor).
	Offers(version string) bool
	// Tenant is the tenant the request names ("" for none).
	Tenant() string
	// Answers reports whether the request gets an answer (false: a
	// JSON-RPC notification).
	Answers() bool
	// DecodeSend decodes the params of a send or stream into Request.Send
	// and returns their message in the request's dialect.
	DecodeSend() (*a2a.Message, error)
	// Answer encodes a successful answer that is not a stream.
	Answer(res ops.Result) []byte
	// Frame encodes one stream event: the data of its server-sent event.
	Frame(item any) []byte
	// ErrorAnswer encodes the A2A error e, status being the HTTP status
	// WireError gave it: the HTTP status to answer with, the body, and
	// whether the body goes as a stream's one event instead.
	ErrorAnswer(e *a2a.Error, status int) (httpStatus int, body []byte, asEvent bool)
}

// Host is the host a request came to, as the bindings and the shared
// stages see it: the vendor's facts and hooks they need. The root package
// mockvendor implements it (a pointer conversion of its host, so that
// passing it allocates nothing). No method takes the trace event.
type Host interface {
	// Vendor is the vendor as its operations see it.
	Vendor() ops.Vendor
	// Lenient reports whether a lenient-version fault applies to the host.
	Lenient() bool
	// Versions are the versions (Major.Minor) the host's endpoint of
	// binding b serves, as the vendor's card declares them.
	Versions(b Binding) []string
	// Tenants are the tenants the card declares for the host's endpoint
	// of binding b (none: any request, with or without a tenant).
	Tenants(b Binding) []string
	// Authenticate checks a call that presented the credentials
	// presented; an error is an *AuthError.
	Authenticate(presented []trace.Presented) error
	// NewCall is a fresh fault.Call naming the vendor, the host and its
	// region; Handle fills in the rest.
	NewCall() *fault.Call
	// RunCallHooks runs the faults' call hooks; the first error answers.
	RunCallHooks(c *fault.Call) *a2a.Error
	// ResponseVersion is the A2A-Version the answer carries ("": none).
	ResponseVersion(asked string, d a2a.Dialect) string
	// RunHeaderHooks lets the faults change the answer's headers.
	RunHeaderHooks(hdr http.Header)
	// AnswerHook is the faults' answer hooks for call c, applied in turn
	// to an answer object in place (nil when no fault has one).
	AnswerHook(c *fault.Call) func(v map[string]any)
	// Extensions are the extension URIs the card declares
	// (capabilities.extensions), and those of them it marks required.
	Extensions() (declared, required []string)
	// ErrorDomain is the ErrorInfo domain of the vendor's own reasons.
	ErrorDomain() string
	// MaxBody is the largest request body read (Limits.MaxBody).
	MaxBody() int64
	// Closing is closed when the fleet closes (streams end).
	Closing() <-chan struct{}
}

// MethodInfo is the operation a method or route stands for, and its
// dialect ("" for the names 0.1 and 0.3 share).
type MethodInfo struct {
	Op      trace.Op
	Dialect a2a.Dialect
}

// Request is one request as the shared stages read it: the host and
// binding that answer it, the method's operation, and what the operation
// works with (ops.Request).
type Request struct {
	Host    Host
	Binding Binding
	// Info is the method's operation and dialect; Known is false for a
	// method the fleet does not know.
	Info  MethodInfo
	Known bool
	// Lenient is whether a lenient-version fault lets the method's dialect
	// win over the version (Handle's negotiation).
	Lenient bool
	// Activated are the extensions the request activated, which the
	// answer names (extensions.go).
	Activated []string
	ops.Request
}
