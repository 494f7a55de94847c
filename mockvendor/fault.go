package mockvendor

import "github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"

// The faults live in internal/fault (layer 3): the registry, the hook
// interfaces, the seam a fault sees (Call, VendorView, CardSigner,
// CallError) and every fault type, one file each. These aliases keep them
// part of this package's public face; the vendor's side of the hooks (who
// asks which fault when) is the wiring in vendor.go, card.go,
// negotiate.go and fleet.go.

// FaultType describes a registered fault type for documentation and the
// admin API.
type FaultType = fault.Type

// FaultField documents one config field of a fault type.
type FaultField = fault.Field

// FaultTypes lists the registered fault types, sorted by name, with their
// config fields (read from the config structs' json and doc tags).
func FaultTypes() []FaultType { return fault.Types() }

// ConfigError is a configuration the fleet refuses: an unknown fault type,
// an unknown vendor or host, a field with the wrong type.
type ConfigError = fault.ConfigError

// Call is one call (JSON-RPC or HTTP+JSON) as the faults see it: what
// the request asked, the vendor it reached (as a VendorView), and the
// fault outputs the vendor acts on.
type Call = fault.Call

// VendorView is a vendor as the faults see it: the facts of its
// configuration they need, read-only.
type VendorView = fault.VendorView

// CardSigner is a signing vendor's card-signing key as the sign and JWKS
// faults see it: what its signatures name and the honest signatures it
// makes, never the private key itself.
type CardSigner = fault.CardSigner

// CallError is the error a fault answers a call with: an RPCError, which
// the call's binding renders in the call's dialect.
type CallError = fault.CallError

// The config types of the faults, by fault type (the package doc's table
// says what each does; internal/fault documents each field).
type (
	// StaleCard is the config of stale-card: the CDN keeps serving an old card;
	// the origin has the new one.
	StaleCard = fault.StaleCard
	// RegionGate is the config of region-gate: the regional gateway refuses
	// skills with -32004 and names the ones it has.
	RegionGate = fault.RegionGate
	// SkillRollout is the config of skill-rollout: the gateway renames a skill
	// every window; the origin card follows, the CDN does not.
	SkillRollout = fault.SkillRollout
	// ServerError is the config of server-error: sends fail with a server-range
	// JSON-RPC error.
	ServerError = fault.ServerError
	// StubEndpoint is the config of stub-endpoint: every JSON-RPC method
	// answers -32601 (or -32602).
	StubEndpoint = fault.StubEndpoint
	// RefuseConnections is the config of refuse-connections: every connection
	// to the host is closed at once, before TLS (a dead endpoint); each is
	// traced as connection-refused.
	RefuseConnections = fault.RefuseConnections
	// ProbeAccept is the config of probe-accept: a probe returns a task that
	// stays working until cancelled.
	ProbeAccept = fault.ProbeAccept
	// InputModeCoercion is the config of input-mode-coercion: text parts for a
	// non-text skill become data parts {"text": ...}.
	InputModeCoercion = fault.InputModeCoercion
	// StreamContentTypeLie is the config of stream-content-type-lie: stream
	// methods answer application/json instead of text/event-stream.
	StreamContentTypeLie = fault.StreamContentTypeLie
	// SlowFirstFrame is the config of slow-first-frame: a stream waits before
	// its first event.
	SlowFirstFrame = fault.SlowFirstFrame
	// StreamCut is the config of stream-cut: a stream ends (or breaks off)
	// while its task is still running.
	StreamCut = fault.StreamCut
	// LongTask is the config of long-task: real tasks work long (or for
	// ever); a blocking send is held until the task ends.
	LongTask = fault.LongTask
	// LostAnswer is the config of lost-answer: a real send's task is
	// created, then the connection drops before the answer.
	LostAnswer = fault.LostAnswer
	// StreamErrorJSON is the config of stream-error-json: stream methods
	// answer an A2A error as plain JSON before any stream (plain sends pass).
	StreamErrorJSON = fault.StreamErrorJSON
	// StreamUnauthorized is the config of stream-unauthorized: stream
	// methods answer HTTP 401 with a challenge; plain sends pass without a
	// credential.
	StreamUnauthorized = fault.StreamUnauthorized
	// SubscribeStall is the config of subscribe-stall: a subscription sends
	// no first event (held open until the client leaves).
	SubscribeStall = fault.SubscribeStall
	// PushTrials is the config of push-trials: a completed task's webhooks
	// also receive a delivery for an unknown task, forged and unsigned
	// ones, and a duplicate.
	PushTrials = fault.PushTrials
	// StateUnknown is the config of state-unknown: a stream announces its
	// task in an unknown or unspecified state before it goes on.
	StateUnknown = fault.StateUnknown
	// UnknownFields is the config of unknown-fields: the card and every
	// answer carry fields A2A 1.0.1 does not define, some result-like.
	UnknownFields = fault.UnknownFields
	// UnknownRole is the config of unknown-role: the agent's messages
	// carry a Role value A2A 1.0.1 does not define.
	UnknownRole = fault.UnknownRole
	// TimestampForm is the config of timestamp-form: status timestamps in
	// one of the ISO 8601 forms A2A 1.0.1 allows.
	TimestampForm = fault.TimestampForm
	// CardEmpty is the config of card-empty: the card fetch answers HTTP
	// 200 with {}.
	CardEmpty = fault.CardEmpty
	// CardMissing is the config of card-missing: the card lacks members
	// the proto marks REQUIRED.
	CardMissing = fault.CardMissing
	// StreamErrorEvent is the config of stream-error-event: a stream ends
	// with an A2A error event after its first events; the task fails.
	StreamErrorEvent = fault.StreamErrorEvent
	// TaskOutcome is the config of task-outcome: real tasks end in another
	// state, pause at an interrupted one, or stay working first.
	TaskOutcome = fault.TaskOutcome
	// InputRequiredTurns is the config of input-required-turns: real tasks
	// pause at input-required with a question, turns times, and complete
	// after the caller's last answer (or end before it arrives).
	InputRequiredTurns = fault.InputRequiredTurns
	// MessageReply is the config of message-reply: sends and streams answer a
	// Message and create no task.
	MessageReply = fault.MessageReply
	// TaskArtifacts is the config of artifacts: completed tasks hold the
	// configured artifacts (text, file and data parts), streamed in chunks;
	// each artifact is an ArtifactSpec.
	TaskArtifacts = fault.TaskArtifacts
	// VersionHeaderLie is the config of version-header-lie: responses carry an
	// A2A-Version other than the card's.
	VersionHeaderLie = fault.VersionHeaderLie
	// VersionReject is the config of version-reject: requests with an
	// unsupported A2A-Version get -32009.
	VersionReject = fault.VersionReject
	// LenientVersion is the config of lenient-version: a method is answered in
	// its own dialect whatever A2A-Version the request names (the source
	// documents' mix: tasks/send with 1.0).
	LenientVersion = fault.LenientVersion
	// ResellerGateway is the config of reseller-gateway: the host runs any
	// skill under its own allowlist and refuses some tools with -32601.
	ResellerGateway = fault.ResellerGateway
	// WrongSAN is the config of wrong-san: the host presents a CA-signed
	// certificate for other names.
	WrongSAN = fault.WrongSAN
	// SelfSignedCert is the config of self-signed: the host presents a
	// self-signed certificate.
	SelfSignedCert = fault.SelfSignedCert
	// TamperedCard is the config of tampered-card: a skill is added to the card
	// after it was signed.
	TamperedCard = fault.TamperedCard
	// TamperedExtendedCard is the config of tampered-extended-card: the
	// extended card's description is changed after it was signed.
	TamperedExtendedCard = fault.TamperedExtendedCard
	// UnknownKID is the config of unknown-kid: the card is signed by a key
	// absent from the JWKS.
	UnknownKID = fault.UnknownKID
	// KeyRotation is the config of key-rotation: the card is signed by a new
	// key the first JWKS fetch lacks.
	KeyRotation = fault.KeyRotation
	// DuplicateKID is the config of duplicate-kid: the JWKS holds two different
	// keys with the card's kid.
	DuplicateKID = fault.DuplicateKID
	// AlgNone is the config of alg-none: the card's signature header says alg
	// none.
	AlgNone = fault.AlgNone
	// AlgConfusion is the config of hs256-confusion: the card is signed HS256
	// with the public key's bytes as secret.
	AlgConfusion = fault.AlgConfusion
	// Unsigned is the config of unsigned-card: the card carries no signatures.
	Unsigned = fault.Unsigned
	// EmbeddedJWK is the config of embedded-jwk: signed by a key embedded in
	// the header (jwk), not in the key set.
	EmbeddedJWK = fault.EmbeddedJWK
	// ForeignJKU is the config of foreign-jku: signed by a key whose jku is
	// another host's key set.
	ForeignJKU = fault.ForeignJKU
	// SeveralSignatures is the config of several-signatures: the card
	// carries three signatures, of which only the last verifies.
	SeveralSignatures = fault.SeveralSignatures
	// ExpiredKey is the config of expired-key: the card is signed by a key
	// whose published validity ended a year ago (x5c notAfter and exp).
	ExpiredKey = fault.ExpiredKey
	// RevokedKey is the config of revoked-key: the card is signed by a key
	// the JWKS lists until revoked, then no longer.
	RevokedKey = fault.RevokedKey
	// PlainHTTPJKU is the config of plain-http-jku: the card is signed by a
	// key its jku offers only over plain http://.
	PlainHTTPJKU = fault.PlainHTTPJKU
	// CanonTraps is the config of canon-traps: the card holds
	// canonicalisation traps; Tamper changes one after signing.
	CanonTraps = fault.CanonTraps
)

// DefaultCardMissingMembers are the card members card-missing drops when
// its config names none.
var DefaultCardMissingMembers = fault.DefaultCardMissing

// Facts of the unknown-fields fault the READ checks look for.
const (
	// DefaultUnknownMarker is the text unknown-fields' result-like fields
	// carry when its config names no marker.
	DefaultUnknownMarker = fault.DefaultUnknownMarker
	// LaterArtifactID is the artifactId of the artifact-shaped object in
	// an unknown-fields task's "outputs", a field 1.0.1 does not define.
	LaterArtifactID = fault.LaterArtifactID
)
