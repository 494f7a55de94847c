// Package fault is layer 3 of the mock vendor fleet: every fault type, the
// registry that builds them from their JSON config, the hook interfaces
// through which a vendor asks its faults, and the seam a fault sees of the
// vendor (Call, VendorView, CardSigner, CallError).
//
// A fault is a misbehaviour a vendor can be given (mockvendor's FaultSpec,
// {"type": NAME, "hosts": [...], "config": {...}}): a JSON-tagged config
// struct that implements one or more hooks (hooks.go) and registers itself
// under its name. The vendor builds it with New, at start-up or when the
// admin API adds it, and asks it, in the order the faults were attached and
// on the hosts it applies to, for each hook it implements: CallHook on
// every call, HeaderHook on every answer's headers, AnswerHook on every
// answer's objects (answer.go walks them), LenientHook when the
// A2A-Version is negotiated, CardHook and EpochHook when the card is built
// or fetched, SignHook and JWKSHook for a signing vendor's card and key
// set, CertHook and ConnRefuser for a host's certificate and connections.
// A fault never sees the vendor, its hosts, the fleet or the signer's
// key: only what the seam gives it (call.go, CardSigner in hooks.go).
//
// # Adding a fault
//
// A new fault takes one file here, NAME.go, holding:
//   - the config struct, exported, each exported field with a json tag and
//     a doc tag; the zero value of every field has a documented meaning
//     (so {"type": NAME} alone is valid), and Types reads the fields for
//     the admin API and the docs;
//   - optionally validate() error, which New calls after decoding: it may
//     fill in defaults, and a *ConfigError it returns names the field at
//     fault (New places it under "config.");
//   - the hook methods the fault needs, setting the fault outputs of Call
//     and naming itself in Call.Faults when it acted on a call;
//   - an init that calls Register with the name, a one-line doc and the
//     config's constructor.
//
// The fault is then known to the fleet, the fleet file and the admin API
// with nothing else changed. The tests of the root package ask for the
// rest: a fleet-level case in mockvendor/fault_NAME_test.go
// (TestFaultTableCoversFaultTypes), a row in the fault table of the
// package doc of mockvendor and the name in docs/fleet-config.md
// (TestPackageDocListsEveryFault, TestFleetConfigDocListsEveryFault).
// Unit tests of the fault alone, through the seam, go in hooks_test.go
// here. Go code outside the fleet (the scenarios) that builds the config
// as a value needs an alias of the config type in mockvendor/fault.go.
// A fault that needs something new of the vendor extends the seam (a
// method of VendorView or CardSigner, a field of Call) and the root's
// wiring that fills it; a new kind of hook adds an interface to hooks.go
// and its call in the root.
//
// # Imports
//
// fault may import mockvendor/internal/a2a (the message a call carries,
// the artifacts a task holds), mockvendor/internal/trace (Op, Coercion),
// mockvendor/internal/netx (the CA, keys and certificates),
// mockvendor/internal/yamlfile (the JSON names of config field types) and
// the module's cardsig package, and no other package of mockvendor. The
// operations (internal/ops: the Call they act on) and the root package
// mockvendor import it, the root re-exporting its public face by
// alias (FaultType, FaultTypes, ConfigError, Call, VendorView, CardSigner,
// CallError and every config type) and wiring its hooks to the vendor;
// nothing below it may.
package fault
