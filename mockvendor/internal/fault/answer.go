package fault

// What an answer hook (AnswerHook) sees is an answer's result object or
// one stream event, in the call's dialect. walkAnswer finds the A2A
// objects in it, whatever the dialect's shapes: the 1.0 wrappers
// (SendMessageResponse, StreamResponse: {"task"}, {"message"},
// {"statusUpdate"}, {"artifactUpdate"}), a bare task (GetTask,
// CancelTask, 0.1), a ListTasks page ({"tasks": [...]}), and the 0.3
// objects named by their kind. Anything else (a push config, a card) has
// no objects.

// objKind names an A2A object an answer holds.
type objKind int

const (
	// objResponse is a 1.0 wrapper: SendMessageResponse or StreamResponse.
	objResponse objKind = iota
	objTask
	objStatus
	objMessage
	objArtifact
	objPart
	// objStatusUpdate and objArtifactUpdate are the stream's update
	// events (TaskStatusUpdateEvent, TaskArtifactUpdateEvent).
	objStatusUpdate
	objArtifactUpdate
)

// visitor is called on each object found, parents before their members.
type visitor func(k objKind, m map[string]any)

// wrappers are the members of a 1.0 wrapper, in the proto's order.
var wrappers = []struct {
	key  string
	walk func(map[string]any, visitor)
}{{"task", walkTask}, {"message", walkMessage}, {"statusUpdate", walkStatusUpdate}, {"artifactUpdate", walkArtifactUpdate}}

// walkAnswer visits the A2A objects of answer v.
func walkAnswer(v map[string]any, visit visitor) {
	wrapped := false
	for _, w := range wrappers {
		if m, ok := v[w.key].(map[string]any); ok {
			if !wrapped {
				visit(objResponse, v)
				wrapped = true
			}
			w.walk(m, visit)
		}
	}
	if wrapped {
		return
	}
	if list, ok := v["tasks"].([]any); ok {
		eachObject(list, func(t map[string]any) { walkTask(t, visit) })
		return
	}
	switch kind, _ := v["kind"].(string); {
	case kind == "task":
		walkTask(v, visit)
	case kind == "message":
		walkMessage(v, visit)
	case kind == "status-update":
		walkStatusUpdate(v, visit)
	case kind == "artifact-update":
		walkArtifactUpdate(v, visit)
	case v["id"] != nil && v["status"] != nil:
		walkTask(v, visit) // a bare task: 1.0 GetTask, 0.1
	}
}

func walkTask(t map[string]any, visit visitor) {
	visit(objTask, t)
	if s, ok := t["status"].(map[string]any); ok {
		walkStatus(s, visit)
	}
	if h, ok := t["history"].([]any); ok {
		eachObject(h, func(m map[string]any) { walkMessage(m, visit) })
	}
	if as, ok := t["artifacts"].([]any); ok {
		eachObject(as, func(a map[string]any) { walkArtifact(a, visit) })
	}
}

func walkStatus(s map[string]any, visit visitor) {
	visit(objStatus, s)
	if m, ok := s["message"].(map[string]any); ok {
		walkMessage(m, visit)
	}
}

func walkMessage(m map[string]any, visit visitor) {
	visit(objMessage, m)
	walkParts(m, visit)
}

func walkArtifact(a map[string]any, visit visitor) {
	visit(objArtifact, a)
	walkParts(a, visit)
}

func walkParts(holder map[string]any, visit visitor) {
	if ps, ok := holder["parts"].([]any); ok {
		eachObject(ps, func(p map[string]any) { visit(objPart, p) })
	}
}

func walkStatusUpdate(u map[string]any, visit visitor) {
	visit(objStatusUpdate, u)
	if s, ok := u["status"].(map[string]any); ok {
		walkStatus(s, visit)
	}
}

func walkArtifactUpdate(u map[string]any, visit visitor) {
	visit(objArtifactUpdate, u)
	if a, ok := u["artifact"].(map[string]any); ok {
		walkArtifact(a, visit)
	}
}

// eachObject calls fn on each member of list that is an object.
func eachObject(list []any, fn func(map[string]any)) {
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			fn(m)
		}
	}
}
