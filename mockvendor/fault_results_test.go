package mockvendor

import (
	"encoding/json"
	"fmt"
	"testing"
)

// tAskConfig streams a report in two chunks (append false, then true), a
// log whose every chunk is an append (appendFirst), and then pauses at
// input-required with a question.
var tAskConfig = TaskArtifacts{
	Artifacts: []ArtifactSpec{
		{Name: "report", Chunks: 2, Parts: []ArtifactPart{{Text: "Q3 "}, {Text: "reconciled"}}},
		{Name: "log", Chunks: 2, AppendFirst: true, Parts: []ArtifactPart{{Text: "line 1\n"}, {Text: "line 2\n"}}},
	},
	AskAfter: "Which ledger should I close?",
}

// tStatusOf is the status a stream result (or a task) carries, in any
// dialect and binding.
func tStatusOf(res map[string]any) map[string]any {
	for _, k := range []string{"task", "statusUpdate"} {
		if in, ok := res[k].(map[string]any); ok {
			res = in
		}
	}
	st, _ := res["status"].(map[string]any)
	return st
}

// tAppendFlags are the append flags of the stream's artifact updates for
// artifact name, in order.
func tAppendFlags(d Dialect, results []map[string]any, name string) []any {
	var out []any
	for _, res := range results {
		u := tArtUpdate(d, res)
		if u == nil {
			continue
		}
		a, _ := u["artifact"].(map[string]any)
		flags := u
		if d == Dialect01 {
			flags = a
		}
		if a["name"] == name {
			out = append(out, flags["append"])
		}
	}
	return out
}

// TestArtifactsAppendFirstAndAsk: per dialect and binding, a stream
// announces the log's id in its working status, sends every chunk of the
// log with append true, and ends at input-required with the question as
// the status message after the artifacts; a blocking send answers the task
// at input-required holding the artifacts whole and the question. The
// trace records what each answer delivered (Event.Results).
func TestArtifactsAppendFirstAndAsk(t *testing.T) {
	f := tStart(t, tHonestConfig())
	if _, err := f.AddFault("d", Spec("artifacts", tAskConfig)); err != nil {
		t.Fatal(err)
	}
	c := tClient(t, f, tViaProxy)
	for _, b := range tArtBindings {
		t.Run(b.name, func(t *testing.T) {
			seq := f.Trace().Seq()
			task := b.send(t, c, true)
			st, _ := task["status"].(map[string]any)
			if q := tPath(st, "message", "parts", 0, "text"); q != tAskConfig.AskAfter {
				t.Errorf("send: status message %v, want the question", st)
			}
			if arts := tAsList(task["artifacts"]); len(arts) != 2 || len(tAsList(tPath(arts, 1, "parts"))) != 2 {
				t.Errorf("send: artifacts %v, want the report and the log whole", task["artifacts"])
			}
			ev := tWaitEvent(t, f, seq, func(ev Event) bool { return ev.Op == OpSend })
			if ev.Results == nil || len(ev.Results.Artifacts) != 2 || ev.Results.StatusText != tAskConfig.AskAfter {
				t.Errorf("send: trace results %+v", ev.Results)
			}

			seq = f.Trace().Seq()
			var res []map[string]any
			if b.rest {
				res = b.sse(t, c, "", "/message:stream", map[string]any{"message": tMessage(Dialect10, "streamed", nil)})
			} else {
				res = b.sse(t, c, tDialectOf(t, b.d).Stream, "", tSendParams(b.d, "streamed", ""))
			}
			tCheckAskStream(t, b.d, res)
			ev = tWaitEvent(t, f, seq, func(ev Event) bool { return ev.Op == OpStream && !ev.Pending })
			if ev.Results == nil || len(ev.Results.Artifacts) != 2 || ev.Results.StatusText != tAskConfig.AskAfter {
				t.Fatalf("stream: trace results %+v", ev.Results)
			}
			var log struct {
				Parts []json.RawMessage `json:"parts"`
			}
			if err := json.Unmarshal(ev.Results.Artifacts[1], &log); err != nil || len(log.Parts) != 2 {
				t.Errorf("stream: the recorded log %s, want its two parts whole", ev.Results.Artifacts[1])
			}
		})
	}
}

// tCheckAskStream checks a stream of tAskConfig's task in dialect d.
func tCheckAskStream(t *testing.T, d Dialect, res []map[string]any) {
	t.Helper()
	if len(res) < 4 {
		t.Fatalf("stream: %v", res)
	}
	if got := fmt.Sprint(tAppendFlags(d, res, "report")); got != "[false true]" {
		t.Errorf("report append flags %s, want [false true]", got)
	}
	if got := fmt.Sprint(tAppendFlags(d, res, "log")); got != "[true true]" {
		t.Errorf("log append flags %s, want [true true]", got)
	}
	announced := false
	for _, r := range res {
		if st := tStatusOf(r); st != nil && tEventState(map[string]any{"result": r}) == "working" {
			text, _ := tPath(st, "message", "parts", 0, "text").(string)
			announced = announced || (d == Dialect01 && text != "") || (text != "" && tContainsID(text))
		}
	}
	if !announced {
		t.Errorf("no working status announces the log: %v", res)
	}
	last := res[len(res)-1]
	if s := tEventState(map[string]any{"result": last}); s != "input-required" {
		t.Errorf("the last result says %q, want input-required", s)
	}
	if q := tPath(tStatusOf(last), "message", "parts", 0, "text"); q != tAskConfig.AskAfter {
		t.Errorf("the last status message %v, want the question", tStatusOf(last))
	}
	if tArtUpdate(d, res[len(res)-2]) == nil {
		t.Errorf("the question does not come right after the artifacts: %v", res[len(res)-2])
	}
}

// tContainsID reports whether text names a configured artifact's id.
func tContainsID(text string) bool {
	var id string
	_, err := fmt.Sscanf(text, "writing artifact %s", &id)
	return err == nil && len(id) > 2 && id[:2] == "a-"
}
