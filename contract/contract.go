// Package contract holds the messages of the a2a-conform driver contract,
// version 1: the JSON objects the harness and an orchestrator under test
// (OUT) exchange, whatever driver carries them (exec, http or in-process Go).
//
// The contract is public. It grows only by optional fields; a change that is
// not additive bumps [Version]. Both sides ignore fields they do not know, so
// the types here decode newer messages without error.
package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// Version is the contract version this package speaks. Every message carries
// it in its "contract" field.
const Version = 1

// Message types, carried in the "type" field of harness-to-OUT messages and
// of the OUT's answers to control messages.
const (
	// TypeDelegate marks a [DelegationRequest].
	TypeDelegate = "delegate"
	// TypeHello marks a [Hello] request or answer.
	TypeHello = "hello"
	// TypeReset marks a [Reset] request or answer.
	TypeReset = "reset"
	// TypeClose marks a [Close] message: the http driver's session is over.
	TypeClose = "close"
)

// DelegationRequest asks the OUT to discover an agent among Candidates and
// delegate Task to it (harness -> OUT).
type DelegationRequest struct {
	// Contract is the contract version; the harness always sends [Version].
	Contract int `json:"contract"`
	// Type is always [TypeDelegate].
	Type string `json:"type"`
	// ID is unique per request; the OUT echoes it in its outcome.
	ID string `json:"id"`
	// Scenario names the scenario, for humans and logs only: an OUT must not
	// change its behaviour on it. Empty means unnamed.
	Scenario string `json:"scenario"`
	// Task is what the caller wants done.
	Task Task `json:"task"`
	// Candidates are agent card URLs in the caller's order of preference.
	// Nil encodes as JSON null; the harness always sends at least one.
	Candidates []string `json:"candidates"`
	// Trust says which CA and which signers the OUT may rely on.
	Trust Trust `json:"trust"`
	// Network says how the OUT reaches the mock fleet.
	Network Network `json:"network"`
	// DeadlineMs is the time the OUT has to report, in milliseconds. Zero
	// means the driver's default (20 s in suite/driver).
	DeadlineMs int `json:"deadlineMs"`
	// Session names the harness session the request belongs to (see
	// [Hello.Sessions]); the http driver sets it, the exec driver, whose
	// process is the session, does not. Empty means the only one.
	Session string `json:"session,omitempty"`
}

// Task is the work to delegate.
type Task struct {
	// Skill is the id of the capability the caller wants. Empty means the
	// remote agent's default skill.
	Skill string `json:"skill"`
	// Message is the A2A message to send, kept as raw JSON so that every
	// dialect's shape (0.1, 0.3, 1.0) passes through untouched. Nil encodes as
	// JSON null.
	Message json.RawMessage `json:"message"`
	// PreferStreaming asks the OUT to use a streaming method when the card
	// offers one. False means a plain send.
	PreferStreaming bool `json:"preferStreaming"`
	// Replies are the caller's answers for an agent that asks: A2A
	// messages (raw JSON, shaped like Message) to send in order, one each
	// time the remote task pauses at input-required. The OUT sends each as
	// a continuation of that task: it sets the message's taskId and
	// contextId to the task's (A2A 1.0 §3.4.3) and may give it a fresh
	// messageId. Nil or empty means the caller has none: a task that asks
	// is reported [OutcomeInterrupted], and so is one that asks again
	// after the last reply. Added in contract 1 as an optional field.
	Replies []json.RawMessage `json:"replies,omitempty"`
	// Push asks the OUT to follow the task through push notifications
	// (A2A 1.0 §3.5.1, §4.3): to run a webhook receiver of its own (an
	// http or https server on loopback, 127.0.0.1 or ::1, that the OUT
	// starts), register it with the agent the A2A way (the send's
	// configuration.taskPushNotificationConfig, or
	// CreateTaskPushNotificationConfig once it knows the task) with a
	// credential of its choosing, one per config (§13.2), and conclude
	// from the deliveries it authenticates. The harness learns the
	// webhook and its credential from the wire, and sees each delivery
	// and the HTTP status the receiver answered; the outcome reports what
	// the OUT concluded, as for any task. An OUT that cannot receive push
	// ignores the field and follows the task as it otherwise would (poll,
	// stream): the checks about a receiver are NOT_APPLICABLE to it, never
	// passed. False means no push. Added in contract 1 as an optional
	// field.
	Push bool `json:"push,omitempty"`
	// Extensions are the A2A extensions the caller's agent implements, by
	// URI (A2A 1.0 §4.6): those whose protocol it can follow, and so the
	// only ones the OUT may activate for this delegation (A2A-Extensions
	// in 1.0, X-A2A-Extensions in 0.3). An agent whose card marks an
	// extension required (capabilities.extensions[].required) is usable
	// only when the extension is listed here: activate it, or refuse the
	// agent with [ReasonExtensionUnsupported]. Nil or empty means the
	// caller implements none. Added in contract 1 as an optional field.
	Extensions []string `json:"extensions,omitempty"`
}

// Trust carries the trust anchors of a request.
type Trust struct {
	// CAFile is the absolute path of the fleet's root CA in PEM. Empty means
	// the OUT gets no extra root (the harness always sets it).
	CAFile string `json:"caFile"`
	// Issuers maps a signer (issuer URL) to the operators it may vouch for.
	// Nil or empty means no signer is trusted.
	Issuers map[string]Issuer `json:"issuers,omitempty"`
	// OAuth2 are the OAuth 2.0 clients the caller holds, keyed like
	// Credentials by the origin of the agent endpoint they are for: for an
	// agent whose card declares an OAuth2 security scheme with a client
	// credentials flow (A2A 1.0 §4.5.4, §4.5.9), the OUT gets an access
	// token at the client's TokenURL (RFC 6749 §4.4) and presents it as
	// "Authorization: Bearer <token>" to that origin only (see
	// [Trust.ValidateOAuth2]). Nil or empty means the caller holds none.
	// Added in contract 1 as an optional field.
	OAuth2 map[string]OAuth2Client `json:"oauth2,omitempty"`
	// Credentials are the credentials the caller holds, keyed by the origin
	// they were issued for ("https://host", with ":port" when not 443):
	// a credential may be presented only in requests to that origin, never
	// to another host, even one the issuer's own card names (see
	// [Trust.Validate]). Nil or empty means the caller holds none.
	Credentials map[string]Credential `json:"credentials,omitempty"`
	// ClientCertificates are the caller's client certificates for mutual
	// TLS, keyed by the origin each was issued for (the form Credentials
	// keys use): one is presented only in TLS handshakes with that
	// origin, never to another host that asks for a certificate
	// (clientcert.go). Nil or empty means the caller holds none. Added in
	// contract 1 as an optional field.
	ClientCertificates map[string]ClientCertificate `json:"clientCertificates,omitempty"`
}

// Credential is one credential of the caller: a secret to present the way
// the agent's card declares its security scheme.
type Credential struct {
	// Scheme is the kind of security scheme the credential answers, one of
	// the CredentialScheme* constants. Empty is invalid.
	Scheme string `json:"scheme"`
	// Value is the secret itself (the bearer token, the API key). Empty is
	// invalid. Log it never; present it only to its origin.
	Value string `json:"value"`
}

// Credential schemes ([Credential.Scheme]), named after the card's
// security scheme they answer [A2A 1.0 §4.5 SecurityScheme].
const (
	// CredentialSchemeBearer answers an HTTP auth scheme "Bearer": send
	// "Authorization: Bearer <value>".
	CredentialSchemeBearer = "bearer"
	// CredentialSchemeAPIKey answers an API key scheme: send the value
	// where the card's scheme says (location and name).
	CredentialSchemeAPIKey = "apiKey"
)

// Validate checks the trust block: every credential key is an https origin
// (scheme https, a host, no user info, path, query or fragment; a port
// only when it is not 443), and every credential has a known scheme and a
// non-empty value without control characters (which would let it break
// out of an HTTP header); so are the client certificates' keys, each
// naming two absolute files. A nil error means the block is usable.
func (t Trust) Validate() error {
	var errs []error
	errs = append(errs, t.ValidateOAuth2()) // contract/oauth2.go
	for _, origin := range slices.Sorted(maps.Keys(t.Credentials)) {
		c := t.Credentials[origin]
		if err := checkOrigin(origin); err != nil {
			errs = append(errs, fmt.Errorf("credentials[%q]: %w", origin, err))
		}
		if c.Scheme != CredentialSchemeBearer && c.Scheme != CredentialSchemeAPIKey {
			errs = append(errs, fmt.Errorf("credentials[%q].scheme %q is not %s or %s", origin, c.Scheme, CredentialSchemeBearer, CredentialSchemeAPIKey))
		}
		if c.Value == "" {
			errs = append(errs, fmt.Errorf("credentials[%q].value is empty", origin))
		}
		if strings.ContainsFunc(c.Value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			errs = append(errs, fmt.Errorf("credentials[%q].value holds a control character", origin))
		}
	}
	errs = append(errs, t.validateClientCertificates())
	return errors.Join(errs...)
}

// checkOrigin checks that s is an https origin in its shortest form.
func checkOrigin(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("not a URL: %w", err)
	case u.Scheme != "https":
		return errors.New("not an https origin")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("no host")
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s, "/"):
		return errors.New(`an origin has no user info, path, query or fragment ("https://host[:port]")`)
	case u.Port() == "443":
		return errors.New(`port 443 is implied: write the origin without it`)
	case strings.ToLower(u.Host) != u.Host:
		return errors.New("the host must be lower case")
	}
	return nil
}

// OriginOf returns the origin of an https URL in the form
// [Trust.Credentials] keys use ("https://host", ":port" kept unless 443),
// or "" when raw is not an https URL with a host.
func OriginOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(u.Host)
	if u.Port() == "443" {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return "https://" + host
}

// Issuer lists what one signer is allowed to vouch for.
type Issuer struct {
	// Operators are the host names that may execute tasks under this signer.
	// Nil means none.
	Operators []string `json:"operators"`
}

// Network tells the OUT how to reach the fleet's hosts.
type Network struct {
	// Proxy is the URL of an HTTP CONNECT proxy that reaches every fleet
	// host. Empty means no proxy: dial through Resolve.
	Proxy string `json:"proxy,omitempty"`
	// Resolve maps "host:port" as it appears in URLs to the loopback
	// "ip:port" that serves it, for clients that dial directly. Nil means no
	// overrides.
	Resolve map[string]string `json:"resolve,omitempty"`
}

// DelegationOutcome is the OUT's report on one request (OUT -> harness).
// Fields other than Contract, ID and Outcome are optional and omitted when
// empty.
type DelegationOutcome struct {
	// Contract is the contract version; it must be [Version].
	Contract int `json:"contract"`
	// ID echoes [DelegationRequest.ID].
	ID string `json:"id"`
	// Outcome is one of the Outcome* constants.
	Outcome string `json:"outcome"`
	// Agent is the endpoint URL that ran the task. Empty means none did.
	Agent string `json:"agent,omitempty"`
	// Skill is the skill id actually used. Empty means none or unknown.
	Skill string `json:"skill,omitempty"`
	// TaskID is the remote task id. Empty means no remote task was created
	// or the OUT did not see its id.
	TaskID string `json:"taskId,omitempty"`
	// TaskState is the last remote task state the OUT saw. Empty means none.
	TaskState string `json:"taskState,omitempty"`
	// CardTrust is how the OUT treated the card, one of the CardTrust*
	// constants. Empty means not reported.
	CardTrust string `json:"cardTrust,omitempty"`
	// TrustMode is the trust mode the OUT ran in, one of the TrustMode*
	// constants. Empty means not reported.
	TrustMode string `json:"trustMode,omitempty"`
	// Reason is a machine-readable word from the Reason* vocabulary. Empty
	// means not reported. Unknown words are tolerated (see
	// [DelegationOutcome.Validate]).
	Reason string `json:"reason,omitempty"`
	// Detail is free text for humans. Empty means none.
	Detail string `json:"detail,omitempty"`
	// ContextID is the remote task's contextId (the conversation it
	// belongs to). Empty means none was seen.
	ContextID string `json:"contextId,omitempty"`
	// Artifacts are the results the agent produced, in the order the
	// agent first announced them, each summarised ([SummarizeArtifact]):
	// streamed chunks are joined as the agent's append and lastChunk flags
	// say. A Message reply's parts count as one artifact with an empty id.
	// Nil means the OUT saw none (or does not report them).
	Artifacts []Artifact `json:"artifacts,omitempty"`
	// StatusText is the text of the agent's last status message, its text
	// parts joined with nothing between: the agent's question at
	// input-required, its reason at failed or rejected. Empty means the
	// agent sent none (or the OUT does not report it).
	StatusText string `json:"statusText,omitempty"`
	// Error is the A2A error the agent answered with, when a remote error
	// ended the delegation, on a plain send or a stream alike. Nil means
	// none (or not reported).
	Error *RemoteError `json:"error,omitempty"`
}

// RemoteError names an A2A error an agent answered with [A2A 1.0 §3.3.2,
// §5.4]: its JSON-RPC code and, where the binding carries one, the
// google.rpc.ErrorInfo reason. At least one of Code and Reason is set.
type RemoteError struct {
	// Code is the JSON-RPC error code (-32001 TaskNotFound, -32004
	// UnsupportedOperation, ...); an HTTP+JSON or gRPC client reports the
	// code of the reason it got (A2A 1.0 §5.4's table). Zero means not known.
	Code int `json:"code,omitempty"`
	// Reason is the ErrorInfo reason ("TASK_NOT_FOUND"). Empty means none.
	Reason string `json:"reason,omitempty"`
	// Message is the agent's error message, for humans. Empty means none.
	Message string `json:"message,omitempty"`
}

// Outcome words ([DelegationOutcome.Outcome]).
const (
	// OutcomeCompleted: a remote agent ran the task to completion.
	OutcomeCompleted = "completed"
	// OutcomeRejected: the OUT refused to delegate (for example, no
	// candidate could be trusted with the task).
	OutcomeRejected = "rejected"
	// OutcomeFailed: the delegation was attempted and did not succeed.
	OutcomeFailed = "failed"
	// OutcomeEscalated: the OUT handed the decision to a human or caller.
	OutcomeEscalated = "escalated"
	// OutcomeUnimplemented: the OUT declares it cannot run this scenario at
	// all. The harness scores it UNIMPLEMENTED, apart from pass and fail.
	OutcomeUnimplemented = "unimplemented"
	// OutcomeInterrupted: the remote task paused at an interrupted state
	// and waits for the caller (more input, or credentials). The outcome
	// names the task (TaskID) and the state it stopped at (TaskState, one
	// of the interrupted TaskState* words), so that the caller can
	// continue it. Added in contract 1 as an optional word.
	OutcomeInterrupted = "interrupted"
)

// Interrupted task states ([DelegationOutcome.TaskState] of an
// [OutcomeInterrupted] outcome), in the 0.3 spelling; the 1.0 spellings
// (TASK_STATE_INPUT_REQUIRED, TASK_STATE_AUTH_REQUIRED) are accepted too.
const (
	// TaskStateInputRequired: the agent waits for more input.
	TaskStateInputRequired = "input-required"
	// TaskStateAuthRequired: the agent waits for credentials.
	TaskStateAuthRequired = "auth-required"
)

// InterruptedState reports whether s names an interrupted task state, in
// the 0.3 or the 1.0 spelling.
func InterruptedState(s string) bool {
	switch s {
	case TaskStateInputRequired, TaskStateAuthRequired, "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED":
		return true
	}
	return false
}

// Card trust words ([DelegationOutcome.CardTrust]).
const (
	// CardTrustAuthoritative: the OUT took the card's claims as binding.
	CardTrustAuthoritative = "authoritative"
	// CardTrustHint: the OUT treated the card as a claim to verify.
	CardTrustHint = "hint"
)

// Trust mode words ([DelegationOutcome.TrustMode]).
const (
	// TrustModeFull: signer verified and bound to the endpoint.
	TrustModeFull = "full"
	// TrustModeReduced: the task ran with reduced trust (for example, the
	// signer could not be bound to the endpoint).
	TrustModeReduced = "reduced"
	// TrustModeUnpinned: no signer was pinned at all.
	TrustModeUnpinned = "unpinned"
)

// Reason vocabulary ([DelegationOutcome.Reason]). The list may grow; a word
// is never given a new meaning.
const (
	// ReasonOK: nothing went wrong.
	ReasonOK = "ok"
	// ReasonStaleCard: the card no longer matched the agent.
	ReasonStaleCard = "stale-card"
	// ReasonSkillUnavailable: the wanted skill was not offered.
	ReasonSkillUnavailable = "skill-unavailable"
	// ReasonEndpointNotA2A: the endpoint did not speak A2A.
	ReasonEndpointNotA2A = "endpoint-not-a2a"
	// ReasonSignerEndpointMismatch: signer not allowed for that endpoint.
	ReasonSignerEndpointMismatch = "signer-endpoint-mismatch"
	// ReasonSignatureInvalid: card signature did not verify.
	ReasonSignatureInvalid = "signature-invalid"
	// ReasonKeyUnknown: signing key not found.
	ReasonKeyUnknown = "key-unknown"
	// ReasonKeyAmbiguous: several keys matched the key id.
	ReasonKeyAmbiguous = "key-ambiguous"
	// ReasonKeyExpired: the signing key's validity had ended (or not
	// begun) as its key set published it.
	ReasonKeyExpired = "key-expired"
	// ReasonUnsignedCard: card carried no signature.
	ReasonUnsignedCard = "unsigned-card"
	// ReasonTLSSANMismatch: certificate names did not match.
	ReasonTLSSANMismatch = "tls-san-mismatch"
	// ReasonVersionMismatch: protocol versions did not agree.
	ReasonVersionMismatch = "version-mismatch"
	// ReasonInputModeMismatch: message parts not accepted by the skill.
	ReasonInputModeMismatch = "input-mode-mismatch"
	// ReasonStreamTimeout: a stream stalled.
	ReasonStreamTimeout = "stream-timeout"
	// ReasonDeadline: the request's deadline ran out.
	ReasonDeadline = "deadline"
	// ReasonOther: none of the above.
	ReasonOther = "other"
	// ReasonNoCredential: the card demands a credential the caller holds
	// none of for the endpoint's origin (trust.credentials).
	ReasonNoCredential = "no-credential"
	// ReasonAuthRejected: the endpoint refused the credential presented
	// (HTTP 401).
	ReasonAuthRejected = "auth-rejected"
	// ReasonExtensionUnsupported: the card requires an A2A extension the
	// caller does not implement (not in task.extensions); the detail
	// names its URI.
	ReasonExtensionUnsupported = "extension-unsupported"
	// ReasonInvalidCard: what the card URL answered is no Agent Card: an
	// empty object, or one without members A2A 1.0 marks REQUIRED; the
	// detail names what is missing.
	ReasonInvalidCard = "invalid-card"
)

// KnownOutcome reports whether s is one of the Outcome* words.
func KnownOutcome(s string) bool {
	switch s {
	case OutcomeCompleted, OutcomeRejected, OutcomeFailed, OutcomeEscalated, OutcomeUnimplemented, OutcomeInterrupted:
		return true
	}
	return false
}

// KnownReason reports whether s is in the reason vocabulary of this version.
func KnownReason(s string) bool {
	switch s {
	case ReasonOK, ReasonStaleCard, ReasonSkillUnavailable, ReasonEndpointNotA2A,
		ReasonSignerEndpointMismatch, ReasonSignatureInvalid, ReasonKeyUnknown,
		ReasonKeyAmbiguous, ReasonUnsignedCard, ReasonTLSSANMismatch,
		ReasonVersionMismatch, ReasonInputModeMismatch, ReasonStreamTimeout,
		ReasonDeadline, ReasonOther, ReasonNoCredential, ReasonAuthRejected,
		ReasonKeyExpired, ReasonExtensionUnsupported, ReasonInvalidCard:
		return true
	}
	return false
}

// KnownCardTrust reports whether s is one of the CardTrust* words.
func KnownCardTrust(s string) bool {
	return s == CardTrustAuthoritative || s == CardTrustHint
}

// KnownTrustMode reports whether s is one of the TrustMode* words.
func KnownTrustMode(s string) bool {
	return s == TrustModeFull || s == TrustModeReduced || s == TrustModeUnpinned
}

// ErrUnknownWord is matched (with errors.Is) by the error
// [DelegationOutcome.Validate] returns when the outcome is usable but names a
// reason, cardTrust or trustMode word this version does not know. Callers
// record it as a note, not as a failure: the vocabulary may have grown.
var ErrUnknownWord = errors.New("unknown word")

// UnknownWordError names an optional field holding a word this version does
// not know. It matches [ErrUnknownWord].
type UnknownWordError struct {
	// Field is the JSON name of the field: "reason", "cardTrust" or
	// "trustMode".
	Field string
	// Word is the value found.
	Word string
}

// Error implements error.
func (e *UnknownWordError) Error() string {
	return fmt.Sprintf("unknown %s %q", e.Field, e.Word)
}

// Is reports whether target is [ErrUnknownWord].
func (e *UnknownWordError) Is(target error) bool { return target == ErrUnknownWord }

// Validate checks o as the answer to the request with id reqID. It returns
// nil when o is fully valid; an error not matching [ErrUnknownWord] when o is
// unusable (contract version other than [Version], id not echoed, outcome
// word unknown, an [OutcomeInterrupted] without its taskId or with a
// taskState that is not an interrupted state); and, when the only problems are unknown words in reason,
// cardTrust or trustMode, an error that matches [ErrUnknownWord] (possibly
// joining several [*UnknownWordError]s), which callers should only flag.
func (o *DelegationOutcome) Validate(reqID string) error {
	if o == nil {
		return errors.New("no outcome")
	}
	if o.Contract != Version {
		return fmt.Errorf("contract %d, want %d", o.Contract, Version)
	}
	if o.ID != reqID {
		return fmt.Errorf("id %q, want %q", o.ID, reqID)
	}
	if !KnownOutcome(o.Outcome) {
		return fmt.Errorf("unknown outcome %q", o.Outcome)
	}
	if o.Outcome == OutcomeInterrupted && !InterruptedState(o.TaskState) {
		return fmt.Errorf("outcome interrupted with taskState %q: it needs the interrupted state (input-required or auth-required)", o.TaskState)
	}
	if o.Outcome == OutcomeInterrupted && o.TaskID == "" {
		return errors.New("outcome interrupted without taskId: the caller needs the task to continue it")
	}
	if err := o.validateResults(); err != nil {
		return err
	}
	var flags []error
	if o.Reason != "" && !KnownReason(o.Reason) {
		flags = append(flags, &UnknownWordError{Field: "reason", Word: o.Reason})
	}
	if o.CardTrust != "" && !KnownCardTrust(o.CardTrust) {
		flags = append(flags, &UnknownWordError{Field: "cardTrust", Word: o.CardTrust})
	}
	if o.TrustMode != "" && !KnownTrustMode(o.TrustMode) {
		flags = append(flags, &UnknownWordError{Field: "trustMode", Word: o.TrustMode})
	}
	return errors.Join(flags...)
}

// Hello is the hello control message. The harness sends it with only
// Contract and Type set; the OUT answers with its name and version.
type Hello struct {
	// Contract is the contract version, [Version].
	Contract int `json:"contract"`
	// Type is always [TypeHello].
	Type string `json:"type"`
	// Name is the OUT's name. Empty means unnamed (and is what a request
	// carries).
	Name string `json:"name,omitempty"`
	// Version is the OUT's own version string. Empty means not reported.
	Version string `json:"version,omitempty"`
	// ProtocolVersions are the A2A protocol versions the OUT speaks as a
	// client, Major.Minor ("0.3", "1.0"). Empty means not declared: the
	// harness then takes what the whole run saw the OUT send (the version
	// each request asked for and the dialect of its method) as what it
	// speaks. A declaration adds to what the wire shows; it never hides a
	// request.
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Bindings are the A2A protocol bindings the OUT speaks ([BindingJSONRPC],
	// [BindingHTTPJSON], [BindingGRPC]). Empty means not declared.
	Bindings []string `json:"bindings,omitempty"`
	// Sessions, in an answer, is how many harness sessions the OUT holds
	// at once: each its own orchestrator, with caches of its own, told
	// apart by the Session of every message. The http driver reads it from
	// the pre-flight hello and runs that many scenarios at once (at most
	// the run's --parallel). Zero or one means one at a time.
	Sessions int `json:"sessions,omitempty"`
	// Session, in a request, names the harness session (see
	// [DelegationRequest.Session]).
	Session string `json:"session,omitempty"`
}

// The A2A protocol bindings a hello may declare, spelled as an A2A 1.0
// AgentInterface.protocolBinding spells them.
const (
	BindingJSONRPC  = "JSONRPC"
	BindingHTTPJSON = "HTTP+JSON"
	BindingGRPC     = "GRPC"
)

// KnownBinding reports whether b is one of the bindings a hello may
// declare.
func KnownBinding(b string) bool {
	return b == BindingJSONRPC || b == BindingHTTPJSON || b == BindingGRPC
}

// KnownProtocolVersion reports whether v is an A2A version as a hello
// declares it: Major.Minor, digits only ("0.3", "1.0").
func KnownProtocolVersion(v string) bool {
	major, minor, ok := strings.Cut(v, ".")
	return ok && digits(major) && digits(minor)
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CheckSpeaks reports the entries of h's protocolVersions and bindings
// that are not Major.Minor versions or known bindings; the harness
// ignores them (and says so in the report). Nil when every entry is
// known.
func (h Hello) CheckSpeaks() error {
	var errs []error
	for _, v := range h.ProtocolVersions {
		if !KnownProtocolVersion(v) {
			errs = append(errs, &UnknownWordError{Field: "protocolVersions", Word: v})
		}
	}
	for _, b := range h.Bindings {
		if !KnownBinding(b) {
			errs = append(errs, &UnknownWordError{Field: "bindings", Word: b})
		}
	}
	return errors.Join(errs...)
}

// NewHello returns the hello request the harness sends.
func NewHello() Hello { return Hello{Contract: Version, Type: TypeHello} }

// Reset is the reset control message: the harness asks the OUT to drop every
// cache; the OUT answers with OK set.
type Reset struct {
	// Contract is the contract version, [Version].
	Contract int `json:"contract"`
	// Type is always [TypeReset].
	Type string `json:"type"`
	// OK is set in the OUT's answer once its caches are dropped. False in a
	// request, and in an answer means the reset did not happen.
	OK bool `json:"ok,omitempty"`
	// Session, in a request, names the harness session whose caches to
	// drop (see [DelegationRequest.Session]).
	Session string `json:"session,omitempty"`
}

// NewReset returns the reset request the harness sends.
func NewReset() Reset { return Reset{Contract: Version, Type: TypeReset} }

// Close tells an OUT that declared [Hello.Sessions] that a session is
// over: it may drop everything it kept for it. Any 200 answer will do.
type Close struct {
	// Contract is the contract version, [Version].
	Contract int `json:"contract"`
	// Type is always [TypeClose].
	Type string `json:"type"`
	// Session names the session that ended.
	Session string `json:"session"`
}
