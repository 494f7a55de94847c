// Package netx is the mock vendor fleet's network layer, layer 0 of the
// packages under mockvendor/internal (the bottom: it sits under the A2A
// model, the faults and the root package mockvendor, which wires it).
//
// It holds:
//   - the certificate authority the fleet issues host certificates from
//     (CA, NewCA, LoadCA, the test-key PEM form);
//   - the caps on open connections: ConnCap for any server, FleetCap for
//     the fleet's proxy and hosts, which reclaims idle connections and
//     answers a connection past the cap with 503 (MarkOverCap, OverCap,
//     FleetCap.RefuseOverCap);
//   - the fleet's HTTP proxy (Proxy): CONNECT tunnels and absolute-form
//     plain HTTP to the hosts of the fleet, every other target refused.
//
// netx imports no other package of mockvendor, not even the trace. What
// it needs of the fleet it asks through two small interfaces the root
// package implements: a Router names the fleet Host a proxy target
// reaches, and a Reporter is told of every refusal, in plain fields
// (Refusal), and turns it into a trace event. Every other package of
// mockvendor may import netx; netx imports none of them.
package netx
