// Package upstream is the fleet's client of a real A2A agent: the agent a
// proxied vendor stands in front of (mockvendor's UpstreamConfig). It
// fetches the agent's card, finds its JSON-RPC endpoint there, forwards
// one operation at a time to it (a call, or a stream read event by event
// as the agent sends it, never buffered whole) and records each exchange
// for the trace (trace.Upstream).
//
// Every exchange is bounded (Config: the time to the answer's header, the
// bytes of an answer or of one stream event, the wait between events, the
// connections to the agent) and every way it can fail short of an answer
// is an *Error value saying whether the agent was unreachable or too slow,
// which the bindings answer as a gateway would (HTTP 502 or 504; in gRPC
// UNAVAILABLE either way). An A2A error the agent answered is an *a2a.Error,
// passed on as the agent worded it.
//
// It may import mockvendor/internal/a2a and mockvendor/internal/trace, and
// no other package of the fleet. The operations (internal/ops) forward
// through it; the root package builds the client from the vendor's
// configuration.
package upstream
