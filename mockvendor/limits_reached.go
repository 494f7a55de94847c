package mockvendor

import "fmt"

// LimitHit is one of the fleet's Limits that the clients' traffic reached
// in a way that cost evidence or changed what they were answered: the
// trace dropped events (MaxTraceEvents) or kept an event without its body
// because the body budget was spent (MaxTraceBodyBytes), connections or
// tunnels were refused (MaxConns, MaxTunnels), tasks were forgotten or
// follow-up messages stubbed (MaxTasks, MaxTaskBytes). What stays within
// a limit's design is not a hit: a body over MaxTracedBody cut to its
// size and digest, a field clipped to MaxTracedField, a body over MaxBody
// answered 413 (a real server refuses it too), a slow or idle connection
// cut (ReadTimeout, IdleTimeout) or an idle one closed to let a new one in
// at MaxConns (Fleet.ConnsReclaimed).
type LimitHit struct {
	// Limit names the Limits field ("MaxConns"; "MaxTasks" also counts
	// the tasks MaxTasksPerVendor forgot, "MaxTaskBytes" those of
	// MaxVendorTaskBytes).
	Limit string `json:"limit"`
	// Count is how many times it was reached (events dropped, connections
	// refused, ...).
	Count int64 `json:"count"`
	// What says what was lost, in words.
	What string `json:"what"`
	// EventsLost is true when the trace itself is not whole (its oldest
	// events were dropped): what the kept events show may then be
	// contradicted by what came before them. Every other limit keeps every
	// event (bodies left out, answers changed by refusals and forgotten
	// tasks), so the order and number of the requests stay known.
	EventsLost bool `json:"eventsLost,omitempty"`
}

// LimitsHit lists the limits the fleet's traffic has reached so far (see
// LimitHit), in a fixed order; empty when none was.
func (f *Fleet) LimitsHit() []LimitHit {
	var out []LimitHit
	add := func(limit string, n int64, what string, args ...any) {
		if n > 0 {
			out = append(out, LimitHit{Limit: limit, Count: n, What: fmt.Sprintf("%d %s", n, fmt.Sprintf(what, args...))})
		}
	}
	l := f.limits
	add("MaxTraceEvents", f.trace.Dropped(), "trace events dropped past Limits.MaxTraceEvents (%d)", l.MaxTraceEvents)
	if len(out) == 1 {
		out[0].EventsLost = true
	}
	add("MaxTraceBodyBytes", f.trace.BodiesLeftOut(), "request bodies not kept past Limits.MaxTraceBodyBytes (%d bytes)", l.MaxTraceBodyBytes)
	_, refused := f.Conns()
	add("MaxConns", refused, "connections refused past Limits.MaxConns (%d)", l.MaxConns)
	if f.proxy != nil {
		add("MaxTunnels", f.proxy.TunnelsRefused(), "CONNECT tunnels refused past Limits.MaxTunnels (%d)", l.MaxTunnels)
	}
	b := f.tasks.Budget()
	add("MaxTasks", b.Capped(), "tasks forgotten past Limits.MaxTasks (%d) or %d per vendor", l.MaxTasks, MaxTasksPerVendor)
	add("MaxTaskBytes", b.Forgotten()+b.Stubbed()+b.LeftOut(),
		"tasks forgotten or follow-up messages stubbed past Limits.MaxTaskBytes (%d bytes) or Limits.MaxVendorTaskBytes (%d bytes)", l.MaxTaskBytes, l.MaxVendorTaskBytes)
	return out
}
