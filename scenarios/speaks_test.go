package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestRefusalFromTheWire: a client that read D's card, found no interface
// it speaks and sent D nothing gets the same verdict whatever word its
// outcome gives (version-mismatch, other): NOT_APPLICABLE ("needs 1.0"
// where the card offers only versions it does not speak) for IFACE-001,
// -004 and -005; and a client that speaks a binding the card offers at a
// version it speaks, and still sent nothing, is judged as usual.
func TestRefusalFromTheWire(t *testing.T) {
	spoke := func(versions, bindings []string) *Speaks { return &Speaks{Versions: versions, Bindings: bindings} }
	jsonrpc10 := spoke([]string{V10}, []string{contract.BindingJSONRPC})
	rest10 := spoke([]string{V10}, []string{contract.BindingHTTPJSON, contract.BindingJSONRPC})
	only03 := spoke([]string{V03}, []string{contract.BindingJSONRPC})
	cases := []struct {
		check  string
		speaks *Speaks
		want   Outcome
		needs  string
	}{
		{"IFACE-001.NO-MISMATCH", jsonrpc10, NotApplicable, ""},
		{"IFACE-001.DONE", jsonrpc10, NotApplicable, ""},
		{"IFACE-001.DONE", rest10, Fail, ""},
		{"IFACE-004.SKIP-UNSPOKEN", only03, NotApplicable, V10},
		{"IFACE-004.NEXT-ON-FAIL", only03, NotApplicable, V10},
		{"IFACE-005.TENANT", only03, NotApplicable, V10},
		{"IFACE-005.DONE", only03, NotApplicable, V10},
		{"IFACE-005.DONE", rest10, Fail, ""},
		{"IFACE-002.FALLBACK", jsonrpc10, NotApplicable, V03},
		{"IFACE-002.VERSION", jsonrpc10, NotApplicable, V03},
		{"IFACE-002.FALLBACK", only03, Fail, ""},
	}
	for _, c := range cases {
		s, ch := Find(c.check)
		if ch == nil {
			t.Fatalf("no check %s", c.check)
		}
		var got []Verdict
		for _, reason := range []string{contract.ReasonVersionMismatch, contract.ReasonOther} {
			r := &Run{
				Scenario: s.ID, Offers: s.Offers, Speaks: c.speaks,
				Events:      []mockvendor.Event{{Seq: 1, Vendor: "d", Host: mockvendor.HostCardD, Op: mockvendor.OpCardFetch, HTTPMethod: "GET", Status: 200}},
				Delegations: []Delegation{{FirstSeq: 1, LastSeq: 1, Outcome: &contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: reason}}},
			}
			v, _ := ch.Evaluate(r)
			got = append(got, v)
			if v.Outcome != c.want || v.Needs != c.needs {
				t.Errorf("%s, client speaking %v, reason %s: %s needs %q (%s), want %s needs %q", c.check, c.speaks.Key(), reason, v.Outcome, v.Needs, v.Detail, c.want, c.needs)
			}
		}
		if got[0].Outcome != got[1].Outcome || got[0].Needs != got[1].Needs {
			t.Errorf("%s: the reason word changed the verdict: %s / %s", c.check, got[0].Outcome, got[1].Outcome)
		}
	}
}
