package scenarios

import (
	"encoding/json"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for DISC-001..004, IFACE-007 and IFACE-008: each check
// fails a run that breaks it, passes one that keeps it (and the
// legitimate alternatives), and is NOT_EXERCISED where the orchestrator
// never got that far.

// tHubGet is a GET at the hub host; a card fetch when at cardPath.
func tHubGet(path, cardPath string) mockvendor.Event {
	e := mockvendor.Event{Vendor: "d", Host: hostHubD, Path: path, HTTPMethod: "GET", Op: mockvendor.OpOther, Status: 404}
	if path == cardPath {
		e.Op, e.Status = mockvendor.OpCardFetch, 200
	}
	return e
}

// tAtPath is a D call at host and path (a task completed when task is set).
func tAtPath(host, path, task string) mockvendor.Event {
	e := tDTask(mockvendor.OpSend, "SendMessage", task, "completed")
	e.Host, e.Path = host, path
	if task == "" {
		e.State = ""
	}
	return e
}

// tLost is a POST that reached no endpoint (404).
func tLost(host, path string) mockvendor.Event {
	return mockvendor.Event{Vendor: "d", Host: host, Path: path, HTTPMethod: "POST", Op: mockvendor.OpOther, Status: 404}
}

func TestDiscPathHostedCard(t *testing.T) {
	card := tHubGet(discCardPathD, discCardPathD)
	root := tHubGet(mockvendor.CardPath, discCardPathD)
	send := tAtPath(hostHubD, discRPCPathD, "t-1")
	rest := send
	rest.Path, rest.Binding = discRESTPathD+"/message:send", mockvendor.BindingREST
	failed := tFailed(contract.ReasonOther, nil)
	done := tDone("t-1")
	done.Agent = "https://" + hostHubD + discRPCPathD
	tStreamCases(t, "DISC-001.CARD-PATH", []tStreamCase{
		{"looked at the root", tOne(failed, root), Fail},
		{"looked at the root after the card", tOne(done, card, root, send), Fail},
		{"fetched the card as given", tOne(done, card, send), Pass},
		{"never asked the hub", tOne(failed), NotExercised},
	})
	tStreamCases(t, "DISC-001.URL", []tStreamCase{
		{"posted at the root path", tOne(failed, card, tLost(hostHubD, mockvendor.DefaultRPCPath)), Fail},
		{"HTTP+JSON without the base path", tOne(failed, card, tLost(hostHubD, mockvendor.DefaultRESTPath+"/message:send")), Fail},
		{"JSON-RPC at the declared URL", tOne(done, card, send), Pass},
		{"HTTP+JSON below the declared URL", tOne(done, card, rest), Pass},
		{"sent nothing", tOne(failed, card), NotExercised},
	})
	tStreamCases(t, "DISC-001.DONE", []tStreamCase{
		{"found no card at the root", tOne(failed, root), Fail},
		{"completed", tOne(done, card, send), Pass},
		{"never asked the hub", tOne(failed), NotExercised},
	})
}

func TestDiscDirectCardURL(t *testing.T) {
	card := tHubGet(discDirectD, discDirectD)
	appended := tHubGet(discDirectD+mockvendor.CardPath, discDirectD)
	send := tAtPath(hostHubD, discRPCPathD, "t-1")
	failed := tFailed(contract.ReasonOther, nil)
	done := tDone("t-1")
	done.Agent = "https://" + hostHubD + discRPCPathD
	tStreamCases(t, "DISC-002.AS-GIVEN", []tStreamCase{
		{"appended the well-known path", tOne(failed, appended), Fail},
		{"went to the host's well-known path", tOne(failed, tHubGet(mockvendor.CardPath, discDirectD)), Fail},
		{"fetched the URL as given", tOne(done, card, send), Pass},
		{"never asked the hub", tOne(failed), NotExercised},
	})
	tStreamCases(t, "DISC-002.DONE", []tStreamCase{
		{"appended the well-known path", tOne(failed, appended), Fail},
		{"completed", tOne(done, card, send), Pass},
		{"never asked the hub", tOne(failed), NotExercised},
	})
}

func TestDiscInvalidCards(t *testing.T) {
	guess := tLost(mockvendor.HostCardD, mockvendor.DefaultRPCPath)
	send := tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")
	invalid := tRejected(contract.ReasonInvalidCard, "the card has no name, description, version")
	other := tRejected(contract.ReasonOther, "card lacks required members: name")
	for _, id := range []string{"DISC-003", "DISC-004"} {
		tStreamCases(t, id+".NOT-USED", []tStreamCase{
			{"guessed an endpoint", tOne(tFailed(contract.ReasonOther, nil), tCardD(), guess), Fail},
			{"sent the task", tOne(tDone("t-1"), tCardD(), send), Fail},
			{"refused from the card", tOne(invalid, tCardD()), Pass},
			{"refused from the card, reason other", tOne(other, tCardD()), Pass},
			{"fetched no card", tOne(invalid), NotExercised},
		})
		if id == "DISC-003" {
			continue // {} names no interface: DISC-003 has no REFUSED check
		}
		tStreamCases(t, id+".REFUSED", []tStreamCase{
			{"completed", tOne(tDone("t-1"), tCardD(), send), Fail},
			{"no skills read as skill-unavailable", tOne(tRejected(contract.ReasonSkillUnavailable, ""), tCardD()), Pass},
			{"reason other without a word of why", tOne(tRejected(contract.ReasonOther, ""), tCardD()), Pass},
			{"no outcome", tOne(nil, tCardD()), Fail},
			{"invalid-card", tOne(invalid, tCardD()), Pass},
			{"other, with a detail", tOne(other, tCardD()), Pass},
			{"fetched no card", tOne(invalid), NotExercised},
		})
	}
}

func TestIfaceEqualTwins(t *testing.T) {
	first := tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")
	second := first
	second.Host = hostTwinD
	withTenant := first
	withTenant.Request = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"tenant":"","message":{}}}`)
	named := first
	named.Tenant = tenantD
	plain := first
	plain.Request = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{}}}`)
	old := first
	old.Method, old.A2AVersion, old.HasA2AVersion = "message/send", "", false
	tStreamCases(t, "IFACE-007.FIRST", []tStreamCase{
		{"took the last entry", tOne(tDone("t-1"), tCardD(), second), Fail},
		{"probed the first, sent to the second", tOne(tDone("t-1"), tCardD(), first, second), Fail},
		{"used the first", tOne(tDone("t-1"), tCardD(), first), Pass},
		{"never called D", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
	tStreamCases(t, "IFACE-007.NO-TENANT", []tStreamCase{
		{"an empty tenant field", tOne(tDone("t-1"), tCardD(), withTenant), Fail},
		{"a tenant from elsewhere", tOne(tDone("t-1"), tCardD(), named), Fail},
		{"no tenant field", tOne(tDone("t-1"), tCardD(), plain), Pass},
		{"only 0.3 requests", tOne(tDone("t-1"), tCardD(), old), NotApplicable},
		{"never called D", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
}

func TestIfaceDeclaredSpelling(t *testing.T) {
	exact := tAtPath(mockvendor.HostRPCD, slashPathD, "t-1")
	trimmed := tLost(mockvendor.HostRPCD, mockvendor.DefaultRPCPath)
	doubled := tLost(mockvendor.HostRPCD, slashPathD+"/")
	done := tDone("t-1")
	done.Agent = slashURLD
	elsewhere := tDone("t-1")
	elsewhere.Agent = "https://" + hostHubD + "/a2a/v1/"
	tStreamCases(t, "IFACE-008.EXACT", []tStreamCase{
		{"trimmed the slash", tOne(tFailed(contract.ReasonOther, nil), tCardD(), trimmed), Fail},
		{"added a slash", tOne(tFailed(contract.ReasonOther, nil), tCardD(), doubled), Fail},
		{"trimmed, then tried the declared URL", tOne(done, tCardD(), trimmed, exact), Fail},
		{"the declared URL", tOne(done, tCardD(), exact), Pass},
		{"sent nothing", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
	tStreamCases(t, "IFACE-008.DONE", []tStreamCase{
		{"404 at the trimmed URL", tOne(tFailed(contract.ReasonOther, nil), tCardD(), trimmed), Fail},
		{"completed somewhere else", tOne(elsewhere, tCardD(), exact), Fail},
		{"completed at the declared URL", tOne(done, tCardD(), exact), Pass},
		{"fetched no card", tOne(tFailed(contract.ReasonOther, nil)), NotExercised},
	})
}
