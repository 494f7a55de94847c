package reference

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Breaks switch off one correct behaviour each, so that a test (or an exec
// run with --break) can show the catalog checks that notice. The zero
// value is the compliant orchestrator. Each field's tags give its flag name
// ("break") and the checks it is meant to fail ("check": a comma-separated
// list of check ids; a global requirement is named with the scenario that
// shows it, "CARD-002.G-JSONRPC"). The tags are the only map from breaks to
// checks: the suite's variant tests are generated from them.
type Breaks struct {
	// NoProbe sends the real task without probing the endpoint first: a
	// stub endpoint gets the task.
	NoProbe bool `break:"no-probe" check:"PROBE-001.NO-COMMIT,PROBE-001.PROBED,PROBE-005.NO-COMMIT,PROBE-005.PROBED"`
	// NoProbeCancel leaves an accepted (submitted/working) probe task
	// running instead of cancelling it.
	NoProbeCancel bool `break:"no-probe-cancel" check:"PROBE-002.CANCEL"`
	// NoRefetch does not re-fetch the card after a -32004 (re-routes on
	// the error data alone).
	NoRefetch bool `break:"no-refetch" check:"CARD-001.REFETCH,PROBE-003.ROUTE,PROBE-004.REFETCH"`
	// RefetchWithETag re-fetches after a -32004 as an ordinary
	// revalidation: If-None-Match, no cache bypass (the CDN answers 304).
	RefetchWithETag bool `break:"refetch-with-etag" check:"CARD-001.REFETCH"`
	// EscalateOnSkillError reports -32004 as "escalated" instead of
	// re-routing.
	EscalateOnSkillError bool `break:"escalate-on-skill-error" check:"CARD-001.ROUTE,CARD-006.RECOVER,PROBE-004.ROUTE"`
	// ExtraCalls repeats a failing real send five more times (retry storm).
	ExtraCalls bool `break:"extra-calls" check:"CARD-001.BOUNDED"`
	// MarkDegraded marks a vendor that answered a server-range error as
	// degraded for the rest of the scenario: later delegations try it last.
	MarkDegraded bool `break:"mark-degraded" check:"CARD-003.NOT-DEGRADED"`
	// PrevalidateSkill skips a candidate whose card does not list the
	// wanted skill.
	PrevalidateSkill bool `break:"prevalidate-skill" check:"CARD-004.NO-PREVALIDATE"`
	// AlwaysAuthoritative reports cardTrust "authoritative" whatever
	// happened.
	AlwaysAuthoritative bool `break:"always-authoritative" check:"CARD-005.HINT,CARD-008.HINT"`
	// NoAvailabilityCacheInvalidation keeps the availability cache's
	// "available" entry for (host, skill) after a -32004 and sends the
	// skill to the host again before re-fetching the card.
	NoAvailabilityCacheInvalidation bool `break:"no-availability-cache-invalidation" check:"CARD-006.INVALIDATE"`
	// IgnoreInputModes always sends the caller's parts as they are (text),
	// whatever the skill's input modes.
	IgnoreInputModes bool `break:"ignore-input-modes" check:"MODE-001.NO-COERCION"`
	// NoStreamFallback fails the delegation when a stream method answers
	// with something other than text/event-stream.
	NoStreamFallback bool `break:"no-stream-fallback" check:"STREAM-001.FALLBACK"`
	// NoStreamTimeout waits for the first stream frame however long it
	// takes (up to the request deadline).
	NoStreamTimeout bool `break:"no-stream-timeout" check:"STREAM-002.TIMEOUT"`
	// ProbeEveryCall probes the endpoint again right before each real send
	// (two probes per endpoint per delegation).
	ProbeEveryCall bool `break:"probe-every-call" check:"PROBE-002.ONE"`
	// NoVersionHeader leaves A2A-Version off every request.
	NoVersionHeader bool `break:"no-version-header" check:"CARD-002.G-VERSION-HEADER"`
	// BadJSONRPC sends jsonrpc "1.0" in every request.
	BadJSONRPC bool `break:"bad-jsonrpc" check:"CARD-002.G-JSONRPC"`
	// GetUnknownTask calls GetTask for a made-up task id after completing.
	GetUnknownTask bool `break:"get-unknown-task" check:"CARD-002.G-NO-UNKNOWN-TASK"`
	// Escape also fetches https://example.com/.well-known/agent-card.json
	// (through the proxy, which refuses it).
	Escape bool `break:"escape" check:"CARD-002.G-NO-ESCAPE"`
	// SkipTLSVerify turns certificate verification off and treats an
	// endpoint whose certificate could not be checked as fully trusted.
	SkipTLSVerify bool `break:"skip-tls-verify" check:"BIND-004.NO-FULL,BIND-004.G-TLS-VERIFIED,AUTH-005.NO-UNVERIFIED"`
	// TrustAnySignature runs in full trust as soon as the signature
	// verifies, without binding the signer to the endpoint.
	TrustAnySignature bool `break:"trust-any-signature" check:"BIND-001.NO-FULL,BIND-006.NO-FULL,BIND-007.NO-FULL"`
	// SubstringBinding binds the signer to the endpoint when the signer's
	// host appears anywhere in the endpoint certificate's names (seed 003's
	// reference code, assert_signer_bound_to_endpoint): a lookalike host
	// that contains it gets full trust.
	SubstringBinding bool `break:"substring-binding" check:"BIND-006.NO-FULL"`
	// TrustUntilRefused runs in full trust on a verified signature until
	// the endpoint refuses a tool, and only then reports reduced: trust
	// read from the gateway's answer, not from the binding.
	TrustUntilRefused bool `break:"trust-until-refused" check:"BIND-007.NO-FULL"`
	// IgnoreSignatureErrors delegates (unpinned) although the card's
	// signature is invalid, its key unknown or its alg refused.
	IgnoreSignatureErrors bool `break:"ignore-signature-errors" check:"SIG-001.REJECT,SIG-002.REJECT,SIG-004.REJECT"`
	// NoJWKSRefetch does not fetch the JWKS again for an unknown kid.
	NoJWKSRefetch bool `break:"no-jwks-refetch" check:"SIG-003.REFETCH-JWKS"`
	// ReprobeNever keeps cards for their whole max-age and probes an
	// endpoint only the first time it is seen, ignoring the 300 s
	// authority window.
	ReprobeNever bool `break:"reprobe-never" check:"CARD-007.REPROBE"`
	// CommitOnStub sends the real task although the probe answered
	// -32601 or -32602 (endpoint not A2A).
	CommitOnStub bool `break:"commit-on-stub" check:"PROBE-001.NO-COMMIT,PROBE-005.NO-COMMIT"`
	// CommitAfterRefusedProbe sends the real task for the skill whose
	// probe was answered in -32000..-32099, as seed 000's reference code
	// does (it counts a -32004 probe answer as a live task lifecycle),
	// before any re-fetch of the card.
	CommitAfterRefusedProbe bool `break:"commit-after-refused-probe" check:"PROBE-004.NO-COMMIT,PROBE-004.REFETCH"`
	// SendToCardHost sends to the host that served the card (with the
	// interface's path; over gRPC, at the card host's port 443) instead of
	// the interface URL.
	SendToCardHost bool `break:"send-to-card-host" check:"CARD-002.URL,IFACE-009.ADDRESS,IFACE-009.DONE"`
	// RejectCrossHostURL refuses a card whose interface URL is on another
	// host than the card itself.
	RejectCrossHostURL bool `break:"reject-cross-host-url" check:"CARD-002.DONE"`
	// EscalateOnServerError reports a server-range error (other than
	// -32004) on the real task as "escalated" instead of trying the next
	// candidate.
	EscalateOnServerError bool `break:"escalate-on-server-error" check:"CARD-003.NOT-FATAL"`
	// NeverFull reports "reduced" where Bind said "full".
	NeverFull bool `break:"never-full" check:"BIND-002.FULL"`
	// UnsignedAsFull reports an unsigned card as "full" trust.
	UnsignedAsFull bool `break:"unsigned-as-full" check:"BIND-003.UNPINNED"`
	// AcceptAmbiguousKID, when the kid names several keys, tries each and
	// takes the first that verifies, then binds as usual (full for the
	// signer's own endpoint).
	AcceptAmbiguousKID bool `break:"accept-ambiguous-kid" check:"BIND-005.NO-FULL"`
	// LegacyParts sends SendMessage (1.0) with the 0.3 message shape:
	// parts with "kind" and role "user".
	LegacyParts bool `break:"legacy-parts" check:"CARD-002.G-MESSAGE-SHAPE"`
	// SendTwice sends the real task a second time after it completed.
	SendTwice bool `break:"send-twice" check:"CARD-002.G-ONE-TASK"`
	// AnyAvailableSkill re-routes a -32004 to the first skill the error
	// lists, successor or not.
	AnyAvailableSkill bool `break:"any-available-skill" check:"MODE-001.G-SKILL-SUCCESSOR"`
	// BorrowSkillID, when -32004 leaves no route among the delegation's
	// candidates, sends the requested skill id to another endpoint where
	// an earlier delegation completed a skill of that id: the id taken for
	// a global name.
	BorrowSkillID bool `break:"borrow-skill-id" check:"CARD-010.NO-BORROW"`
	// GlobalSkillAvailability keys unavailability on the skill id alone:
	// after a -32004 from any host, the id is refused unsent everywhere
	// for the availability TTL.
	GlobalSkillAvailability bool `break:"global-skill-availability" check:"CARD-010.OWN-SKILL"`
	// TrustHeaderJWK verifies a card whose key set does not verify it with
	// the key its signature header offers (jwk).
	TrustHeaderJWK bool `break:"trust-header-jwk" check:"SIG-005.REJECT"`
	// TrustJKUAsCardIssuer takes the card's own origin as the signer,
	// whatever host the jku names.
	TrustJKUAsCardIssuer bool `break:"trust-jku-as-card-issuer" check:"SIG-006.NO-FULL"`
	// FirstSignatureOnly judges a card by its first signature alone.
	FirstSignatureOnly bool `break:"first-signature-only" check:"KEY-001.ONE-GOOD"`
	// IgnoreKeyExpiry verifies with a key whatever validity its key set
	// publishes (its x5c certificate is not looked at).
	IgnoreKeyExpiry bool `break:"ignore-key-expiry" check:"KEY-002.REJECT"`
	// CacheRevokedKeys keeps every key set for the authority window,
	// whatever its Cache-Control says.
	CacheRevokedKeys bool `break:"cache-revoked-keys" check:"KEY-003.REJECT"`
	// PlainHTTPKeys fetches a key set named by an http:// jku, in the
	// clear, verifies with it, and takes the jku's host for the signer
	// whatever its scheme.
	PlainHTTPKeys bool `break:"plain-http-keys" check:"KEY-004.NOT-TRUSTED"`
	// LossyCanonical reads the card with encoding/json (a lone surrogate
	// becomes U+FFFD) and rounds its numbers to 15 significant digits
	// before canonicalising it.
	LossyCanonical bool `break:"lossy-canonical" check:"KEY-005.ACCEPT,KEY-006.REJECT"`
	// RefetchPlain answers a -32004 with a plain GET of the card (no cache
	// headers: the CDN serves its stale copy) and, the card still listing
	// the skill, sends the same skill to the same host again once.
	RefetchPlain bool `break:"refetch-plain" check:"CARD-006.INVALIDATE,CARD-009.EXPIRY"`
	// CancelAfterComplete cancels the real task after it completed.
	CancelAfterComplete bool `break:"cancel-after-complete" check:"CARD-002.G-CANCEL-ABANDONED"`

	// Interface and version selection (iface.go).

	// AnyVersionInterface takes the first JSON-RPC or HTTP+JSON entry of
	// supportedInterfaces whatever its protocolVersion and speaks 1.0 to
	// it (trpc-group/trpc-agent-go PR 2472's firstSupportedInterface).
	AnyVersionInterface bool `break:"any-version-interface" check:"IFACE-001.NO-MISMATCH,IFACE-001.DONE"`
	// NoLegacyFallback reads supportedInterfaces only: a 0.3 card has no
	// interface (a2aproject/a2a-java issue 1121).
	NoLegacyFallback bool `break:"no-legacy-fallback" check:"IFACE-002.FALLBACK"`
	// LegacyAs10 reads a 0.3 card's url but speaks 1.0 to it.
	LegacyAs10 bool `break:"legacy-as-1.0" check:"IFACE-002.VERSION,IFACE-002.FALLBACK"`
	// LegacyURLFirst takes a card's top-level url first, as a 1.0 JSON-RPC
	// interface, ahead of supportedInterfaces.
	LegacyURLFirst bool `break:"legacy-url-first" check:"IFACE-003.SUPPORTED-FIRST,IFACE-003.DONE"`
	// HybridLegacy03 takes a card's top-level url first as a 0.3 JSON-RPC
	// interface, also where the card has supportedInterfaces (a hybrid
	// card), whatever else the reference speaks: a 1.0 client reading the
	// hybrid card as a 0.3 one (A2A 1.0 §8.3.2 rule 1).
	HybridLegacy03 bool `break:"hybrid-legacy-0.3" check:"IFACE-003.SUPPORTED-FIRST,IFACE-003.DONE"`
	// IgnoreBinding takes every interface for JSON-RPC, gRPC ones too.
	IgnoreBinding bool `break:"ignore-binding" check:"IFACE-004.SKIP-UNSPOKEN"`
	// NoInterfaceFallback gives up on a candidate when its first interface
	// cannot be reached instead of trying the next one.
	NoInterfaceFallback bool `break:"no-interface-fallback" check:"IFACE-004.NEXT-ON-FAIL"`
	// GRPCSkip never uses a gRPC interface, not even the card's first,
	// though the hello declares gRPC: a client that says it speaks gRPC
	// and takes the card's JSON-RPC interface all the same.
	GRPCSkip bool `break:"grpc-skip" check:"IFACE-009.GRPC-FIRST"`
	// GRPCNoVersion sends no a2a-version metadata on gRPC calls (the
	// HTTP bindings keep A2A-Version): the server reads each call as 0.3
	// (a2aproject/a2a-java#1004).
	GRPCNoVersion bool `break:"grpc-no-version" check:"IFACE-010.METADATA,IFACE-010.G-VERSION-HEADER"`
	// GRPCSwallowStatus sends no a2a-version metadata either, and swallows
	// the error status of a unary gRPC call: a refused SendMessage reads as
	// an answer with no task (a Message reply), so the delegation is
	// reported completed though the agent ran nothing.
	GRPCSwallowStatus bool `break:"grpc-swallow-status" check:"IFACE-010.METADATA,IFACE-010.REPORT"`
	// GRPCNoCredential leaves the credential off gRPC calls (the HTTP
	// bindings keep it): credentials missing on one of the client's paths
	// (a2aproject/a2a-java#708).
	GRPCNoCredential bool `break:"grpc-no-credential" check:"AUTH-013.ATTACH,AUTH-013.DONE"`
	// OmitTenant sends no tenant, whatever the interface declares.
	OmitTenant bool `break:"omit-tenant" check:"IFACE-005.TENANT,IFACE-005.DONE"`
	// DowngradeOnVersionError answers -32009 by trying the same endpoint
	// again in 0.3.
	DowngradeOnVersionError bool `break:"downgrade-on-version-error" check:"IFACE-006.NO-DOWNGRADE,IFACE-006.REPORT"`
	// NoCredentials never presents a credential, whatever the card demands.
	NoCredentials bool `break:"no-credentials" check:"AUTH-001.ATTACH,AUTH-001.DONE,AUTH-002.ATTACH,AUTH-009.ATTACH,AUTH-013.ATTACH"`
	// APIKeyAsBearer presents every credential as Authorization: Bearer,
	// an API key too.
	APIKeyAsBearer bool `break:"api-key-as-bearer" check:"AUTH-002.ATTACH,AUTH-002.DONE,AUTH-013.ATTACH"`
	// StreamNoCredential sends SendStreamingMessage and SubscribeToTask
	// without the credential the card asks for (plain calls keep it).
	StreamNoCredential bool `break:"stream-no-credential" check:"AUTH-007.ATTACH,AUTH-007.DONE"`
	// FollowNoCredential sends SubscribeToTask and GetTask without the
	// credential (the send and the stream keep it).
	FollowNoCredential bool `break:"follow-no-credential" check:"AUTH-007.ATTACH"`
	// OAuthSecretAsBearer presents the OAuth 2.0 client secret itself as
	// the bearer token, and never asks the token endpoint.
	OAuthSecretAsBearer bool `break:"oauth-secret-as-bearer" check:"AUTH-008.SECRET,AUTH-008.PRESENTED"`
	// OAuthAnyTokenURL sends the client secret to whatever tokenUrl the
	// card declares, not only the client's own.
	OAuthAnyTokenURL bool `break:"oauth-any-token-url" check:"AUTH-012.NO-SECRET"`
	// OAuthNoRefresh takes a 401 invalid_token as final.
	OAuthNoRefresh bool `break:"oauth-no-refresh" check:"AUTH-008.REFRESH"`
	// OAuthKeepToken, after a 401 invalid_token, sends the request again
	// with the same token, three times.
	OAuthKeepToken bool `break:"oauth-keep-token" check:"AUTH-008.REFRESH,AUTH-008.NO-LOOP"`
	// StrictSecuritySchemes refuses a card with a securitySchemes entry of
	// a kind it does not read (the 1.0 oneof's oauth2, openIdConnect and
	// mtls members among them), as a2aproject/a2a-go#302's parser did.
	StrictSecuritySchemes bool `break:"strict-security-schemes" check:"AUTH-009.DONE"`
	// BearerCaseSensitive takes an HTTP scheme for bearer only when the
	// card spells it "Bearer".
	BearerCaseSensitive bool `break:"bearer-case-sensitive" check:"AUTH-009.DONE"`
	// StreamDespiteCard streams a caller that prefers streaming whatever
	// the card's capabilities.streaming says, and falls back to
	// SendMessage when the stream method answers -32004.
	StreamDespiteCard bool `break:"stream-despite-card" check:"CAP-001.NO-STREAM"`
	// GiveUpWithoutStreaming reports the delegation failed when the
	// caller prefers streaming and the card says the agent does not
	// stream.
	GiveUpWithoutStreaming bool `break:"give-up-without-streaming" check:"CAP-001.DONE"`
	// NoExtensionHeader never names an extension in a request header and
	// ignores the extensions a card requires (it sends anyway); a -32008
	// ends the attempt.
	NoExtensionHeader bool `break:"no-extension-header" check:"EXT-001.ACTIVATED,EXT-001.DONE,EXT-002.REFUSED"`
	// LegacyExtensionHeader names the activated extensions in 0.3's
	// X-A2A-Extensions on every interface, 1.0 ones included.
	LegacyExtensionHeader bool `break:"legacy-extension-header" check:"EXT-001.HEADER,EXT-001.ACTIVATED,EXT-001.DONE"`
	// ActivateRequiredExtensions activates every extension a card marks
	// required, whether the caller implements it (task.extensions) or
	// not, to get past -32008.
	ActivateRequiredExtensions bool `break:"activate-required-extensions" check:"EXT-002.NOT-ACTIVATED,EXT-002.REFUSED"`
	// ExtensionRetryLoop ignores the extensions a card requires (it sends
	// anyway, naming none) and repeats a request refused with -32008 five
	// more times.
	ExtensionRetryLoop bool `break:"extension-retry-loop" check:"EXT-002.NO-LOOP,EXT-002.REFUSED"`
	// RetryOn401 sends a refused request three more times with the same
	// credential.
	RetryOn401 bool `break:"retry-on-401" check:"AUTH-003.NO-RETRY"`
	// AuthRejectedAsOther reports a 401 with reason other.
	AuthRejectedAsOther bool `break:"auth-rejected-as-other" check:"AUTH-003.REPORT"`
	// CredentialByCard looks the credential up by the card's origin first,
	// so the issuer's credential follows its card to whatever endpoint the
	// card names (a reseller gateway).
	CredentialByCard bool `break:"credential-by-card" check:"AUTH-004.NO-LEAK,AUTH-004.G-CREDENTIAL-SCOPE"`
	// AnyCredential, holding none for the endpoint's origin, presents any
	// credential it holds.
	AnyCredential bool `break:"any-credential" check:"AUTH-006.NO-FIT,AUTH-006.G-CREDENTIAL-SCOPE"`
	// LogCredential writes the credential it presents into its notes (and
	// so the outcome's detail).
	LogCredential bool `break:"log-credential" check:"AUTH-001.G-CREDENTIAL-REDACTED"`

	// The task after the send (life.go).

	// TerminalAsCompleted reports completed for a task that ended failed,
	// rejected or canceled.
	TerminalAsCompleted bool `break:"terminal-as-completed" check:"LIFE-001.NOT-COMPLETED"`
	// InterruptedAsEscalated reports a task at input-required or
	// auth-required as escalated (the reference's answer before the
	// contract had interrupted).
	InterruptedAsEscalated bool `break:"interrupted-as-escalated" check:"LIFE-002.INTERRUPTED"`
	// PollInterrupted gets a task three more times after seeing it
	// interrupted.
	PollInterrupted bool `break:"poll-interrupted" check:"LIFE-002.STOP-POLLING"`
	// NoPoll takes the send's answer as the task's last word: a working
	// task is reported failed.
	NoPoll bool `break:"no-poll" check:"LIFE-003.DONE"`
	// ReturnImmediatelyNoFollow asks every send to return immediately
	// (A2A 1.0 §3.2.2) and then takes the answer as the task's last word,
	// as NoPoll does: the task it chose not to wait for is reported failed.
	ReturnImmediatelyNoFollow bool `break:"return-immediately-no-follow" check:"LIFE-006.DONE"`
	// FastPoll polls every 10 ms (a busy loop).
	FastPoll bool `break:"fast-poll" check:"LIFE-003.BACKOFF"`
	// PollPastDeadline polls on (every 300 ms at most) for 900 ms past the
	// delegation's deadline.
	PollPastDeadline bool `break:"poll-past-deadline" check:"LIFE-004.STOP"`
	// NoAbandonCancel leaves a task given up at the deadline working.
	NoAbandonCancel bool `break:"no-abandon-cancel" check:"LIFE-004.CANCEL"`
	// MessageAsFailure reports a Message reply (no task) as failed.
	MessageAsFailure bool `break:"message-as-failure" check:"LIFE-005.DONE,STREAM-009.DONE"`
	// PollMessageReply gets a made-up task id after a Message reply.
	PollMessageReply bool `break:"poll-message-reply" check:"LIFE-005.NO-INVENTED-TASK,LIFE-005.G-NO-UNKNOWN-TASK,STREAM-009.NO-TASK-OP"`
	// ContinueMadeUpTask, after the task completed, sends a follow-up
	// message that continues a task id it made up (message.taskId).
	ContinueMadeUpTask bool `break:"continue-made-up-task" check:"CARD-002.G-NO-UNKNOWN-TASK"`
	// CompleteOnStreamEnd takes a stream's end for the task's: completed,
	// whatever the last state.
	CompleteOnStreamEnd bool `break:"complete-on-stream-end" check:"STREAM-003.NOT-EARLY,STREAM-003.FOLLOW"`
	// NoFollowAfterCut does not follow a task whose stream ended (or broke
	// off) before it did: the last state seen is reported. STREAM-005.DONE
	// is NOT_EXERCISED by it (the final state is never met), not failed a
	// second time.
	NoFollowAfterCut bool `break:"no-follow-after-cut" check:"STREAM-003.FOLLOW,STREAM-004.FALLBACK"`
	// ResendAfterStreamError sends the work again (SendMessage) when a
	// stream breaks off midway.
	ResendAfterStreamError bool `break:"resend-after-stream-error" check:"STREAM-004.FALLBACK"`
	// StreamWorkingAsEnd takes the first working status on a stream for
	// the task's end: it closes the stream there and reports the task as
	// it stands (failed), without following it.
	StreamWorkingAsEnd bool `break:"stream-working-as-end" check:"LIFE-006.STREAM"`
	// ResubscribeLoop subscribes up to five times to a task whose
	// subscription was refused as terminal.
	ResubscribeLoop bool `break:"resubscribe-loop" check:"STREAM-005.NO-LOOP"`
	// TerminalSubscribeAsFailure takes a subscription refused as terminal
	// (-32004) for a failure instead of reading the task's final state.
	TerminalSubscribeAsFailure bool `break:"terminal-subscribe-as-failure" check:"STREAM-005.DONE"`

	// Conversations (conversation.go).

	// ReplyAsNewTask sends each reply with the task's contextId and no
	// taskId: every turn starts a new task.
	ReplyAsNewTask bool `break:"reply-as-new-task" check:"CONV-001.CONTINUE,CONV-001.NO-NEW-TASK,CONV-001.COMPLETED"`
	// FirstReplyOnly sends the first reply only, and reports a task that
	// asks again interrupted.
	FirstReplyOnly bool `break:"first-reply-only" check:"CONV-002.EVERY-TURN"`
	// InventReply, with no reply left, answers the task with the caller's
	// first message again.
	InventReply bool `break:"invent-reply" check:"CONV-003.NO-MADE-UP-REPLY"`
	// NoReplyAsFailed reports a task that asks when no reply is left as
	// failed, not interrupted.
	NoReplyAsFailed bool `break:"no-reply-as-failed" check:"CONV-003.INTERRUPTED"`
	// RefusedReplyAsCompleted reports completed when a reply is refused.
	RefusedReplyAsCompleted bool `break:"refused-reply-as-completed" check:"CONV-004.NOT-COMPLETED"`
	// RetryRefusedReplyFresh sends a refused reply again without taskId,
	// as a new task.
	RetryRefusedReplyFresh bool `break:"retry-refused-reply-fresh" check:"CONV-004.NO-FRESH-TASK"`

	// Results (results.go).

	// NoArtifacts leaves the task's artifacts out of the outcome.
	NoArtifacts bool `break:"no-artifacts" check:"RESULT-001.ARTIFACTS"`
	// JoinChunksWithSpace puts a space between a streamed artifact's
	// chunks (crewAIInc/crewAI#7477).
	JoinChunksWithSpace bool `break:"join-chunks-with-space" check:"RESULT-002.JOINED"`
	// DuplicateFirstChunk repeats an artifact's first chunk when the
	// second is appended (google/adk-python#6343).
	DuplicateFirstChunk bool `break:"duplicate-first-chunk" check:"RESULT-002.JOINED"`
	// DropUnknownAppend drops an append to an artifactId not seen as an
	// artifact (a2aproject/a2a-python#1038), and reports completed.
	DropUnknownAppend bool `break:"drop-unknown-append" check:"RESULT-002.UNKNOWN-APPEND"`
	// NoStatusText leaves the status message's text (the agent's
	// question) out of the outcome.
	NoStatusText bool `break:"no-status-text" check:"RESULT-003.QUESTION"`

	// Slow and lost answers (retry.go).

	// ShortHTTPTimeout gives a send one second (impatience) and, when no
	// answer came by then, sends the work again under a new messageId,
	// until the deadline: a client whose HTTP timeout is shorter than
	// the agent's work.
	ShortHTTPTimeout bool `break:"short-http-timeout" check:"SLOW-001.DONE,SLOW-001.G-ONE-TASK"`
	// RetryNewMessageID retries a send whose answer was lost under a new
	// messageId.
	RetryNewMessageID bool `break:"retry-new-message-id" check:"SLOW-002.SAME-MESSAGE-ID,SLOW-002.G-ONE-TASK"`
	// LostAsCompleted takes a send whose answer was lost for a completed
	// delegation (the request went out), without retrying.
	LostAsCompleted bool `break:"lost-as-completed" check:"SLOW-002.REPORTED"`
	// HoldPastDeadline keeps a blocking send open for 900 ms past the
	// delegation's deadline.
	HoldPastDeadline bool `break:"hold-past-deadline" check:"SLOW-003.STOP"`

	// Streams that answer with errors (streamerr.go).

	// StreamErrorAsEmpty reads a stream method's plain JSON answer as an
	// empty stream and reports it completed (no task, no Message).
	StreamErrorAsEmpty bool `break:"stream-error-as-empty" check:"STREAM-006.NO-EMPTY-SUCCESS"`
	// ResendAfterStreamAuth sends the work by SendMessage after the stream
	// method answered 401.
	ResendAfterStreamAuth bool `break:"resend-after-stream-auth" check:"STREAM-007.REFUSED"`
	// NoSubscribeTimeout waits for a subscription's first event however
	// long it takes (up to the request deadline).
	NoSubscribeTimeout bool `break:"no-subscribe-timeout" check:"STREAM-008.TIMEOUT,STREAM-008.POLL"`
	// SubscribeStallAsFailure leaves a silent subscription at the timeout
	// but reports the task failed instead of reading it by GetTask.
	SubscribeStallAsFailure bool `break:"subscribe-stall-as-failure" check:"STREAM-008.POLL"`
	// UnknownStateAsEnd takes a state it does not know on a stream for the
	// task's end: it closes the stream there and reports the task failed.
	UnknownStateAsEnd bool `break:"unknown-state-as-end" check:"STREAM-010.NOT-TERMINAL"`
	// StreamErrorUnnamed reports an error event of a stream without its
	// code or reason (outcome.error), as a generic failure; a plain send's
	// error is still named.
	StreamErrorUnnamed bool `break:"stream-error-unnamed" check:"STREAM-011.NAMED"`

	// Reading what the vendor sends (reading.go).

	// RejectUnknownFields refuses an answer (a call's result or a stream
	// event) in which a task, status, message, artifact, part or update
	// has a field A2A 1.0.1 does not define.
	RejectUnknownFields bool `break:"reject-unknown-fields" check:"READ-001.COMPLETED"`
	// FutureArtifacts reads a task's member it does not know whose value
	// is a list of artifact-shaped objects as more artifacts: a guess at
	// what a later version's field means.
	FutureArtifacts bool `break:"future-artifacts" check:"READ-001.NOTHING-INVENTED"`
	// RejectUnknownRole refuses an answer holding a message whose role is
	// neither user nor agent.
	RejectUnknownRole bool `break:"reject-unknown-role" check:"READ-002.COMPLETED"`
	// MillisTimestampsOnly refuses an answer whose status timestamp is not
	// written with exactly three fraction digits and 'Z'.
	MillisTimestampsOnly bool `break:"millis-timestamps-only" check:"READ-003.SPELLED,READ-003.PRECISE"`
	// PushTokenHeader authenticates webhook deliveries by
	// X-A2A-Notification-Token, a header A2A 1.0 does not define, while
	// registering only authentication (which the sender puts in
	// Authorization): genuine deliveries are refused.
	PushTokenHeader bool `break:"push-token-header" check:"PUSH-001.ACK"`
	// PushAcceptAll answers 2xx to every delivery and acts on it,
	// authenticated or not.
	PushAcceptAll bool `break:"push-accept-all" check:"PUSH-001.FORGED,PUSH-001.OUTCOME"`
	// PushActOnRefused refuses an unauthenticated delivery (401) and acts
	// on it all the same.
	PushActOnRefused bool `break:"push-act-on-refused" check:"PUSH-001.OUTCOME"`
	// PushNoTaskCheck takes every authenticated delivery as news of its
	// task, whatever task it names.
	PushNoTaskCheck bool `break:"push-no-task-check" check:"PUSH-001.UNKNOWN-TASK"`
	// PushNoDedup processes a delivery each time it arrives: a duplicate
	// artifact append is applied twice.
	PushNoDedup bool `break:"push-no-dedup" check:"PUSH-001.DUPLICATE"`
	// SharedPushToken registers every webhook with one credential, drawn
	// once per orchestrator.
	SharedPushToken bool `break:"shared-push-token" check:"PUSH-001.TOKEN"`
	// ExtendedCardNoCredential fetches the extended card without the
	// credential the public card's scheme asks for (and, refused, keeps
	// the public card).
	ExtendedCardNoCredential bool `break:"extended-card-no-credential" check:"XCARD-001.AUTH"`
	// ExtendedCardKeepPublic fetches and verifies the extended card but
	// keeps the public card, and checks the wanted skill against it: a
	// skill only the extended card lists is refused (skill-unavailable).
	ExtendedCardKeepPublic bool `break:"extended-card-keep-public" check:"XCARD-001.REPLACE"`
	// ExtendedCardUnverified takes the extended card in without checking
	// its signature (a2aproject/a2a-js#705).
	ExtendedCardUnverified bool `break:"extended-card-unverified" check:"XCARD-002.NOT-USED,XCARD-002.REFUSED"`
	// CredentialOnCardFetch sends the credential held for a card's origin
	// with the card fetch too, as Authorization: Bearer, where no scheme
	// asks for one.
	CredentialOnCardFetch bool `break:"credential-on-card-fetch" check:"XCARD-001.NO-CARD-CREDENTIAL"`
	// NoClientCert never presents a client certificate, whatever the card
	// demands (mtls.go).
	NoClientCert bool `break:"no-client-cert" check:"AUTH-010.PRESENT,AUTH-010.DONE"`
	// ClientCertEverywhere puts the client certificate in the TLS
	// configuration of every connection the delegation opens, so every
	// host that asks for one gets it.
	ClientCertEverywhere bool `break:"client-cert-everywhere" check:"AUTH-010.ONLY-ORIGIN"`
	// AnyClientCert takes a card that demands mutual TLS as satisfied
	// whenever the caller holds any client certificate, and offers every
	// certificate held on every connection (Go's TLS picks one whose
	// issuer the server names).
	AnyClientCert bool `break:"any-client-cert" check:"AUTH-011.NO-BORROW,AUTH-010.ONLY-ORIGIN"`

	// Discovery and interface choice (discovery.go).

	// CardAtRoot looks for the card at the root of the candidate's host
	// (https://host/.well-known/agent-card.json), dropping the path the
	// candidate URL has.
	CardAtRoot bool `break:"card-at-root" check:"DISC-001.CARD-PATH,DISC-001.DONE,DISC-002.AS-GIVEN,DISC-002.DONE"`
	// EndpointWithoutBasePath sends to an interface URL cut down to the
	// part from its first /a2a segment, the base path before it dropped
	// (an endpoint rebuilt from the host and the usual path).
	EndpointWithoutBasePath bool `break:"endpoint-without-base-path" check:"DISC-001.URL"`
	// UnvalidatedCard takes any JSON object for a card: no required
	// member is checked, and a card that lists no skills is read as the
	// wanted skill missing (skill-unavailable).
	UnvalidatedCard bool `break:"unvalidated-card" check:"DISC-004.NOT-USED,DISC-004.REFUSED"`
	// GuessEndpoint sends to https://<card host>/a2a/v1 (1.0 JSON-RPC)
	// when the card names no interface, instead of refusing it.
	GuessEndpoint bool `break:"guess-endpoint" check:"DISC-003.NOT-USED"`
	// LastEqualInterface keeps, of several interfaces with the same
	// binding and version, the last one listed (a map keyed by binding).
	LastEqualInterface bool `break:"last-equal-interface" check:"IFACE-007.FIRST"`
	// EmptyTenant sends params.tenant "" to an interface that declares no
	// tenant.
	EmptyTenant bool `break:"empty-tenant" check:"IFACE-007.NO-TENANT"`
	// TrimEndpointSlash trims a trailing slash from a JSON-RPC interface
	// URL before posting to it.
	TrimEndpointSlash bool `break:"trim-endpoint-slash" check:"IFACE-008.EXACT,IFACE-008.DONE"`
}

// Alternatives switch on a different behaviour that the seeds and the
// spec allow just as well, so that a test can show the catalog passing it
// ("every legitimate strategy passes"). Each field's tags give its flag
// name ("alt") and the checks that must still pass with it ("keeps"). The
// zero value is the reference's own choice everywhere.
type Alternatives struct {
	// RefuseUnbound rejects a signed card whose endpoint the signer does
	// not operate before contacting it, and reports no trustMode (seed
	// 003's "reject the delegation" instead of reduced trust).
	RefuseUnbound bool `alt:"refuse-unbound" keeps:"BIND-001.NO-FULL,BIND-006.NO-FULL,BIND-007.NO-FULL,BIND-004.NO-FULL,BIND-004.G-TLS-VERIFIED,AUTH-004.NO-LEAK"`
	// LifecycleProbe probes with a get of a synthetic task id marked as a
	// probe (seed 000, Condition of Validity: expect -32001) instead of a
	// probe send.
	LifecycleProbe bool `alt:"lifecycle-probe" keeps:"PROBE-001.NO-COMMIT,PROBE-001.PROBED,PROBE-002.ONE"`
	// VersionQuery sends A2A-Version as a query parameter instead of a
	// header [A2A 1.0 §3.6.1].
	VersionQuery bool `alt:"version-query" keeps:"CARD-002.G-VERSION-HEADER"`
	// RetrySameVendor answers a server-range error (other than -32004) by
	// re-fetching the card past the caches and retrying the same vendor
	// once, before moving on.
	RetrySameVendor bool `alt:"retry-same-vendor" keeps:"CARD-003.NOT-FATAL"`
	// RefuseModeMismatch refuses a skill whose input modes do not take the
	// caller's text instead of sending it as a data part (reason
	// input-mode-mismatch).
	RefuseModeMismatch bool `alt:"refuse-mode-mismatch" keeps:"MODE-001.NO-COERCION"`
	// CardOrder takes the first supportedInterfaces entry whose binding and
	// version the reference speaks, in card order (A2A 1.0 §8.3.2 rule 1),
	// instead of preferring 1.0 entries to 0.3 ones (a2a-cli SPEC §13.2).
	CardOrder bool `alt:"card-order" keeps:"IFACE-001.NO-MISMATCH,IFACE-001.DONE,IFACE-003.SUPPORTED-FIRST,IFACE-005.TENANT,IFACE-007.FIRST,IFACE-007.NO-TENANT,IFACE-008.EXACT"`
	// RefuseWithoutCredential rejects the delegation (reason
	// no-credential) at the first candidate whose card demands a
	// credential the caller does not hold, instead of trying the next.
	RefuseWithoutCredential bool `alt:"refuse-without-credential" keeps:"AUTH-006.NO-FIT"`
	// UnsignedOnPlainKeys takes a card whose every signature names an
	// http:// jku as unsigned and delegates unpinned, instead of refusing
	// it (key-unknown): a key that came in the clear proves nothing, as no
	// signature proves nothing.
	UnsignedOnPlainKeys bool `alt:"unsigned-on-plain-keys" keeps:"KEY-004.NOT-TRUSTED"`

	// OAuthSecretInBody authenticates to the token endpoint with
	// client_id and client_secret in the form body (client_secret_post)
	// instead of HTTP Basic: RFC 6749 §2.3.1 allows both.
	OAuthSecretInBody bool `alt:"oauth-secret-in-body" keeps:"AUTH-008.SECRET,AUTH-008.PRESENTED,AUTH-008.REFRESH,AUTH-008.NO-LOOP"`
	// OAuthCallerTokenURL uses the caller's OAuth 2.0 client for a card's
	// client credentials flow whatever tokenUrl the card declares, getting
	// the token at the client's own tokenUrl (where the caller registered
	// it) instead of refusing the card.
	OAuthCallerTokenURL bool `alt:"oauth-caller-token-url" keeps:"AUTH-012.NO-SECRET,AUTH-008.SECRET,AUTH-008.REFRESH"`

	// PollAfterCut follows a task whose stream ended before it did by
	// polling GetTask instead of subscribing again (both are the spec's
	// ways: A2A 1.0 §3.1.6, A2A CLI A2ACLI_TASK_POLL_004).
	PollAfterCut bool `alt:"poll-after-cut" keeps:"STREAM-003.FOLLOW,STREAM-003.NOT-EARLY,STREAM-004.FALLBACK,STREAM-005.DONE,STREAM-005.NO-LOOP,AUTH-007.ATTACH,AUTH-007.DONE"`
	// StreamFollow streams every real send to a JSON-RPC 1.0 interface
	// whose card claims streaming (SendStreamingMessage, A2A 1.0 §3.1.2),
	// asked to or not, and follows the task over that stream: read to the
	// task's end, or closed at the deadline and the task cancelled. The
	// spec's other way of following a task than polling (§3.5.1).
	StreamFollow bool `alt:"stream-follow" keeps:"LIFE-003.DONE,LIFE-004.STOP,LIFE-004.CANCEL,G-CANCEL-ABANDONED,LIFE-006.STREAM,READ-001.COMPLETED,READ-002.COMPLETED,READ-003.SPELLED,READ-003.PRECISE"`
	// Only10 speaks A2A 1.0 alone (and declares so in its hello): it uses
	// only 1.0 interfaces and refuses a card that offers none, a pure 0.3
	// card among them, with version-mismatch and nothing sent. A2A 1.0
	// does not ask a 1.0 client to read 0.3 cards (§8.3.2 applies to
	// supportedInterfaces "if present"; a2a-cli SPEC §13.2 makes 0.3 an
	// opt-in): its a2a-core verdict is judged for 1.0.
	Only10 bool `alt:"only-1.0" keeps:"IFACE-001.NO-MISMATCH,IFACE-003.SUPPORTED-FIRST,IFACE-005.TENANT,EXT-001.HEADER,IFACE-007.FIRST,IFACE-007.NO-TENANT,DISC-001.URL,DISC-001.DONE"`
	// Only03 speaks A2A 0.3 over JSON-RPC alone (and declares so): it
	// uses a card's 0.3 interfaces (0.3 supportedInterfaces entries, then
	// the 0.3 members url and additionalInterfaces) and refuses a card
	// that offers none with version-mismatch and nothing sent. Its a2a-core
	// verdict is judged for 0.3, the 1.0-only scenarios saying "needs 1.0".
	Only03 bool `alt:"only-0.3" keeps:"IFACE-001.NO-MISMATCH,IFACE-002.FALLBACK,IFACE-002.VERSION,READ-001.COMPLETED,READ-001.NOTHING-INVENTED,READ-002.COMPLETED,EXT-001.ACTIVATED,EXT-001.DONE,CAP-001.NO-STREAM,CAP-001.DONE,XCARD-001.AUTH,XCARD-001.REPLACE,XCARD-002.NOT-USED,DISC-001.URL,DISC-001.DONE,DISC-002.DONE"`
	// PushInline registers the webhook in the send's configuration
	// (taskPushNotificationConfig, A2A 1.0 §6.6's way) instead of by
	// CreateTaskPushNotificationConfig after the send: deliveries may then
	// come before the send's answer names the task, and wait for it.
	PushInline bool `alt:"push-inline" keeps:"PUSH-001.ACK,PUSH-001.FORGED,PUSH-001.UNKNOWN-TASK,PUSH-001.DUPLICATE,PUSH-001.OUTCOME,PUSH-001.TOKEN"`
	// NoExtendedCard never fetches an extended agent card: the public
	// card is all it reads of an agent. Nothing in A2A asks a client to
	// fetch one (§3.1.11's MUST and SHOULD bind a client that does), so
	// the XCARD checks do not apply to it; it still sends the wanted skill
	// and lets the agent decide (a card is a claim, not a contract).
	NoExtendedCard bool `alt:"no-extended-card" keeps:"XCARD-001.NO-CARD-CREDENTIAL"`
	// NoExtendedCardRefuse never fetches an extended agent card either,
	// and refuses (skill-unavailable) a skill that the public card does not
	// list when that card declares an extended card it will not read: the
	// skill may be there, but nothing it reads says so.
	NoExtendedCardRefuse bool `alt:"no-extended-card-refuse" keeps:"XCARD-001.NO-CARD-CREDENTIAL"`
	// CertConnPerCall opens a new TLS connection (a new handshake, with
	// the client certificate, or a resumed session) for every request to
	// an origin it holds a client certificate for, instead of keeping the
	// connection alive.
	CertConnPerCall bool `alt:"cert-conn-per-call" keeps:"AUTH-010.PRESENT,AUTH-010.DONE,AUTH-010.ONLY-ORIGIN"`
	// CertOnlyIfDeclared presents a client certificate to its origin only
	// once that origin's card has declared a mutual TLS scheme, instead of
	// whenever the origin asks for one.
	CertOnlyIfDeclared bool `alt:"cert-only-if-declared" keeps:"AUTH-010.PRESENT,AUTH-010.DONE,AUTH-010.ONLY-ORIGIN"`
	// NoGRPC speaks A2A 1.0 and 0.3 over JSON-RPC and HTTP+JSON only, and
	// declares so in its hello: a client without a gRPC transport, which
	// takes the next entry of a card that lists gRPC first and is not
	// judged on gRPC calls.
	NoGRPC bool `alt:"no-grpc" keeps:"IFACE-009.DONE,CARD-002.URL,CARD-002.DONE,IFACE-004.SKIP-UNSPOKEN,IFACE-004.NEXT-ON-FAIL"`
	// PreferGRPC takes a card's gRPC interface first wherever the card
	// lists one, ahead of its order (A2A 1.0.1 §5.2: a client may choose
	// any protocol the agent declares), and keeps to card order otherwise:
	// D's default card lists gRPC last, so every scenario of D runs over
	// gRPC, push notifications aside (the reference registers webhooks
	// over JSON-RPC only, so a delegation that asks for push takes the
	// card's order).
	PreferGRPC bool `alt:"grpc-first" keeps:"IFACE-009.GRPC-FIRST,IFACE-009.ADDRESS,IFACE-009.DONE,IFACE-010.METADATA,AUTH-013.ATTACH,AUTH-013.DONE,CARD-002.URL,CARD-002.DONE,AUTH-001.ATTACH,AUTH-001.DONE,LIFE-003.DONE,STREAM-003.FOLLOW"`
	// InvalidCardAsOther refuses a card without REQUIRED members with
	// reason other and the missing members in the detail, as a client
	// written before the contract had the word invalid-card does.
	InvalidCardAsOther bool `alt:"invalid-card-as-other" keeps:"DISC-003.NOT-USED,DISC-004.NOT-USED,DISC-004.REFUSED"`
}

// AltInfo describes one Alternatives field.
type AltInfo struct {
	// Field is the Go field name; Name the flag name.
	Field, Name string
	// Keeps are the checks that must pass with the alternative on.
	Keeps []string
}

// AltList lists the Alternatives fields in declaration order.
func AltList() []AltInfo {
	var out []AltInfo
	for _, f := range flagFields(Alternatives{}, "alt", "keeps") {
		out = append(out, AltInfo{Field: f.field, Name: f.name, Keeps: f.list})
	}
	return out
}

// ParseAlternatives turns flag names into Alternatives; an unknown name is
// an error listing the known ones.
func ParseAlternatives(names ...string) (Alternatives, error) {
	var a Alternatives
	err := setFlags(&a, "alt", "alternative", names)
	return a, err
}

// BreakInfo describes one Breaks field.
type BreakInfo struct {
	// Field is the Go field name ("NoProbe").
	Field string
	// Name is the flag name ("no-probe").
	Name string
	// Checks are the catalog checks the break is meant to fail.
	Checks []string
}

// BreakList lists the Breaks fields in declaration order.
func BreakList() []BreakInfo {
	var out []BreakInfo
	for _, f := range flagFields(Breaks{}, "break", "check") {
		out = append(out, BreakInfo{Field: f.field, Name: f.name, Checks: f.list})
	}
	return out
}

// ParseBreaks turns flag names ("no-probe", "extra-calls"), separated by
// commas or given as several strings, into Breaks. Field names are accepted
// too. An unknown name is an error listing the known ones.
func ParseBreaks(names ...string) (Breaks, error) {
	var b Breaks
	err := setFlags(&b, "break", "break", names)
	return b, err
}

// flagField is one bool field of Breaks or Alternatives: its Go name, its
// flag name (tag nameTag) and its check list (tag listTag, comma-separated).
type flagField struct {
	field, name string
	list        []string
}

func flagFields(v any, nameTag, listTag string) []flagField {
	t := reflect.TypeOf(v)
	out := make([]flagField, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		out = append(out, flagField{field: f.Name, name: f.Tag.Get(nameTag), list: strings.Split(f.Tag.Get(listTag), ",")})
	}
	return out
}

// setFlags switches on the fields of *dst named (by flag name or, in any
// case, Go field name) in names, each a name or a comma-separated list.
func setFlags(dst any, nameTag, what string, names []string) error {
	v := reflect.ValueOf(dst).Elem()
	byName := map[string]int{}
	var known []string
	for i, f := range flagFields(v.Interface(), nameTag, "") {
		byName[f.name] = i
		byName[strings.ToLower(f.field)] = i
		known = append(known, f.name)
	}
	for _, arg := range names {
		for _, n := range strings.Split(arg, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			i, ok := byName[n]
			if !ok {
				i, ok = byName[strings.ToLower(n)]
			}
			if !ok {
				sort.Strings(known)
				return fmt.Errorf("unknown %s %q (known: %s)", what, n, strings.Join(known, ", "))
			}
			v.Field(i).SetBool(true)
		}
	}
	return nil
}

// Names returns the flag names of the breaks that are on.
func (b Breaks) Names() []string {
	v := reflect.ValueOf(b)
	var out []string
	for i, bi := range BreakList() {
		if v.Field(i).Bool() {
			out = append(out, bi.Name)
		}
	}
	return out
}
