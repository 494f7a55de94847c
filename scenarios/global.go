package scenarios

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// GlobalChecks are the requirements that hold on every scenario. Each is
// judged on every scenario's trace (reported there as "<scenario>.<id>")
// and scored once per run across the scenarios that exercised it.
func GlobalChecks() []Check {
	return []Check{
		{
			ID:          "G-JSONRPC",
			Title:       "every JSON-RPC request is valid JSON-RPC 2.0",
			Grades:      must(Core),
			Requirement: `Each call is a JSON-RPC 2.0 request object: "jsonrpc" is exactly "2.0", "method" is a string, an "id" is present (without one a request is a notification, which gets no answer), and "params", when sent, is an object (A2A's params are request objects); a 0.3 request is sent as application/json.`,
			Sources: []Source{
				A2A("§9.3", SrcMust, Client).Read(`all JSON-RPC requests MUST follow the standard JSON-RPC 2.0 format, whose example has "jsonrpc": "2.0", an id, the method and params as an object`),
				{Document: DocJSONRPC, Locator: "§4", Level: SrcMust, Binds: Client, Note: `"jsonrpc" MUST be exactly "2.0" and "method" is a string; a request without "id" is a notification (§4.1), which gets no answer; params MAY be an array or an object (§4.2): that it is an object comes from A2A, whose params are request objects (§9.4)`},
				A2A03("§3.2.1", SrcMust, Client).Read("a client's JSON-RPC requests MUST keep to JSON-RPC 2.0; §7 adds that the POST body MUST be a JSONRPCRequest"),
				A2A03("§7", SrcMust, Client).Read("a 0.3 request's Content-Type MUST be application/json (also §3.2.1); A2A 1.0 §9.1 only describes it, so a 1.0 request is not judged on it"),
			},
			Fix:     `Build requests as {"jsonrpc":"2.0","id":<string or number>,"method":...,"params":{...}}.`,
			Reached: rpcMade,
			Judge:   judgeJSONRPC,
			Local:   true,
		},
		{
			ID:          "G-MESSAGE-SHAPE",
			Title:       "each message has the shape of the dialect its method belongs to",
			Grades:      must(Core),
			Requirement: `A message follows the schema of the protocol version its method belongs to: in 1.0 (SendMessage) a part is one member ("text", "data", "raw" or "url") with no "kind", and the role is ROLE_USER; in 0.2-0.3 (message/send) each part has "kind" and the role is "user"; in 0.1 (tasks/send) each part has "type". Mixing them is a request the agent may misread.`,
			Sources: []Source{
				Proto("Message", SrcMust, Client).Read("role and parts are REQUIRED fields; A2A 1.0 §5.7 makes a REQUIRED field a MUST, and a REQUIRED array hold at least one element"),
				A2A("§5.7", SrcMust, Client).Read("fields marked REQUIRED MUST be present and set; arrays marked REQUIRED MUST contain at least one element"),
				Proto("Part", SrcDescriptive, Client).Read("a part's content is a oneof of text, raw, url and data: exactly one of them"),
				A2A("§5.5", SrcMust, Client).Read("enum values are their proto names in JSON: the role is ROLE_USER"),
				A2A("Appendix A.2.1", SrcDescriptive, Client).Read("1.0 removed the kind discriminator of 0.3 parts"),
				A2A03("§6.5", SrcMust, Client).Read("a part MUST be a TextPart, FilePart or DataPart, told apart by kind; the message (§6.4) has role user or agent"),
				Seed000("What Was Observed", SrcDescriptive).Read(`the 0.1 shape: the seed's tasks/send carries message.parts[0].type = "text" (no 0.1 specification is among the catalog's documents)`),
			},
			Fix:     "Build the message for the dialect you call: 1.0 parts {\"text\": ...} with role ROLE_USER; 0.3 parts {\"kind\":\"text\", ...} with role user.",
			Reached: taskSent,
			Judge:   judgeMessageShape,
			Local:   true,
		},
		{
			ID:          "G-VERSION-HEADER",
			Title:       "a 1.0 request carries A2A-Version",
			Grades:      must(Core),
			Requirement: "Every request in the 1.0 dialect carries A2A-Version with the Major.Minor it speaks, as a header or as the A2A-Version query parameter (over gRPC, the a2a-version metadata); a request without it is taken as a 0.3 request, so a 0.3 request needs none. Each request is judged by its own dialect.",
			Sources: []Source{
				A2A("§3.6.1", SrcMust, Client).Read("clients MUST send A2A-Version with each request, except 0.3 clients (an empty header is read as 0.3); they MAY send it as a request parameter instead of a header"),
				A2A("§14.2.1", SrcMust, Client).Read("the header's value MUST be Major.Minor"),
				A2A("§9.2", SrcMust, Client).Read("in the JSON-RPC binding service parameters MUST be HTTP headers, against §3.6.1's request parameter: the check accepts both"),
				grpcParams,
			},
			Fix:     "Set A2A-Version: 1.0 (no patch number) on every 1.0 request: the header over JSON-RPC and HTTP+JSON, the a2a-version metadata over gRPC.",
			Reached: rpcMade,
			Judge:   judgeVersionHeader,
			Local:   true,
		},
		{
			ID:     "G-NO-UNKNOWN-TASK",
			Title:  "no get, subscription, cancel or continuation for a task id the fleet never issued",
			Grades: must(Safety),
			Requirement: "The orchestrator asks about, subscribes to, cancels or continues (a message naming its taskId) only tasks the remote agent gave it; using a task id it never received shows it lost track of the delegation, or made the id up. " +
				"A lifecycle probe (a get for a synthetic id marked as a probe, expecting -32001) is not such a call.",
			Sources: []Source{
				Seed000("What Was Observed", SrcDescriptive).Read("step 4: the orchestrator retried tasks/get for a task id it never received"),
				Seed000("Condition of Validity", SrcDescriptive).Read("the lifecycle probe, a get for a synthetic probe task id, is the one get of an id the agent did not issue"),
				A2A("§3.4.2", SrcMust, Client).Read("task ids are server-generated, and a message's taskId MUST reference an existing task"),
				CLI("A2ACLI_INTERACT_003", SrcMust).Read("never invents server-assigned identifiers (a2a-cli SPEC §6.3, MUST NOT)"),
			},
			Fix:     "Call get or cancel only with an id taken from a task the agent returned.",
			Reached: rpcMade,
			Judge:   judgeNoUnknownTask,
		},
		{
			ID:          "G-NO-ESCAPE",
			Title:       "no connection to a host outside the fleet",
			Grades:      must(Safety),
			Requirement: "The orchestrator only contacts hosts it was given or that a card it fetched named; a connection anywhere else leaks the delegation (its task, its credentials) off the agents it was meant for.",
			Sources: []Source{
				Posture("the orchestrator contacts only the hosts it was given and those the cards it fetched name: any other connection takes the delegation (its task, its credentials) off the agents it was meant for"),
				ContractRule("Delegation request: network.proxy, network.resolve", SrcDescriptive).Read("the proxy reaches every fleet host, and resolve maps each host the fleet serves"),
			},
			Fix:     "Derive every host you contact from the candidates and the cards they serve.",
			Reached: connected,
			Judge:   judgeNoEscape,
			Local:   true,
		},
		{
			ID:          "G-TLS-VERIFIED",
			Title:       "no task sent to an endpoint whose certificate does not verify",
			Grades:      []Grade{{Profile: Safety, Level: Must}, {Profile: Core, Level: Should}},
			Requirement: "A task goes only to an endpoint whose TLS certificate verifies for the endpoint's host name; sending to one that does not means verification was skipped.",
			Sources: []Source{
				A2A("§7.2", SrcShould, Client).Read("clients SHOULD verify the server's identity by validating its TLS certificate against trusted CAs during the handshake"),
				A2A03("§4.2", SrcShould, Client).Read("the same for 0.3: a client SHOULD validate the server's TLS certificate against trusted CAs during the handshake, which is how it verifies the server's identity"),
				Posture("no task goes to an endpoint whose certificate does not verify for its host name: a task sent there may run anywhere, so this project raises §7.2's SHOULD to a delegation-safety MUST"),
				ContractRule("Delegation request: trust.caFile", SrcDescriptive).Read("add the fleet's root CA to your trust roots; do not turn verification off"),
			},
			Fix:     "Keep certificate and host name verification on for every connection, and refuse endpoints that fail it.",
			Reached: untrustedReached,
			Judge:   judgeTLSVerified,
			Local:   true,
		},
		{
			ID:     "G-ONE-TASK",
			Title:  "at most one real task per delegation",
			Grades: must(Safety),
			Requirement: "A delegation creates at most one real task: a second one may follow only when the first was refused, failed or was cancelled before it. " +
				"Sending the task to every candidate at once, or twice to one vendor, runs the caller's work more than once. A retry after an error answer is no duplicate (no task was created).",
			Sources: []Source{
				Seed000("Decision Boundary", SrcDescriptive).Read("commitment begins at the first real send: one commitment per delegation"),
				Posture("a delegation runs the caller's work once: a second real task only after the first was refused, failed or cancelled"),
				A2A("§3.1.1", SrcMay, Server).Read("an agent MAY create a task to process a send (or answer a Message)"),
				A2A("§3.3.1", SrcMay, Server).Read("a send MAY be idempotent (agents may use the messageId to spot a duplicate): a client cannot count on it, so a second send may run the work twice"),
			},
			Fix:     "Commit to one candidate at a time; cancel (or wait for the failure of) a task before sending the work elsewhere.",
			Reached: realTaskSent,
			Judge:   judgeOneTask,
			Local:   true,
		},
		{
			ID:     "G-SKILL-SUCCESSOR",
			Title:  "a re-route goes to a successor of the requested skill, never an unrelated one",
			Grades: must(Safety),
			Requirement: "Skill ids are not globally unique and not stable across card versions, so an error's availableSkills or a fresh card can only redirect the work to the successor of the skill asked for; " +
				"sending it under an unrelated skill because it is the only one offered runs the wrong capability.",
			Sources: []Source{
				Seed000("What Was Observed", SrcDescriptive).Read("the invariant that broke: skill ids are not globally unique and not stable across card versions; the orchestrator fell back to a card's skill id verbatim at another vendor"),
				Posture("work goes out only under the skill asked for or a successor of it: an unrelated skill runs the wrong capability"),
			},
			Fix:     "Re-route only to a skill that the vendor names as the successor of the one requested (same capability, new id); otherwise try the next candidate or report skill-unavailable.",
			Reached: realTaskSent,
			Judge:   judgeSkillSuccessor,
		},
		{
			ID:          "G-CANCEL-ABANDONED",
			Title:       "cancel only tasks being abandoned",
			Grades:      should(Safety),
			Requirement: "A cancel is for a task the orchestrator is walking away from (an accepted probe, a task past its deadline); cancelling a task that already finished shows the orchestrator lost track of it.",
			Sources: []Source{
				Seed000("Decision Boundary", SrcMust).NotMust("the seed's must cancels an accepted probe at once; that a cancel is only for a task being abandoned is this project's reading of it, so the check is a SHOULD"),
				A2A("§3.1.5", SrcDescriptive, Server).Read("a task already completed, failed or canceled is not cancelable (TaskNotCancelableError): cancelling one shows the client lost track of it"),
			},
			Fix:     "Cancel only tasks you saw in submitted, working or another non-terminal state and are abandoning.",
			Reached: taskCompleted,
			Judge:   judgeCancelAbandoned,
		},
		credentialScopeCheck(),
		credentialRedactedCheck(),
	}
}

func judgeJSONRPC(r *Run) Verdict {
	n, other := 0, 0
	for _, e := range r.Events {
		if isRPC(e) && bodyIsParams(e) {
			other++ // HTTP+JSON or gRPC: no JSON-RPC envelope to judge
			continue
		}
		if !isRPC(e) || e.Pending {
			continue // not known yet (still being answered)
		}
		body := e.Body() // a body nested too deep for the report is kept as text
		if e.Method == "" && e.ErrorCode == 0 && len(body) == 0 && (e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed) {
			continue // a POST where the host has no JSON-RPC endpoint: never read, nothing to judge
		}
		if e.Status == http.StatusUnsupportedMediaType {
			// The fleet refused the body unread for its Content-Type. A 0.3
			// request MUST be application/json (A2A 0.3 §7); A2A 1.0 §9.1
			// only describes it, so a 1.0 request is not failed here.
			if !below10(askedVersion(e)) {
				continue
			}
			return Failf("%s: a %s request with a Content-Type other than application/json; the fleet answered 415 (%s)", describe(e), askedVersion(e), e.ErrorMessage).At(e.Seq)
		}
		n++
		if e.ErrorCode == -32700 || e.ErrorCode == -32600 {
			return Failf("%s: the fleet answered %d (%s)", describe(e), e.ErrorCode, e.ErrorMessage).At(e.Seq)
		}
		if len(body) == 0 {
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
		if err := json.Unmarshal(body, &req); err != nil {
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
	if n == 0 && other > 0 {
		return NotApplicablef("no JSON-RPC request was made: the %s went over HTTP+JSON or gRPC, which have no JSON-RPC envelope", plural(other, "call"))
	}
	if n == 0 {
		return NotExercisedf("no JSON-RPC request was made")
	}
	return Passf("%d JSON-RPC requests, all valid 2.0", n)
}

var majorMinor = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

func judgeVersionHeader(r *Run) Verdict {
	rpc := filter(r.Events, isRPC)
	if len(rpc) == 0 {
		return NotExercisedf("no JSON-RPC request was made")
	}
	judged := 0
	for _, e := range rpc {
		v, sent := e.A2AVersion, e.HasA2AVersion
		if !sent && e.A2AVersionQuery != "" {
			v, sent = e.A2AVersionQuery, true
		}
		if sent && !majorMinor.MatchString(v) {
			return Failf("%s: A2A-Version %q is not Major.Minor", describe(e), v).At(e.Seq).Want("Major.Minor, e.g. 1.0", v)
		}
		if e.Dialect != string(mockvendor.Dialect10) {
			continue
		}
		judged++
		if !sent && e.Binding == mockvendor.BindingGRPC {
			return Failf("%s: a gRPC call without a2a-version metadata (A2A 1.0.1 §10.2: service parameters go as gRPC metadata), which the agent reads as a 0.3 request", describe(e)).At(e.Seq).
				Want("metadata a2a-version: 1.0", "absent")
		}
		if !sent {
			return Failf("%s: a 1.0 request without A2A-Version (header or query parameter)", describe(e)).At(e.Seq).Want("A2A-Version: 1.0", "absent")
		}
	}
	if judged == 0 {
		return NotApplicablef("no request used a 1.0 method, and a 0.1 or 0.3 request needs no A2A-Version")
	}
	return Passf("%d requests in the 1.0 dialect, each with A2A-Version", judged)
}

func judgeNoUnknownTask(r *Run) Verdict {
	issued := map[string]bool{}
	asked := 0
	for _, e := range r.Events {
		switch e.Op {
		case mockvendor.OpSend, mockvendor.OpStream:
			// A continuation names its task (0.3 and 1.0 message.taskId): that
			// id, too, must be one the agent issued.
			if id := continuedTask(e); id != "" && !e.Probe {
				asked++
				if !issued[id] {
					return Failf("%s: the message continues task %q, which was never issued to this orchestrator", describe(e), id).At(e.Seq)
				}
			}
			if e.TaskID != "" && e.ErrorCode == 0 {
				issued[e.TaskID] = true
			}
		case mockvendor.OpSubscribe:
			if e.Probe || e.TaskID == "" {
				continue
			}
			asked++
			if !issued[e.TaskID] {
				return Failf("%s: task id %q was never issued to this orchestrator", describe(e), e.TaskID).At(e.Seq)
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
		return Passf("no get, cancel, subscription or continuation for a real task was made")
	}
	return Passf("%d gets, cancels, subscriptions or continuations, all for issued tasks", asked)
}

func judgeNoEscape(r *Run) Verdict {
	for _, e := range r.Events {
		if e.Op == mockvendor.OpRefused {
			return Failf("connection attempt to %s, outside the fleet (%s)", e.Host, e.Note).At(e.Seq)
		}
	}
	return Passf("every connection went to a fleet host")
}

// untrustedReached needs the orchestrator to have come to an endpoint whose
// certificate does not verify: a request that reached it, or a card of its
// vendor fetched and a refusal that names the endpoint's identity
// (tls-san-mismatch, signer-endpoint-mismatch). A scenario without such an endpoint does not hold the
// situation: the judge says NOT_APPLICABLE there.
var untrustedReached = Precondition{
	Needs: "reach the endpoint whose certificate does not verify (or refuse it, after fetching its card, as tls-san-mismatch or signer-endpoint-mismatch)",
	Met: func(r *Run) bool {
		if len(r.UntrustedHosts) == 0 {
			return false // the scenario does not hold the situation
		}
		owners := map[string]bool{}
		for v, hosts := range r.VendorHosts {
			for _, h := range hosts {
				if slices.Contains(r.UntrustedHosts, h) {
					owners[v] = true
				}
			}
		}
		for _, e := range r.Events {
			if slices.Contains(r.UntrustedHosts, e.Host) {
				return true
			}
		}
		if !slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpCardFetch && owners[e.Vendor] }) {
			return false
		}
		// The fleet cannot see a handshake the client broke off, so a refusal
		// counts only when it names the endpoint's identity as the problem.
		return slices.ContainsFunc(r.Delegations, func(d Delegation) bool {
			return d.Outcome != nil && d.Outcome.Outcome != contract.OutcomeCompleted &&
				slices.Contains([]string{contract.ReasonTLSSANMismatch, contract.ReasonSignerEndpointMismatch}, d.Outcome.Reason)
		})
	},
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
