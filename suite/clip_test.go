package suite_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// verbose is an orchestrator that says too much: every field of its
// outcome is 300 KiB, and its detail carries the credential it was handed
// past the first 4 KiB.
type verbose struct{}

func (verbose) Delegate(_ context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
	cred := "none"
	for _, c := range req.Trust.Credentials {
		cred = c.Value
	}
	long := strings.Repeat("v", 300<<10)
	return contract.DelegationOutcome{Contract: contract.Version, ID: req.ID, Outcome: contract.OutcomeFailed,
		Agent: long, Skill: long, TaskID: long, TaskState: long, CardTrust: long, TrustMode: long, Reason: long,
		Detail: strings.Repeat("d", 5000) + " token " + cred + " " + long}
}

// TestOutcomesClippedAfterRedaction: what an orchestrator reports is cut
// to the contract's bounds (a hello name of 1 MiB to 256 bytes, an
// outcome's fields to 256, its detail to 4 KiB) once the suite has looked
// for credentials in the whole text: a credential past the cut still
// fails G-CREDENTIAL-REDACTED, and no part of it reaches the report.
func TestOutcomesClippedAfterRedaction(t *testing.T) {
	t.Parallel()
	s, _ := scenarios.Find("AUTH-001")
	d := driver.NewGo(strings.Repeat("n", 1<<20), func() driver.GoOrchestrator { return verbose{} })
	run, res, err := suite.Execute(context.Background(), s, d)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Hello.Name); n > contract.MaxFieldBytes+contract.MaxClipMarker || !strings.HasSuffix(res.Hello.Name, "more bytes]") {
		t.Errorf("the hello name is %d bytes: ...%q", n, res.Hello.Name[max(0, n-40):])
	}
	o := run.Delegations[0].Outcome
	if o == nil {
		t.Fatalf("no outcome: %s", run.Delegations[0].NoOutcome)
	}
	for name, v := range map[string]string{"agent": o.Agent, "skill": o.Skill, "taskId": o.TaskID, "taskState": o.TaskState,
		"cardTrust": o.CardTrust, "trustMode": o.TrustMode, "reason": o.Reason} {
		if len(v) > contract.MaxFieldBytes+contract.MaxClipMarker || !strings.HasSuffix(v, "more bytes]") {
			t.Errorf("%s: %d bytes", name, len(v))
		}
	}
	if len(o.Detail) > contract.MaxDetailBytes+contract.MaxClipMarker || strings.Contains(o.Detail, "token") {
		t.Errorf("the detail is %d bytes and holds what followed its first 4 KiB", len(o.Detail))
	}
	if len(run.CredentialsReported) == 0 || !strings.Contains(run.CredentialsReported[0], "delegation 1's detail") {
		t.Errorf("the credential past the cut was not seen: %q", run.CredentialsReported)
	}
	for _, c := range s.WithGlobals() {
		if c.ID == "G-CREDENTIAL-REDACTED" {
			if cr := suite.Judge(run, nil, s, c, nil); cr.Result != scenarios.Fail {
				t.Errorf("G-CREDENTIAL-REDACTED = %s (%s), want FAIL", cr.Result, cr.Detail)
			}
		}
	}
}
