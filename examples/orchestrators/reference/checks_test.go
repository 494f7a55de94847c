package reference_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// This file holds small stand-ins for the catalog's checks: predicates over
// (trace, outcomes) of one scenario run, each named by its catalog ID. They
// are not the suite's checks; they are what this package's tests need to
// show that the reference passes and the naive orchestrator (or a broken
// reference) fails.

// observation is one scenario run: the outcomes and the trace of each
// delegation.
type observation struct {
	outs []contract.DelegationOutcome
	// evs[i] are the events of delegation i; all are the concatenation.
	evs [][]mockvendor.Event
	all []mockvendor.Event
}

// check is one catalog check: nil when it holds, else what was seen.
type check struct {
	id string
	fn func(ob *observation) error
}

func isSend(e mockvendor.Event) bool { return e.Op == mockvendor.OpSend || e.Op == mockvendor.OpStream }
func isTask(e mockvendor.Event) bool { return isSend(e) && !e.Probe }
func isRPC(e mockvendor.Event) bool  { return e.Method != "" || len(e.Request) > 0 }

func bypass(e mockvendor.Event) bool {
	cc := strings.ToLower(e.CacheControl)
	return e.IfNoneMatch == "" && (strings.Contains(cc, "no-cache") || strings.Contains(cc, "max-age=0") ||
		strings.Contains(strings.ToLower(e.Pragma), "no-cache"))
}

func errf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// globalChecks run on every scenario.
func globalChecks(badTLS func(mockvendor.Event) bool) []check {
	return []check{
		{"G-JSONRPC", func(ob *observation) error {
			for _, e := range ob.all {
				if !isRPC(e) {
					continue
				}
				var env map[string]json.RawMessage
				if json.Unmarshal(e.Request, &env) != nil {
					return errf("seq %d: body is not a JSON object", e.Seq)
				}
				var method string
				if string(env["jsonrpc"]) != `"2.0"` || json.Unmarshal(env["method"], &method) != nil || env["id"] == nil ||
					len(env["params"]) == 0 || env["params"][0] != '{' {
					return errf("seq %d: not a valid JSON-RPC 2.0 call: %s", e.Seq, e.Request)
				}
			}
			return nil
		}},
		{"G-VERSION-HEADER", func(ob *observation) error {
			for _, e := range ob.all {
				if !isRPC(e) {
					continue
				}
				switch {
				case e.HasA2AVersion && e.A2AVersion != e.Dialect && !(e.Dialect == "0.1" && e.A2AVersion == "1.0"):
					return errf("seq %d: %s sent with A2A-Version %q", e.Seq, e.Method, e.A2AVersion)
				case !e.HasA2AVersion && e.Dialect == "1.0":
					return errf("seq %d: 1.0 method %s without A2A-Version", e.Seq, e.Method)
				}
			}
			return nil
		}},
		{"G-NO-UNKNOWN-TASK", func(ob *observation) error {
			issued := map[string]bool{}
			for _, e := range ob.all {
				switch {
				case isSend(e) && e.TaskID != "":
					issued[e.TaskID] = true
				case (e.Op == mockvendor.OpGet || e.Op == mockvendor.OpCancel) && !issued[e.TaskID]:
					return errf("seq %d: %s for task %q the fleet never issued", e.Seq, e.Method, e.TaskID)
				}
			}
			return nil
		}},
		{"G-NO-ESCAPE", func(ob *observation) error {
			for _, e := range ob.all {
				if e.Op == mockvendor.OpRefused {
					return errf("seq %d: connection attempt to %s", e.Seq, e.Host)
				}
			}
			return nil
		}},
		{"G-TLS-VERIFIED", func(ob *observation) error {
			for _, e := range ob.all {
				if badTLS != nil && badTLS(e) && isTask(e) {
					return errf("seq %d: task sent to %s, whose certificate does not verify", e.Seq, e.Host)
				}
			}
			return nil
		}},
	}
}

// outcomeIs checks outcome i's word (and skill, when given).
func outcomeIs(id string, i int, outcome, skill string) check {
	return check{id, func(ob *observation) error {
		o := ob.outs[i]
		if o.Outcome != outcome || skill != "" && o.Skill != skill {
			return errf("delegation %d: outcome %s skill %q reason %s (%s), want %s via %q", i+1, o.Outcome, o.Skill, o.Reason, o.Detail, outcome, skill)
		}
		return nil
	}}
}

// refetchAfterSkillError: after each -32004 at the vendor, its card is
// fetched with cache bypass and no If-None-Match before the next send to it
// (CARD-001.REFETCH, PROBE-003.ROUTE).
func refetchAfterSkillError(id, vendor string) check {
	return check{id, func(ob *observation) error {
		seen := false
		for i, e := range ob.all {
			if e.Vendor != vendor || e.ErrorCode != -32004 {
				continue
			}
			seen = true
			ok := false
			for _, n := range ob.all[i+1:] {
				if n.Vendor != vendor {
					continue
				}
				if n.Op == mockvendor.OpCardFetch {
					if !bypass(n) {
						return errf("seq %d: card re-fetched with Cache-Control %q Pragma %q If-None-Match %q", n.Seq, n.CacheControl, n.Pragma, n.IfNoneMatch)
					}
					ok = true
					break
				}
				if isSend(n) {
					return errf("seq %d: send to %s after the -32004 (seq %d) without re-fetching the card", n.Seq, n.Host, e.Seq)
				}
			}
			if !ok {
				return errf("no card re-fetch after the -32004 at seq %d", e.Seq)
			}
		}
		if !seen {
			return errf("no -32004 was answered (scenario did not happen)")
		}
		return nil
	}}
}

// bounded: at most rpc JSON-RPC calls and cards card fetches per delegation.
func bounded(id string, rpc, cards int) check {
	return check{id, func(ob *observation) error {
		for i, evs := range ob.evs {
			nr, nc := 0, 0
			for _, e := range evs {
				if isRPC(e) {
					nr++
				}
				if e.Op == mockvendor.OpCardFetch {
					nc++
				}
			}
			if nr > rpc || nc > cards {
				return errf("delegation %d: %d JSON-RPC calls and %d card fetches (bound %d and %d)", i+1, nr, nc, rpc, cards)
			}
		}
		return nil
	}}
}

// noTaskAt: no non-probe send reached the vendor.
func noTaskAt(id, vendor string) check {
	return check{id, func(ob *observation) error {
		for _, e := range ob.all {
			if e.Vendor == vendor && isTask(e) {
				return errf("seq %d: task sent to %s (%s)", e.Seq, e.Host, e.Method)
			}
		}
		return nil
	}}
}

// noRPCAt: no JSON-RPC call at all reached the vendor.
func noRPCAt(id, vendor string) check {
	return check{id, func(ob *observation) error {
		for _, e := range ob.all {
			if e.Vendor == vendor && isRPC(e) {
				return errf("seq %d: %s sent to %s", e.Seq, e.Method, e.Host)
			}
		}
		return nil
	}}
}

// trustModeNot: no outcome reports the mode.
func trustModeNot(id, mode string) check {
	return check{id, func(ob *observation) error {
		for i, o := range ob.outs {
			if o.TrustMode == mode {
				return errf("delegation %d: trustMode %s (%s)", i+1, o.TrustMode, o.Detail)
			}
		}
		return nil
	}}
}

// rejectedFor: outcome i is rejected with the reason and not full.
func rejectedFor(id string, i int, reason string) check {
	return check{id, func(ob *observation) error {
		o := ob.outs[i]
		if o.Outcome != contract.OutcomeRejected || o.Reason != reason || o.TrustMode == contract.TrustModeFull {
			return errf("outcome %s reason %s trustMode %s (%s), want rejected %s", o.Outcome, o.Reason, o.TrustMode, o.Detail, reason)
		}
		return nil
	}}
}

func cardTrustIs(id string, i int, trust string) check {
	return check{id, func(ob *observation) error {
		if got := ob.outs[i].CardTrust; got != trust {
			return errf("delegation %d: cardTrust %s, want %s (%s)", i+1, got, trust, ob.outs[i].Detail)
		}
		return nil
	}}
}

func trustModeIs(id string, i int, mode string) check {
	return check{id, func(ob *observation) error {
		if got := ob.outs[i].TrustMode; got != mode {
			return errf("delegation %d: trustMode %s, want %s (%s)", i+1, got, mode, ob.outs[i].Detail)
		}
		return nil
	}}
}

// streamed: the scenario's stream checks apply only when a stream method
// was called (here: a failure, since the reference must stream).
func streamed(ob *observation) (mockvendor.Event, error) {
	for _, e := range ob.all {
		if e.Op == mockvendor.OpStream {
			return e, nil
		}
	}
	return mockvendor.Event{}, errf("did not stream")
}
