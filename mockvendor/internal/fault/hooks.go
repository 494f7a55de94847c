package fault

import (
	"crypto/tls"
	"net/http"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// The hooks a fault implements. A fault is a small type in its own file: a
// JSON-tagged config struct that implements one or more of the interfaces
// below, and one line in that file's init that registers it (Register).
// The vendor looks each attached fault up by these interfaces, in the
// order the faults were attached; a fault limited to some hosts
// (mockvendor's FaultSpec.Hosts) is asked only for those where the hook
// names a host.
//
// A fault sees the vendor through the seam (call.go: Call, VendorView,
// CallError; CardSigner below), never the vendor, its hosts, the fleet or
// the signer's internals; so adding a fault that needs nothing new of the
// vendor changes neither the fleet, the admin API nor the config format.

// CallHook runs for every call of either binding (JSON-RPC, HTTP+JSON)
// once its params are decoded and before the vendor acts on it, on the
// hosts the fault applies to. It may change the call's message (c.Message)
// and set the fault outputs of Call, and name itself in c.Faults when it
// acted; or it answers the call with an error, which ends the hooks (the
// first error answers the call; the vendor names the fault in the trace).
type CallHook interface {
	OnCall(c *Call) *CallError
}

// HeaderHook runs on the headers of every answer of a host the fault
// applies to, after the vendor set its own (A2A-Version among them) and
// before they are written. It may change, add or remove any header.
type HeaderHook interface {
	OnResponseHeader(h http.Header)
}

// AnswerHook runs on every successful answer of a host the fault applies
// to, once the operation has built it and before the binding encodes it:
// on the result object of a plain answer and on each event of a stream,
// never on an error. v is that object in the call's dialect (c.Dialect),
// built for this answer alone, which the hook may change in place; c is
// the call as the call hooks left it. answer.go walks the A2A objects an
// answer holds.
type AnswerHook interface {
	OnAnswer(c *Call, v map[string]any)
}

// LenientHook runs when a request's A2A-Version is negotiated (and before
// its method's dialect is settled), on the hosts the fault applies to.
// Lenient true lets the method's own dialect win over the version
// the request names (the source documents' mix); it changes nothing else.
type LenientHook interface {
	Lenient() bool
}

// CardHook runs whenever the vendor builds its card (the first fetch, and
// again after a fault change or a new card epoch), once for the origin's
// copy (cdn false) and once for the CDN's (cdn true), on every host: a
// vendor has one card. It may change card, the unsigned card document, in
// place; v is the vendor it belongs to.
type CardHook interface {
	OnCard(v VendorView, card map[string]any, cdn bool)
}

// EpochHook runs on every card fetch. A card fault whose card changes over
// time (with the clock, or with the calls the fault saw) says so with a
// number that grows with each change: when the sum of the epochs changes
// the vendor builds its card again. It changes nothing itself.
type EpochHook interface {
	CardEpoch() int64
}

// SignHook signs the card of a signing vendor in place of its honest
// signature, when the card is built: the first attached sign fault does,
// the others are not asked. card is the unsigned card JSON, as the card
// hooks left it; the result is the document served (signed or not, as the
// fault likes). s is the vendor's signing key, v the vendor.
type SignHook interface {
	SignCard(v VendorView, s CardSigner, card []byte) ([]byte, error)
}

// ExtendedCardSignHook signs the extended agent card of a signing vendor
// in place of its honest signature, whenever the vendor answers
// GetExtendedAgentCard (or a 0.3 agent/getAuthenticatedExtendedCard): the
// first attached one does, the others are not asked. card is the unsigned
// extended card JSON as the answer's generation reads it; the result is
// the document served. s is the vendor's signing key, v the vendor. The
// public card's SignHooks never see the extended card, nor these the
// public card.
type ExtendedCardSignHook interface {
	SignExtendedCard(v VendorView, s CardSigner, card []byte) ([]byte, error)
}

// JWKSHook runs on every JWKS fetch of a signing vendor's issuer host. It
// returns the keys served in place of keys (the vendor's public key, as
// the hooks before it left them); n counts the vendor's JWKS fetches from
// 1, and s is the vendor's signing key.
type JWKSHook interface {
	OnJWKS(s CardSigner, keys []jose.JSONWebKey, n int) []jose.JSONWebKey
}

// KeySetHook runs on every JWKS fetch of a signing vendor's issuer host,
// after the JWKSHooks, with what will be served: it may change the keys,
// add members to a key's JWK (by kid) and set the Cache-Control header.
// ks.Plain says the fetch came over plain HTTP (through the fleet's proxy),
// not TLS; the host answers both.
type KeySetHook interface {
	OnKeySet(s CardSigner, ks *KeySet)
}

// KeySet is a JWKS answer as the KeySetHooks shape it.
type KeySet struct {
	// Keys are the keys served, in order.
	Keys []jose.JSONWebKey
	// Members are extra members of the JWK with a kid (kid to member name
	// to value), written next to the members go-jose writes; nil adds
	// none. A key whose kid is listed twice gets them both times.
	Members map[string]map[string]any
	// CacheControl is the Cache-Control header of the answer; "" sends
	// none.
	CacheControl string
	// Plain is true when the fetch came over plain HTTP. Read-only.
	Plain bool
}

// CertHook picks the certificate a host the fault applies to presents,
// whenever the vendor's faults change (and when the fleet starts): the
// first attached cert fault does, in place of the CA-issued certificate
// for the host's names. hostName is the host's configured name
// ("127.0.0.1" for a bare-IP host), ca the fleet's CA.
type CertHook interface {
	Certificate(hostName string, ca *netx.CA) (tls.Certificate, error)
}

// ConnRefuser runs for every connection a host the fault applies to
// accepts, before TLS. RefusesConnections true has the host close it (the
// vendor traces it as OpConnRefused); it changes nothing else.
type ConnRefuser interface {
	RefusesConnections() bool
}

// CardSigner is a signing vendor's card-signing key as the sign and JWKS
// faults see it: what its signatures name and the honest signatures it
// makes, never the private key itself.
type CardSigner interface {
	// KeyID is the kid of the vendor's key.
	KeyID() string
	// KeySetURL is the jku: the https URL of the vendor's JWKS.
	KeySetURL() string
	// Algorithm is the key's JWS algorithm (ES256 or RS256).
	Algorithm() jose.SignatureAlgorithm
	// Sign signs the card JSON honestly: one signature by the vendor's
	// key, naming its kid and jku.
	Sign(card []byte) ([]byte, error)
	// SignHS256Confusion signs the card JSON with HS256, the vendor's
	// public key (PEM) as the secret, naming its kid and jku.
	SignHS256Confusion(card []byte) ([]byte, error)
}
