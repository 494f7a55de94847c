package scenarios

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Engagement preconditions: the situations a check needs the orchestrator
// to have reached (catalog, "Result states": NOT_EXERCISED). Each is small
// and named for what it asks, so a check's Reached reads as a sentence.

// vendorName is how a vendor id reads in a sentence ("B").
func vendorName(v string) string { return strings.ToUpper(v) }

// cardFetched needs a fetch of the vendor's card.
func cardFetched(vendor string) Precondition {
	return Precondition{
		Needs: "fetch " + vendorName(vendor) + "'s card",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpCardFetch && inVendor(e, vendor) })
		},
	}
}

// keysFetched needs the vendor's card and its key set (JWKS).
func keysFetched(vendor string) Precondition {
	return allOf(cardFetched(vendor), Precondition{
		Needs: "fetch " + vendorName(vendor) + "'s key set",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpJWKSFetch && inVendor(e, vendor) })
		},
	})
}

// answered needs the vendor to have answered a task send with code.
func answered(vendor string, code int) Precondition {
	return Precondition{
		Needs: "get " + itoa(int64(code)) + " from " + vendorName(vendor) + " (send it the task)",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return isTaskSend(e) && inVendor(e, vendor) && e.ErrorCode == code
			})
		},
	}
}

// rpcMade needs at least one JSON-RPC call.
var rpcMade = Precondition{
	Needs: "make a JSON-RPC call",
	Met:   func(r *Run) bool { return slices.ContainsFunc(r.Events, isRPC) },
}

// rpcAt needs a JSON-RPC call answered by the vendor.
func rpcAt(vendor string) Precondition {
	return Precondition{
		Needs: "call " + vendorName(vendor) + "'s endpoint",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return isRPC(e) && inVendor(e, vendor) })
		},
	}
}

// taskSent needs a send or stream (a message: probe or real) to any vendor.
var taskSent = Precondition{
	Needs: "send a message",
	Met:   func(r *Run) bool { return slices.ContainsFunc(r.Events, isTaskSend) },
}

// realTaskSent needs a real (non-probe) send or stream.
var realTaskSent = Precondition{
	Needs: "send a real task",
	Met:   func(r *Run) bool { return slices.ContainsFunc(r.Events, isRealSend) },
}

// connected needs any request to reach the fleet or its proxy.
var connected = Precondition{
	Needs: "connect to the fleet",
	Met:   func(r *Run) bool { return len(r.Events) > 0 },
}

// taskCompleted needs a real task to have completed somewhere.
var taskCompleted = Precondition{
	Needs: "complete a task",
	Met: func(r *Run) bool {
		return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.TaskID != "" && e.State == "completed" && !e.Probe })
	},
}

// delegationsRan needs the first n delegations to have run.
func delegationsRan(n int) Precondition {
	return Precondition{
		Needs: "take part in delegation " + itoa(int64(n)),
		Met:   func(r *Run) bool { return len(r.Delegations) >= n },
	}
}

// allOf needs every precondition, in order.
func allOf(ps ...Precondition) Precondition {
	var needs []string
	for _, p := range ps {
		needs = append(needs, p.Needs)
	}
	return Precondition{
		Needs: strings.Join(needs, ", then "),
		Met: func(r *Run) bool {
			for _, p := range ps {
				if !p.Met(r) {
					return false
				}
			}
			return true
		},
	}
}

// claimsVerification is met when an outcome of the run says the
// orchestrator verified a signature: trustMode full or reduced, or a reason
// that only a verifier can give.
var claimsVerification = Precondition{
	Needs: "claim to verify card signatures (trustMode full or reduced, or a signature reason)",
	Met: func(r *Run) bool {
		for _, d := range r.Delegations {
			o := d.Outcome
			if o == nil {
				continue
			}
			switch {
			case o.TrustMode == contract.TrustModeFull, o.TrustMode == contract.TrustModeReduced:
				return true
			case slices.Contains(signatureReasons, o.Reason):
				return true
			}
		}
		return false
	},
}

// signatureReasons are the reasons that report a signature verification.
var signatureReasons = []string{contract.ReasonSignatureInvalid, contract.ReasonKeyUnknown, contract.ReasonKeyAmbiguous, contract.ReasonSignerEndpointMismatch, contract.ReasonKeyExpired}
