// Package mockvendor is the mock vendor fleet of a2a-conform: A2A agents
// on loopback TLS listeners with realistic host names, each host with its
// own certificate from a CA the fleet makes (or one it is given), a CONNECT
// proxy and a resolve map that reach them by name, a CDN in front of every
// card, a JSON-RPC endpoint that speaks the 0.1, 0.3 and 1.0 dialects (and
// the 1.0 HTTP+JSON binding on hosts with a RESTPath), and a trace of
// every request. It never imports Ginkgo: it runs as a plain
// server (`a2a-conform fleet up`) as well as inside the suite.
//
// The lifecycle follows net/http/httptest: NewFleet starts a fleet,
// NewUnstartedFleet lets the caller adjust it before Start, Close stops
// everything and waits for every goroutine, and Client returns an
// *http.Client that already trusts the CA and routes through the proxy.
//
// # Layers
//
// The fleet is built in layers, each a package, and a package imports only
// packages of lower layers (layers_test.go holds every package to this):
//
//	layer  package                 holds
//	0      internal/trace          the trace: Event, Op, its bounds
//	0      internal/netx           the CA, capped listeners, the CONNECT proxy
//	0      internal/yamlfile       strict YAML decoding with every error placed
//	                               in the file, ordered YAML writing (the fleet
//	                               file's format; its rules stay in the root)
//	1      internal/a2a            the A2A model and its 0.1/0.3/1.0 spellings,
//	                               the A2A error model (codes, ErrorInfo)
//	1      internal/credentials    security schemes, issued credentials, 401s
//	2      internal/tasks          the task store and its byte budget
//	2      internal/card           the Agent Card: its document per
//	                               generation, interfaces, CDN copies and
//	                               ETags, signing key, JWKS (the root runs
//	                               the card faults around it)
//	2      internal/upstream       the client of a real agent a vendor
//	                               stands in front of (the proxy): its
//	                               card, calls and live streams, bounded
//	3      internal/push           push-notification configs and their
//	                               webhook delivery (watches, queue, retries)
//	3      internal/fault          every fault type, the fault registry, the
//	                               hook interfaces and the Call a fault sees
//	4      internal/ops            the A2A operations over binding-neutral
//	                               requests and results, the Vendor they see,
//	                               task encoding per dialect
//	5      internal/binding        what every protocol binding shares: the
//	                               Binding and Host interfaces, the stages
//	                               from version negotiation to the operation
//	                               (Handle), what every answer writer
//	                               shares (Settle, StreamEvents) and the
//	                               HTTP one (Respond, SSE), body limits,
//	                               errors to the wire
//	6      internal/binding/jsonrpc the JSON-RPC binding: envelope, method
//	                               table, fast JSON path, rendering
//	6      internal/binding/rest   the HTTP+JSON binding: routes, body and
//	                               query, rendering
//	6      internal/binding/grpc   the gRPC binding: A2AService on
//	                               grpc-go's transport, protojson to the
//	                               shared stages and back, status mapping
//	9      mockvendor              the public face (NewFleet, Fleet, Vendor,
//	                               config, aliases of moved types) and the
//	                               wiring of the layers below
//	10     admin                   the admin API and live page over a Fleet
//
// A lower package never sees the fleet: where it needs it (the proxy routing
// to a host, a refusal recorded in the trace) it declares a small interface
// that the root implements (network.go, push_deliver.go).
//
// # Faults
//
// Misbehaviours are small registered types, one file each in
// internal/fault (whose doc says how to add one), attached to a vendor
// (optionally to some of its hosts) in the JSON form {"type": NAME,
// "hosts": [...], "config": {...}}, at start-up through VendorConfig.Faults
// or at run time through Fleet.AddFault. The zero value of every config
// field has a documented meaning, so {"type": NAME} alone is always valid.
//
//	type                     what it does; config fields (zero value)
//	stale-card               the CDN keeps an old card; origin has the new one.
//	                         skills (none listed), streaming (origin's value),
//	                         freeze (off: the copy lists skills; on: the card
//	                         as first served, for an agent behind the proxy)
//	region-gate              -32004 {"region","availableSkills"} for gated skills.
//	                         region (every region), gatedSkills, availableSkills
//	                         (what the gateway serves less the gated ones),
//	                         afterSends (closed at once), gateProbes (probes pass)
//	skill-rollout            the gateway renames a skill every window; origin card
//	                         follows, CDN does not. skill (default skill),
//	                         windowMs (3600000)
//	server-error             sends fail with -32000..-32099. code (-32005),
//	                         message ("server error"), data (none), times (all),
//	                         probes (probes pass)
//	stub-endpoint            every method answers -32601. code (-32601; or
//	                         -32602, invalid params)
//	refuse-connections       every connection is closed at once, before TLS (a
//	                         dead endpoint); traced as connection-refused
//	probe-accept             a probe's task stays working until cancelled
//	input-mode-coercion      text parts for a non-text skill silently become
//	                         data parts {"text": ...}; the coercion is traced
//	stream-content-type-lie  stream methods answer application/json
//	slow-first-frame         a stream waits before its first event. delayMs (10000)
//	stream-cut               a stream ends cleanly (or, abort, breaks off) while
//	                         its task runs on. afterEvents (2: the task and its
//	                         working status), abort (a clean end)
//	stream-error-json        a real stream is answered with an A2A error as plain
//	                         JSON before any stream. code (-32603), message,
//	                         reason (the code's own)
//	stream-unauthorized      a real stream is answered HTTP 401 with a
//	                         challenge; plain sends pass. challenge (Bearer)
//	subscribe-stall          a subscription sends no first event. delayMs (0:
//	                         never; held until the client leaves)
//	state-unknown            a real stream announces an unknown state after
//	                         working. state (TASK_STATE_UNSPECIFIED)
//	unknown-fields           the card and every answer carry fields A2A 1.0.1
//	                         does not define, some result-like carrying marker
//	                         (a fixed sentence)
//	unknown-role             the agent's messages carry a Role 1.0.1 does not
//	                         define; statuses get such a message. role
//	                         (ROLE_SYSTEM), note (a fixed sentence)
//	timestamp-form           status timestamps in one ISO 8601 form 1.0.1
//	                         allows. form (millis; seconds, zero-millis,
//	                         micros, nanos)
//	card-empty               the card fetch answers HTTP 200 with {}
//	card-missing             the card lacks members the proto marks REQUIRED:
//	                         members (name, description, version,
//	                         capabilities, defaultInputModes,
//	                         defaultOutputModes)
//	push-trials              a completed task's webhooks also get a delivery
//	                         for an unknown task, a forged and an unsigned one
//	                         and a duplicate, each traced with its kind. kinds
//	                         (all four)
//	stream-error-event       a real stream ends with an A2A error event; the
//	                         task fails. code (-32001), message, reason,
//	                         afterEvents (2), sends (plain sends pass)
//	task-outcome             real tasks end in state (completed), or stay
//	                         working workingMs (0) first: failed, rejected,
//	                         canceled, input-required, auth-required
//	input-required-turns     real tasks ask the caller: they pause at
//	                         input-required with a question turns (1) times
//	                         and complete after the last answer; with
//	                         endsMeanwhile they end (failed, canceled,
//	                         rejected) just before it arrives, refused -32004
//	message-reply            sends and streams answer a Message, no task (0.3,
//	                         1.0)
//	long-task                real tasks work workMs (40000), or for ever
//	                         (forever); a blocking send is held until the task
//	                         ends; refuseCancel (cancels honoured) gets -32002
//	lost-answer              a real send's task is created, then the connection
//	                         drops before the answer. times (1)
//	artifacts                completed tasks hold the configured artifacts (text,
//	                         file and data parts), a stream sends each in chunks
//	                         (append, lastChunk; appendFirst: append from the
//	                         first chunk). artifacts (one "result" of a text, a
//	                         file and a data part in three chunks), askAfter
//	                         (pause at input-required with this question after
//	                         the artifacts; none)
//	version-header-lie       responses carry another A2A-Version. version (header
//	                         left out)
//	version-reject           -32009 for unsupported A2A-Version (a missing header
//	                         is 0.3). accepted (["1.0"])
//	lenient-version          a method is answered in its own dialect whatever
//	                         A2A-Version says (the source documents' mix: tasks/send with 1.0)
//	reseller-gateway         any skill runs under the host's own allowlist; refused
//	                         tools get -32601. refusedTools (none)
//	wrong-san                a CA-signed certificate for other names.
//	                         sans (["wrong-host.example"])
//	self-signed              a self-signed certificate for the host's name
//	tampered-card            a skill added after signing. skill ("wire-transfer")
//	tampered-extended-card   the extended card's description changed after
//	                         signing. description ("": a sentence appended)
//	unknown-kid              signed by a key in no JWKS. kid ("<kid>-unknown")
//	key-rotation             signed by a new key the first JWKS fetch lacks.
//	                         newKid ("<kid>-next"), staleFetches (1)
//	duplicate-kid            the JWKS holds two keys with the card's kid
//	alg-none                 the signature header says alg none
//	hs256-confusion          HS256 with the public key's bytes as the secret
//	unsigned-card            no signatures although the vendor has a key
//	embedded-jwk             signed by a key in the header's jwk, not in the
//	                         key set
//	foreign-jku              signed by keyPEM under kid, jku another host's key
//	                         set (all three required)
//	several-signatures       three signatures: a retired kid, the vendor's key over
//	                         an earlier card, the vendor's key (only the last verifies)
//	expired-key              signed by a key the JWKS lists with an x5c whose
//	                         notAfter, and an exp, are a year past
//	revoked-key              signed by keyPEM under kid, listed in the JWKS until
//	                         revoked (true); the JWKS is no-store
//	plain-http-jku           signed by a key only the jku's http:// key set holds
//	canon-traps              the card holds canonicalisation traps. tamper ("":
//	                         none; number, unicode: changed after signing)
//
// FaultTypes lists the same at run time (the admin API serves it).
//
// # Wire behaviour
//
// Versions are negotiated as A2A 1.0 §3.6 has it: each vendor serves the
// versions of VendorConfig.Versions (default 1.0 and 0.3); a request names
// its version in the A2A-Version header (or query parameter), none meaning
// 0.3; an unsupported version gets -32009 with the supported versions, and
// a method of another generation than the version's gets -32601 (the 0.1
// names, which predate the header, belong to the 0.x generation). The
// lenient-version fault restores the first edition's answer to the source
// documents' mix. A request's dialect comes from its method name (tasks/send: 0.1,
// message/send: 0.3, SendMessage: 1.0; tasks/get and tasks/cancel are 0.3
// unless the task is a 0.1 one) and is answered in that dialect's shapes;
// the header is recorded. Each dialect reads its own shapes only (1.0:
// ROLE_* and parts without kind; 0.3: kind; 0.1: type and a client task
// id), else -32602 naming the member.
//
// Tasks behave as a real agent's: a message naming a taskId continues that
// task (unknown: -32001; terminal: -32004; another contextId: -32602);
// GetTask and ListTasks honour historyLength; ListTasks (1.0) pages newest
// first with contextId, status and statusTimestampAfter filters;
// SubscribeToTask and tasks/resubscribe stream a live task (the task
// first), -32001 for an unknown one and -32004 for a terminal one. A vendor
// whose card says streaming false answers every stream method -32004, and
// one whose card says pushNotifications false every push-config method
// -32003 (A2A 1.0.1 §3.3.4). A card's capabilities.extensions are honoured
// (internal/binding/extensions.go): a request activates an extension by
// naming its URI in A2A-Extensions (1.0) or X-A2A-Extensions (0.3), the
// answer names the activated ones in the same header, and a request that
// leaves out an extension the card marks required gets -32008
// ExtensionSupportRequired. The trace keeps both request headers. A
// notification (no id) gets HTTP 204 and no body. The store keeps at most
// MaxTaskHistory messages per task and MaxTasksPerVendor tasks per vendor. The skill a message
// is for is params.metadata.skillId, then params.message.metadata.skillId;
// absent means the vendor's default skill. A probe is a send whose only text
// part is "__probe__" or whose metadata (params, message or a part) has
// a2a_probe: true; a get or cancel of a synthetic task id marked the same
// way (an id starting "__probe__", or params.metadata.a2a_probe) is the
// lifecycle probe and is recorded as a probe with the id as sent, whatever
// a fault answers. JSON-RPC errors go with HTTP 200; a body over
// Limits.MaxBody gets 413 without being read.
//
// # Authentication
//
// A vendor with VendorConfig.Auth (auth.go) declares one security scheme on
// its card (an HTTP bearer token, or an API key in a header; in the 1.0
// shape, or the 0.3 one for a card with the 0.3 members) and accepts one
// credential, made up per start unless configured (Fleet.Credential). A
// JSON-RPC or HTTP+JSON call without it, presented the declared way, gets
// HTTP 401 with WWW-Authenticate; cards and key sets stay public. For
// every request to every host the trace lists the credentials presented
// (Event.Credentials: the issuing vendor, or CredentialUnknown, and how),
// never a value, and issued values are cut out of what events keep.
//
// With the AuthOAuth2 scheme (oauth.go) the card declares an OAuth 2.0
// client credentials flow whose tokenUrl is the vendor's host with a
// HostConfig.TokenPath; the fleet hands out the client id and secret, the
// token endpoint (an OpToken event) trades them for numbered access
// tokens (RFC 6749 §4.4), and the vendor's endpoints accept those as
// bearer tokens (AuthConfig.ExpireFirstToken: the first one answered 401
// error="invalid_token"). A client secret found anywhere in a request is
// traced with a "secret:" way (Presented.Via), an access token with its
// serial (Presented.Token). AuthConfig.EveryKind makes a 1.0 card declare
// a scheme of every kind of the 1.0 SecurityScheme oneof.
//
// # Bounds
//
// What a client can make the fleet hold is bounded by Limits (the zero
// value of each field means its default):
//
//   - memory of the trace: at most MaxTraceEvents events (100,000) of at
//     most about 7 KiB each (every text field cut to MaxTracedField, 256
//     bytes), plus request bodies up to MaxTracedBody each and
//     MaxTraceBodyBytes together (64 MiB): about 0.72 GiB whatever the
//     clients send. Only bodies and ids a strict JSON parser accepts are
//     kept (valid UTF-8, no lone surrogate escape).
//   - connections: MaxConns (1,024) open at once on the proxy and the
//     hosts, MaxTunnels (256) CONNECT tunnels, three descriptors per
//     tunnel. At MaxConns a new connection takes the place of the one
//     idle the longest; with none idle, and past MaxTunnels, a clear
//     refusal (503 with Retry-After, over TLS on a host).
//     A request header is at most 64 KiB (431 past it).
//   - request bodies: MaxBody (1 MiB; 413 past it), nested at most
//     MaxBodyDepth (10,000) deep (-32700 "nested deeper than 10000"),
//     JSON by their Content-Type on both bindings (415 and -32005
//     otherwise, no task run).
//   - time: IdleTimeout (60 s) for idle keep-alive connections and
//     tunnels, ReadTimeout (10 s) for reading a request, on the hosts and
//     on the proxy's absolute-form path.
//   - tasks: MaxTasks (10,000) tasks, 5,000 per vendor, 64 messages per
//     task, and in bytes MaxTaskBytes (64 MiB) for the fleet (a scenario's
//     fleet is its own) and MaxVendorTaskBytes (32 MiB) per vendor: past
//     them the oldest tasks are forgotten, and a follow-up message is kept
//     as a stub (internal/tasks, Budget).
//
// # Sources
//
// Comments cite the A2A specification by version and section (A2A 1.0
// §3.1.1) and the project's two source documents by their short titles,
// with the section: "card as claim, not contract" (where an Agent Card is
// authoritative and where only a hint, recorded 2026-11-12) and "pin the
// signer's kid to the endpoint" (recorded 2026-11-11); the catalog lists
// them as seed 000 and seed 003. In this package "seed" means only a fuzz
// target's seed corpus (testdata/fuzz).
package mockvendor
