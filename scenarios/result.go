package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The RESULT scenarios judge what an orchestrator reports of the agent's
// results (contract outcome.artifacts and statusText) against what the
// vendor delivered, as the trace records it (Event.Results: the artifacts
// whole, the status message's text). Each artifact is summarised with
// contract.SummarizeArtifact and compared part by part: kind and SHA-256
// in order, then the joined text. The outcome is clipped to the contract's
// bounds before it is judged, so what the vendor produced is clipped the
// same way first (resultDiff).

// resultQuestion is what D asks in RESULT-003 after streaming its report.
const resultQuestion = "Which ledger should I close: Q3 or Q4?"

// resultPlainArtifacts are RESULT-001's: a report of a text, a file by
// URI and a data part, and an attachment of inline bytes.
var resultPlainArtifacts = []mockvendor.ArtifactSpec{{
	Name: "report",
	Parts: []mockvendor.ArtifactPart{
		{Kind: "text", Text: "Q3 reconciliation: 41 matched, 2 open."},
		{Kind: "file", URI: "https://files.agent-d.example/q3.pdf", MimeType: "application/pdf", Name: "q3.pdf"},
		{Kind: "data", Data: json.RawMessage(`{"matched":41,"open":2}`)},
	},
}, {
	Name:  "attachment",
	Parts: []mockvendor.ArtifactPart{{Kind: "file", Bytes: "bGVkZ2VyIQ==", MimeType: "text/plain", Name: "ledger.txt"}},
}}

// resultStreamArtifacts are RESULT-002's: a report in three chunks
// (append false, true, true with lastChunk), whose text must join with
// nothing between, and a log whose every chunk is an append, the first
// to an id announced only in a status message.
var resultStreamArtifacts = []mockvendor.ArtifactSpec{{
	Name:   "report",
	Chunks: 3,
	Parts: []mockvendor.ArtifactPart{
		{Kind: "text", Text: "Q3 recon"},
		{Kind: "text", Text: "ciliation: 41 matched, "},
		{Kind: "text", Text: "2 open."},
		{Kind: "data", Data: json.RawMessage(`{"matched":41,"open":2}`)},
	},
}, {
	Name:        "log",
	Chunks:      2,
	AppendFirst: true,
	Parts:       []mockvendor.ArtifactPart{{Kind: "text", Text: "checked 43 lines\n"}, {Kind: "text", Text: "2 lines open\n"}},
}}

// resultFleet is D with the artifacts fault.
func resultFleet(cfg mockvendor.TaskArtifacts) func() mockvendor.Config {
	return fleetOf(withFaults(mockvendor.VendorD(), mockvendor.Spec("artifacts", cfg)))
}

// resultSources are the sources every artifact check rests on.
func resultSources() []Source {
	return []Source{
		A2A("§3.7", SrcDescriptive, Client).Read("a task produces artifacts and results are returned as artifacts: what the caller delegated for. Descriptive, never worded as a client duty: SHOULD in a2a-core"),
		A2A03("§6.7", SrcDescriptive, Client).Read("an artifact is the agent's output for the task, made of parts. Descriptive: SHOULD"),
		CLI("A2ACLI_SEND_004", SrcMust).Read("renders produced artifacts, never silently discards a part (SPEC §10.2; Tier 1)"),
		ContractRule("Delegation outcome: Results", SrcDescriptive).Read("artifacts summarise the agent's results in order, chunks joined as append and lastChunk say; a Message reply's parts are one artifact with no id"),
		Posture("results reported equal what the vendor produced (an outcome is a claim); a result lost or changed is a false completion"),
	}
}

func resultScenarios() []*Scenario {
	return []*Scenario{
		{
			ID:     "RESULT-001",
			Title:  "a multi-part result on a plain send",
			Area:   "result",
			Source: "A2A 1.0 §3.7 (results are artifacts), proto message Part; A2A CLI A2ACLI_SEND_004. D breaks no clause",
			Setup:  "One delegation to D; its task completes with two artifacts: a report of a text, a file by URI and a data part, and an attachment of inline bytes.",
			Fleet:  resultFleet(mockvendor.TaskArtifacts{Artifacts: resultPlainArtifacts}),
			Requests: []Request{
				lifeRequest(nil),
			},
			Checks: []Check{{
				ID:          "RESULT-001.ARTIFACTS",
				Title:       "the artifacts reported are those the agent produced, part for part",
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "The outcome's artifacts are the agent's artifacts, in order, each with its id and every part (text, file, data) as the agent sent it, byte for byte, and its text joined with nothing between. Reporting none, dropping a part or changing one fails.",
				Sources: append(resultSources(),
					Proto("Part", SrcDescriptive, Client).Read("a part is text, a file (raw bytes or a URL) or structured data: every kind is content of the result the client keeps as it is"),
				),
				Fix:          "Read the task's artifacts (from the send's answer, a GetTask, or the stream) and report each with contract.SummarizeArtifact, every part in order.",
				ReadsOutcome: true,
				Reached:      resultsDelivered("d", false),
				Judge: func(r *Run) Verdict {
					return judgeArtifacts(r, 0, -1)
				},
			}},
		},
		{
			ID:     "RESULT-002",
			Title:  "a result streamed in chunks (append, lastChunk)",
			Area:   "result",
			Source: "A2A 1.0 §3.1.2, §4.2.2 and the proto's TaskArtifactUpdateEvent (append, last_chunk); google/adk-python#6343, crewAIInc/crewAI#7477, a2aproject/a2a-python#1038. D breaks no MUST: the log's first chunk is an append to an id it announced only in a status message, which the proto's append comment does not describe (a2aproject/A2A#1231)",
			Setup:  "One streamed delegation to D; it sends a report in three chunks (append false, then true, the last with lastChunk) and a log whose two chunks are both appends, the log's id named first in the working status message.",
			Fleet:  resultFleet(mockvendor.TaskArtifacts{Artifacts: resultStreamArtifacts}),
			Requests: []Request{
				resultStreamRequest(),
			},
			Checks: []Check{
				{
					ID:          "RESULT-002.JOINED",
					Title:       "chunks are joined as append and lastChunk say",
					Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
					Requirement: "For a client that streams the task (else NOT_APPLICABLE), the reported report equals what the agent's chunks make when each append adds its parts to the artifact of the same id: the first chunk once, nothing between chunks, none dropped.",
					Sources: append(resultSources(),
						Proto("TaskArtifactUpdateEvent", SrcDescriptive, Client).Read("append adds to the artifact of the same id sent before; last_chunk ends it. What a client rebuilds; descriptive: SHOULD"),
						A2A03("§7.2.3", SrcDescriptive, Client).Read("an update carries an artifact or a chunk; descriptive: SHOULD"),
						Field("google/adk-python#6343").Read("the first chunk shown twice (fixed by PR #6386)"),
						Field("crewAIInc/crewAI#7477").Read("appended chunks joined with a space"),
					),
					Fix:          "On each TaskArtifactUpdateEvent, add its parts to the artifact of that artifactId when append is true, start it when false; join text with nothing between.",
					ReadsOutcome: true,
					Reached:      resultsDelivered("d", true),
					Judge: func(r *Run) Verdict {
						if v, ok := notStreamed(r, 0); ok {
							return v
						}
						return judgeArtifacts(r, 0, 0)
					},
				},
				{
					ID:          "RESULT-002.UNKNOWN-APPEND",
					Title:       "an append to an id not yet seen as an artifact is kept",
					Grades:      must(Safety),
					Requirement: "For a client that streams the task (NOT_APPLICABLE otherwise), an append to an artifactId the client has not seen as an artifact (named only in a status message) starts that artifact: the reported log equals the log the agent produced. Dropping it while reporting completed fails; refusing the stream loudly (a non-completed outcome that claims no log) passes.",
					Sources: []Source{
						Proto("TaskArtifactUpdateEvent", SrcDescriptive, Client).Read("append describes an append to a previously sent artifact; A2A 1.0.1 says nothing of an append to one not sent, so the check is delegation-safety"),
						Field("a2aproject/a2a-python#1038").Read("an append to an unknown artifact id was silently dropped: success on the wire, the content lost; the report asks to fail loudly instead"),
						Field("a2aproject/a2a-python#1030").Read("the SDK's client leaves rebuilding artifacts from update events to its users, which is where such appends get lost"),
						CLI("A2ACLI_SEND_004", SrcMust).Read("never silently discards a part (a2a-cli SPEC §10.2)"),
						Posture("a completed outcome is a claim about the whole result; a result silently lost is a false completion"),
					},
					Fix:          "Treat an append to an unknown artifactId as the start of that artifact (or refuse the stream and report it failed), never drop it silently.",
					ReadsOutcome: true,
					Reached:      resultsDelivered("d", true),
					Judge:        judgeUnknownAppend,
				},
			},
		},
		{
			ID:     "RESULT-003",
			Title:  "the agent's question after streamed artifact text",
			Area:   "result",
			Source: "A2A 1.0 §3.7 (status messages request additional input), §6.3; A2A CLI A2ACLI_INTERACT_004. D breaks no clause: its stream closes at input-required (§11.7)",
			Setup:  "One streamed delegation to D; it streams a report in two chunks, then pauses at input-required with a status message asking which ledger to close.",
			Fleet: resultFleet(mockvendor.TaskArtifacts{
				Artifacts: []mockvendor.ArtifactSpec{resultStreamArtifacts[0]},
				AskAfter:  resultQuestion,
			}),
			Requests: []Request{
				resultStreamRequest(),
			},
			Checks: []Check{{
				ID:          "RESULT-003.QUESTION",
				Title:       "the agent's question is reported, not the artifact text before it",
				Grades:      []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "At input-required the outcome says interrupted, and its statusText is the text of the agent's last status message, its question, byte for byte: not the artifact text streamed before it, not the two run together.",
				Sources: []Source{
					A2A("§3.7", SrcDescriptive, Client).Read("agents attach messages to status updates to request additional input: the question is the status message, apart from the artifacts. Descriptive, so SHOULD in a2a-core"),
					A2A03("§9.4", SrcDescriptive, Client).Read("in 0.3's multi-turn example the agent's request for input is the message of the input-required status; descriptive, so SHOULD"),
					A2A("§6.3", SrcDescriptive, Client).Read("the example's input-required task carries its question as status.message"),
					CLI("A2ACLI_INTERACT_004", SrcMust).Read("reports taskId, contextId and state on interruption (a2a-cli SPEC §8.2): the caller learns it must answer"),
					ContractRule("Delegation outcome: Results", SrcDescriptive).Read("statusText is the text of the agent's last status message, its question at input-required"),
					Posture("a caller asked to answer needs the question the agent asked; reporting other text in its place misleads the caller"),
				},
				Fix:          "Report the text of the last status message (status.message parts) as statusText; keep artifact text in artifacts.",
				ReadsOutcome: true,
				Reached:      taskAnswered("d", "input-required"),
				Judge:        judgeQuestion,
			}},
		},
	}
}

// resultStreamRequest is a delegation of skill S to D that asks to stream.
func resultStreamRequest() Request {
	rq := lifeRequest(nil)
	rq.PreferStreaming = true
	return rq
}

// resultsDelivered needs vendor's results delivered to the orchestrator
// (on a stream when stream is set): an answer the trace records them for.
func resultsDelivered(vendor string, stream bool) Precondition {
	needs := "receive the results of a real task of " + vendorName(vendor)
	if stream {
		needs += " over a stream, every chunk"
	}
	return Precondition{
		Needs: needs,
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && !e.Probe && e.Results != nil && len(e.Results.Artifacts) > 0 && (!stream || e.Op == mockvendor.OpStream)
			})
		},
	}
}

// notStreamed is NOT_APPLICABLE for a delegation i that sent its real
// task by a plain send and streamed none (one that sent none has not
// reached the check: NOT_EXERCISED): joining chunks is owed by a client that chose to stream, and a
// plain send's answer holds the artifacts whole (RESULT-001 judges that).
func notStreamed(r *Run, i int) (Verdict, bool) {
	if i >= len(r.Delegations) {
		return Verdict{}, false
	}
	evs := r.During(i)
	plain := slices.ContainsFunc(evs, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpSend && !e.Probe })
	if plain && !slices.ContainsFunc(evs, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpStream && !e.Probe }) {
		return NotApplicablef("delegation %d streamed no task: a plain send's answer holds the artifacts whole, which RESULT-001.ARTIFACTS judges", i+1), true
	}
	return Verdict{}, false
}

// produced is what the last answer of delegation i that delivered
// results carried, summarised: the artifacts and the status text, with
// the event. ok is false when no answer delivered any.
func (r *Run) produced(i int) (arts []contract.Artifact, statusText string, ev mockvendor.Event, err error, ok bool) {
	evs := r.During(i)
	for k := len(evs) - 1; k >= 0; k-- {
		e := evs[k]
		if e.Probe || e.Results == nil {
			continue
		}
		for _, raw := range e.Results.Artifacts {
			a, err := contract.SummarizeArtifact(raw)
			if err != nil {
				return nil, "", e, err, true
			}
			arts = append(arts, a)
		}
		return arts, e.Results.StatusText, e, nil, true
	}
	return nil, "", mockvendor.Event{}, nil, false
}

// clippedLikeOutcome clips arts and text as the harness clips an outcome
// (contract.DelegationOutcome.Clip), so that what the vendor produced
// compares with a reported value past the contract's bounds.
func clippedLikeOutcome(arts []contract.Artifact, text string) ([]contract.Artifact, string) {
	o := contract.DelegationOutcome{Artifacts: slices.Clone(arts), StatusText: text}
	o.Clip()
	return o.Artifacts, o.StatusText
}

// judgeArtifacts compares delegation i's reported artifacts with those
// the vendor produced: all of them in order (only < 0), or only
// artifact only, found in the outcome by its id.
func judgeArtifacts(r *Run, i, only int) Verdict {
	o, bad := r.outcome(i)
	if bad != nil {
		return *bad
	}
	want, _, ev, err, ok := r.produced(i)
	if !ok {
		return Failf("delegation %d: no answer delivered the task's results", i+1)
	}
	if err != nil {
		return Failf("delegation %d: the vendor's results do not summarise: %v (a harness fault)", i+1, err).At(ev.Seq)
	}
	want, _ = clippedLikeOutcome(want, "")
	if only >= 0 {
		if only >= len(want) {
			return Failf("delegation %d: the vendor produced %d artifacts, the check judges artifact %d (a harness fault)", i+1, len(want), only)
		}
		got, found := findArtifact(o.Artifacts, want[only], only)
		if !found {
			return Failf("delegation %d: artifact %q (%s) is not in the outcome (%d artifacts reported)", i+1, want[only].ArtifactID, want[only].Name, len(o.Artifacts)).
				Want(describeArtifact(want[only]), describeArtifacts(o.Artifacts))
		}
		if d := artifactDiff(want[only], got); d != "" {
			return Failf("delegation %d: artifact %q: %s", i+1, want[only].ArtifactID, d).Want(describeArtifact(want[only]), describeArtifact(got))
		}
		return Passf("artifact %q reported as produced: %d parts, text of %d bytes", want[only].ArtifactID, len(want[only].Parts), len(want[only].Text))
	}
	if d := artifactsDiff(want, o.Artifacts); d != "" {
		return Failf("delegation %d: %s", i+1, d).Want(describeArtifacts(want), describeArtifacts(o.Artifacts))
	}
	return Passf("the %d artifacts reported are those produced, part for part", len(want))
}

// judgeUnknownAppend is RESULT-002.UNKNOWN-APPEND's judge: the log whole,
// or a loud refusal (a non-completed outcome that reports no log).
func judgeUnknownAppend(r *Run) Verdict {
	if v, ok := notStreamed(r, 0); ok {
		return v
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	if o.Outcome != contract.OutcomeCompleted && o.Outcome != contract.OutcomeInterrupted {
		want, _, _, _, ok := r.produced(0)
		if ok && len(want) > 1 {
			if _, found := findArtifact(o.Artifacts, want[1], 1); !found {
				return Passf("the stream was refused (%s) and no log claimed: a loud refusal, not a silent loss", o.Outcome)
			}
		}
	}
	return judgeArtifacts(r, 0, 1)
}

// judgeQuestion is RESULT-003.QUESTION's judge.
func judgeQuestion(r *Run) Verdict {
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	_, asked, ev, err, ok := r.produced(0)
	if !ok || asked == "" {
		return Failf("delegation 1: no answer delivered the agent's question")
	}
	if err != nil {
		return Failf("delegation 1: the vendor's results do not summarise: %v (a harness fault)", err).At(ev.Seq)
	}
	_, want := clippedLikeOutcome(nil, asked)
	if o.Outcome != contract.OutcomeInterrupted || normalTaskState(o.TaskState) != "input-required" {
		return Failf("delegation 1: the task paused at input-required with a question; the outcome says %s (taskState %q)", o.Outcome, o.TaskState).
			Want("interrupted at input-required", fmt.Sprintf("%s at %q", o.Outcome, o.TaskState))
	}
	if o.StatusText != want {
		return Failf("delegation 1: statusText is not the agent's question").Want(fmt.Sprintf("%q", want), fmt.Sprintf("%q", o.StatusText))
	}
	return Passf("interrupted at input-required with the agent's question as statusText")
}

// findArtifact finds want in got: by artifactId, or at position pos when
// the vendor gave it none (0.1 artifacts have an index, a Message reply's
// parts no id).
func findArtifact(got []contract.Artifact, want contract.Artifact, pos int) (contract.Artifact, bool) {
	if want.ArtifactID == "" {
		if pos < len(got) {
			return got[pos], true
		}
		return contract.Artifact{}, false
	}
	for _, a := range got {
		if a.ArtifactID == want.ArtifactID {
			return a, true
		}
	}
	return contract.Artifact{}, false
}

// artifactsDiff is the first difference between the artifacts produced
// and those reported, in order ("" when none).
func artifactsDiff(want, got []contract.Artifact) string {
	for k := range max(len(want), len(got)) {
		switch {
		case k >= len(got):
			return fmt.Sprintf("artifact %d (%q, %s) was produced and is not reported (%d reported)", k, want[k].ArtifactID, want[k].Name, len(got))
		case k >= len(want):
			return fmt.Sprintf("artifact %d (%q) is reported and was not produced (%d produced)", k, got[k].ArtifactID, len(want))
		case want[k].ArtifactID != "" && got[k].ArtifactID != want[k].ArtifactID:
			return fmt.Sprintf("artifact %d: id %q, produced %q", k, got[k].ArtifactID, want[k].ArtifactID)
		}
		if d := artifactDiff(want[k], got[k]); d != "" {
			return fmt.Sprintf("artifact %d (%q): %s", k, want[k].ArtifactID, d)
		}
	}
	return ""
}

// artifactDiff is the first difference between an artifact produced and
// the one reported: its parts (kind and SHA-256, in order), its text, its
// name when one is reported ("" when none).
func artifactDiff(want, got contract.Artifact) string {
	for j := range max(len(want.Parts), len(got.Parts)) {
		switch {
		case j >= len(got.Parts):
			return fmt.Sprintf("part %d (%s) was produced and is not reported (%d parts reported, %d produced)", j, want.Parts[j].Kind, len(got.Parts), len(want.Parts))
		case j >= len(want.Parts):
			return fmt.Sprintf("part %d (%s) is reported and was not produced (%d parts produced, %d reported)", j, got.Parts[j].Kind, len(want.Parts), len(got.Parts))
		case got.Parts[j] != want.Parts[j]:
			return fmt.Sprintf("part %d: %s %.12s…, produced %s %.12s…", j, got.Parts[j].Kind, got.Parts[j].SHA256, want.Parts[j].Kind, want.Parts[j].SHA256)
		}
	}
	if got.Text != want.Text {
		return fmt.Sprintf("text %q, produced %q", clipQuote(got.Text), clipQuote(want.Text))
	}
	if got.Name != "" && got.Name != want.Name {
		return fmt.Sprintf("name %q, produced %q", got.Name, want.Name)
	}
	return ""
}

// clipQuote shortens a text for a verdict.
func clipQuote(s string) string { return contract.ClipText(s, 120) }

// describeArtifact says in a line what an artifact is.
func describeArtifact(a contract.Artifact) string {
	kinds := make([]string, 0, len(a.Parts))
	for _, p := range a.Parts {
		kinds = append(kinds, p.Kind)
	}
	return fmt.Sprintf("%q %s parts %v text %q", a.ArtifactID, a.Name, kinds, clipQuote(a.Text))
}

// describeArtifacts says in a line what a list of artifacts is.
func describeArtifacts(as []contract.Artifact) string {
	if len(as) == 0 {
		return "no artifacts"
	}
	out := ""
	for k, a := range as {
		if k > 0 {
			out += "; "
		}
		out += describeArtifact(a)
	}
	return out
}
