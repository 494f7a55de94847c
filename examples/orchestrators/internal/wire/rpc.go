package wire

import (
	"encoding/json"
	"fmt"
	"strings"
)

// RPCResponse is a JSON-RPC 2.0 response.
type RPCResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// ServerRange reports whether the code is in the implementation-defined
// server range -32000..-32099 (where A2A puts its own errors).
func (e *RPCError) ServerRange() bool { return e != nil && e.Code <= -32000 && e.Code >= -32099 }

// NotA2A reports whether the code says the endpoint does not implement the
// method or its parameters at all (-32601, -32602, -32600, -32700).
func (e *RPCError) NotA2A() bool {
	if e == nil {
		return false
	}
	switch e.Code {
	case -32601, -32602, -32600, -32700:
		return true
	}
	return false
}

// SkillHint is what a -32004 (or any error) data says about skills.
type SkillHint struct {
	// Region named by the error data. Empty means none.
	Region string
	// AvailableSkills named by the error data. Nil means none.
	AvailableSkills []string
}

// Hint reads region and availableSkills from the error data: a 1.0 array of
// typed objects (the element that has availableSkills wins; a
// google.rpc.ErrorInfo's comma-joined metadata is the fallback) or a 0.x
// object.
func (e *RPCError) Hint() SkillHint {
	var h SkillHint
	if e == nil || len(e.Data) == 0 {
		return h
	}
	var objs []map[string]any
	var arr []map[string]any
	if json.Unmarshal(e.Data, &arr) == nil {
		objs = arr
	} else {
		var obj map[string]any
		if json.Unmarshal(e.Data, &obj) == nil {
			objs = []map[string]any{obj}
		}
	}
	for _, o := range objs {
		if list, ok := o["availableSkills"].([]any); ok {
			h.AvailableSkills = nil
			for _, s := range list {
				if str, ok := s.(string); ok {
					h.AvailableSkills = append(h.AvailableSkills, str)
				}
			}
			if r, ok := o["region"].(string); ok {
				h.Region = r
			}
			return h
		}
	}
	for _, o := range objs {
		md, _ := o["metadata"].(map[string]any)
		if s, ok := md["availableSkills"].(string); ok && s != "" && h.AvailableSkills == nil {
			h.AvailableSkills = strings.Split(s, ",")
		}
		if r, ok := md["region"].(string); ok && h.Region == "" {
			h.Region = r
		}
		if r, ok := o["region"].(string); ok && h.Region == "" {
			h.Region = r
		}
	}
	return h
}

// TaskInfo is what a result says about the task.
type TaskInfo struct {
	// ID is the task id; empty when the result is a message.
	ID string
	// State is the normalized (0.3 spelling) task state.
	State string
	// Message is true when the result was a message, not a task.
	Message bool
	// ContextID is the task's (or status update's) contextId; empty when
	// the result names none.
	ContextID string
}

// ParseResult reads a send, get or cancel result: the 1.0 wrappers
// {"task": ...} / {"message": ...}, a bare task (1.0 get/cancel, 0.x), or a
// 0.x message; also stream results {"statusUpdate": ...}.
func ParseResult(raw json.RawMessage) (TaskInfo, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return TaskInfo{}, fmt.Errorf("result is not an object: %w", err)
	}
	if inner, ok := m["task"]; ok {
		return ParseResult(inner)
	}
	if _, ok := m["message"]; ok {
		return TaskInfo{Message: true}, nil
	}
	for _, k := range []string{"statusUpdate", "artifactUpdate"} {
		if inner, ok := m[k]; ok {
			var u struct {
				TaskID    string `json:"taskId"`
				ContextID string `json:"contextId"`
				Status    *struct {
					State string `json:"state"`
				} `json:"status"`
			}
			if err := json.Unmarshal(inner, &u); err != nil {
				return TaskInfo{}, err
			}
			ti := TaskInfo{ID: u.TaskID, ContextID: u.ContextID}
			if u.Status != nil {
				ti.State = NormalState(u.Status.State)
			}
			return ti, nil
		}
	}
	var t struct {
		Kind      string `json:"kind"`
		ID        string `json:"id"`
		TaskID    string `json:"taskId"`
		ContextID string `json:"contextId"`
		SessionID string `json:"sessionId"`
		Status    *struct {
			State string `json:"state"`
		} `json:"status"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return TaskInfo{}, err
	}
	if t.Kind == "message" {
		return TaskInfo{Message: true}, nil
	}
	ti := TaskInfo{ID: t.ID, ContextID: t.ContextID}
	if ti.ID == "" {
		ti.ID = t.TaskID
	}
	if ti.ContextID == "" {
		ti.ContextID = t.SessionID // 0.1
	}
	if t.Status != nil {
		ti.State = NormalState(t.Status.State)
	}
	if ti.ID == "" && ti.State == "" {
		return TaskInfo{}, fmt.Errorf("result is neither a task nor a message")
	}
	return ti, nil
}
