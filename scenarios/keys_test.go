package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// keyRun builds a run of delegations against vendor A: each element is one
// delegation's outcome and whether its task was sent (and completed).
type keyDelegation struct {
	o    *contract.DelegationOutcome
	sent bool
	keys bool // the JWKS was fetched
}

func keyRun(ds ...keyDelegation) *Run {
	var s synth
	host, path, skill := mockvendor.HostVendorA, mockvendor.DefaultRPCPath, mockvendor.SkillSummarize
	for i, d := range ds {
		evs := []mockvendor.Event{cardEv("a", host)}
		if d.keys {
			evs = append(evs, jwksEv("a", host))
		}
		if d.sent {
			evs = append(evs, sendEv("a", host, path, skill, "t-"+itoa(int64(i+1)), "completed", 0))
		}
		s.delegation(skill, host, d.o, evs...)
	}
	return &s.r
}

// TestKeyChecks: each KEY check fails, passes (by every strategy the
// requirement allows) and is not exercised when not reached, on
// synthetic runs.
func TestKeyChecks(t *testing.T) {
	agent := "https://" + mockvendor.HostVendorA + mockvendor.DefaultRPCPath
	skill := mockvendor.SkillSummarize
	done := func(i int, trust string) keyDelegation {
		return keyDelegation{o: outcome(contract.OutcomeCompleted, contract.ReasonOK, trust, agent, skill, "t-"+itoa(int64(i))), sent: true, keys: true}
	}
	refused := func(reason string) keyDelegation {
		return keyDelegation{o: outcome(contract.OutcomeRejected, reason, "", "", "", ""), keys: true}
	}
	noKeys := func(d keyDelegation) keyDelegation { d.keys = false; return d }
	cases := []struct {
		check string
		name  string
		run   *Run
		want  Outcome
	}{
		{"KEY-001.ONE-GOOD", "accepted with full trust", keyRun(done(1, contract.TrustModeFull)), Pass},
		{"KEY-001.ONE-GOOD", "accepted with reduced trust", keyRun(done(1, contract.TrustModeReduced)), Pass},
		{"KEY-001.ONE-GOOD", "refused for its bad signatures", keyRun(refused(contract.ReasonSignatureInvalid)), Fail},
		{"KEY-001.ONE-GOOD", "completed, but unpinned", keyRun(done(1, contract.TrustModeUnpinned)), Fail},
		{"KEY-001.ONE-GOOD", "keys never fetched", keyRun(noKeys(done(1, contract.TrustModeUnpinned))), NotExercised},

		{"KEY-002.REJECT", "refused, key-expired", keyRun(refused(contract.ReasonKeyExpired)), Pass},
		{"KEY-002.REJECT", "refused, signature-invalid", keyRun(refused(contract.ReasonSignatureInvalid)), Pass},
		{"KEY-002.REJECT", "verified with the expired key", keyRun(done(1, contract.TrustModeFull)), Fail},
		{"KEY-002.REJECT", "refused for another reason", keyRun(refused(contract.ReasonOther)), Fail},
		{"KEY-002.REJECT", "keys never fetched", keyRun(noKeys(refused(contract.ReasonOther))), NotExercised},

		{"KEY-003.REJECT", "accepted, then refused after the revocation", keyRun(done(1, contract.TrustModeFull), refused(contract.ReasonKeyUnknown)), Pass},
		{"KEY-003.REJECT", "kept using the cached key", keyRun(done(1, contract.TrustModeFull), done(2, contract.TrustModeFull)), Fail},
		{"KEY-003.REJECT", "refused before the revocation too", keyRun(refused(contract.ReasonOther), refused(contract.ReasonKeyUnknown)), NotExercised},
		{"KEY-003.REJECT", "second delegation not run", keyRun(done(1, contract.TrustModeFull)), NotExercised},

		{"KEY-004.NOT-TRUSTED", "refused, key-unknown", keyRun(refused(contract.ReasonKeyUnknown)), Pass},
		{"KEY-004.NOT-TRUSTED", "delegated unpinned", keyRun(noKeys(done(1, contract.TrustModeUnpinned))), Pass},
		{"KEY-004.NOT-TRUSTED", "trusted the plain-HTTP key", keyRun(done(1, contract.TrustModeFull)), Fail},
		{"KEY-004.NOT-TRUSTED", "refused for another reason", keyRun(refused(contract.ReasonOther)), Fail},
		{"KEY-004.NOT-TRUSTED", "refused for another reason before any key was fetched", keyRun(noKeys(refused(contract.ReasonOther))), NotExercised},
		{"KEY-004.NOT-TRUSTED", "card never fetched", &Run{Delegations: []Delegation{{Outcome: outcome(contract.OutcomeRejected, contract.ReasonOther, "", "", "", "")}}}, NotExercised},

		{"KEY-005.ACCEPT", "accepted with full trust", keyRun(done(1, contract.TrustModeFull)), Pass},
		{"KEY-005.ACCEPT", "refused: canonical forms differ", keyRun(refused(contract.ReasonSignatureInvalid)), Fail},
		{"KEY-005.ACCEPT", "keys never fetched", keyRun(noKeys(done(1, contract.TrustModeUnpinned))), NotExercised},

		{"KEY-006.REJECT", "all refused", keyRun(refused(contract.ReasonSignatureInvalid), refused(contract.ReasonSignatureInvalid), refused(contract.ReasonSignatureInvalid)), Pass},
		{"KEY-006.REJECT", "rounded number accepted", keyRun(done(1, contract.TrustModeFull), refused(contract.ReasonSignatureInvalid), refused(contract.ReasonSignatureInvalid)), Fail},
		{"KEY-006.REJECT", "normalised text accepted", keyRun(refused(contract.ReasonSignatureInvalid), done(2, contract.TrustModeFull), refused(contract.ReasonSignatureInvalid)), Fail},
		{"KEY-006.REJECT", "surrogate replaced and accepted", keyRun(refused(contract.ReasonSignatureInvalid), refused(contract.ReasonSignatureInvalid), done(3, contract.TrustModeUnpinned)), Fail},
		{"KEY-006.REJECT", "third delegation not run", keyRun(refused(contract.ReasonSignatureInvalid), refused(contract.ReasonSignatureInvalid)), NotExercised},
	}
	for _, c := range cases {
		if v := evaluate(t, c.check, c.run); v.Outcome != c.want {
			t.Errorf("%s, %s: %s (%s), want %s", c.check, c.name, v.Outcome, v.Detail, c.want)
		}
	}
}
