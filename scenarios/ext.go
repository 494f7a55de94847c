package scenarios

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// EXT: a card that requires an extension. A2A 1.0 §4.6.1: a client opts
// into an extension for a request by naming its URI in A2A-Extensions
// (§3.2.6, §9.2, §11.2; A2A 0.3 named the header X-A2A-Extensions); §3.3.4:
// an agent answers a request that does not declare an extension its card
// marks required: true with ExtensionSupportRequiredError (-32008), and
// clients SHOULD check the card before they use an agent. D does exactly
// that: it breaks no clause.
//
// Whether a client "supports" an extension is the caller's to say, not
// the client's to claim: activating an extension promises to follow its
// protocol, which only the caller's agent can keep. The driver contract's
// task.extensions lists the extensions the caller implements. EXT-001's
// caller implements D's required extension: the client activates it, in
// the header its interface's version names, and the task completes.
// EXT-002's caller does not: the client reads the card and refuses the
// agent (reason extension-unsupported, naming the extension) before it
// sends anything. A client that sends anyway, gets -32008 and then reports
// the refusal fails EXT-002.REFUSED (a SHOULD: it skipped the card check)
// and passes EXT-002.NO-LOOP; one that retries without end, or reports
// the -32008 as a success, fails EXT-002.NO-LOOP (a MUST). The failure
// seen in the field is the client that sends extensions nowhere
// (i-am-bee/agentstack#2061, google/adk-python#3159,
// alDuncanson/Handler#118) or under the wrong name (a2aproject/a2a-go#345).
func extScenarios() []*Scenario {
	return []*Scenario{ext001(), ext002()}
}

const (
	// extRequired is the extension D's card requires in EXT-001 and EXT-002.
	extRequired = "https://a2a-conform.dev/ext/caller-attestation/v1"
	// extOther is an extension the EXT-002 caller implements, which D's
	// card does not declare: a client that reads task.extensions as "the
	// caller implements everything" activates D's anyway.
	extOther = "https://a2a-conform.dev/ext/citations/v1"
	// extRefusalsAllowed is how many -32008 answers a delegation may
	// collect at D before it is a loop: the first tells the client what
	// the agent requires; a second may come from the agent's other
	// interface, which the same card governs.
	extRefusalsAllowed = 2
)

// extD is D whose card declares extRequired with required: true; D answers
// -32008 to every request that does not activate it.
func extD() mockvendor.Config {
	d := mockvendor.VendorD()
	d.Card.Extensions = []mockvendor.CardExtension{{URI: extRequired, Description: "every request attests the calling agent (a required extension)", Required: true}}
	return mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}}
}

// extCall reports whether the event is an A2A call to D's endpoints (every
// method, probes included; not a card or key fetch).
func extCall(e mockvendor.Event) bool {
	return inVendor(e, "d") && isRPC(e) && e.Op != mockvendor.OpOther && e.Op != mockvendor.OpCardFetch && e.Op != mockvendor.OpJWKSFetch
}

// headerNames reports whether a comma-separated header value names uri.
func headerNames(value, uri string) bool {
	for _, u := range strings.Split(value, ",") {
		if strings.TrimSpace(u) == uri {
			return true
		}
	}
	return false
}

// activates reports whether the call names uri in the header its A2A
// version names: A2A-Extensions for a 1.0 request, X-A2A-Extensions for a
// 0.x one.
func activates(e mockvendor.Event, uri string) bool {
	if e.Dialect == "1.0" {
		return headerNames(e.A2AExtensions, uri)
	}
	return headerNames(e.XA2AExtensions, uri)
}

// namesExt reports whether the call names uri in either header.
func namesExt(e mockvendor.Event, uri string) bool {
	return headerNames(e.A2AExtensions, uri) || headerNames(e.XA2AExtensions, uri)
}

// extHeaderOf names the header a call's version reads extensions from.
func extHeaderOf(e mockvendor.Event) string {
	if e.Dialect == "1.0" {
		return "A2A-Extensions"
	}
	return "X-A2A-Extensions"
}

// The sources the EXT checks share.
var (
	extCardRead = A2A("§3.3.4", SrcShould, Client).Read("clients SHOULD validate capability support by examining the Agent Card before attempting operations that require optional capabilities; §3.3.4 lists a required extension among them")
	extServer   = A2A("§3.3.4", SrcMust, Server).Read("the agent MUST answer ExtensionSupportRequiredError (-32008) when the client does not declare an extension the card marks required: true; D does")
	extOptIn    = A2A("§4.6.1", SrcDescriptive, Client).Read("clients opt into an extension for a request by naming its URI through the binding's mechanism, an HTTP header for the HTTP bindings; §3.2.6 names it A2A-Extensions")
	extCLI      = CLI("A2ACLI_VER_002", SrcShould).Read("a tool declares the server-required protocol extensions it supports (a2a-cli SPEC §13.3, A2A §4.6; a Tier 3 requirement)")
	extContract = ContractRule("Delegation request: Extensions", SrcMust).Read("activate only the extensions task.extensions lists; an agent whose card requires one the caller does not implement is refused (rejected, extension-unsupported, naming it); a -32008 is never a success nor sent again unchanged")
)

func ext001() *Scenario {
	return &Scenario{
		ID:       "EXT-001",
		Title:    "a required extension the caller implements",
		Area:     "ext",
		Source:   "A2A 1.0 §3.3.4, §4.6.1, §3.2.6, §9.2, §11.2; A2ACLI_VER_002; i-am-bee/agentstack#2061; a2aproject/a2a-go#345. D breaks no clause: its card declares the extension required and it answers -32008 to a request that does not activate it",
		Setup:    "D's card declares the extension " + extRequired + " with required: true. D answers ExtensionSupportRequiredError (-32008; HTTP 400 over HTTP+JSON) to every request that does not name it in A2A-Extensions (1.0 requests) or X-A2A-Extensions (0.3 requests), and names the activated extensions in the same header of its answers. The caller implements the extension (task.extensions).",
		Fleet:    extD,
		Requests: []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, Extensions: []string{extRequired}}},
		Checks: []Check{
			{
				ID:          "EXT-001.ACTIVATED",
				Title:       "every request to the agent activates the required extension",
				Grades:      should(Core),
				Requirement: "The card says the agent requires the extension and the caller implements it: every request to the agent (the probe, the send, the gets) names the extension's URI in the header its A2A version names, A2A-Extensions on a 1.0 request, X-A2A-Extensions on a 0.3 one. A request without it, refused with -32008, fails this, even when a retry with the header follows.",
				Sources: []Source{
					extCardRead, extOptIn, extServer, extCLI, extContract,
					Field("i-am-bee/agentstack#2061").Read("a client read the card's extensions but never sent A2A-Extensions"),
					Field("google/adk-python#3159").Read("the A2A client offered no way to declare extensions; a caller had to add the header itself"),
					Field("Intelligent-Internet/opencode-a2a#426").Read("a client put extension URIs in Message.extensions only, never in the A2A-Extensions request header"),
				},
				Fix:     "Read capabilities.extensions from the card; for each extension the caller implements (task.extensions), put its URI in A2A-Extensions (X-A2A-Extensions for a 0.3 interface) on every request to that agent.",
				Local:   true,
				Reached: rpcAt("d"),
				Judge:   judgeActivated,
			},
			{
				ID:          "EXT-001.HEADER",
				Title:       "A2A-Extensions, not X-A2A-Extensions, on a 1.0 request",
				Grades:      must(Core),
				Requirement: "A 1.0 request names its extensions in the A2A-Extensions header, the service parameter A2A 1.0 defines; X-A2A-Extensions is A2A 0.3's name, which a 1.0 agent does not read. A 1.0 request that names the extension in X-A2A-Extensions and not in A2A-Extensions fails.",
				Sources: []Source{
					A2A("§9.2", SrcMust, Client).Read("service parameters MUST be transmitted as HTTP header fields, under the names §3.2.6 defines (A2A-Extensions; every A2A service parameter is prefixed a2a-)"),
					A2A("§11.2", SrcMust, Client).Read("the same for HTTP+JSON"),
					A2A("§3.2.6", SrcDescriptive, Client).Read("A2A-Extensions: the comma-separated extension URIs the client wants to use for the request"),
					Field("a2aproject/a2a-go#345").Read("a request named its extension in x-a2a-extensions; the 1.0 server reads A2A-Extensions and never saw it"),
					Field("a2aproject/a2a-js#489").Read("a client that speaks both versions has to pick A2A-Extensions or X-A2A-Extensions by the wire version"),
				},
				Fix:     "On a 1.0 interface (JSON-RPC or HTTP+JSON) send A2A-Extensions; keep X-A2A-Extensions for 0.3 interfaces.",
				Local:   true,
				Reached: extNamedOn10,
				Judge:   judgeExtHeader,
			},
			{
				ID:          "EXT-001.DONE",
				Title:       "the task completes at the agent",
				Grades:      should(Core),
				Requirement: "With the extension activated the agent takes the task: the delegation completes at D, and the wire shows the completed task.",
				Sources: []Source{
					extCardRead, extOptIn, extContract,
					Posture("an agent whose required extension the caller implements is usable: the delegation completes there"),
				},
				Fix:          "Activate the extension on the send (and every other request) so that the agent does not refuse it.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
			},
		},
	}
}

// judgeActivated fails the first call to D that does not activate the
// required extension in its version's header.
func judgeActivated(r *Run) Verdict {
	calls := filter(r.Events, extCall)
	for _, e := range calls {
		if !activates(e, extRequired) {
			got := "no extension header"
			switch {
			case e.A2AExtensions != "" || e.XA2AExtensions != "":
				got = "A2A-Extensions " + quoteOr(e.A2AExtensions) + ", X-A2A-Extensions " + quoteOr(e.XA2AExtensions)
			}
			return Failf("%s (A2A %s) did not name %s in %s (%s)", describe(e), e.Dialect, extRequired, extHeaderOf(e), got).At(e.Seq).
				Want(extHeaderOf(e)+": "+extRequired, got)
		}
	}
	return Passf("%s to D, each naming the extension", plural(len(calls), "call"))
}

// quoteOr is s quoted, or "absent".
func quoteOr(s string) string {
	if s == "" {
		return "absent"
	}
	return `"` + s + `"`
}

// extNamedOn10 needs a 1.0 call to D that names the extension in either
// header.
var extNamedOn10 = Precondition{
	Needs: "name the extension on a 1.0 request to D",
	Met: func(r *Run) bool {
		return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
			return extCall(e) && e.Dialect == "1.0" && namesExt(e, extRequired)
		})
	},
}

// judgeExtHeader fails a 1.0 call that named the extension in
// X-A2A-Extensions and not in A2A-Extensions.
func judgeExtHeader(r *Run) Verdict {
	n := 0
	for _, e := range r.Events {
		if !extCall(e) || e.Dialect != "1.0" || !namesExt(e, extRequired) {
			continue
		}
		n++
		if !headerNames(e.A2AExtensions, extRequired) {
			return Failf("%s is a 1.0 request and named the extension in X-A2A-Extensions, not A2A-Extensions", describe(e)).At(e.Seq).
				Want("A2A-Extensions: "+extRequired, "X-A2A-Extensions: "+e.XA2AExtensions)
		}
	}
	return Passf("%s named the extension in A2A-Extensions", plural(n, "1.0 request"))
}

func ext002() *Scenario {
	return &Scenario{
		ID:       "EXT-002",
		Title:    "a required extension the caller does not implement",
		Area:     "ext",
		Source:   "A2A 1.0 §3.3.4, §4.6.1; A2ACLI_VER_002; alDuncanson/Handler#118; i-am-bee/agentstack#2061. D breaks no clause: its card declares the extension required and it answers -32008 to a request that does not activate it",
		Setup:    "D's card declares the extension " + extRequired + " with required: true and answers -32008 to every request that does not activate it (A2A-Extensions, or X-A2A-Extensions for 0.3). The caller implements another extension only (" + extOther + "), which D does not declare.",
		Fleet:    extD,
		Requests: []Request{{Skill: skillS, Candidates: []string{mockvendor.HostCardD}, Extensions: []string{extOther}}},
		Checks: []Check{
			{
				ID:          "EXT-002.REFUSED",
				Title:       "refused from the card, naming the extension",
				Grades:      should(Core),
				Requirement: "The card says the agent requires an extension the caller does not implement: the orchestrator refuses the agent from the card, sending it nothing (no probe, no task), and reports rejected (or failed) with reason extension-unsupported, or a detail that names the extension's URI. A client that sends first and reports the -32008 fails this: the card had said so.",
				Sources: []Source{
					extCardRead, extServer, extCLI, extContract,
					Field("alDuncanson/Handler#118").Read("a client that warns when the card requires an extension it does not request: the card says it before any request"),
				},
				Fix:          "Compare the card's required extensions with task.extensions before the first request; when one is missing, move to the next candidate or report rejected with reason extension-unsupported and the URI in detail.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        judgeExtRefused,
			},
			{
				ID:          "EXT-002.NOT-ACTIVATED",
				Title:       "no activation of an extension the caller does not implement",
				Grades:      must(Safety),
				Requirement: "The orchestrator never names an extension the caller does not implement, in either header, to get past -32008: activating an extension tells the agent the request follows the extension's protocol, which the caller cannot keep.",
				Sources: []Source{
					extOptIn, extContract,
					Posture("an activation is a promise on the caller's behalf: the orchestrator makes only the promises the caller gave it (task.extensions)"),
				},
				Fix:     "Activate only URIs listed in task.extensions; never copy the card's required extensions into the header.",
				Local:   true,
				Reached: cardFetched("d"),
				Judge:   judgeNotActivated,
			},
			{
				ID:          "EXT-002.NO-LOOP",
				Title:       "a -32008 ends the attempt: no loop, no success",
				Grades:      must(Safety),
				Requirement: "A -32008 is the agent's standing answer to a request without the extension, not a passing fault: the orchestrator does not send the refused request again unchanged (at most 2 refusals per delegation, one per interface), and reports the delegation rejected, failed or escalated, never completed.",
				Sources: []Source{
					extServer, extContract,
					Field("i-am-bee/agentstack#2061").Read("a client that sends no extension header meets the refusal on every request"),
					Posture("a refusal that depends on the request's declarations, not on time, is not retried unchanged; a delegation the agent refused did not complete"),
				},
				Fix:          "Treat -32008 as a refusal: stop sending to that agent, try the next candidate or report rejected with reason extension-unsupported.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        judgeExtNoLoop,
			},
		},
	}
}

// judgeExtRefused: nothing sent to D, and a refusal that names the
// extension.
func judgeExtRefused(r *Run) Verdict {
	for _, e := range r.Events {
		if extCall(e) {
			return Failf("%s: sent to an agent whose card requires an extension the caller does not implement", describe(e)).At(e.Seq).
				Want("nothing sent to D (its card requires "+extRequired+")", describe(e))
		}
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	switch o.Outcome {
	case contract.OutcomeRejected, contract.OutcomeFailed:
	default:
		return Failf("outcome %s (reason %q): want rejected with reason extension-unsupported", o.Outcome, o.Reason).Want("rejected, extension-unsupported", o.Outcome)
	}
	if o.Reason != contract.ReasonExtensionUnsupported && !strings.Contains(o.Detail, extRequired) {
		return Failf("refused with reason %q, and the detail does not name %s", o.Reason, extRequired).Want("reason extension-unsupported, or the URI in detail", "reason "+o.Reason)
	}
	return Passf("refused from the card (%s, reason %q), nothing sent", o.Outcome, o.Reason)
}

// judgeNotActivated fails the first call to D that names the required
// extension.
func judgeNotActivated(r *Run) Verdict {
	for _, e := range r.Events {
		if extCall(e) && namesExt(e, extRequired) {
			return Failf("%s named %s, which the caller does not implement", describe(e), extRequired).At(e.Seq).
				Want("no activation of "+extRequired, "A2A-Extensions "+quoteOr(e.A2AExtensions)+", X-A2A-Extensions "+quoteOr(e.XA2AExtensions))
		}
	}
	return Passf("the extension was never activated")
}

// judgeExtNoLoop: at most extRefusalsAllowed -32008 answers, and a
// reported failure.
func judgeExtNoLoop(r *Run) Verdict {
	refused := filter(r.Events, func(e mockvendor.Event) bool { return extCall(e) && e.ErrorCode == -32008 })
	if len(refused) > extRefusalsAllowed {
		e := refused[extRefusalsAllowed]
		return Failf("%d requests refused with -32008; %s is one too many", len(refused), describe(e)).At(e.Seq).
			Want("at most "+itoa(extRefusalsAllowed)+" refusals", itoa(int64(len(refused))))
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	return failureReported(o)
}
