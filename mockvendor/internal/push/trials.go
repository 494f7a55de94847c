package push

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The trials of a client's receiver (the push-trials fault, whose doc says
// what each delivery is and why): the completion of a marked task is
// delivered to each config as a sequence, in order,
//
//	unknown-task, forged, the artifact events (genuine), duplicate,
//	unsigned, the final status (genuine)
//
// for a 1.0 config, each a StreamResponse of one member as a stream sends
// it (A2A 1.0 §4.3.3: the same events as streaming); for a 0.3 or 0.1
// config, Task objects: unknown-task, forged, unsigned, the completed
// task (genuine), duplicate. The kinds the task was not marked with are
// left out. A sequence holds at most MaxTrials deliveries. Each is traced
// with the id of the task whose config received it (Event.TaskID), the
// unknown-task delivery too (its note names the other task), and only the
// genuine ones with the state they show (Event.State).

// MaxTrials is the most deliveries one trials sequence makes (its
// artifact events included): each has its MaxAttempts attempts.
const MaxTrials = 16

// Texts the trial deliveries carry, for the checks and for people reading
// a receiver's log.
const (
	// UnknownTaskText is the status message of the unknown task's failure.
	UnknownTaskText = "push trial: this task is not one you created; it failed"
	// ForgedText is the status message of the forged cancellation.
	ForgedText = "push trial: forged by a third party; the task was not canceled"
	// UnsignedText is the text part the unsigned delivery appends.
	UnsignedText = " [push trial: appended by a third party]"
)

// trials is the sequence for the completion of t to config c; final is
// its genuine delivery of the completed task, as an honest vendor sends
// it.
func trials(v Vendor, t *tasks.Task, now time.Time, c Config, final post) ([]post, error) {
	kinds := t.PushTrials
	a, err := c.authentication()
	if err != nil {
		return nil, err
	}
	forgedHdr := final.hdr.Clone()
	if c.Token != "" {
		forgedHdr.Set("X-A2A-Notification-Token", "forged-"+randomHex())
	}
	forgedHdr.Set("Authorization", cmpOr(a.scheme, "Bearer")+" forged-"+randomHex())
	unsignedHdr := final.hdr.Clone()
	unsignedHdr.Del("Authorization")
	unsignedHdr.Del("X-A2A-Notification-Token")

	var genuine []post
	if c.Dialect == a2a.Dialect10 {
		evs := v.Events(t, c.Dialect)
		for _, e := range evs[min(2, len(evs)):max(len(evs)-1, 0)] { // the artifact events
			b, err := json.Marshal(e)
			if err != nil {
				return nil, err
			}
			genuine = append(genuine, post{kind: trace.DeliveryGenuine, body: b, hdr: final.hdr, taskID: t.ID, note: "an artifact update"})
		}
		if len(evs) > 0 {
			b, err := json.Marshal(evs[len(evs)-1])
			if err != nil {
				return nil, err
			}
			final.body, final.note = b, "the final status"
		}
	}
	var out []post
	add := func(kind string, doc any, hdr http.Header, taskID, note string) error {
		if !slices.Contains(kinds, kind) {
			return nil
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		out = append(out, post{kind: kind, body: b, hdr: hdr, taskID: taskID, note: note})
		return nil
	}
	d := c.Dialect
	other := &tasks.Task{ID: tasks.NewID("t-"), ContextID: tasks.NewID("ctx-")}
	if err := add(trace.DeliveryUnknownTask, endedAs(other, d, "failed", UnknownTaskText, now), final.hdr, t.ID,
		"task "+other.ID+", not the client's, claimed failed"); err != nil {
		return nil, err
	}
	if err := add(trace.DeliveryForged, endedAs(t, d, "canceled", ForgedText, now), forgedHdr, t.ID, "a wrong credential, the task claimed canceled"); err != nil {
		return nil, err
	}
	out = append(out, genuine...)
	if d == a2a.Dialect10 && len(genuine) > 0 && slices.Contains(kinds, trace.DeliveryDuplicate) {
		dup := genuine[len(genuine)-1]
		dup.kind, dup.note = trace.DeliveryDuplicate, "the artifact update before, again"
		out = append(out, dup)
	}
	if err := add(trace.DeliveryUnsigned, appended(v, t, d, now), unsignedHdr, t.ID, "no credential, a part the agent never produced"); err != nil {
		return nil, err
	}
	out = append(out, final)
	if d != a2a.Dialect10 && slices.Contains(kinds, trace.DeliveryDuplicate) {
		dup := final
		dup.kind, dup.note, dup.results = trace.DeliveryDuplicate, "the completed task, again", nil
		dup.state = ""
		out = append(out, dup)
	}
	if len(out) > MaxTrials {
		out = append(out[:MaxTrials-1], final)
	}
	return out, nil
}

// endedAs is a notification that task t ended in state (0.3 spelling)
// with a status message of text, in dialect d: a 1.0 status update, a
// 0.x Task.
func endedAs(t *tasks.Task, d a2a.Dialect, state, text string, now time.Time) any {
	msg := a2a.EncodeMessage(&a2a.Message{Role: "agent", MessageID: tasks.NewID("m-"), Parts: []a2a.Part{{Kind: "text", Text: text}}}, d)
	status := map[string]any{"state": a2a.StateName(state, d), "timestamp": now.UTC().Format(time.RFC3339Nano), "message": msg}
	switch d {
	case a2a.Dialect10:
		return map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status}}
	case a2a.Dialect03:
		return map[string]any{"kind": "task", "id": t.ID, "contextId": t.ContextID, "status": status}
	}
	return map[string]any{"id": t.ID, "sessionId": t.ContextID, "status": status}
}

// appended is the unsigned delivery: for 1.0 an artifact update that
// appends UnsignedText to the task's last artifact; for 0.x the task
// completed with that text appended to its last artifact's parts.
func appended(v Vendor, t *tasks.Task, d a2a.Dialect, now time.Time) any {
	part := a2a.EncodePart(a2a.Part{Kind: "text", Text: UnsignedText}, d)
	if d == a2a.Dialect10 {
		id := "a-" + t.ID
		if evs := v.Events(t, d); len(evs) > 3 {
			if au, ok := evs[len(evs)-2].(map[string]any)["artifactUpdate"].(map[string]any); ok {
				if art, ok := au["artifact"].(map[string]any); ok {
					id, _ = art["artifactId"].(string)
				}
			}
		}
		return map[string]any{"artifactUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "append": true, "lastChunk": true,
			"artifact": map[string]any{"artifactId": id, "parts": []any{part}}}}
	}
	doc, _ := v.EncodeTask(t, d, "completed", now).(map[string]any)
	if arts, ok := doc["artifacts"].([]any); ok && len(arts) > 0 {
		if last, ok := arts[len(arts)-1].(map[string]any); ok {
			cp := make(map[string]any, len(last))
			for k, x := range last {
				cp[k] = x
			}
			parts, _ := cp["parts"].([]any)
			cp["parts"] = append(slices.Clone(parts), part)
			arts = append(slices.Clone(arts[:len(arts)-1]), cp)
			doc["artifacts"] = arts
		}
	}
	return doc
}

// randomHex is 16 random hex digits: a credential no client gave.
func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
