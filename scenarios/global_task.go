package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The global requirements about tasks and messages: their shapes, how many
// real tasks one delegation may create, which skills the work may go out
// under, and which tasks may be cancelled.

// wireMessage is the part of a send's params the shape check reads.
type wireMessage struct {
	Params struct {
		Message *struct {
			Role  *string                      `json:"role"`
			Parts []map[string]json.RawMessage `json:"parts"`
		} `json:"message"`
	} `json:"params"`
}

// partMembers1 are the members of which a 1.0 part holds exactly one.
var partMembers1 = []string{"text", "data", "raw", "url"}

// messageShapeError says what is wrong with a message for its dialect, or
// "" when nothing is.
func messageShapeError(dialect string, raw json.RawMessage) string {
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil || w.Params.Message == nil {
		return "params has no message object"
	}
	m := w.Params.Message
	role := ""
	if m.Role != nil {
		role = *m.Role
	}
	if len(m.Parts) == 0 {
		return "the message has no parts"
	}
	switch dialect {
	case string(mockvendor.Dialect10):
		if role != "ROLE_USER" && role != "ROLE_AGENT" {
			return fmt.Sprintf("role %q in a 1.0 message (want ROLE_USER)", role)
		}
		for i, p := range m.Parts {
			if _, ok := p["kind"]; ok {
				return fmt.Sprintf(`part %d has "kind", a 0.2-0.3 member (1.0 parts are {"text": ...}, {"data": ...}, ...)`, i)
			}
			if _, ok := p["type"]; ok {
				return fmt.Sprintf(`part %d has "type", a 0.1 member`, i)
			}
			n := 0
			for _, k := range partMembers1 {
				if _, ok := p[k]; ok {
					n++
				}
			}
			if n != 1 {
				return fmt.Sprintf("part %d holds %d of text/data/raw/url, want exactly one", i, n)
			}
		}
	case string(mockvendor.Dialect03), string(mockvendor.Dialect01):
		member := map[string]string{string(mockvendor.Dialect03): "kind", string(mockvendor.Dialect01): "type"}[dialect]
		if role != "user" && role != "agent" {
			return fmt.Sprintf("role %q in a %s message (want user)", role, dialect)
		}
		for i, p := range m.Parts {
			var k string
			if json.Unmarshal(p[member], &k) != nil || (k != "text" && k != "data" && k != "file") {
				return fmt.Sprintf("part %d has no %q of text, data or file (a %s part needs one)", i, member, dialect)
			}
		}
	}
	return ""
}

func judgeMessageShape(r *Run) Verdict {
	n := 0
	for _, e := range r.Events {
		body := e.Body() // a body nested too deep for the report is kept as text
		if !isTaskSend(e) || len(body) == 0 {
			continue
		}
		n++
		if bodyIsParams(e) {
			body = append(append([]byte(`{"params":`), body...), '}')
		}
		if why := messageShapeError(e.Dialect, body); why != "" {
			return Failf("%s (%s dialect): %s", describe(e), e.Dialect, why).At(e.Seq).Want("a message in the "+e.Dialect+" shape", why)
		}
	}
	if n == 0 {
		return NotExercisedf("no message was sent")
	}
	return Passf("%d messages, each in its dialect's shape", n)
}

// terminal reports whether a (0.3-spelled) task state is final.
func terminal(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}

// createdTask reports whether the event created a real task the
// orchestrator learnt of: a real send the vendor accepted as a new task. A
// stream that a fault answered as plain JSON, and one the orchestrator left
// before its first frame (so it never saw the task id), are the harness's
// own doing and do not count.
func createdTask(e mockvendor.Event) bool {
	if e.Op == mockvendor.OpStream && strings.Contains(e.Note, "before the first frame") {
		return false
	}
	return isRealSend(e) && e.ErrorCode == 0 && e.TaskID != "" && !slices.Contains(e.Faults, "stream-content-type-lie")
}

// judgeOneTask: in each delegation, a real task may be created only when
// every earlier one was refused, failed or cancelled.
func judgeOneTask(r *Run) Verdict {
	for i := range r.Delegations {
		state := map[string]string{}
		var open []string
		for _, e := range r.During(i) {
			if e.TaskID != "" && e.State != "" {
				state[e.TaskID] = e.State
			}
			if e.Op == mockvendor.OpCancel && e.ErrorCode == 0 {
				state[e.TaskID] = "canceled"
			}
			if !createdTask(e) {
				continue
			}
			if slices.Contains(open, e.TaskID) {
				continue // a further turn of a task already counted
			}
			for _, id := range open {
				if st := state[id]; st != "failed" && st != "canceled" && st != "rejected" {
					return Failf("delegation %d: %s created a second real task while task %s was %s", i+1, describe(e), id, orUnknown(st)).At(e.Seq).
						Want("one real task per delegation", fmt.Sprintf("tasks %s and %s", id, e.TaskID))
				}
			}
			open = append(open, e.TaskID)
		}
	}
	return Passf("no delegation created more than one live real task")
}

func orUnknown(s string) string {
	if s == "" {
		return "in an unknown state"
	}
	return s
}

// judgeSkillSuccessor: each real send goes out under the delegation's
// skill, a successor the scenario names for it, or no skill id at all (the
// vendor's default, which the orchestrator did not choose).
func judgeSkillSuccessor(r *Run) Verdict {
	n := 0
	for i, d := range r.Delegations {
		want := d.Request.Task.Skill
		allowed := append([]string{want}, r.Successors[want]...)
		for _, e := range r.During(i) {
			if !isRealSend(e) || e.Skill == "" {
				continue
			}
			n++
			if !slices.Contains(allowed, e.Skill) {
				return Failf("delegation %d: %s sent the %s work under skill %q, which is not the skill asked for or a successor of it", i+1, describe(e), want, e.Skill).At(e.Seq).
					Want(strings.Join(allowed, " or "), e.Skill)
			}
		}
	}
	return Passf("%d real sends, each under the requested skill or its successor", n)
}

// judgeCancelAbandoned: no cancel of a task the orchestrator had already
// seen finish: a terminal state shown to it (on an answer, or a stream
// frame, shown) before the cancel arrived. Time, not arrival order,
// decides: a stream opened before the cancel may deliver the canceled
// status after it.
func judgeCancelAbandoned(r *Run) Verdict {
	cancels := 0
	for _, c := range r.Events {
		if c.Op != mockvendor.OpCancel || c.Probe || c.TaskID == "" {
			continue
		}
		cancels++
		for _, e := range r.Events {
			if e.TaskID != c.TaskID || e.Vendor != c.Vendor || e.Op == mockvendor.OpCancel || e.ErrorCode != 0 {
				continue
			}
			for _, s := range shown(e) {
				if terminal(s.State) && s.Time.Before(c.Time) {
					return Failf("%s cancelled task %s after %s showed it %s", describe(c), c.TaskID, describe(e), s.State).At(c.Seq).
						Want("cancel only a task being abandoned", "cancel of a "+s.State+" task")
				}
			}
		}
	}
	return Passf("%d cancels, none of a finished task", cancels)
}
