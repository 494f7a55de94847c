package scenarios

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// GlobalChecks are judged on every scenario's trace and reported as
// "<scenario>.<id>".
func GlobalChecks() []Check {
	return []Check{
		{
			ID:          "G-JSONRPC",
			Title:       "every JSON-RPC request is valid JSON-RPC 2.0",
			Grades:      must(Core),
			Requirement: `Each call is a JSON-RPC 2.0 request object: "jsonrpc" is exactly "2.0", "method" is a string, an "id" is present, and "params", when sent, is an object.`,
			Source:      "A2A 1.0 §9 (JSON-RPC binding); JSON-RPC 2.0 §4",
			Fix:         `Build requests as {"jsonrpc":"2.0","id":<string or number>,"method":...,"params":{...}}.`,
			Judge:       judgeJSONRPC,
		},
		{
			ID:          "G-VERSION-HEADER",
			Title:       "a 1.0 client sends A2A-Version on every request",
			Grades:      must(Core),
			Requirement: "A client speaking A2A 1.0 sends the A2A-Version header with the Major.Minor it speaks on every request; a request without it is taken as a 0.3 request.",
			Source:      "A2A 1.0 §3.6.1",
			Fix:         "Set A2A-Version: 1.0 (no patch number) on every JSON-RPC request.",
			Judge:       judgeVersionHeader,
		},
		{
			ID:     "G-NO-UNKNOWN-TASK",
			Title:  "no get or cancel for a task id the fleet never issued",
			Grades: must(Safety),
			Requirement: "The orchestrator asks about or cancels only tasks the remote agent gave it; polling a task id it never received shows it lost track of the delegation. " +
				"A lifecycle probe (a get for a synthetic id marked as a probe, expecting -32001) is not such a call.",
			Source: "seed 000, What Was Observed, step 4; Condition of Validity",
			Fix:    "Call get or cancel only with an id taken from a task the agent returned.",
			Judge:  judgeNoUnknownTask,
		},
		{
			ID:          "G-NO-ESCAPE",
			Title:       "no connection to a host outside the fleet",
			Grades:      should(Safety),
			Requirement: "The orchestrator only contacts hosts it was given or that a card it fetched named; any other connection attempt leaks traffic off the delegation.",
			Source:      "driver contract, Network",
			Fix:         "Derive every host you contact from the candidates and the cards they serve.",
			Judge:       judgeNoEscape,
		},
		{
			ID:          "G-TLS-VERIFIED",
			Title:       "no task sent to an endpoint whose certificate does not verify",
			Grades:      must(Safety),
			Requirement: "A task goes only to an endpoint whose TLS certificate verifies for the endpoint's host name; sending to one that does not means verification was skipped.",
			Source:      "seed 003, Condition of Validity; seed 000, Condition of Validity",
			Fix:         "Keep certificate and host name verification on for every connection, and refuse endpoints that fail it.",
			Judge:       judgeTLSVerified,
		},
	}
}

func judgeJSONRPC(r *Run) Verdict {
	n := 0
	for _, e := range r.Events {
		if !isRPC(e) {
			continue
		}
		n++
		if e.ErrorCode == -32700 || e.ErrorCode == -32600 {
			return Failf("%s: the fleet answered %d (%s)", describe(e), e.ErrorCode, e.ErrorMessage).At(e.Seq)
		}
		if len(e.Request) == 0 {
			// Too large to keep in the trace: the fleet parsed it in full, so
			// jsonrpc and method were valid (else -32600 above); judge id and
			// params from what it recorded.
			if e.RPCID == nil {
				return Failf("%s: a call without a valid id", describe(e)).At(e.Seq)
			}
			if strings.Contains(e.ErrorMessage, "params must be an object") {
				return Failf("%s: params is not an object", describe(e)).At(e.Seq)
			}
			continue
		}
		var req map[string]json.RawMessage
		if err := json.Unmarshal(e.Request, &req); err != nil {
			return Failf("%s: the request is not a JSON object", describe(e)).At(e.Seq)
		}
		if string(req["jsonrpc"]) != `"2.0"` {
			return Failf(`%s: jsonrpc is %s, want "2.0"`, describe(e), orNone(req["jsonrpc"])).At(e.Seq)
		}
		if _, ok := req["id"]; !ok {
			return Failf("%s: a call without id (a notification gets no answer)", describe(e)).At(e.Seq)
		}
		if p, ok := req["params"]; ok && (len(p) == 0 || p[0] != '{') {
			return Failf("%s: params is %s, want an object", describe(e), clip(string(p))).At(e.Seq)
		}
	}
	if n == 0 {
		return NotApplicablef("no JSON-RPC request was made")
	}
	return Passf("%d JSON-RPC requests, all valid 2.0", n)
}

var majorMinor = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

func judgeVersionHeader(r *Run) Verdict {
	rpc := filter(r.Events, isRPC)
	if len(rpc) == 0 {
		return NotApplicablef("no JSON-RPC request was made")
	}
	speaks10 := slices.ContainsFunc(rpc, func(e mockvendor.Event) bool {
		return e.Dialect == string(mockvendor.Dialect10) || (e.HasA2AVersion && e.A2AVersion != "0.3")
	})
	if !speaks10 {
		return NotApplicablef("a 0.3 client: no request used a 1.0 method or an A2A-Version header, so every request is judged a 0.3 request")
	}
	for _, e := range rpc {
		if !e.HasA2AVersion {
			return Failf("%s: no A2A-Version header from a client that speaks 1.0", describe(e)).At(e.Seq)
		}
		if !majorMinor.MatchString(e.A2AVersion) {
			return Failf("%s: A2A-Version %q is not Major.Minor", describe(e), e.A2AVersion).At(e.Seq)
		}
	}
	return Passf("%d JSON-RPC requests, each with A2A-Version", len(rpc))
}

func judgeNoUnknownTask(r *Run) Verdict {
	issued := map[string]bool{}
	asked := 0
	for _, e := range r.Events {
		switch e.Op {
		case mockvendor.OpSend, mockvendor.OpStream:
			if e.TaskID != "" && e.ErrorCode == 0 {
				issued[e.TaskID] = true
			}
		case mockvendor.OpGet, mockvendor.OpCancel:
			if e.Probe {
				continue
			}
			asked++
			if !issued[e.TaskID] {
				return Failf("%s: task id %q was never issued to this orchestrator", describe(e), e.TaskID).At(e.Seq)
			}
		}
	}
	if asked == 0 {
		return Passf("no get or cancel was made")
	}
	return Passf("%d gets or cancels, all for issued tasks", asked)
}

func judgeNoEscape(r *Run) Verdict {
	for _, e := range r.Events {
		if e.Op == mockvendor.OpRefused {
			return Failf("connection attempt to %s, outside the fleet (%s)", e.Host, e.Note).At(e.Seq)
		}
	}
	return Passf("every connection went to a fleet host")
}

func judgeTLSVerified(r *Run) Verdict {
	if len(r.UntrustedHosts) == 0 {
		return NotApplicablef("the scenario has no endpoint with a certificate that fails verification")
	}
	for _, e := range r.Events {
		if isTaskSend(e) && slices.Contains(r.UntrustedHosts, e.Host) {
			return Failf("%s: a task reached %s, whose certificate does not verify for that name", describe(e), e.Host).At(e.Seq)
		}
	}
	return Passf("no task reached %v", r.UntrustedHosts)
}

func orNone(b json.RawMessage) string {
	if len(b) == 0 {
		return "absent"
	}
	return string(b)
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

var _ = fmt.Sprint
