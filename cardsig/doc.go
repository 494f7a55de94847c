// Package cardsig signs and verifies A2A Agent Card signatures and decides
// how far a verified signer may be trusted for a given task endpoint.
//
// An Agent Card signature is a JWS in flattened JSON form whose payload is
// left out ("detached"): each entry of the card's top-level "signatures"
// array carries only "protected" and "signature". The payload is the card
// itself, minus "signatures", in RFC 8785 (JCS) canonical form.
//
// The package has three parts:
//
//   - Canonicalize and CanonicalizeDropEmpty compute the payload bytes.
//   - Signer signs cards; SignWithHeader, SignAlgNone and
//     Signer.SignHS256Confusion build deliberately broken cards for the mock
//     fleet's negative scenarios.
//   - Verify checks a card against keys from a KeySource, and Bind turns the
//     verification result plus the endpoint's TLS identity into one of three
//     trust modes (full, reduced, unpinned).
package cardsig
