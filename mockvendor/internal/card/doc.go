// Package card is layer 2 of the mock vendor fleet: the Agent Card a
// vendor serves and its signature.
//
// It holds:
//   - Spec, everything a vendor's card says, resolved by the root package
//     from the vendor's configuration and hosts (the root's VendorConfig
//     stays there); Spec.Document renders it as the honest, unsigned card
//     of the vendor's generation (the 1.0 members, and the 0.3 ones when it
//     serves 0.3), skills, capabilities, interfaces and security scheme
//     included;
//   - the card's interfaces (Interface, the Binding and Form constants)
//     and what they demand of an endpoint: the versions it serves
//     (Spec.EndpointVersions, A2A 1.0 §3.6.2, §8.3) and the interfaces
//     declared at it (Spec.DeclaredAt, whose tenants the root checks);
//   - the CDN in front of every card (Set: the origin's and the CDN's
//     copies with their ETags, built at one card epoch; Set.Serve: cache
//     headers, 304s, the origin for a request that bypasses the cache);
//   - the vendor's signing key (Signer: its kid, JWKS URL, honest and
//     hybrid signatures, SigningSpec and its checks) and its key set
//     (ServeKeySet).
//
// The fault hooks are not run here: the root builds the document, lets
// the card faults change it, and asks the Signer to sign it or hands it to
// a sign fault (Signer implements the faults' CardSigner); it sums the
// card epochs of the faults and builds a new Set when the sum changes.
//
// It may import mockvendor/internal/a2a (the version form),
// mockvendor/internal/credentials (the security scheme a card declares),
// mockvendor/internal/trace, mockvendor/internal/netx (the PEM key
// reader), mockvendor/internal/yamlfile and the module's cardsig package;
// never the faults (internal/fault), which sit above it. The layers above
// it (the faults, the bindings and the root package mockvendor, which
// re-exports CardPath, JWKSPath, CDNCacheControl, CardInterface and the
// binding and form names) import it; nothing below it may.
package card
