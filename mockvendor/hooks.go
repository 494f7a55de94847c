package mockvendor

import (
	"crypto/tls"
	"net/http"

	jose "github.com/go-jose/go-jose/v4"
)

// The hooks a fault implements. A fault is a small type in its own file: a
// JSON-tagged config struct that implements one or more of the interfaces
// below, and one line in that file's init that registers it (fault.go).
// The vendor looks each attached fault up by these interfaces, in the
// order the faults were attached; a fault limited to some hosts
// (FaultSpec.Hosts) is asked only for those where the hook names a host.
//

// callHook runs for every call of either binding (JSON-RPC, HTTP+JSON)
// once its params are decoded and before the vendor acts on it, on the
// hosts the fault applies to. It may change the call's message (c.Message)
// and set the fault outputs of Call, and name itself in c.Faults when it
// acted; or it answers the call with an error, which ends the hooks (the
// first error answers the call; the vendor names the fault in the trace).
type callHook interface {
	onCall(c *Call) *RPCError
}

// headerHook runs on the headers of every answer of a host the fault
// applies to, after the vendor set its own (A2A-Version among them) and
// before they are written. It may change, add or remove any header.
type headerHook interface {
	onResponseHeader(h http.Header)
}

// lenientHook runs when a request's A2A-Version is negotiated (and before
// its method's dialect is settled), on the hosts the fault applies to.
// lenientVersion true lets the method's own dialect win over the version
// the request names (the seeds' mix); it changes nothing else.
type lenientHook interface {
	lenientVersion() bool
}

// cardHook runs whenever the vendor builds its card (the first fetch, and
// again after a fault change or a new card epoch), once for the origin's
// copy (cdn false) and once for the CDN's (cdn true), on every host: a
// vendor has one card. It may change card, the unsigned card document, in
// place; v is the vendor it belongs to.
type cardHook interface {
	onCard(v *Vendor, card map[string]any, cdn bool)
}

// epochHook runs on every card fetch. A card fault whose card changes over
// time (with the clock, or with the calls the fault saw) says so with a
// number that grows with each change: when the sum of the epochs changes
// the vendor builds its card again. It changes nothing itself.
type epochHook interface {
	cardEpoch() int64
}

// signHook signs the card of a signing vendor in place of its honest
// signature, when the card is built: the first attached sign fault does,
// the others are not asked. card is the unsigned card JSON, as the card
// hooks left it; the result is the document served (signed or not, as the
// fault likes). s is the vendor's signing key.
type signHook interface {
	signCard(s *vendorSigner, card []byte) ([]byte, error)
}

// jwksHook runs on every JWKS fetch of a signing vendor's issuer host. It
// returns the keys served in place of keys (the vendor's public key, as
// the hooks before it left them); n counts the vendor's JWKS fetches from
// 1, and s is the vendor's signing key.
type jwksHook interface {
	onJWKS(s *vendorSigner, keys []jose.JSONWebKey, n int) []jose.JSONWebKey
}

// certHook picks the certificate a host the fault applies to presents,
// whenever the vendor's faults change (and when the fleet starts): the
// first attached cert fault does, in place of the CA-issued certificate
// for the host's names. hostName is the host's configured name
// ("127.0.0.1" for a bare-IP host), ca the fleet's CA.
type certHook interface {
	certificate(hostName string, ca *CA) (tls.Certificate, error)
}

// connRefuser runs for every connection a host the fault applies to
// accepts, before TLS. refusesConnections true has the host close it (the
// vendor traces it as OpConnRefused); it changes nothing else.
type connRefuser interface {
	refusesConnections() bool
}
