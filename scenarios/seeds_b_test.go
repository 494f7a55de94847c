package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// synth builds synthetic runs for the judge tests below: events are
// numbered in order, and each delegation spans the events given for it.
type synth struct {
	r   Run
	seq int64
}

func (s *synth) delegation(skill, candidate string, o *contract.DelegationOutcome, evs ...mockvendor.Event) {
	first := s.seq + 1
	for _, e := range evs {
		s.seq++
		e.Seq = s.seq
		s.r.Events = append(s.r.Events, e)
	}
	s.r.Delegations = append(s.r.Delegations, Delegation{
		Request:  contract.DelegationRequest{Task: contract.Task{Skill: skill}, Candidates: []string{CardURL(candidate)}},
		Outcome:  o,
		FirstSeq: first, LastSeq: s.seq,
	})
}

func cardEv(vendor, host string) mockvendor.Event {
	return mockvendor.Event{Op: mockvendor.OpCardFetch, Vendor: vendor, Host: host, Path: mockvendor.CardPath}
}

func jwksEv(vendor, host string) mockvendor.Event {
	return mockvendor.Event{Op: mockvendor.OpJWKSFetch, Vendor: vendor, Host: host, Path: mockvendor.JWKSPath}
}

// sendEv is a real send; state "" with code != 0 is a refused one.
func sendEv(vendor, host, path, skill, task, state string, code int) mockvendor.Event {
	return mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", HTTPMethod: "POST", Vendor: vendor, Host: host, Path: path,
		Skill: skill, TaskID: task, State: state, ErrorCode: code}
}

func probeEv(vendor, host, path string) mockvendor.Event {
	e := sendEv(vendor, host, path, "", "", "", -32001)
	e.Probe = true
	return e
}

func outcome(o, reason, trust, agent, skill, task string) *contract.DelegationOutcome {
	out := &contract.DelegationOutcome{Outcome: o, Reason: reason, TrustMode: trust, CardTrust: contract.CardTrustHint}
	if o == contract.OutcomeCompleted {
		out.Agent, out.Skill, out.TaskID, out.TaskState = agent, skill, task, "completed"
	}
	return out
}

func evaluate(t *testing.T, id string, r *Run) Verdict {
	t.Helper()
	_, c := Find(id)
	if c == nil {
		t.Fatalf("%s is not in the catalog", id)
	}
	r.Corroborate()
	v, _ := c.Evaluate(r)
	return v
}

// TestLookalikeSANJudge: BIND-006.NO-FULL fails full trust for the
// lookalike gateway (what seed 003's substring test gives), passes reduced
// trust and, by another strategy, a rejection before contacting it, and
// is not exercised when A's card was never fetched.
func TestLookalikeSANJudge(t *testing.T) {
	gw := "https://" + hostLookalike + mockvendor.ResellerRPCPath
	sent := []mockvendor.Event{cardEv("a", mockvendor.HostVendorA), jwksEv("a", mockvendor.HostVendorA),
		probeEv("b", hostLookalike, mockvendor.ResellerRPCPath),
		sendEv("b", hostLookalike, mockvendor.ResellerRPCPath, mockvendor.SkillSummarize, "t-1", "completed", 0)}
	cases := []struct {
		name string
		o    *contract.DelegationOutcome
		evs  []mockvendor.Event
		want Outcome
	}{
		{"substring binding: full", outcome(contract.OutcomeCompleted, contract.ReasonOK, contract.TrustModeFull, gw, mockvendor.SkillSummarize, "t-1"), sent, Fail},
		{"sent unpinned", outcome(contract.OutcomeCompleted, contract.ReasonOK, contract.TrustModeUnpinned, gw, mockvendor.SkillSummarize, "t-1"), sent, Fail},
		{"reduced", outcome(contract.OutcomeCompleted, contract.ReasonSignerEndpointMismatch, contract.TrustModeReduced, gw, mockvendor.SkillSummarize, "t-1"), sent, Pass},
		{"rejected before contact", outcome(contract.OutcomeRejected, contract.ReasonSignerEndpointMismatch, "", "", "", ""), sent[:2], Pass},
		{"rejected for another reason", outcome(contract.OutcomeRejected, contract.ReasonOther, "", "", "", ""), sent[:2], Fail},
		{"card never fetched", outcome(contract.OutcomeFailed, contract.ReasonOther, contract.TrustModeUnpinned, "", "", ""), nil, NotExercised},
	}
	for _, tc := range cases {
		var s synth
		s.delegation(mockvendor.SkillSummarize, mockvendor.HostVendorA, tc.o, tc.evs...)
		if v := evaluate(t, "BIND-006.NO-FULL", &s.r); v.Outcome != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Outcome, v.Detail, tc.want)
		}
	}
}

// TestGatewayAllowlistJudge: BIND-007.NO-FULL fails full trust on the
// tool the gateway accepted even when the refused one is reported
// reduced (trust decided from the answer, not the binding), passes reduced
// trust on both and, by another strategy, two rejections before contact,
// and is not exercised when the second delegation never ran.
func TestGatewayAllowlistJudge(t *testing.T) {
	gw := "https://" + mockvendor.HostResellerB + mockvendor.ResellerRPCPath
	h, p := mockvendor.HostResellerB, mockvendor.ResellerRPCPath
	card := []mockvendor.Event{cardEv("a", mockvendor.HostVendorA), jwksEv("a", mockvendor.HostVendorA)}
	accepted := append(append([]mockvendor.Event(nil), card...), sendEv("b", h, p, mockvendor.SkillSummarize, "t-1", "completed", 0))
	refused := []mockvendor.Event{sendEv("b", h, p, mockvendor.SkillLedgerWrite, "", "", -32601)}
	done := func(trust string) *contract.DelegationOutcome {
		return outcome(contract.OutcomeCompleted, contract.ReasonOK, trust, gw, mockvendor.SkillSummarize, "t-1")
	}
	failed := func(trust string) *contract.DelegationOutcome {
		return outcome(contract.OutcomeFailed, contract.ReasonSignerEndpointMismatch, trust, "", "", "")
	}
	refusal := outcome(contract.OutcomeRejected, contract.ReasonSignerEndpointMismatch, "", "", "", "")
	type deleg struct {
		o   *contract.DelegationOutcome
		evs []mockvendor.Event
	}
	cases := []struct {
		name string
		ds   []deleg
		want Outcome
	}{
		{"full until refused", []deleg{{done(contract.TrustModeFull), accepted}, {failed(contract.TrustModeReduced), refused}}, Fail},
		{"full on both", []deleg{{done(contract.TrustModeFull), accepted}, {failed(contract.TrustModeFull), refused}}, Fail},
		{"reduced on both", []deleg{{done(contract.TrustModeReduced), accepted}, {failed(contract.TrustModeReduced), refused}}, Pass},
		{"rejected both before contact", []deleg{{refusal, card}, {refusal, nil}}, Pass},
		{"second delegation never ran", []deleg{{done(contract.TrustModeReduced), accepted}}, NotExercised},
	}
	for _, tc := range cases {
		var s synth
		skills := []string{mockvendor.SkillSummarize, mockvendor.SkillLedgerWrite}
		for i, d := range tc.ds {
			s.delegation(skills[i], mockvendor.HostVendorA, d.o, d.evs...)
		}
		if v := evaluate(t, "BIND-007.NO-FULL", &s.r); v.Outcome != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Outcome, v.Detail, tc.want)
		}
	}
}

// card010Run is CARD-010's three delegations: C completes, D answers
// -32004 followed by third (the rest of delegation 2), then delegation 3
// with its own outcome and events.
func card010Run(second []mockvendor.Event, o2 *contract.DelegationOutcome, third []mockvendor.Event, o3 *contract.DelegationOutcome) *Run {
	var s synth
	s.r.VendorHosts = map[string][]string{"c": {mockvendor.HostC}, "d": {mockvendor.HostCardD, mockvendor.HostRPCD}}
	cURL := "https://" + mockvendor.HostC + mockvendor.DefaultRPCPath
	s.delegation(skillS, mockvendor.HostC, outcome(contract.OutcomeCompleted, contract.ReasonOK, contract.TrustModeUnpinned, cURL, skillS, "t-1"),
		cardEv("c", mockvendor.HostC), sendEv("c", mockvendor.HostC, mockvendor.DefaultRPCPath, skillS, "t-1", "completed", 0))
	s.delegation(skillS, mockvendor.HostCardD, o2, append([]mockvendor.Event{cardEv("d", mockvendor.HostCardD),
		sendEv("d", mockvendor.HostRPCD, mockvendor.DefaultRPCPath, skillS, "", "", -32004)}, second...)...)
	if o3 != nil {
		s.delegation(skillS, mockvendor.HostC, o3, third...)
	}
	return &s.r
}

// TestSkillIDCollisionJudges: CARD-010.NO-BORROW fails D's work sent to
// C's same-named skill and passes a delegation that stays with D (given up
// as skill-unavailable, or, by another strategy, escalated after a
// re-fetch); a send under another skill is left to G-SKILL-SUCCESSOR.
// CARD-010.OWN-SKILL fails a third delegation refused unsent for D's
// -32004 and passes one that completes at C. Neither is exercised without
// D's -32004.
func TestSkillIDCollisionJudges(t *testing.T) {
	cURL := "https://" + mockvendor.HostC + mockvendor.DefaultRPCPath
	unavailable := outcome(contract.OutcomeFailed, contract.ReasonSkillUnavailable, contract.TrustModeUnpinned, "", "", "")
	escalated := outcome(contract.OutcomeEscalated, contract.ReasonSkillUnavailable, contract.TrustModeUnpinned, "", "", "")
	borrowed := []mockvendor.Event{sendEv("c", mockvendor.HostC, mockvendor.DefaultRPCPath, skillS, "t-2", "completed", 0)}
	refetch := []mockvendor.Event{{Op: mockvendor.OpCardFetch, Vendor: "d", Host: mockvendor.HostCardD, CacheControl: "no-cache"}}
	otherSkill := []mockvendor.Event{sendEv("d", mockvendor.HostRPCD, mockvendor.DefaultRPCPath, mockvendor.SkillFXHedging, "t-2", "completed", 0)}
	third := []mockvendor.Event{cardEv("c", mockvendor.HostC), sendEv("c", mockvendor.HostC, mockvendor.DefaultRPCPath, skillS, "t-3", "completed", 0)}
	thirdDone := outcome(contract.OutcomeCompleted, contract.ReasonOK, contract.TrustModeUnpinned, cURL, skillS, "t-3")
	refusedUnsent := outcome(contract.OutcomeRejected, contract.ReasonSkillUnavailable, contract.TrustModeUnpinned, "", "", "")

	noD := func() *Run {
		r := card010Run(nil, unavailable, third, thirdDone)
		r.Events[3].ErrorCode, r.Events[3].State, r.Events[3].TaskID = 0, "completed", "t-2"
		return r
	}
	cases := []struct {
		id   string
		name string
		r    *Run
		want Outcome
	}{
		{"CARD-010.NO-BORROW", "re-routed to C's same-named skill", card010Run(borrowed, outcome(contract.OutcomeCompleted, contract.ReasonOK, contract.TrustModeUnpinned, cURL, skillS, "t-2"), third, thirdDone), Fail},
		{"CARD-010.NO-BORROW", "given up as skill-unavailable", card010Run(refetch, unavailable, third, thirdDone), Pass},
		{"CARD-010.NO-BORROW", "escalated at D (another strategy)", card010Run(nil, escalated, third, thirdDone), Pass},
		{"CARD-010.NO-BORROW", "another skill at D is G-SKILL-SUCCESSOR's", card010Run(otherSkill, unavailable, third, thirdDone), Pass},
		{"CARD-010.NO-BORROW", "D never answered -32004", noD(), NotExercised},
		{"CARD-010.OWN-SKILL", "third refused unsent", card010Run(refetch, unavailable, []mockvendor.Event{cardEv("c", mockvendor.HostC)}, refusedUnsent), Fail},
		{"CARD-010.OWN-SKILL", "third completes at C", card010Run(refetch, unavailable, third, thirdDone), Pass},
		{"CARD-010.OWN-SKILL", "third completes at C after a probe (another strategy)", card010Run(nil, escalated,
			append([]mockvendor.Event{cardEv("c", mockvendor.HostC), probeEv("c", mockvendor.HostC, mockvendor.DefaultRPCPath)}, third[1:]...), thirdDone), Pass},
		{"CARD-010.OWN-SKILL", "third delegation never ran", card010Run(refetch, unavailable, nil, nil), NotExercised},
		{"CARD-010.OWN-SKILL", "D never answered -32004", noD(), NotExercised},
	}
	for _, tc := range cases {
		if v := evaluate(t, tc.id, tc.r); v.Outcome != tc.want {
			t.Errorf("%s, %s: %s (%s), want %s", tc.id, tc.name, v.Outcome, v.Detail, tc.want)
		}
	}
}
