package suite

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// Event is one line of a run's event stream (Config.Events), written as it
// happens: a scenario starting, a check's result, a scenario ending, the
// run ending. Fields that do not apply to the kind are left out.
type Event struct {
	// Kind is "scenario-start", "check", "scenario-end" or "run-end".
	Kind string    `json:"event"`
	Time time.Time `json:"time"`
	// Scenario is the scenario's id (every kind but run-end).
	Scenario string `json:"scenario,omitempty"`
	// Check, Result, Grades and Detail describe a check's result.
	Check  string            `json:"check,omitempty"`
	Result scenarios.Outcome `json:"result,omitempty"`
	Grades []scenarios.Grade `json:"grades,omitempty"`
	Detail string            `json:"detail,omitempty"`
	// DurationMs is how long the scenario (scenario-end) or the run
	// (run-end) took.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Conformant, on run-end, is each profile's verdict.
	Conformant map[scenarios.Profile]bool `json:"conformant,omitempty"`
	// StoppedEarly, on run-end, is Report.StoppedEarly.
	StoppedEarly string `json:"stoppedEarly,omitempty"`
}

// eventLog writes events as JSON lines to w, one whole line at a time
// from any goroutine; a nil *eventLog writes nothing.
type eventLog struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newEventLog(w io.Writer) *eventLog {
	if w == nil {
		return nil
	}
	return &eventLog{enc: json.NewEncoder(w)}
}

func (l *eventLog) emit(e Event) {
	if l == nil {
		return
	}
	e.Time = time.Now().UTC()
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.enc.Encode(e) // a reader that went away must not stop the run
}

func (l *eventLog) check(cr CheckResult) {
	l.emit(Event{Kind: "check", Scenario: cr.Scenario, Check: cr.ID, Result: cr.Result, Grades: cr.Grades, Detail: cr.Detail})
}

func (l *eventLog) runEnd(r *Report) {
	if l == nil || r == nil {
		return
	}
	conf := map[scenarios.Profile]bool{}
	for p, ps := range r.Profiles {
		conf[p] = ps.Conformant
	}
	l.emit(Event{Kind: "run-end", DurationMs: r.DurationMs, Conformant: conf, StoppedEarly: r.StoppedEarly})
}
