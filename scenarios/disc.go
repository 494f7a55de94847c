package scenarios

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// DISC: discovery. A2A 1.0 §8.2 lists how a client finds a card: the
// well-known URI, a registry, or direct configuration (a card URL it was
// given). Every other scenario's card sits at the root of its host; here
// it does not. DISC-001 hosts D's card below a path
// (https://hub.agent-d.example/agents/d/.well-known/agent-card.json) with
// interfaces below the same path, DISC-002 at a URL that is not a
// well-known one at all; the host has no card at its root, as a host that
// serves several agents, each under its own path, has none. Clients have
// been seen to drop the path (a2aproject/a2a-java#189 and PR 837,
// a2aproject/a2a-python#799 and PR 800, the-artinet-project/artinet-sdk#9).
//
// DISC-003 and DISC-004 give D a card that is not one: HTTP 200 with {},
// and a card without six of the members the proto marks REQUIRED (it keeps
// supportedInterfaces and skills, so a client that never checks can send).
// D breaks the spec there, on purpose, so the checks are
// delegation-safety: a client that takes such a document for a card
// makes decisions from nothing (assistant-ui/assistant-ui PR 5115;
// a2aproject/a2a-python#1267). It refuses the agent, says so
// (reason invalid-card, or other with a detail), and sends it nothing.
func discScenarios() []*Scenario {
	return []*Scenario{disc001(), disc002(), disc003(), disc004()}
}

// The hub host of DISC-001 and DISC-002 and D's paths on it.
const (
	hostHubD      = "hub.agent-d.example"
	discBaseD     = "/agents/d"
	discCardPathD = discBaseD + mockvendor.CardPath // the well-known name below the base path
	discDirectD   = discBaseD + "/card"             // a card URL given directly
	discRPCPathD  = discBaseD + mockvendor.DefaultRPCPath
	discRESTPathD = discBaseD + mockvendor.DefaultRESTPath
)

// discDecl are D's interfaces on the hub: the card D serves there declares
// them (JSON-RPC 1.0 and 0.3, HTTP+JSON 1.0), each below the base path.
var discDecl = []declared{
	{"https://" + hostHubD + discRPCPathD, mockvendor.BindingJSONRPC, V10},
	{"https://" + hostHubD + discRPCPathD, mockvendor.BindingJSONRPC, V03},
	{"https://" + hostHubD + discRESTPathD, mockvendor.BindingREST, V10},
}

// hubD is D with one host, the hub, which serves its card at cardPath only
// and its endpoints below the base path.
func hubD(cardPath string) func() mockvendor.Config {
	d := mockvendor.VendorD()
	d.Hosts = []mockvendor.HostConfig{{Name: hostHubD, Card: true, CardPath: cardPath, RPCPath: discRPCPathD, RESTPath: discRESTPathD}}
	return fleetOf(d)
}

// The sources the DISC checks share.
var (
	discContract = ContractRule("What the fleet speaks: Cards", SrcMust).Read("candidates are card URLs, at a host's root or below a path or given directly: fetch them as given, the path kept byte for byte, never as a base URL to append to")
	discDirect   = A2A("§8.2", SrcDescriptive, Client).Read("clients find cards through the well-known URI, registries or direct configuration (pre-configured Agent Card URLs): a URL the caller gives is the card's URL")
	discRequired = Proto("AgentCard", SrcMust, Server).Broken("name, description, supportedInterfaces, version, capabilities, defaultInputModes, defaultOutputModes and skills are REQUIRED (field_behavior); D's card lacks all of them ({}) or six")
	discCLI      = CLI("A2ACLI_CARD_GET_002", SrcShould).Read("validate the Agent Card against the A2A schema (a2a-cli SPEC §10.1, a Tier 2 requirement)")
	discPosture  = Posture("a document without the members A2A makes REQUIRED is not an Agent Card: nothing in it is a claim to act on; the agent is refused, with the reason, and sent nothing")
	discUI       = Field("assistant-ui/assistant-ui#5115").Read("an HTTP 200 {} was accepted as an agent card and its absent members drove capability decisions")
)

// discoveryTried needs a request to the vendor (a card fetch, at any path).
func discoveryTried(vendor string) Precondition {
	return Precondition{
		Needs: "ask one of " + vendorName(vendor) + "'s hosts for its card",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return inVendor(e, vendor) && e.HTTPMethod != "" })
		},
	}
}

// endpointRequested needs a request meant for one of the vendor's
// endpoints (isEndpointRequest), wherever it went.
func endpointRequested(vendor string) Precondition {
	return Precondition{
		Needs: "send " + vendorName(vendor) + " a request",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool { return inVendor(e, vendor) && isEndpointRequest(e) })
		},
	}
}

// isEndpointRequest reports whether e is meant for an A2A endpoint: a POST,
// or a request the HTTP+JSON binding took.
func isEndpointRequest(e mockvendor.Event) bool {
	return isCall(e) || e.HTTPMethod == "POST"
}

// judgeCardAsGiven: every discovery request at the host (a GET that is no
// A2A call and reads no task) went to the card URL's path, byte for byte;
// a card URL that loses its path, or gains one, fails.
func judgeCardAsGiven(r *Run, host, cardPath string) Verdict {
	n := 0
	for _, e := range r.Events {
		if e.Host != host || e.HTTPMethod != "GET" || isEndpointRequest(e) || strings.Contains(e.Path, "/tasks/") {
			continue // not a card fetch: an A2A call, or an HTTP+JSON task read gone astray (DISC-001.URL's)
		}
		if e.Path != cardPath {
			return Failf("%s: GET %s, not the card URL given (https://%s%s)", describe(e), e.Path, host, cardPath).At(e.Seq).
				Want("GET "+cardPath+" (the candidate, as given)", "GET "+e.Path)
		}
		n++
	}
	if n == 0 {
		return NotExercisedf("no card fetch reached %s", host)
	}
	return Passf("%s at https://%s%s, as given", plural(n, "card fetch"), host, cardPath)
}

// judgeAtDeclared: every endpoint request to the vendor reached one of the
// declared interfaces at its URL exactly (JSON-RPC at its path, HTTP+JSON
// below it).
func judgeAtDeclared(r *Run, vendor string, decl []declared) Verdict {
	n := 0
	for _, e := range r.Events {
		if !inVendor(e, vendor) || !isEndpointRequest(e) {
			continue
		}
		if !slices.ContainsFunc(decl, func(d declared) bool { return d.at(e) }) {
			var urls []string
			for _, d := range decl {
				urls = addWord(urls, d.url)
			}
			return Failf("%s: %s %s is at none of the interfaces the card declares (%s)", describe(e), e.HTTPMethod, e.Path, strings.Join(urls, ", ")).At(e.Seq).
				Want("requests at the declared URLs, byte for byte", e.HTTPMethod+" https://"+e.Host+e.Path)
		}
		n++
	}
	if n == 0 {
		return NotExercisedf("no request reached %s's endpoints", vendorName(vendor))
	}
	return Passf("%s, each at an interface URL as the card spells it", plural(n, "endpoint request"))
}

// discDone is the DONE check of DISC-001 and DISC-002.
func discDone(id, given string) Check {
	return Check{
		ID:     id,
		Title:  "the delegation completes through the card found at the URL given",
		Grades: must(Safety),
		Requirement: "The card URL the caller gives (" + given + ") leads to the agent: the card fetched there names its interfaces below the same path, and the task completes through one of them. " +
			"A client that looks for the card at the host's root, or appends the well-known path to the URL given, finds nothing there (404) and fails.",
		Sources: []Source{discContract, discDirect, ifaceRule3,
			Field("a2aproject/a2a-java#189").Read("the card was looked up at the root of the agent's host, losing the path it is served under"),
			Field("a2aproject/a2a-python#799"), Field("the-artinet-project/artinet-sdk#9")},
		Fix:          "Fetch the candidate URL exactly as given; do not rebuild it from the host; then use the interface URLs the card declares.",
		ReadsOutcome: true,
		Reached:      discoveryTried("d"),
		Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
	}
}

func disc001() *Scenario {
	given := "https://" + hostHubD + discCardPathD
	return &Scenario{
		ID:       "DISC-001",
		Title:    "a card hosted below a path",
		Area:     "disc",
		Source:   "A2A 1.0 §8.2, §8.3.2; a2aproject/a2a-java#189 and PR 837; a2aproject/a2a-python#799 and PR 800; the-artinet-project/artinet-sdk#9. D breaks no clause",
		Setup:    "D's card is at " + given + " (the well-known name below /agents/d) and nowhere else: the hub host answers 404 at its root. The card's interfaces keep the path: JSON-RPC 1.0 and 0.3 at https://" + hostHubD + discRPCPathD + ", HTTP+JSON 1.0 at https://" + hostHubD + discRESTPathD + ". The candidate is the card URL itself.",
		Fleet:    hubD(discCardPathD),
		Requests: []Request{req(skillS, given)},
		Checks: []Check{
			{
				ID:          "DISC-001.CARD-PATH",
				Title:       "the card is fetched at the URL given, its path kept",
				Grades:      must(Safety),
				Requirement: "The candidate is the card's URL: the client fetches " + given + " and looks nowhere else on the host; a fetch of the root's /.well-known/agent-card.json (the path lost) or of any other path fails.",
				Sources: []Source{discContract, discDirect,
					Field("a2aproject/a2a-java#189").Read("the card was looked up at the root of the agent's host, losing the path it is served under"),
					Field("a2aproject/a2a-python#799").Read("the card resolver joined the well-known path so that the agent's base path was dropped"),
					Field("the-artinet-project/artinet-sdk#9")},
				Fix:     "Use the candidate URL as the card URL, as it is; never rebuild it from the origin.",
				Reached: discoveryTried("d"),
				Judge:   func(r *Run) Verdict { return judgeCardAsGiven(r, hostHubD, discCardPathD) },
			},
			{
				ID:     "DISC-001.URL",
				Title:  "every call goes to an interface URL as the card declares it, path included",
				Grades: must(Core),
				Requirement: "The interfaces sit below the card's path: every request goes to the URL of the selected interface as the card spells it (https://" + hostHubD + discRPCPathD + " for JSON-RPC, below https://" + hostHubD + discRESTPathD + " for HTTP+JSON), " +
					"never to the host's root path or a URL rebuilt from the card's origin.",
				Sources: []Source{ifaceRule3, ifaceEntry,
					A2A03("§5.6.3", SrcMust, Client).Read("rule 5: use the correct URL for the selected transport, as the card declares it (the card's 0.3 url keeps the path too)"),
					Field("a2aproject/a2a-java#837").Read("the fix: keep the agent's path when resolving where to talk to it")},
				Fix:     "Send to supportedInterfaces[i].url exactly; do not rebuild an endpoint from the host and a usual path.",
				Reached: endpointRequested("d"),
				Judge:   func(r *Run) Verdict { return judgeAtDeclared(r, "d", discDecl) },
			},
			discDone("DISC-001.DONE", given),
		},
	}
}

func disc002() *Scenario {
	given := "https://" + hostHubD + discDirectD
	return &Scenario{
		ID:       "DISC-002",
		Title:    "a card URL given directly, not a well-known one",
		Area:     "disc",
		Source:   "A2A 1.0 §8.2 (Direct Configuration); a2aproject/a2a-java#189; a2aproject/a2a-python#799; the-artinet-project/artinet-sdk#9. D breaks no clause",
		Setup:    "D's card is at " + given + " and nowhere else (no well-known path answers on the hub host). Its interfaces are below /agents/d, as in DISC-001. The candidate is that URL, as a caller configured it.",
		Fleet:    hubD(discDirectD),
		Requests: []Request{req(skillS, given)},
		Checks: []Check{
			{
				ID:          "DISC-002.AS-GIVEN",
				Title:       "the card URL is fetched as given, not as a base URL",
				Grades:      must(Safety),
				Requirement: "A card URL given directly is fetched exactly: " + given + ", not that URL with /.well-known/agent-card.json appended, and not the host's well-known path.",
				Sources: []Source{discContract, discDirect,
					Field("a2aproject/a2a-python#799").Read("the resolver took the agent URL for a base and joined the well-known path to it")},
				Fix:     "Treat the candidate as the card URL; append nothing to it.",
				Reached: discoveryTried("d"),
				Judge:   func(r *Run) Verdict { return judgeCardAsGiven(r, hostHubD, discDirectD) },
			},
			discDone("DISC-002.DONE", given),
		},
	}
}

// discBadD is D whose card the fault spoils; its endpoints are honest.
func discBadD(fault string) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec(fault, nil)))
}

// judgeNotUsed: nothing but card fetches reached the vendor (the outcome
// is REFUSED's to judge).
func judgeNotUsed(r *Run, vendor string) Verdict {
	for _, e := range r.Events {
		if inVendor(e, vendor) && e.HTTPMethod != "" && e.Op != mockvendor.OpCardFetch {
			return Failf("%s: %s %s after a card that is no card", describe(e), e.HTTPMethod, e.Path).At(e.Seq).
				Want("nothing sent to "+vendorName(vendor)+" (its card is invalid)", e.HTTPMethod+" https://"+e.Host+e.Path)
		}
	}
	return Passf("only the card was fetched from %s", vendorName(vendor))
}

// judgeCardRefused: the delegation ends refused (rejected, failed or
// escalated), not in a success the card could not have led to. The
// reason word is reported, not judged: what the client read into the
// document is not on the wire, and a library may name an empty card by
// its first missing member ("no compatible transport").
func judgeCardRefused(r *Run) Verdict {
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome == contract.OutcomeCompleted || o.Outcome == contract.OutcomeInterrupted {
		return Failf("outcome %s from a card that is no card", o.Outcome).Want("rejected (invalid-card, or any reason)", o.Outcome)
	}
	return Passf("outcome %s, reason %q (%s)", o.Outcome, o.Reason, clipQuote(o.Detail))
}

// discNotUsedCheck: an agent whose card is no card is sent nothing.
func discNotUsedCheck(id, what string) Check {
	return Check{
		ID:     id + ".NOT-USED",
		Title:  "nothing is sent to an agent whose card is " + what,
		Grades: must(Safety),
		Requirement: "What the card URL answered is " + what + ": not an Agent Card. The client sends that agent nothing: no probe, no task, no guessed endpoint. " +
			"Nothing in the document is a claim to act on.",
		Sources: []Source{discPosture, discRequired, discCLI, discUI,
			Field("a2aproject/a2a-python#1267").Read("an AgentCard with no members set is served as HTTP 200 {}; nothing checks the REQUIRED members")},
		Fix:     "Validate the card before using it: the members A2A 1.0 marks REQUIRED (name, description, supportedInterfaces or a 0.3 url, version, capabilities, defaultInputModes, defaultOutputModes, skills); refuse the agent when one is missing.",
		Reached: cardFetched("d"),
		Judge:   func(r *Run) Verdict { return judgeNotUsed(r, "d") },
	}
}

// discRefusedCheck: the delegation to an agent whose card lacks REQUIRED
// members ends refused. DISC-003's {} has none: nothing there names an
// interface, so no client can report a success from it.
func discRefusedCheck(id string) Check {
	return Check{
		ID:     id + ".REFUSED",
		Title:  "the delegation ends refused, not in a success",
		Grades: must(Safety),
		Requirement: "The delegation ends refused (rejected, failed or escalated): a completion or an interruption reported from an agent whose card is no card fails. " +
			"The reason word is reported, not judged (the wire cannot show why a client refused); invalid-card is the contract's word for it.",
		Sources: []Source{discPosture, discRequired, discUI,
			ContractRule("Delegation outcome: reason vocabulary", SrcDescriptive).Read("invalid-card: the card URL answered something that is no Agent Card; the detail names what is missing")},
		Fix:          "Report rejected with reason invalid-card and name the missing members in the detail.",
		ReadsOutcome: true,
		Reached:      cardFetched("d"),
		Judge:        judgeCardRefused,
	}
}

func disc003() *Scenario {
	return &Scenario{
		ID:       "DISC-003",
		Title:    "the card URL answers HTTP 200 with {}",
		Area:     "disc",
		Source:   "assistant-ui/assistant-ui PR 5115; a2aproject/a2a-python#1267; A2ACLI_CARD_GET_002. D breaks A2A 1.0 §8.1 and the proto's REQUIRED members of AgentCard (fault card-empty)",
		Setup:    "D's card URL answers HTTP 200, application/json, with the empty object {} (fault card-empty), with the usual cache headers. D's endpoints (https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath + ") answer honestly, as a client that guesses them would find.",
		Fleet:    discBadD("card-empty"),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks:   []Check{discNotUsedCheck("DISC-003", "{}")},
	}
}

func disc004() *Scenario {
	return &Scenario{
		ID:       "DISC-004",
		Title:    "a card without members the proto marks REQUIRED",
		Area:     "disc",
		Source:   "assistant-ui/assistant-ui PR 5115; a2aproject/a2a-python#1267; A2ACLI_CARD_GET_002. D breaks the proto's REQUIRED members of AgentCard (A2A 1.0 §4.4.1; fault card-missing)",
		Setup:    "D's card lacks name, description, version, capabilities, defaultInputModes and defaultOutputModes (fault card-missing); it keeps supportedInterfaces, the 0.3 url and skills, so a client that never checks finds an endpoint and the skill, and the endpoints answer honestly.",
		Fleet:    discBadD("card-missing"),
		Requests: []Request{req(skillS, mockvendor.HostCardD)},
		Checks:   []Check{discNotUsedCheck("DISC-004", "a card without REQUIRED members"), discRefusedCheck("DISC-004")},
	}
}
