package mockvendor

import (
	"encoding/json"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
)

// Config describes a fleet before it starts. The zero Config is an empty
// fleet (only the proxy); DefaultConfig returns the catalog's default fleet.
type Config struct {
	// Vendors are the mock vendors, each with its hosts, card and faults.
	Vendors []VendorConfig `json:"vendors"`
	// CA issues every host certificate. Nil means a fresh in-memory CA.
	CA *CA `json:"-"`
	// ClientCA issues the client certificates of the vendors with an
	// MTLSConfig (mtls.go). Nil means a fresh in-memory client CA.
	ClientCA *CA `json:"-"`
	// Limits bound what the fleet keeps; the zero value means the defaults.
	Limits Limits `json:"limits,omitempty"`
	// PlainJSON turns off the JSON-RPC endpoint's fast JSON path
	// (internal/binding/jsonrpc: github.com/go-json-experiment/json, typed structs and a
	// token encoder for the send answers): requests are then read and
	// answers written with encoding/json alone; and the gRPC binding's
	// fast path for the common send (internal/binding/grpc/fast.go), so
	// that every call goes through protojson. The answers are the same
	// either way. False (the zero value) keeps the fast path on; true is
	// for printing its gain (bench/fleetbench's fleet_plain) and for
	// bisecting a wire bug.
	PlainJSON bool `json:"plainJSON,omitempty"`
	// StreamsWork makes a real task created by a stream (not a probe, not
	// held, not timed by task-outcome) work Limits.WorkTime before it
	// completes: its stream sends the task and its working status at once
	// and the rest when the work ends, and closes there, as an honest
	// agent's real-time stream does (A2A 1.0 §3.1.2, §3.5.1). Off, a
	// streamed task is done when its stream starts (a blocking send's
	// model). Sends are left alone.
	StreamsWork bool `json:"streamsWork,omitempty"`
	// ProxyAddr is the address the fleet's CONNECT proxy listens on; ""
	// means a free loopback port. The hosts' own listeners stay on
	// loopback: a client elsewhere reaches them through the proxy. The
	// command line asks for an explicit flag before it listens beyond
	// loopback (a2a-conform proxy --allow-remote).
	ProxyAddr string `json:"proxyAddr,omitempty"`
}

// Limits bound the fleet's memory and its patience with slow clients.
type Limits struct {
	// MaxBody is the largest request body accepted (JSON-RPC and
	// HTTP+JSON), in bytes. Zero means 1 MiB. A larger body is refused with
	// HTTP 413 and -32600 without being read, the limit in the error's
	// data (maxBodyBytes). A body may nest at most MaxBodyDepth deep.
	MaxBody int64 `json:"maxBody,omitempty"`
	// MaxTraceEvents caps the trace. Zero means 100,000. Past the cap the
	// oldest tenth of the events is dropped and Trace.Dropped counts them.
	// An event's own fields are bounded (each text field at most
	// MaxTracedField bytes, at most 16 coercions): about 0.9 KiB for an
	// ordinary request and at most 7 KiB for a hostile one
	// (BenchmarkTraceMemory), request bodies apart.
	MaxTraceEvents int `json:"maxTraceEvents,omitempty"`
	// MaxTraceBodyBytes caps the request bodies the trace keeps, all
	// events together, in bytes. Zero means 64 MiB. Once spent, an event
	// keeps no body (Event.RequestNotKept says so, Event.RequestSize has
	// its length; Trace.BodiesLeftOut counts them) until dropped events
	// free some. With the defaults the trace holds at most about
	// 100,000 x 7 KiB + 64 MiB = 0.72 GiB whatever the clients send, and
	// about 160 MiB for ordinary traffic.
	MaxTraceBodyBytes int64 `json:"maxTraceBodyBytes,omitempty"`
	// MaxTasks caps the task store. Zero means 10,000. Past the cap the oldest
	// task is forgotten; a later get or cancel for it answers -32001.
	MaxTasks int `json:"maxTasks,omitempty"`
	// MaxTaskBytes caps, in bytes, what the task store keeps for the
	// whole fleet (a scenario runs a fleet of its own, so this is also the
	// scenario's budget): each task's strings and its messages' texts,
	// data, files and metadata. Zero means 64 MiB. A new task that does
	// not fit makes room by forgetting the oldest tasks (a later get or
	// cancel for them answers -32001); a follow-up message that does not
	// fit is kept as a stub (its role, its id clipped to MaxTracedField
	// and one text part saying how many bytes were left out), or not at
	// all when even the stub does not fit. The store may exceed the cap
	// by one task (at most MaxBody of input).
	MaxTaskBytes int64 `json:"maxTaskBytes,omitempty"`
	// MaxVendorTaskBytes caps, in bytes, what the task store keeps for
	// each vendor, within MaxTaskBytes, in the same way. Zero means
	// 32 MiB.
	MaxVendorTaskBytes int64 `json:"maxVendorTaskBytes,omitempty"`
	// ReadTimeout bounds reading one request (headers and body), on the
	// hosts and on the proxy's absolute-form path. Zero means 10 s; a
	// client that sends slower is cut off.
	ReadTimeout time.Duration `json:"readTimeout,omitempty"`
	// MaxConns caps the connections open at once on the fleet's listeners,
	// the proxy's and every host's together (a CONNECT tunnel holds one of
	// each). Zero means 1,024. A connection past the cap takes the place
	// of the open connection that has waited longest for its next request
	// (Fleet.ConnsReclaimed), so idle connections cannot keep others out;
	// when every connection is inside a request, its request is answered
	// HTTP 503 with Retry-After: 1 (after the TLS handshake on a host) and
	// traced as OpConnLimit, MaxOverCapAnswers at once, each within
	// OverCapLife; one past those is closed. Fleet.Conns counts the
	// refusals.
	MaxConns int `json:"maxConns,omitempty"`
	// MaxTunnels caps the CONNECT tunnels open at once. Zero means 256.
	// Past the cap CONNECT answers 503 with Retry-After: 1. A tunnel costs
	// three descriptors (the client's connection, the proxy's to the host,
	// the host's end of it), so the fleet holds at most about MaxConns +
	// MaxTunnels + MaxOverCapAnswers descriptors for connections: 1,344
	// with the defaults, whatever the clients open.
	MaxTunnels int `json:"maxTunnels,omitempty"`
	// IdleTimeout closes a keep-alive connection (to the proxy or a host)
	// that waits this long for its next request, and a tunnel that
	// carries no byte either way for this long. Zero means 60 s.
	IdleTimeout time.Duration `json:"idleTimeout,omitempty"`
	// WorkTime is how long a task sent with blocking off stays submitted or
	// working before it completes. Zero means 100 ms.
	WorkTime time.Duration `json:"workTime,omitempty"`
}

func (l Limits) withDefaults() Limits {
	if l.MaxBody == 0 {
		l.MaxBody = 1 << 20
	}
	if l.MaxTraceEvents == 0 {
		l.MaxTraceEvents = 100_000
	}
	if l.MaxTraceBodyBytes == 0 {
		l.MaxTraceBodyBytes = 64 << 20
	}
	if l.MaxTasks == 0 {
		l.MaxTasks = 10_000
	}
	if l.MaxTaskBytes == 0 {
		l.MaxTaskBytes = 64 << 20
	}
	if l.MaxVendorTaskBytes == 0 {
		l.MaxVendorTaskBytes = 32 << 20
	}
	if l.ReadTimeout == 0 {
		l.ReadTimeout = 10 * time.Second
	}
	if l.MaxConns == 0 {
		l.MaxConns = 1024
	}
	if l.MaxTunnels == 0 {
		l.MaxTunnels = 256
	}
	if l.IdleTimeout == 0 {
		l.IdleTimeout = 60 * time.Second
	}
	if l.WorkTime == 0 {
		l.WorkTime = 100 * time.Millisecond
	}
	return l
}

// VendorConfig is one mock vendor: an organisation with hosts, a card and the
// skills its gateway serves.
type VendorConfig struct {
	// ID names the vendor in the admin API, faults and traces ("b").
	ID string `json:"id"`
	// Organization is the provider name on the card ("Vendor B").
	Organization string `json:"organization"`
	// Hosts are the vendor's TLS hosts. At least one is required.
	Hosts []HostConfig `json:"hosts"`
	// Card is what the vendor's card says about itself.
	Card CardConfig `json:"card"`
	// Skills are the skills the vendor's JSON-RPC endpoint serves; the origin
	// card lists them too. A send for any other skill answers -32004.
	Skills []SkillConfig `json:"skills"`
	// Versions are the A2A versions (Major.Minor) the vendor serves, the
	// preferred first; its card declares an interface for each, and a
	// request for any other A2A-Version gets -32009 (A2A 1.0 §3.6.2). A
	// request without A2A-Version is a 0.3 request. Empty means ["1.0",
	// "0.3"], or ["0.3"] when Card.ProtocolVersion is "0.3".
	Versions []string `json:"versions,omitempty"`
	// DefaultSkill is used when a message names no skill. Empty means the
	// first skill.
	DefaultSkill string `json:"defaultSkill,omitempty"`
	// Signing, when set, signs the vendor's card and serves a JWKS on every
	// card host. Nil means an unsigned card.
	Signing *SigningConfig `json:"signing,omitempty"`
	// Faults are attached at start-up (and restored by a reset).
	Faults []FaultSpec `json:"faults,omitempty"`
	// Auth, when set, makes the vendor's card declare a security scheme
	// and its endpoints refuse calls without the credential it issued
	// (auth.go). Nil means an open vendor: no scheme, no check.
	Auth *AuthConfig `json:"auth,omitempty"`
	// MTLS, when set, makes the vendor authenticate its callers by mutual
	// TLS (mtls.go): its card declares the scheme and its endpoint hosts
	// ask for the client certificate it issued. Nil means none asks.
	MTLS *MTLSConfig `json:"mtls,omitempty"`
	// Upstream, when set, puts the vendor in front of a real A2A agent:
	// every operation is forwarded to it and the faults act on its card
	// and answers (upstream.go). Nil means the vendor answers itself.
	Upstream *UpstreamConfig `json:"upstream,omitempty"`
}

// AuthConfig is how a vendor authenticates its callers [A2A 1.0 §7.3-7.4]:
// the scheme its card declares and the one credential it accepts. The card
// and the JWKS stay public; every JSON-RPC and HTTP+JSON call must present
// the credential the way the scheme says, or it gets HTTP 401.
type AuthConfig struct {
	// Scheme is AuthBearer (an HTTP bearer token in Authorization),
	// AuthAPIKey (an API key in a request header) or AuthOAuth2 (OAuth 2.0
	// client credentials: an access token from the vendor's token
	// endpoint, HostConfig.TokenPath, as a bearer token). Empty means
	// AuthBearer.
	Scheme string `json:"scheme,omitempty"`
	// Header is the API key's header name. Empty means "X-API-Key". Only
	// read for AuthAPIKey.
	Header string `json:"header,omitempty"`
	// Name is the scheme's key in the card's securitySchemes. Empty means
	// "bearerAuth" or "apiKeyAuth".
	Name string `json:"name,omitempty"`
	// CardShape is the shape the card declares the scheme in: "1.0"
	// (securitySchemes entries such as {"httpAuthSecurityScheme": ...},
	// and securityRequirements) or "0.3" (entries such as {"type": "http",
	// ...}, and security). Empty means the card's own generation: "0.3" for
	// a card that carries the 0.3 members (url, preferredTransport), whose
	// 0.3 readers refuse an unknown scheme type, else "1.0".
	CardShape string `json:"cardShape,omitempty"`
	// Credential is the value the vendor accepts (the bearer token or the
	// API key). Empty means a fresh random value per fleet start, which
	// Fleet.Credential reports.
	Credential string `json:"credential,omitempty"`
	// Revoked makes the vendor refuse its own credential as if it had been
	// revoked: every call gets 401 (invalid_token for bearer). False means
	// the credential is accepted.
	Revoked bool `json:"revoked,omitempty"`
	// DeclaredTokenURL is the tokenUrl the card declares instead of the
	// vendor's own token endpoint (AuthOAuth2 only): a card that would
	// send the client's secret to another host. The credential the fleet
	// hands out still names the vendor's own. Empty means the own.
	DeclaredTokenURL string `json:"declaredTokenUrl,omitempty"`
	// EveryKind makes a 1.0-shaped card declare, beside the vendor's own
	// scheme, one scheme of every other kind A2A 1.0's SecurityScheme
	// oneof has (apiKeySecurityScheme in a query parameter,
	// oauth2SecurityScheme with an authorization code flow,
	// openIdConnectSecurityScheme, mtlsSecurityScheme), none of them in
	// the card's requirements, and write a bearer scheme in lower case
	// with a bearerFormat, as the card of a2aproject/a2a-go#302 did. The
	// vendor accepts its own credential only. False means the own scheme
	// alone.
	EveryKind bool `json:"everyKind,omitempty"`
	// ClientID is the OAuth 2.0 client id (AuthOAuth2 only; Credential is
	// then the client secret). Empty means "a2ac-<vendor id>".
	ClientID string `json:"clientId,omitempty"`
	// ExpireFirstToken makes the first access token the token endpoint
	// issues (and the first after each Fleet.Reset) expire before its
	// first use (AuthOAuth2 only): every call
	// presenting it gets 401 with WWW-Authenticate: Bearer
	// error="invalid_token" (RFC 6750 §3.1), and a client that fetches a
	// new token goes on. False means every issued token is accepted.
	ExpireFirstToken bool `json:"expireFirstToken,omitempty"`
}

// HostConfig is one TLS host of a vendor.
type HostConfig struct {
	// Name is the DNS name ("rpc.agent-b.example"). Empty means a bare-IP
	// host reached as https://127.0.0.1:PORT.
	Name string `json:"name,omitempty"`
	// Card makes the host serve the vendor's card (behind the CDN) at
	// /.well-known/agent.json and /.well-known/agent-card.json, or at
	// CardPath alone.
	Card bool `json:"card,omitempty"`
	// CardPath, with Card, is the one path the card is served at, byte for
	// byte: a card hosted under a path
	// ("/agents/d/.well-known/agent-card.json", A2A 1.0 §8.2's well-known
	// name below a base path) or at a URL a caller is given directly
	// ("/agents/d/card", §8.2 Direct Configuration). The root well-known
	// paths then answer 404, as a host that serves several agents, each
	// under its own path, has no card of its own. Empty means the root
	// well-known paths.
	CardPath string `json:"cardPath,omitempty"`
	// RPCPath is where the host answers JSON-RPC ("/a2a/v1"), in exactly
	// this spelling: a request to another spelling of it (a trailing slash
	// added or dropped, another case) gets 404, as a router that matches
	// paths exactly answers. Empty means the host has no JSON-RPC endpoint.
	RPCPath string `json:"rpcPath,omitempty"`
	// RESTPath is where the host answers the 1.0 HTTP+JSON binding
	// ("/a2a/rest": POST /a2a/rest/message:send, GET /a2a/rest/tasks/{id},
	// each also under /a2a/rest/{tenant}/...). Empty means no HTTP+JSON
	// interface.
	RESTPath string `json:"restPath,omitempty"`
	// Region is the region the host's gateway runs in ("eu-west-1"). Empty
	// means no region.
	Region string `json:"region,omitempty"`
	// SANs are the certificate's subject alternative names. Empty means
	// exactly the host name (or 127.0.0.1 for a bare-IP host).
	SANs []string `json:"sans,omitempty"`
	// TokenPath is where the host answers OAuth 2.0 token requests
	// ("/oauth2/token", RFC 6749 §3.2) for its vendor's AuthOAuth2 scheme;
	// the first such host of the vendor is the token endpoint its card
	// declares. Empty means no token endpoint.
	TokenPath string `json:"tokenPath,omitempty"`
	// GRPC makes the host serve the gRPC binding (A2A 1.0.1 §10, 1.0
	// only): its TLS offers ALPN "h2" after "http/1.1", and a request
	// whose Content-Type is application/grpc* is a call of A2AService
	// (/lf.a2a.v1.A2AService/<Method>), answered by the same operations,
	// tasks, faults and trace as the host's other bindings. A card without
	// explicit interfaces lists it last, as the GRPC 1.0 interface
	// "<name>:443" (host:port, the proto's AgentInterface.url). False
	// (the zero value) means no gRPC binding on the host.
	GRPC bool `json:"grpc,omitempty"`
}

// CardConfig is the self-description a vendor publishes.
type CardConfig struct {
	// Name is the agent's name. Empty means "<Organization> agent".
	Name string `json:"name,omitempty"`
	// Description of the agent. Empty means a generated sentence.
	Description string `json:"description,omitempty"`
	// Version is the agent's own version. Empty means "1.0.0".
	Version string `json:"version,omitempty"`
	// URL is the JSON-RPC endpoint the card names. Empty means the first host
	// of the vendor with an RPC path.
	URL string `json:"url,omitempty"`
	// ProtocolVersion is the A2A version the card claims, Major.Minor. Empty
	// means "1.0". The card always carries both the 0.3 fields (url,
	// preferredTransport, protocolVersion) and the 1.0 supportedInterfaces.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Skills are the skill ids the card lists. Empty means every skill the
	// gateway serves (a card that omits a served skill is stale, CARD-004).
	Skills []string `json:"skills,omitempty"`
	// Streaming is capabilities.streaming.
	Streaming bool `json:"streaming,omitempty"`
	// Extensions are capabilities.extensions entries. The vendor honours
	// them (A2A 1.0.1 §3.3.4, §4.6): a request activates an entry by
	// naming its URI in the header its dialect names (A2A-Extensions in
	// 1.0, X-A2A-Extensions in 0.3), the answer names the entries it
	// activated in that header, and a request that does not activate
	// every entry marked Required gets -32008 ExtensionSupportRequired
	// (HTTP 400 over HTTP+JSON), whatever its method. Empty means none:
	// the headers are recorded and change nothing.
	Extensions []CardExtension `json:"extensions,omitempty"`
	// DefaultInputModes of the card. Empty means ["text/plain"].
	DefaultInputModes []string `json:"defaultInputModes,omitempty"`
	// DefaultOutputModes of the card. Empty means ["text/plain"].
	DefaultOutputModes []string `json:"defaultOutputModes,omitempty"`

	// Interface and version selection (internal/card, the IFACE scenarios).

	// Interfaces, when set, are the card's supportedInterfaces exactly, in
	// this order, instead of one interface per version served. Each
	// endpoint then serves the versions the card declares for its URL
	// (-32009 for any other), and where an entry declares a tenant a
	// request must name one declared for its URL (-32602 otherwise). Empty
	// means one interface per version served (the honest card).
	Interfaces []CardInterface `json:"interfaces,omitempty"`
	// Form is the card's shape: "" (the zero value) the honest form (the
	// 1.0 members, plus the 0.3 members when the vendor serves 0.3); "0.3"
	// a pure 0.3 card (url, preferredTransport, additionalInterfaces,
	// protocolVersion; no supportedInterfaces); "hybrid" both sets of
	// members whatever the vendor serves.
	Form string `json:"form,omitempty"`
	// LegacyURL is the url of the card's 0.3 members (which then serves
	// 0.3). Empty means the first JSON-RPC interface's URL (the JSON-RPC
	// endpoint when Interfaces is empty).
	LegacyURL string `json:"legacyURL,omitempty"`

	// Optional capabilities the vendor honours (A2A 1.0.1 §3.3.4).

	// PushNotifications is capabilities.pushNotifications. False (the zero
	// value) means every push-notification config method answers -32003
	// PushNotificationNotSupported and a config inside a send is ignored.
	// True means they keep, return, list and delete configs for the
	// vendor's tasks (at most 16 per task), a send's own config is kept
	// too, and every change of a task's state is POSTed to its configs'
	// URLs, to loopback only and within the bounds of push_deliver.go
	// (PushDeliveryTimeout, MaxPushAttempts, MaxPushInFlight,
	// MaxPushInFlightPerReceiver, MaxPushQueuedPerReceiver, MaxPushQueued,
	// MaxPushResponseBytes).
	PushNotifications bool `json:"pushNotifications,omitempty"`
	// ExtendedCard declares an extended agent card: capabilities.
	// extendedAgentCard (1.0) and supportsAuthenticatedExtendedCard (0.3)
	// are true and GetExtendedAgentCard / agent/getAuthenticatedExtendedCard
	// / GET /extendedAgentCard answer it. Nil (the zero value) declares
	// none, and those methods answer -32004 UnsupportedOperation. The
	// extended card requires authentication (A2A 1.0 §13.3; 0.3 §7.10):
	// the vendor needs an Auth, which guards these methods like every other
	// call (HTTP 401 with WWW-Authenticate without the credential), unless
	// ExtendedCardConfig.Public says otherwise; an extended card on a
	// vendor with neither is a configuration error naming
	// vendors[i].card.extendedCard.
	ExtendedCard *ExtendedCardConfig `json:"extendedCard,omitempty"`
}

// ExtendedCardConfig is the extended agent card a vendor declares.
type ExtendedCardConfig struct {
	// Unconfigured declares the extended card without having one: the
	// methods answer -32007 ExtendedAgentCardNotConfigured. False (the
	// zero value) serves the card.
	Unconfigured bool `json:"unconfigured,omitempty"`
	// Description is the extended card's description. Empty means the
	// public card's with " (extended card)" appended; the rest of the
	// extended card is the public card's (unsigned).
	Description string `json:"description,omitempty"`
	// Public serves the extended card to callers that present no
	// credential, on a vendor without Auth: what §13.3 forbids, kept for
	// tests of a client's extended-card calls against an open vendor.
	// False (the zero value) requires the vendor to have an Auth. With an
	// Auth it changes nothing: the Auth guards every call.
	Public bool `json:"public,omitempty"`
	// Skills are the ids of skills of the vendor (VendorConfig.Skills) the
	// extended card lists beyond those of the public card (CardConfig.
	// Skills, which must then be set: a public card that lists every skill
	// leaves nothing to add): what §13.3 says an extended card MAY add. The
	// vendor serves them to every caller that gets through its Auth, as it
	// serves its other skills. Empty means the extended card lists what the
	// public card lists.
	//
	// A vendor that signs its card (VendorConfig.Signing) signs its
	// extended card too, with the same key and in the same way (A2A 1.0
	// §8.4 is about every Agent Card); a sign fault for the extended card
	// (ExtendedCardSignHook, e.g. "tampered-extended-card") signs it
	// otherwise. The public card's own sign faults leave it alone.
	Skills []string `json:"skills,omitempty"`
}

// CardExtension is one capabilities.extensions entry: URI, Description,
// Required and Params, the entry's members in this order.
type CardExtension = card.Extension

// SkillConfig is one skill of a vendor.
type SkillConfig struct {
	// ID is the skill id ("invoice-reconciliation").
	ID string `json:"id"`
	// Name is the human name. Empty means the id.
	Name string `json:"name,omitempty"`
	// Description. Empty means a generated sentence.
	Description string `json:"description,omitempty"`
	// InputModes the card declares for the skill. Empty means the card's
	// default input modes apply.
	InputModes []string `json:"inputModes,omitempty"`
	// OutputModes the card declares for the skill. Empty means the defaults.
	OutputModes []string `json:"outputModes,omitempty"`
	// Regions restricts where the gateway serves the skill. Empty means every
	// region.
	Regions []string `json:"regions,omitempty"`
}

// SigningConfig gives a vendor a signing key.
type SigningConfig struct {
	// KID is the key id in the JWS header and the JWKS ("a-prod-2026-11").
	KID string `json:"kid"`
	// Alg is ES256 or RS256. Empty means ES256.
	Alg string `json:"alg,omitempty"`
	// Issuer is the host that serves the JWKS (the jku's host). Empty means
	// the vendor's first card host.
	Issuer string `json:"issuer,omitempty"`
	// KeyPEM is the private key to sign with, in PEM form (PKCS#8 or SEC 1;
	// an ECDSA P-256 key for ES256, an RSA key for RS256). Empty means a
	// fresh key per fleet start. fixtures/cards/a-signing-key.pem is the
	// committed test key the golden signed card is made with.
	KeyPEM string `json:"keyPEM,omitempty"`
	// LegacyFields keeps the 0.3 members (url, preferredTransport,
	// protocolVersion) in the signed card of a vendor that serves 0.3, so
	// 0.3 clients can use it. @a2a-js/sdk projects a card onto its 1.0
	// schema before checking it, so one signature cannot cover both forms:
	// the card then carries two (internal/card), one over the 1.0 members
	// and one over the whole card. False leaves the 0.3 members out.
	LegacyFields bool `json:"legacyFields,omitempty"`
}

// FaultSpec is a fault in its JSON form:
// {"type": NAME, "hosts": [optional host names], "config": {...}}.
type FaultSpec struct {
	// Type is the registered fault name ("region-gate").
	Type string `json:"type"`
	// Hosts limits the fault to these hosts of the vendor ("127.0.0.1" names
	// the vendor's bare-IP hosts). Empty means every host of the vendor.
	Hosts []string `json:"hosts,omitempty"`
	// Config is the fault's own configuration; see the fault's type.
	Config json.RawMessage `json:"config,omitempty"`
}
