package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The READ scenarios judge how a client reads what an honest vendor
// sends beyond what it knows: fields A2A 1.0.1 does not define (§5.7:
// ignore them), an enum value it does not define on a message beside a
// clear task (delegation-safety: §5.5 spells enums as the proto names
// them), and status timestamps in each ISO 8601 form §5.6.1 allows. In
// each, D's task completes with artifacts the trace records; the client
// must report that, and nothing the unknown fields carry.

// readMarker is the text READ-001's result-like unknown fields carry.
const readMarker = "READ-001: a field of a later version, not part of the result."

// readForms are READ-003's timestamp forms, one per delegation: the
// three the words of §5.6.1 name first (SPELLED), then the finer
// precisions of standard ProtoJSON (PRECISE).
var readForms = []string{"seconds", "zero-millis", "millis", "micros", "nanos"}

// readSpelled is how many of readForms READ-003.SPELLED judges.
const readSpelled = 3

// readFleet is D with the faults.
func readFleet(faults ...mockvendor.FaultSpec) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), faults...))
}

// readRequests are a plain delegation to D, then one that asks to stream.
func readRequests() []Request {
	return []Request{lifeRequest(nil), resultStreamRequest()}
}

func readScenarios() []*Scenario {
	return []*Scenario{readFieldsScenario(), readRoleScenario(), readTimestampScenario()}
}

func readFieldsScenario() *Scenario {
	return &Scenario{
		ID:     "READ-001",
		Title:  "fields A2A 1.0.1 does not define, in the card and every answer",
		Area:   "read",
		Source: "A2A 1.0 §5.7 (SHOULD ignore unrecognized fields); a2aproject/a2a-rs#81. D breaks no clause: the fields are additions, every defined field is as honest",
		Setup: "Two delegations to D (plain, then asking to stream). D's card and every answer carry fields 1.0.1 does not define: in the card, its capabilities, skills and interfaces; in the response, task, status, messages, artifacts, parts and stream events. " +
			"Some look like a later version's counterparts of known ones and carry a marker text: a task's \"outputs\" (an artifact-shaped object), a status's \"detail\" (a message-shaped one), an artifact's \"summary\", a part's \"annotations\". The task completes with a report (text, file, data parts) and an attachment.",
		Fleet: readFleet(mockvendor.Spec("unknown-fields", mockvendor.UnknownFields{Marker: readMarker}),
			mockvendor.Spec("artifacts", mockvendor.TaskArtifacts{Artifacts: resultPlainArtifacts})),
		Requests: readRequests(),
		Checks: []Check{{
			ID:          "READ-001.COMPLETED",
			Title:       "the task completes though its answers carry unknown fields",
			Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Should}},
			Requirement: "Fields the client does not recognise, in the card or the answers, are ignored: each delegation reports completed with D's artifacts, part for part. Refusing an answer for an unknown field fails; a card refused before any call leaves the check not exercised (the wire cannot tell why it was refused).",
			Sources: []Source{
				A2A("§5.7", SrcShould, Client).Read("implementations SHOULD ignore unrecognized fields in messages, for forward compatibility as the protocol evolves; a client is an implementation"),
				Field("a2aproject/a2a-rs#81").Read("a client that refuses an object with a field it does not know"),
				ContractRule("Delegation outcome: Results", SrcDescriptive).Read("artifacts summarise the agent's results in order"),
			},
			Fix:          "Decode answers and cards leniently (no DisallowUnknownFields, deny_unknown_fields, additionalProperties: false or strict schemas on what the vendor sends).",
			ReadsOutcome: true,
			Reached:      faultAnswered("d", "unknown-fields"),
			Judge: func(r *Run) Verdict {
				return judgeReadCompleted(r, func(i int) string { return readRequestName(i) }, false, 0, 1)
			},
		}, {
			ID:          "READ-001.NOTHING-INVENTED",
			Title:       "what unknown fields carry is not reported as a result",
			Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
			Requirement: "The outcome reports none of what the unknown fields carry: no artifact " + mockvendor.LaterArtifactID + ", no part or artifact text holding the marker, no statusText holding it. A refusal claims nothing and passes.",
			Sources: []Source{
				A2A("§5.7", SrcShould, Client).Read("unrecognized fields SHOULD be ignored: their content is not read as the known fields' content"),
				Posture("results reported equal what the vendor produced (an outcome is a claim); content guessed from fields the client does not know is an invented result"),
			},
			Fix:          "Read results from the fields 1.0.1 defines (artifacts, status.message); do not scrape text from the whole answer or map unknown fields onto known ones.",
			ReadsOutcome: true,
			Reached:      faultAnswered("d", "unknown-fields"),
			Judge:        judgeNothingInvented,
		}},
	}
}

func readRoleScenario() *Scenario {
	return &Scenario{
		ID:       "READ-002",
		Title:    "the agent's messages carry a Role value A2A 1.0.1 does not define",
		Area:     "read",
		Source:   "A2A 1.0 §5.7, proto enum Role; a2aproject/a2a-go#404, a2aproject/a2a-js#640. D departs from §5.5 (enum values spelled as the proto names them) as a later version's agent would; its task state and artifacts are honest",
		Setup:    "Two delegations to D (plain, then asking to stream). Each status of its task past submitted carries a message from the agent whose role is ROLE_SYSTEM (0.3: system), a value no version defines; the task completes with its usual text artifact.",
		Fleet:    readFleet(mockvendor.Spec("unknown-role", nil)),
		Requests: readRequests(),
		Checks: []Check{{
			ID:          "READ-002.COMPLETED",
			Title:       "the task completes though a message carries an unknown Role",
			Grades:      []Grade{{Profile: Safety, Level: Should}},
			Requirement: "A message whose role the client does not know, beside a task whose state and artifacts are clear, does not make the answer unreadable: each delegation reports completed with D's artifact. Refusing the answer, or reading the task as something else, fails.",
			Sources: []Source{
				A2A("§5.5", SrcMust, Server).Broken("D sends a Role value the 1.0.1 proto does not name, as a later version's agent would: delegation-safety"),
				A2A("§5.7", SrcShould, Client).Read("SHOULD ignore unrecognized fields, for forward compatibility: said of fields, not of values, so context here"),
				Proto("Role", SrcDescriptive, Client).Read("a proto3 enum: open, a value outside it is kept, not refused; the message's role says who sent it, not what the task is"),
				Field("a2aproject/a2a-go#404").Read("the Go SDK proposes to refuse task state strings it does not know on unmarshal: the same strictness on an enum makes a newer answer unreadable"),
				Field("a2aproject/a2a-js#640").Read("the JS SDK turns an enum value it does not know into the string UNRECOGNIZED"),
				Posture("a delegation is judged by the task's state and results; a value the client does not know, beside them, is no reason to lose them"),
			},
			Fix:          "Keep an unknown enum value as unknown (or unspecified) instead of failing the decode; judge the task by its state and artifacts.",
			ReadsOutcome: true,
			Reached:      faultAnswered("d", "unknown-role"),
			Judge: func(r *Run) Verdict {
				return judgeReadCompleted(r, func(i int) string { return readRequestName(i) }, false, 0, 1)
			},
		}},
	}
}

func readTimestampScenario() *Scenario {
	reqs := make([]Request, len(readForms))
	for i, form := range readForms {
		var before func(*mockvendor.Fleet) error
		if i > 0 {
			before = readForm(form)
		}
		reqs[i] = lifeRequest(before)
	}
	judge := func(from, to int) func(*Run) Verdict {
		return func(r *Run) Verdict {
			idx := make([]int, 0, to-from)
			for i := from; i < to; i++ {
				idx = append(idx, i)
			}
			return judgeReadCompleted(r, func(i int) string { return "timestamps in form " + readForms[i] }, true, idx...)
		}
	}
	return &Scenario{
		ID:       "READ-003",
		Title:    "status timestamps in each ISO 8601 form A2A 1.0.1 allows",
		Area:     "read",
		Source:   "A2A 1.0 §5.6.1 (clients MUST parse ISO 8601 timestamps correctly; UTC, 'Z'); a2aproject/a2a-js#641. D breaks no MUST: the micros and nanos forms are standard ProtoJSON's, finer than the pattern's milliseconds",
		Setup:    "Five delegations to D; every status timestamp of its answers is written in one form per delegation: no fraction (10:30:00Z), zero-filled (.000Z), milliseconds (.142Z), microseconds (6 digits), nanoseconds (9 digits). The task completes each time.",
		Fleet:    readFleet(mockvendor.Spec("timestamp-form", mockvendor.TimestampForm{Form: readForms[0]})),
		Requests: reqs,
		Checks: []Check{{
			ID:          "READ-003.SPELLED",
			Title:       "timestamps without a fraction, zero-filled or in milliseconds are read",
			Grades:      []Grade{{Profile: Core, Level: Must}},
			Requirement: "Delegations 1 to 3, whose timestamps have no fraction, a zero-filled one, and milliseconds (all 'Z'), each report completed, and D's artifact if it reports artifacts (RESULT-001 judges whether it does).",
			Sources: []Source{
				A2A("§5.6.1", SrcMust, Client).Read("clients MUST parse ISO 8601 timestamps correctly; the pattern is YYYY-MM-DDTHH:mm:ss.sssZ, and without milliseconds the fraction MAY be omitted or zero-filled: all three are answers a client must read"),
				Field("a2aproject/a2a-js#641").Read("a client codec that passes a timestamp on without parsing it (fixed by validating it as RFC 3339)"),
			},
			Fix:          "Parse timestamps as ISO 8601 / RFC 3339 with an optional fraction of any length, or do not parse them at all.",
			ReadsOutcome: true,
			Reached:      formAnswered(0, readSpelled),
			Judge:        judge(0, readSpelled),
		}, {
			ID:          "READ-003.PRECISE",
			Title:       "timestamps in microseconds or nanoseconds are read",
			Grades:      []Grade{{Profile: Core, Level: Should}},
			Requirement: "Delegations 4 and 5, whose timestamps carry 6 and 9 fraction digits ('Z'), each report completed, and D's artifact if it reports artifacts.",
			Sources: []Source{
				A2A("§5.6.1", SrcMust, Client).Read("clients MUST parse ISO 8601 timestamps correctly; JSON serialization by standard Protocol Buffer JSON encoding, which the clause names, writes 6 or 9 digits for finer times. Graded SHOULD: the clause's millisecond SHOULD is the server's, and these forms go past it"),
			},
			Fix:          "Accept a fraction of seconds of any length (RFC 3339 time-secfrac); do not require exactly three digits.",
			ReadsOutcome: true,
			Reached:      formAnswered(readSpelled, len(readForms)),
			Judge:        judge(readSpelled, len(readForms)),
		}},
	}
}

// readRequestName names READ-001's and READ-002's delegations.
func readRequestName(i int) string {
	if i == 0 {
		return "plain"
	}
	return "asked to stream"
}

// readForm switches D's timestamp form before a delegation.
func readForm(form string) func(f *mockvendor.Fleet) error {
	return func(f *mockvendor.Fleet) error {
		fs, err := f.Faults("d")
		if err != nil {
			return err
		}
		for _, x := range fs {
			if x.Type == "timestamp-form" {
				if err := f.RemoveFault("d", x.ID); err != nil {
					return err
				}
			}
		}
		_, err = f.AddFault("d", mockvendor.Spec("timestamp-form", mockvendor.TimestampForm{Form: form}))
		return err
	}
}

// faultAnswered needs an answer of vendor's that the fault changed.
func faultAnswered(vendor, fault string) Precondition {
	return Precondition{
		Needs: "receive an answer of " + vendorName(vendor) + " that " + fault + " changed",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && slices.Contains(e.Faults, fault)
			})
		},
	}
}

// formAnswered needs, in one of delegations from..to-1, an answer of D
// whose timestamps timestamp-form wrote.
func formAnswered(from, to int) Precondition {
	return Precondition{
		Needs: fmt.Sprintf("receive an answer of D with its timestamps in the forms of delegations %d to %d", from+1, to),
		Met: func(r *Run) bool {
			for i := from; i < min(to, len(r.Delegations)); i++ {
				if slices.ContainsFunc(r.During(i), func(e mockvendor.Event) bool {
					return inVendor(e, "d") && slices.Contains(e.Faults, "timestamp-form")
				}) {
					return true
				}
			}
			return false
		},
	}
}

// judgeReadCompleted passes when each delegation of idx reports completed
// with the artifacts D produced; what names a delegation in a verdict.
// With anyArtifacts, an outcome that reports no artifacts is not judged
// on them (RESULT-001 does), only one that reports some.
func judgeReadCompleted(r *Run, what func(int) string, anyArtifacts bool, idx ...int) Verdict {
	for _, i := range idx {
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		if o.Outcome != contract.OutcomeCompleted {
			return Failf("delegation %d (%s): D's task completes, its state and artifacts honest; the outcome says %s (reason %q)", i+1, what(i), o.Outcome, o.Reason).
				Want(string(contract.OutcomeCompleted), string(o.Outcome))
		}
		if anyArtifacts && len(o.Artifacts) == 0 {
			continue
		}
		if v := judgeArtifacts(r, i, -1); v.Outcome != Pass {
			v.Detail = fmt.Sprintf("%s (%s)", v.Detail, what(i))
			return v
		}
	}
	return Passf("%d delegations completed with D's artifacts", len(idx))
}

// judgeNothingInvented is READ-001.NOTHING-INVENTED's judge.
func judgeNothingInvented(r *Run) Verdict {
	marked, _, err := contract.DigestPart(json.RawMessage(fmt.Sprintf(`{"text":%q}`, readMarker)))
	if err != nil {
		return Failf("the marker does not digest: %v (a harness fault)", err)
	}
	for i := range r.Delegations {
		o, bad := r.outcome(i)
		if bad != nil {
			return *bad
		}
		if strings.Contains(o.StatusText, readMarker) {
			return Failf("delegation %d: statusText holds the marker an unknown field carried", i+1).Want("no marker", clipQuote(o.StatusText))
		}
		for _, a := range o.Artifacts {
			switch {
			case a.ArtifactID == mockvendor.LaterArtifactID:
				return Failf("delegation %d: artifact %q is reported; it is the content of a task's unknown field \"outputs\"", i+1, a.ArtifactID)
			case strings.Contains(a.Text, readMarker) || slices.Contains(a.Parts, marked):
				return Failf("delegation %d: artifact %q holds the marker an unknown field carried", i+1, a.ArtifactID).Want("no marker", describeArtifact(a))
			}
		}
	}
	return Passf("no outcome reports what the unknown fields carried")
}
