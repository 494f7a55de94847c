// Package credentials is the mock vendor fleet's authentication layer,
// layer 1 of the packages under mockvendor/internal (above the network
// layer netx and the trace; under the root package mockvendor, which
// wires it to the fleet's vendors, cards, bindings and trace).
//
// It holds what the fleet knows of credentials [A2A 1.0 §7.3-7.4; §3.3.2
// "Authentication Errors"]:
//   - a vendor's security scheme and the one credential it issues
//     (Config, New, Issuer): a bearer token or an API key in a header,
//     made up at random when the configuration names none;
//   - the scheme as a card declares it, in the card's generation
//     (Issuer.DeclareOn: the 1.0 or the 0.3 shape);
//   - the check of a call and the refusal that answers it, with its
//     challenge for WWW-Authenticate (Issuer.Check, Refusal);
//   - the credentials a whole fleet issued (Issued): whose a presented
//     value is, how a request presented one (Issued.Scan: the
//     Authorization header, any header, any query parameter) and the
//     redaction of every issued value out of a text.
//
// It answers in plain values (vendor ids, "how presented" strings,
// challenge and message texts); the root package turns them into trace
// events and wire errors. credentials imports no other package of
// mockvendor (it may import netx, layer 0, should it ever need the
// network layer; it must not import the trace). Nothing below it (trace,
// netx, the A2A model) may import it.
package credentials
