package grpc

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// TestFromJSON: an honest answer reads exactly; an enum name outside the
// proto's enum becomes the first number past it, an unknown member is
// dropped, and the rest of the answer stays.
func TestFromJSON(t *testing.T) {
	b := []byte(`{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_PAUSED","message":{"messageId":"m","role":"ROLE_SYSTEM","parts":[{"text":"hi"}],"x":1}},"extra":true}}`)
	var m a2apb.StreamResponse
	if err := fromJSON(b, &m); err != nil {
		t.Fatal(err)
	}
	su := m.GetStatusUpdate()
	if su.GetTaskId() != "t1" || su.GetStatus().GetMessage().GetParts()[0].GetText() != "hi" {
		t.Fatalf("answer lost content: %v", &m)
	}
	if st := su.GetStatus().GetState(); st != 9 {
		t.Errorf("state %d, want 9 (past TaskState's 0..8)", st)
	}
	if r := su.GetStatus().GetMessage().GetRole(); r != 3 {
		t.Errorf("role %d, want 3 (past Role's 0..2)", r)
	}
	var task a2apb.Task
	if err := fromJSON([]byte(`{"id":"t","status":{"state":"TASK_STATE_WORKING"}}`), &task); err != nil || task.GetStatus().GetState() != a2apb.TaskState_TASK_STATE_WORKING {
		t.Errorf("honest task: %v %v", &task, err)
	}
}
