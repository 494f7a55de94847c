package scenarios

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Run is what one scenario produced: the fleet's trace and what the
// orchestrator reported for each delegation. Checks are pure functions of it.
type Run struct {
	Scenario string `json:"scenario"`
	// Events is the fleet trace in arrival order.
	Events []mockvendor.Event `json:"events"`
	// Delegations are the requests in order with their outcomes.
	Delegations []Delegation `json:"delegations"`
	// SessionClosedAt is when the harness began closing the orchestrator's
	// session, after its last delegation: a connection of the
	// orchestrator's that ended after it was ended by the harness, not by
	// the orchestrator. Zero means not recorded.
	SessionClosedAt time.Time `json:"sessionClosedAt,omitempty"`
	// VendorHosts maps each vendor id to its host names as the trace names
	// them (bare-IP hosts as 127.0.0.1:PORT).
	VendorHosts map[string][]string `json:"vendorHosts"`
	// UntrustedHosts are hosts whose certificate does not verify for their
	// name against the fleet CA.
	UntrustedHosts []string `json:"untrustedHosts,omitempty"`
	// Successors is the scenario's Successors (requested skill -> the
	// skills that may stand in for it).
	Successors map[string][]string `json:"successors,omitempty"`
	// CredentialHosts maps each vendor whose credential the scenario
	// handed out to the hosts (as the trace names them) it was handed out
	// for: the only hosts it may be presented to. Nil means none was.
	CredentialHosts map[string][]string `json:"credentialHosts,omitempty"`
	// CredentialsReported says where the orchestrator wrote out a
	// credential value it was handed ("delegation 1's detail: vendor d's
	// credential", "stderr: ..."), before the report cut it out. Nil means
	// nowhere.
	CredentialsReported []string `json:"credentialsReported,omitempty"`
	// Offers is the scenario's Offers: the only A2A versions its cards
	// offer (nil: both).
	Offers []string `json:"offers,omitempty"`
	// Speaks is what the client speaks as far as is known beyond this
	// scenario's own calls: its hello's declaration and, judged once the
	// whole run is known, what every scenario saw it send. Nil means
	// nothing beyond this scenario. Judges read it through speaks().
	Speaks *Speaks `json:"speaks,omitempty"`
	// speechRead is set when a judge read what the client speaks.
	speechRead bool
}

// Delegation is one request and what came of it.
type Delegation struct {
	Request contract.DelegationRequest `json:"request"`
	// Outcome is the orchestrator's report; nil when there was none.
	Outcome *contract.DelegationOutcome `json:"outcome,omitempty"`
	// NoOutcome says why there is no outcome ("timeout", ...).
	NoOutcome string `json:"noOutcome,omitempty"`
	// BrokeContract is set with NoOutcome when the orchestrator did answer,
	// but its answer broke the driver contract (not JSON, too long,
	// another request's id, an invalid outcome).
	BrokeContract bool `json:"brokeContract,omitempty"`
	// Unimplemented is set when the orchestrator declared it cannot run
	// the scenario.
	Unimplemented bool `json:"unimplemented,omitempty"`
	// FirstSeq and LastSeq bound the trace events of this delegation.
	FirstSeq int64 `json:"firstSeq"`
	LastSeq  int64 `json:"lastSeq"`
	// ElapsedMs is how long the orchestrator took.
	ElapsedMs int64 `json:"elapsedMs"`
	// CompletedOnWire is true when the outcome says completed and the wire
	// bears it out; Contradiction says what the wire shows against the
	// outcome ("" when nothing). Run.Corroborate fills both in.
	CompletedOnWire bool   `json:"completedOnWire"`
	Contradiction   string `json:"contradiction,omitempty"`
}

// During returns the events of delegation i.
func (r *Run) During(i int) []mockvendor.Event {
	d := r.Delegations[i]
	var out []mockvendor.Event
	for _, e := range r.Events {
		if e.Seq >= d.FirstSeq && e.Seq <= d.LastSeq {
			out = append(out, e)
		}
	}
	return out
}

// outcome returns delegation i's outcome, or a FAIL verdict saying there is
// none or that the wire contradicts it (see Contradiction): every check that
// reads an outcome reads it through here.
func (r *Run) outcome(i int) (*contract.DelegationOutcome, *Verdict) {
	if i >= len(r.Delegations) {
		v := Failf("delegation %d was not run", i+1)
		return nil, &v
	}
	d := r.Delegations[i]
	if d.Outcome == nil {
		why := d.NoOutcome
		if why == "" {
			why = "no outcome"
		}
		v := Failf("delegation %d: no outcome (%s)", i+1, why)
		return nil, &v
	}
	if why := r.Contradiction(i); why != "" {
		v := Failf("delegation %d: %s", i+1, why).Want("an outcome the wire bears out", why).evidenced()
		return nil, &v
	}
	return d.Outcome, nil
}

// isRPC reports whether the event is a JSON-RPC call.
func isRPC(e mockvendor.Event) bool {
	return e.Method != "" || (e.HTTPMethod == "POST" && e.Op != mockvendor.OpRefused && e.Op != mockvendor.OpToken)
}

// isTaskSend reports whether the event is a send or stream.
func isTaskSend(e mockvendor.Event) bool {
	return e.Op == mockvendor.OpSend || e.Op == mockvendor.OpStream
}

// isRealSend reports whether the event is a send or stream that is not a probe.
func isRealSend(e mockvendor.Event) bool { return isTaskSend(e) && !e.Probe }

// bypassesCache reports whether a card fetch asked to skip caches and sent
// no If-None-Match [seed 000, Decision Boundary].
func bypassesCache(e mockvendor.Event) bool {
	cc := strings.ToLower(e.CacheControl)
	bypass := strings.Contains(cc, "no-cache") || strings.Contains(cc, "max-age=0") || strings.Contains(strings.ToLower(e.Pragma), "no-cache")
	return bypass && e.IfNoneMatch == ""
}

// inVendor reports whether the event reached the vendor.
func inVendor(e mockvendor.Event, vendor string) bool { return e.Vendor == vendor }

// filter returns the events for which keep holds.
func filter(evs []mockvendor.Event, keep func(mockvendor.Event) bool) []mockvendor.Event {
	var out []mockvendor.Event
	for _, e := range evs {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func count(evs []mockvendor.Event, keep func(mockvendor.Event) bool) int {
	return len(filter(evs, keep))
}

// streamed reports whether the orchestrator called a stream method.
func (r *Run) streamed() bool {
	return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpStream })
}

func describe(e mockvendor.Event) string {
	var b strings.Builder
	b.WriteString("#")
	b.WriteString(itoa(e.Seq))
	b.WriteString(" ")
	b.WriteString(string(e.Op))
	if e.Method != "" {
		b.WriteString(" " + e.Method)
	}
	b.WriteString(" " + e.Host + e.Path)
	if e.Skill != "" {
		b.WriteString(" skill=" + e.Skill)
	}
	if e.Probe {
		b.WriteString(" probe")
	}
	if e.ErrorCode != 0 {
		b.WriteString(" error=" + itoa(int64(e.ErrorCode)))
	}
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
