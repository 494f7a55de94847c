package trace

import "encoding/json"

// Results is what an answer delivered of a task's results, as the vendor
// produced them: the artifacts whole and the text of the status message.
// The RESULT checks compare it with what the orchestrator reports.
type Results struct {
	// Artifacts are the artifacts the answer delivered, each whole, in
	// the answer's dialect, in the order the agent first announced them:
	// a task's artifacts (a send's or a get's answer), every artifact of
	// a stream once its last chunk was written, or a Message reply's parts
	// as one artifact with no artifactId. Empty means none.
	Artifacts []json.RawMessage `json:"artifacts,omitempty"`
	// StatusText is the text of the message of the last status the answer
	// delivered (its text parts joined with nothing between): the agent's
	// question at input-required. Empty means that status had no message.
	StatusText string `json:"statusText,omitempty"`
}

// MaxTracedResults bounds the bytes of an event's Results (its artifacts'
// JSON and its status text, 64 KiB): past it the event keeps none and
// names "results" in Clipped. The fleet's results are a few hundred bytes.
const MaxTracedResults = 64 << 10

// KeepResults sets e.Results to r when r holds something and fits
// MaxTracedResults; a larger r is left out and named in e.Clipped.
func KeepResults(e *Event, r *Results) {
	if r == nil || (len(r.Artifacts) == 0 && r.StatusText == "") {
		return
	}
	n := len(r.StatusText)
	for _, a := range r.Artifacts {
		n += len(a)
	}
	if n > MaxTracedResults {
		e.Clipped = AppendOnce(e.Clipped, "results")
		return
	}
	e.Results = r
}
