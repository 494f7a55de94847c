package a2a

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestProtoNames: proto field names become JSON names at every level but
// inside metadata and data, the JSON name wins when both are sent, and a
// body with nothing to rename comes back as it was.
func TestProtoNames(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"top level", `{"history_length":2,"id":"t-1"}`, `{"historyLength":2,"id":"t-1"}`},
		{"nested message and parts", `{"message":{"message_id":"m","context_id":"c","parts":[{"text":"x","media_type":"text/plain"}]},"configuration":{"accepted_output_modes":["text/plain"],"history_length":0}}`,
			`{"configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0},"message":{"contextId":"c","messageId":"m","parts":[{"mediaType":"text/plain","text":"x"}]}}`},
		{"metadata and data keep their keys", `{"metadata":{"skill_id":"a"},"message":{"task_id":"t","parts":[{"data":{"a_b":1}}],"metadata":{"x_y":2}}}`,
			`{"message":{"metadata":{"x_y":2},"parts":[{"data":{"a_b":1}}],"taskId":"t"},"metadata":{"skill_id":"a"}}`},
		{"JSON name wins", `{"page_size":5,"pageSize":1}`, `{"pageSize":1}`},
		{"values with underscores stay", `{"status":"TASK_STATE_WORKING","message":{"role":"ROLE_USER"}}`, `{"status":"TASK_STATE_WORKING","message":{"role":"ROLE_USER"}}`},
		{"not an object", `"a_b"`, `"a_b"`},
		{"not JSON", `{"a_b":`, `{"a_b":`},
	}
	for _, tc := range cases {
		got := ProtoNamesToJSON(json.RawMessage(tc.in))
		var g, w any
		if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(tc.want), &w) != nil {
			if string(got) != tc.want {
				t.Errorf("%s: ProtoNamesToJSON(%s) = %s, want %s", tc.name, tc.in, got, tc.want)
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: ProtoNamesToJSON(%s) = %s, want %s", tc.name, tc.in, got, tc.want)
		}
	}
	for _, in := range []string{`{"status":"TASK_STATE_WORKING"}`, `{"a":1}`} {
		if got := ProtoNamesToJSON(json.RawMessage(in)); string(got) != in {
			t.Errorf("ProtoNamesToJSON(%s) rewrote it: %s", in, got)
		}
	}
	for proto, want := range map[string]string{"task_id": "taskId", "status_timestamp_after": "statusTimestampAfter", "id": "id", "a__b": "aB"} {
		if got := JSONName(proto); got != want {
			t.Errorf("JSONName(%q) = %q, want %q", proto, got, want)
		}
	}
}
