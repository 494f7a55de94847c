package fault

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// TestWalkAnswer: the objects of each answer shape are found in order,
// parents first; a push config or a card holds none.
func TestWalkAnswer(t *testing.T) {
	names := map[objKind]string{objResponse: "response", objTask: "task", objStatus: "status", objMessage: "message",
		objArtifact: "artifact", objPart: "part", objStatusUpdate: "status-update", objArtifactUpdate: "artifact-update"}
	cases := []struct {
		name, answer string
		want         []string
	}{
		{"1.0 send", `{"task":{"id":"t","status":{"state":"TASK_STATE_COMPLETED","message":{"role":"ROLE_AGENT","parts":[{"text":"a"}]}},"history":[{"role":"ROLE_USER","parts":[{"text":"q"}]}],"artifacts":[{"artifactId":"x","parts":[{"text":"r"},{"data":{}}]}]}}`,
			[]string{"response", "task", "status", "message", "part", "message", "part", "artifact", "part", "part"}},
		{"1.0 status update", `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}`, []string{"response", "status-update", "status"}},
		{"1.0 artifact update", `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"x","parts":[{"text":"r"}]}}}`, []string{"response", "artifact-update", "artifact", "part"}},
		{"1.0 message reply", `{"message":{"role":"ROLE_AGENT","parts":[{"text":"a"}]}}`, []string{"response", "message", "part"}},
		{"bare task", `{"id":"t","status":{"state":"TASK_STATE_WORKING"}}`, []string{"task", "status"}},
		{"list", `{"tasks":[{"id":"t","status":{}},{"id":"u","status":{}}],"nextPageToken":""}`, []string{"task", "status", "task", "status"}},
		{"0.3 status update", `{"kind":"status-update","taskId":"t","status":{"state":"working"},"final":false}`, []string{"status-update", "status"}},
		{"0.3 message", `{"kind":"message","role":"agent","parts":[{"kind":"text","text":"a"}]}`, []string{"message", "part"}},
		{"push config", `{"taskId":"t","pushNotificationConfig":{"url":"https://hook.example"}}`, nil},
		{"card", `{"name":"D","skills":[{"id":"s"}]}`, nil},
	}
	for _, c := range cases {
		var v map[string]any
		if err := json.Unmarshal([]byte(c.answer), &v); err != nil {
			t.Fatal(err)
		}
		var got []string
		walkAnswer(v, func(k objKind, _ map[string]any) { got = append(got, names[k]) })
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: visited %v, want %v", c.name, got, c.want)
		}
	}
}

// TestUnknownRoleLeavesProbesAndUsers: a probe's answer is untouched; a
// submitted status gets no message; the caller's message keeps its role.
func TestUnknownRoleLeavesProbesAndUsers(t *testing.T) {
	u := &UnknownRole{}
	answer := func() map[string]any {
		return map[string]any{"task": map[string]any{"id": "t", "status": map[string]any{"state": "TASK_STATE_SUBMITTED"},
			"history": []any{map[string]any{"role": "ROLE_USER", "parts": []any{}}}}}
	}
	v := answer()
	u.OnAnswer(&Call{Dialect: a2a.Dialect10, Probe: true}, v)
	w := answer()
	c := &Call{Dialect: a2a.Dialect10}
	u.OnAnswer(c, w)
	for _, m := range []map[string]any{v, w} {
		task := m["task"].(map[string]any)
		if _, has := task["status"].(map[string]any)["message"]; has || task["history"].([]any)[0].(map[string]any)["role"] != "ROLE_USER" {
			t.Errorf("changed: %v", m)
		}
	}
	if len(c.Faults) != 0 {
		t.Errorf("named itself without acting: %v", c.Faults)
	}
}
