package scenarios

import (
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for the seed items PROBE-004, PROBE-005, CARD-008 and
// CARD-009: each check fails a run that breaks it, passes one that keeps
// it, passes one that keeps it another way, and is not exercised (or not
// applicable, with reason) where the run never met its situation.

// tRun builds the trace of one scenario: events numbered in order, a
// second apart unless at says otherwise, and delegations cut at the given
// first events (each runs to the event before the next one's first).
type tRun struct {
	events []mockvendor.Event
	starts []int // index into events of each delegation's first event
}

// ev appends an event and returns its index.
func (t *tRun) ev(e mockvendor.Event) int {
	e.Seq = int64(len(t.events) + 1)
	if e.Time.IsZero() {
		e.Time = time.Unix(1_700_000_000, 0).Add(time.Duration(e.Seq) * time.Second)
	}
	t.events = append(t.events, e)
	return len(t.events) - 1
}

// deleg starts a delegation at the next event.
func (t *tRun) deleg() { t.starts = append(t.starts, len(t.events)) }

// run builds the Run with outcomes (nil for none).
func (t *tRun) run(outcomes ...*contract.DelegationOutcome) *Run {
	r := &Run{Events: t.events}
	for i, s := range t.starts {
		last := len(t.events)
		if i+1 < len(t.starts) {
			last = t.starts[i+1]
		}
		d := Delegation{FirstSeq: int64(s + 1), LastSeq: int64(last),
			Request: contract.DelegationRequest{Candidates: []string{CardURL(mockvendor.HostCardB), CardURL(mockvendor.HostCardD), CardURL(hostE)}}}
		if i < len(outcomes) {
			d.Outcome = outcomes[i]
		}
		r.Delegations = append(r.Delegations, d)
	}
	return r
}

func tCard(vendor, host, cc, pragma, inm string) mockvendor.Event {
	return mockvendor.Event{Vendor: vendor, Host: host, Path: mockvendor.CardPath, HTTPMethod: "GET", Op: mockvendor.OpCardFetch, CacheControl: cc, Pragma: pragma, IfNoneMatch: inm}
}

func tSendTo(vendor, host, skill string, probe bool, code int, task string) mockvendor.Event {
	e := mockvendor.Event{Vendor: vendor, Host: host, Path: mockvendor.DefaultRPCPath, HTTPMethod: "POST", Op: mockvendor.OpSend, Method: "SendMessage",
		Skill: skill, Probe: probe, ErrorCode: code, TaskID: task, A2AVersion: "1.0", HasA2AVersion: true}
	if code == 0 && task != "" {
		e.State = "completed"
	}
	return e
}

func tCompleted(host, skill, task string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: "https://" + host + mockvendor.DefaultRPCPath, Skill: skill, TaskID: task, CardTrust: contract.CardTrustHint}
}

func tEvaluate(t *testing.T, id, name string, r *Run, want Outcome) {
	t.Helper()
	_, c := Find(id)
	if c == nil {
		t.Fatalf("%s is not in the catalog", id)
	}
	if v, _ := c.Evaluate(r); v.Outcome != want {
		t.Errorf("%s, %s: %s (%s), want %s", id, name, v.Outcome, v.Detail, want)
	}
}

// probeRefusedRun is PROBE-004's trace: B's card, its probe refused, then
// what follows builds on it.
func probeRefusedRun(then func(t *tRun)) *tRun {
	t := &tRun{}
	t.deleg()
	t.ev(tCard("b", mockvendor.HostCardB, "", "", ""))
	t.ev(tSendTo("b", mockvendor.HostRPCB, skillS, true, -32004, ""))
	then(t)
	return t
}

func TestProbeRefused(t *testing.T) {
	bypass := func(t *tRun) { t.ev(tCard("b", mockvendor.HostCardB, "no-cache", "no-cache", "")) }
	v2 := func(t *tRun) { t.ev(tSendTo("b", mockvendor.HostRPCB, skillV2, false, 0, "t-2")) }
	done := tCompleted(mockvendor.HostRPCB, skillV2, "t-2")
	cases := []struct {
		id, name string
		run      *Run
		want     Outcome
	}{
		{"PROBE-004.REFETCH", "re-routed on the error data alone", probeRefusedRun(v2).run(done), Fail},
		{"PROBE-004.REFETCH", "revalidated with If-None-Match", probeRefusedRun(func(t *tRun) { t.ev(tCard("b", mockvendor.HostCardB, "", "", `"e1"`)); v2(t) }).run(done), Fail},
		{"PROBE-004.REFETCH", "re-fetched with no-cache, then -v2", probeRefusedRun(func(t *tRun) { bypass(t); v2(t) }).run(done), Pass},
		{"PROBE-004.REFETCH", "re-fetched with max-age=0, probed -v2, then -v2", probeRefusedRun(func(t *tRun) {
			t.ev(tCard("b", mockvendor.HostCardB, "max-age=0", "", ""))
			t.ev(tSendTo("b", mockvendor.HostRPCB, skillV2, true, 0, "p-2"))
			v2(t)
		}).run(done), Pass},
		{"PROBE-004.REFETCH", "never probed", func() *Run {
			t := &tRun{}
			t.deleg()
			t.ev(tCard("b", mockvendor.HostCardB, "", "", ""))
			t.ev(tSendTo("b", mockvendor.HostRPCB, skillS, false, -32004, ""))
			return t.run(nil)
		}(), NotExercised},
		{"PROBE-004.REFETCH", "probed with a lifecycle get", func() *Run {
			t := &tRun{}
			t.deleg()
			t.ev(tCard("b", mockvendor.HostCardB, "", "", ""))
			t.ev(mockvendor.Event{Vendor: "b", Host: mockvendor.HostRPCB, Path: mockvendor.DefaultRPCPath, Op: mockvendor.OpGet, Method: "GetTask", Probe: true, ErrorCode: -32001, TaskID: "__probe__-1"})
			return t.run(nil)
		}(), NotApplicable},

		{"PROBE-004.NO-COMMIT", "committed the refused skill after the re-fetch", probeRefusedRun(func(t *tRun) {
			bypass(t)
			t.ev(tSendTo("b", mockvendor.HostRPCB, skillS, false, -32004, ""))
		}).run(nil), Fail},
		{"PROBE-004.NO-COMMIT", "committed the refused skill at once (seed 000's code)", probeRefusedRun(func(t *tRun) {
			t.ev(tSendTo("b", mockvendor.HostRPCB, skillS, false, -32004, ""))
		}).run(nil), Fail},
		{"PROBE-004.NO-COMMIT", "re-routed to -v2", probeRefusedRun(func(t *tRun) { bypass(t); v2(t) }).run(done), Pass},
		{"PROBE-004.NO-COMMIT", "re-fetched and gave up", probeRefusedRun(bypass).run(&contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: contract.ReasonSkillUnavailable}), Pass},
		{"PROBE-004.NO-COMMIT", "never probed", (&tRun{starts: []int{0}, events: []mockvendor.Event{{Seq: 1, Vendor: "b", Op: mockvendor.OpCardFetch}}}).run(nil), NotExercised},

		{"PROBE-004.ROUTE", "escalated", probeRefusedRun(bypass).run(&contract.DelegationOutcome{Outcome: contract.OutcomeEscalated, Reason: contract.ReasonSkillUnavailable}), Fail},
		{"PROBE-004.ROUTE", "completed via -v2", probeRefusedRun(func(t *tRun) { bypass(t); v2(t) }).run(done), Pass},
		{"PROBE-004.ROUTE", "lifecycle probe, real -32004, then -v2", func() *Run {
			t := &tRun{}
			t.deleg()
			t.ev(tCard("b", mockvendor.HostCardB, "", "", ""))
			t.ev(mockvendor.Event{Vendor: "b", Host: mockvendor.HostRPCB, Path: mockvendor.DefaultRPCPath, Op: mockvendor.OpGet, Method: "GetTask", Probe: true, ErrorCode: -32001, TaskID: "__probe__-1"})
			t.ev(tSendTo("b", mockvendor.HostRPCB, skillS, false, -32004, ""))
			bypass(t)
			v2(t)
			return t.run(done)
		}(), Pass},
		{"PROBE-004.ROUTE", "no card fetched, no outcome", (&tRun{starts: []int{0}}).run(nil), NotExercised},
	}
	for _, c := range cases {
		tEvaluate(t, c.id, c.name, c.run, c.want)
	}
}

func TestStub32602(t *testing.T) {
	cardE := tCard("e", hostE, "", "", "")
	probeE := tSendTo("e", hostE, skillS, true, -32602, "")
	atD := func(t *tRun) {
		t.ev(tCard("d", mockvendor.HostCardD, "", "", ""))
		t.ev(tSendTo("d", mockvendor.HostRPCD, skillS, false, 0, "t-d"))
	}
	build := func(evs []mockvendor.Event, then func(*tRun)) *tRun {
		t := &tRun{}
		t.deleg()
		for _, e := range evs {
			t.ev(e)
		}
		if then != nil {
			then(t)
		}
		return t
	}
	atDone := tCompleted(mockvendor.HostRPCD, skillS, "t-d")
	notA2A := &contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: contract.ReasonEndpointNotA2A, CardTrust: contract.CardTrustHint}
	getProbe := mockvendor.Event{Vendor: "e", Host: hostE, Path: mockvendor.DefaultRPCPath, Op: mockvendor.OpGet, Method: "GetTask", Probe: true, ErrorCode: -32602, TaskID: "__probe__-1"}
	cases := []struct {
		id, name string
		run      *Run
		want     Outcome
	}{
		{"PROBE-005.NO-COMMIT", "real task to the stub", build([]mockvendor.Event{cardE, tSendTo("e", hostE, skillS, false, -32602, "")}, atD).run(atDone), Fail},
		{"PROBE-005.NO-COMMIT", "probed, then D", build([]mockvendor.Event{cardE, probeE}, atD).run(atDone), Pass},
		{"PROBE-005.NO-COMMIT", "probed with a get, refused as endpoint-not-a2a", build([]mockvendor.Event{cardE, getProbe}, nil).run(notA2A), Pass},
		{"PROBE-005.NO-COMMIT", "endpoint-not-a2a the wire does not show", build([]mockvendor.Event{cardE}, nil).run(notA2A), Fail},
		{"PROBE-005.NO-COMMIT", "E's card never fetched", build(nil, atD).run(atDone), NotExercised},

		{"PROBE-005.PROBED", "real task first", build([]mockvendor.Event{cardE, tSendTo("e", hostE, skillS, false, -32602, "")}, nil).run(nil), Fail},
		{"PROBE-005.PROBED", "probe send", build([]mockvendor.Event{cardE, probeE}, nil).run(nil), Pass},
		{"PROBE-005.PROBED", "lifecycle get", build([]mockvendor.Event{cardE, getProbe}, nil).run(nil), Pass},
		{"PROBE-005.PROBED", "E's card never fetched", build(nil, atD).run(atDone), NotExercised},
	}
	for _, c := range cases {
		tEvaluate(t, c.id, c.name, c.run, c.want)
	}
}

func TestVersionHeaderMissing(t *testing.T) {
	card := tCard("d", mockvendor.HostCardD, "", "", "")
	call := func(version string) mockvendor.Event {
		e := tSendTo("d", mockvendor.HostRPCD, skillS, false, 0, "t-d")
		e.A2AVersion, e.HasA2AVersion = version, version != ""
		if version == "" {
			e.Method = "message/send"
		}
		return e
	}
	build := func(trust string, evs ...mockvendor.Event) *Run {
		t := &tRun{}
		t.deleg()
		for _, e := range evs {
			t.ev(e)
		}
		o := tCompleted(mockvendor.HostRPCD, skillS, "t-d")
		if len(evs) < 2 {
			o = &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonOther}
		}
		o.CardTrust = trust
		return t.run(o)
	}
	cases := []struct {
		name string
		run  *Run
		want Outcome
	}{
		{"1.0 call, authoritative", build(contract.CardTrustAuthoritative, card, call("1.0")), Fail},
		{"1.0 call, hint", build(contract.CardTrustHint, card, call("1.0")), Pass},
		{"1.0 version as a query parameter, hint", build(contract.CardTrustHint, card, func() mockvendor.Event {
			e := call("")
			e.Method, e.A2AVersionQuery = "SendMessage", "1.0"
			return e
		}()), Pass},
		{"0.3 call (no header asked, none answered), authoritative", build(contract.CardTrustAuthoritative, card, call("")), NotApplicable},
		{"no call to D", build(contract.CardTrustAuthoritative, card), NotExercised},
	}
	for _, c := range cases {
		tEvaluate(t, "CARD-008.HINT", c.name, c.run, c.want)
	}
}

func TestAvailabilityExpiry(t *testing.T) {
	base := time.Unix(1_700_000_000, 0)
	at := func(e mockvendor.Event, s int) mockvendor.Event {
		e.Time = base.Add(time.Duration(s) * time.Second)
		return e
	}
	card := func(cc string, s int) mockvendor.Event { return at(tCard("b", mockvendor.HostCardB, cc, "", ""), s) }
	send := func(skill string, probe bool, code int, task string, s int) mockvendor.Event {
		return at(tSendTo("b", mockvendor.HostRPCB, skill, probe, code, task), s)
	}
	// build runs three delegations of the given events.
	build := func(d1, d2, d3 []mockvendor.Event) *Run {
		t := &tRun{}
		for _, d := range [][]mockvendor.Event{d1, d2, d3} {
			if d == nil {
				break
			}
			t.deleg()
			for _, e := range d {
				t.ev(e)
			}
		}
		return t.run()
	}
	refused := []mockvendor.Event{card("", 0), send(skillS, true, 0, "p-1", 0), send(skillS, false, -32004, "", 1), card("no-cache", 1), send(skillV2, false, 0, "t-1", 2)}
	viaV2 := func(s int) []mockvendor.Event {
		return []mockvendor.Event{send(skillV2, true, 0, "p", s), send(skillV2, false, 0, "t", s)}
	}
	cases := []struct {
		name string
		run  *Run
		want Outcome
	}{
		{"refused skill again in delegation 2, no re-fetch", build(
			[]mockvendor.Event{card("", 0), send(skillS, false, -32004, "", 1)},
			[]mockvendor.Event{card("", 3), send(skillS, false, -32004, "", 4)},
			viaV2(70)), Fail},
		{"refused again within delegation 3, no re-fetch in between", build(
			refused, viaV2(5),
			[]mockvendor.Event{send(skillS, false, -32004, "", 70), send(skillS, false, -32004, "", 71)}), Fail},
		{"successor until the end (no retry after expiry)", build(refused, viaV2(5), viaV2(70)), Pass},
		{"retried after expiry, no re-fetch since", build(
			[]mockvendor.Event{card("", 0), send(skillS, false, -32004, "", 1), send(skillV2, false, 0, "t-1", 2)},
			viaV2(5),
			[]mockvendor.Event{send(skillS, false, -32004, "", 70), card("no-cache", 70), send(skillV2, false, 0, "t-3", 71)}), Pass},
		{"refused skill again within 60 s after a cache-bypassing re-fetch", build(
			refused,
			[]mockvendor.Event{card("no-cache", 5), send(skillS, false, -32004, "", 6), card("no-cache", 6), send(skillV2, false, 0, "t-2", 7)},
			viaV2(70)), Pass},
		{"the probe refused, not the real task", build(
			[]mockvendor.Event{card("", 0), send(skillS, true, -32004, "", 0), card("no-cache", 1), send(skillV2, false, 0, "t-1", 2)},
			viaV2(5), viaV2(70)), Pass},
		{"third delegation not run", build(refused, viaV2(5), nil), NotExercised},
		{"no -32004 ever", build(viaV2(0), viaV2(5), viaV2(70)), NotExercised},
	}
	for _, c := range cases {
		tEvaluate(t, "CARD-009.EXPIRY", c.name, c.run, c.want)
	}
}

// TestSeedItemGrades pins the grades of the seed items' checks: each rests
// on a seed 000 must (or, for PROBE-005.NO-COMMIT, on the posture that
// carries PROBE-001's), so each is a delegation-safety MUST and nothing
// else; and the availability expiry is slow, as CARD-007 is.
func TestSeedItemGrades(t *testing.T) {
	for _, id := range []string{"PROBE-004.REFETCH", "PROBE-004.NO-COMMIT", "PROBE-004.ROUTE", "PROBE-005.NO-COMMIT", "PROBE-005.PROBED", "CARD-008.HINT", "CARD-009.EXPIRY"} {
		_, c := Find(id)
		if c == nil {
			t.Errorf("%s is not in the catalog", id)
			continue
		}
		if len(c.Grades) != 1 || c.Grades[0] != (Grade{Profile: Safety, Level: Must}) {
			t.Errorf("%s: grades %v, want delegation-safety MUST only", id, c.Grades)
		}
	}
	if s, _ := Find("CARD-009"); s == nil || !s.HasLabel("slow") {
		t.Error("CARD-009 must carry the label slow")
	}
}
