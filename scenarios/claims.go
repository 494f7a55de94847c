package scenarios

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The outcome is a claim too (catalog, "Profiles and levels"): what an
// orchestrator reports is held against the wire before any check reads it.
//
//   - completed needs a completed task at the endpoint named by agent, with
//     id taskId, created for skill skill, in that delegation (or, without a
//     taskId, a real send there for skill answered by a Message and no
//     task);
//   - interrupted needs the task taskId, created at agent in that
//     delegation, answered in the state taskState;
//   - cardTrust authoritative, and any trustMode, need a card of one of the
//     delegation's candidates fetched by the end of the delegation (a cache
//     kept from an earlier delegation of the same scenario counts);
//   - trustMode full or reduced says a signature was verified, so it also
//     needs a key set (JWKS) fetched by then.
//
// The conservative answers (cardTrust hint, trustMode unpinned) claim
// nothing the wire must show.

// Contradiction returns what the wire shows against delegation i's
// outcome, as "the outcome says X; the wire shows Y", or "" when the wire
// bears the outcome out.
func (r *Run) Contradiction(i int) string {
	if i >= len(r.Delegations) || r.Delegations[i].Outcome == nil {
		return ""
	}
	o := r.Delegations[i].Outcome
	if o.Outcome == contract.OutcomeCompleted {
		if why := r.completionContradiction(i, o); why != "" {
			return why
		}
	}
	if o.Outcome == contract.OutcomeInterrupted {
		if why := r.interruptionContradiction(i, o); why != "" {
			return why
		}
	}
	positive := o.CardTrust == contract.CardTrustAuthoritative || o.TrustMode == contract.TrustModeFull || o.TrustMode == contract.TrustModeReduced
	if positive && !r.candidateCardFetched(i) {
		return fmt.Sprintf("the outcome says cardTrust %q, trustMode %q; the wire shows no card of this delegation's candidates fetched", o.CardTrust, o.TrustMode)
	}
	if o.TrustMode == contract.TrustModeFull || o.TrustMode == contract.TrustModeReduced {
		if !r.before(i, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpJWKSFetch }) {
			return fmt.Sprintf("the outcome says trustMode %s (a verified signature); the wire shows no key set (JWKS) fetched", o.TrustMode)
		}
	}
	return ""
}

// Corroborate fills in each delegation's Contradiction and CompletedOnWire
// (the outcome says completed and the wire bears it out), once the trace
// is in.
func (r *Run) Corroborate() {
	for i := range r.Delegations {
		d := &r.Delegations[i]
		d.Contradiction = r.Contradiction(i)
		d.CompletedOnWire = d.Outcome != nil && d.Outcome.Outcome == contract.OutcomeCompleted && d.Contradiction == ""
	}
}

func (r *Run) completionContradiction(i int, o *contract.DelegationOutcome) string {
	says := fmt.Sprintf("the outcome says completed: task %q of skill %q at %q", o.TaskID, o.Skill, o.Agent)
	evs := r.During(i)
	if o.TaskID == "" {
		// A reply that is a Message and no task is a completion (A2A CLI
		// A2ACLI_SEND_003): it needs that reply, from agent, for skill.
		if slices.ContainsFunc(evs, func(e mockvendor.Event) bool {
			return isRealSend(e) && e.MessageReply && atAgent(e, o.Agent) && e.Skill == o.Skill
		}) {
			return ""
		}
		return says + fmt.Sprintf("; the wire shows %s and no Message reply from that endpoint for that skill (an outcome must name the task it reports)", completedTasks(evs))
	}
	k := slices.IndexFunc(evs, func(e mockvendor.Event) bool { return isRealSend(e) && e.TaskID == o.TaskID && e.ErrorCode == 0 })
	if k < 0 {
		return says + fmt.Sprintf("; the wire shows no real task %q created in this delegation (%s)", o.TaskID, completedTasks(evs))
	}
	created := evs[k]
	if !atAgent(created, o.Agent) {
		return says + fmt.Sprintf("; the wire shows task %q at %s", o.TaskID, endpointOf(created))
	}
	if created.Skill != o.Skill {
		return says + fmt.Sprintf("; the wire shows task %q sent for skill %q", o.TaskID, created.Skill)
	}
	if _, ok := seenCompleted(evs[k:], created); !ok {
		return says + fmt.Sprintf("; the wire shows task %q never completed (last state %q)", o.TaskID, lastState(evs[k:], o.TaskID))
	}
	return ""
}

// seenCompleted returns the first event of evs that showed the client the
// task created (a real send or stream that created or continued it)
// completed: the same task id at the same vendor, answered completed on
// the send itself, a frame of its stream, a get or a subscription, or
// delivered completed by a push notification the client's receiver took.
// It is the one rule of a completion on the wire: completedVia and
// Contradiction (so Run.Corroborate's CompletedOnWire) both use it.
func seenCompleted(evs []mockvendor.Event, created mockvendor.Event) (mockvendor.Event, bool) {
	for _, e := range evs {
		if e.TaskID == created.TaskID && e.Vendor == created.Vendor && showsState(e, "completed") {
			return e, true
		}
	}
	return mockvendor.Event{}, false
}

// showsState reports whether the client could have seen the task of e in
// state (0.3 spelling) on e: the answer of a send, stream, get or
// subscription without error, or a push notification delivered to the
// client's receiver.
func showsState(e mockvendor.Event, state string) bool {
	if e.TaskID == "" || e.ErrorCode != 0 {
		return false
	}
	switch {
	case isTaskSend(e), e.Op == mockvendor.OpGet, isSubscribe(e):
	case e.Op == mockvendor.OpPushDelivery && e.Attempt > 0 && e.DeliveryError == "":
	default:
		return false
	}
	return slices.ContainsFunc(shown(e), func(s mockvendor.SeenState) bool { return s.State == state })
}

// shown lists the task states e showed the client, each with when it
// could first have seen it: a stream's states as its frames delivered
// them (Event.Seen), else the one state answered, at the answer's end.
func shown(e mockvendor.Event) []mockvendor.SeenState {
	if len(e.Seen) > 0 {
		return e.Seen
	}
	if e.State == "" {
		return nil
	}
	return []mockvendor.SeenState{{State: e.State, Time: answeredAt(e)}}
}

// answeredAt is when e's answer ended: its arrival plus its duration.
func answeredAt(e mockvendor.Event) time.Time {
	return e.Time.Add(time.Duration(e.DurationMs * float64(time.Millisecond)))
}

// candidateCardFetched reports whether a card of one of delegation i's
// candidates was fetched by the end of the delegation.
func (r *Run) candidateCardFetched(i int) bool {
	hosts := map[string]bool{}
	for _, c := range r.Delegations[i].Request.Candidates {
		h, _ := hostPath(c)
		hosts[h] = true
	}
	return r.before(i, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpCardFetch && hosts[e.Host] })
}

// before reports whether an event up to the end of delegation i matches.
func (r *Run) before(i int, keep func(mockvendor.Event) bool) bool {
	last := r.Delegations[i].LastSeq
	return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Seq <= last && keep(e) })
}

func completedTasks(evs []mockvendor.Event) string {
	var ids []string
	for _, e := range evs {
		if isRealSend(e) && e.TaskID != "" && e.State == "completed" {
			ids = append(ids, fmt.Sprintf("%s at %s (skill %q)", e.TaskID, e.Host, e.Skill))
		}
	}
	if len(ids) == 0 {
		return "no completed real task"
	}
	return fmt.Sprintf("completed real tasks %v", ids)
}

func lastState(evs []mockvendor.Event, id string) string {
	st := ""
	for _, e := range evs {
		if e.TaskID == id && e.State != "" {
			st = e.State
		}
	}
	return st
}

// hostPath splits a URL into the host as the trace names it and the path.
// A bare host:port (a gRPC interface's url, the proto's comment on
// AgentInterface.url) is read as the https origin it names.
func hostPath(raw string) (host, path string) {
	if !strings.Contains(raw, "://") && raw != "" {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", ""
	}
	h := u.Host
	if u.Port() == "443" {
		h = u.Hostname()
	}
	return h, u.Path
}

// atAgent reports whether e reached the endpoint an outcome names as its
// agent: the same host and, for JSON-RPC, the same path; for HTTP+JSON a
// route below it; for gRPC, whose paths are the service's methods, the
// host alone (the agent named as host:port or as an https URL).
func atAgent(e mockvendor.Event, agent string) bool {
	host, path := hostPath(agent)
	switch {
	case e.Host != host:
		return false
	case e.Binding == mockvendor.BindingGRPC:
		return true
	case e.Binding == mockvendor.BindingREST:
		return e.Path == path || strings.HasPrefix(e.Path, path+"/")
	}
	return e.Path == path
}

// endpointOf names the endpoint a request reached, for people: its URL,
// or for a gRPC call the host it dialled.
func endpointOf(e mockvendor.Event) string {
	if e.Binding == mockvendor.BindingGRPC {
		return e.Host + " (gRPC)"
	}
	return "https://" + e.Host + e.Path
}

// interruptionContradiction holds an interrupted outcome against the wire:
// the real task taskId, created in the delegation at agent, was answered
// in the state taskState.
func (r *Run) interruptionContradiction(i int, o *contract.DelegationOutcome) string {
	want := normalTaskState(o.TaskState)
	says := fmt.Sprintf("the outcome says interrupted: task %q at %q stopped at %s", o.TaskID, o.Agent, want)
	evs := r.During(i)
	k := slices.IndexFunc(evs, func(e mockvendor.Event) bool { return isRealSend(e) && e.TaskID == o.TaskID && e.ErrorCode == 0 })
	if k < 0 {
		return says + "; the wire shows no real task with that id created in this delegation"
	}
	if !atAgent(evs[k], o.Agent) {
		return says + fmt.Sprintf("; the wire shows task %q at %s", o.TaskID, endpointOf(evs[k]))
	}
	if !slices.ContainsFunc(evs[k:], func(e mockvendor.Event) bool { return e.TaskID == o.TaskID && e.State == want }) {
		return says + fmt.Sprintf("; the wire shows task %q never answered in that state (last state %q)", o.TaskID, lastState(evs[k:], o.TaskID))
	}
	return ""
}

// normalTaskState is a task state in the 0.3 spelling (the trace's).
func normalTaskState(s string) string {
	if rest, ok := strings.CutPrefix(s, "TASK_STATE_"); ok {
		return strings.ReplaceAll(strings.ToLower(rest), "_", "-")
	}
	return s
}
