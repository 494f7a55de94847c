package reference

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/contract"
)

// The results of the task, kept as the answers bring them and reported in
// the outcome (contract outcome.artifacts and statusText): a task's
// artifacts whole (a send's or a get's answer), a stream's artifact updates
// joined as their append and lastChunk flags say, a Message reply's parts
// as one artifact with no id; and the text of the last status's message.

// keptArtifact is one artifact as the answers built it.
type keptArtifact struct {
	ID    string            `json:"artifactId"`
	Name  string            `json:"name,omitempty"`
	Parts []json.RawMessage `json:"parts"`
	// chunks counts the chunks joined into it.
	chunks int
}

// results keeps the results of one task.
type results struct {
	taskID string
	order  []string // artifact ids, in the order first announced
	arts   map[string]*keptArtifact
	// status is the text of the last status's message; seen says a
	// status was seen at all.
	status string
	seen   bool
}

// wireResult is an answer in any of the shapes the reference reads: a
// 1.0 wrapper ({"task"}, {"message"}, {"statusUpdate"}, {"artifactUpdate"})
// or a 0.3 object with its kind.
type wireResult struct {
	Task           *wireResult       `json:"task"`
	Message        *wireResult       `json:"message"`
	StatusUpdate   *wireResult       `json:"statusUpdate"`
	ArtifactUpdate *wireResult       `json:"artifactUpdate"`
	Kind           string            `json:"kind"`
	ID             string            `json:"id"`
	TaskID         string            `json:"taskId"`
	Status         *wireStatus       `json:"status"`
	Artifacts      []keptArtifact    `json:"artifacts"`
	Artifact       *keptArtifact     `json:"artifact"`
	Append         bool              `json:"append"`
	LastChunk      bool              `json:"lastChunk"`
	Parts          []json.RawMessage `json:"parts"`
	Role           string            `json:"role"`
}

// wireStatus is a task status: its message, when it has one.
type wireStatus struct {
	Message *struct {
		Parts []json.RawMessage `json:"parts"`
	} `json:"message"`
}

// takeResult reads one answer (a call's result or a stream event's).
func (r *run) takeResult(raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	var w wireResult
	if json.Unmarshal(raw, &w) != nil {
		return
	}
	k := &r.results
	switch {
	case w.Task != nil:
		k.task(w.Task, r.br)
	case w.Message != nil:
		k.reply(w.Message)
	case w.StatusUpdate != nil:
		k.statusOf(w.StatusUpdate.TaskID, w.StatusUpdate.Status, r.br)
	case w.ArtifactUpdate != nil:
		k.update(w.ArtifactUpdate, r.br)
	case w.Kind == "task":
		k.task(&w, r.br)
	case w.Kind == "message":
		k.reply(&w)
	case w.Kind == "status-update":
		k.statusOf(w.TaskID, w.Status, r.br)
	case w.Kind == "artifact-update":
		k.update(&w, r.br)
	case w.ID != "" && w.Status != nil:
		k.task(&w, r.br) // a bare 1.0 task (GetTask)
	}
	if r.br.FutureArtifacts {
		for _, a := range futureArtifacts(raw) { // reading.go
			k.put(&a)
		}
	}
}

// forTask starts over when the answer is about another task.
func (k *results) forTask(id string) {
	if id != "" && id != k.taskID {
		*k = results{taskID: id}
	}
}

// task reads a task: its artifacts whole, when it holds some, and its
// status.
func (k *results) task(t *wireResult, br Breaks) {
	k.forTask(t.ID)
	if len(t.Artifacts) > 0 {
		k.order, k.arts = nil, nil
		for i := range t.Artifacts {
			a := t.Artifacts[i]
			k.put(&a)
		}
	}
	k.statusOf(t.ID, t.Status, br)
}

// reply reads a Message reply: its parts are one artifact with no id.
func (k *results) reply(m *wireResult) {
	*k = results{}
	k.put(&keptArtifact{Parts: m.Parts})
}

// statusOf reads a status: the text of its message, none when it has no
// message.
func (k *results) statusOf(taskID string, st *wireStatus, br Breaks) {
	if st == nil {
		return
	}
	k.forTask(taskID)
	k.seen, k.status = true, ""
	if st.Message != nil && !br.NoStatusText {
		_, text, err := contract.SummarizeParts(st.Message.Parts)
		if err == nil {
			k.status = text
		}
	}
}

// update reads an artifact update: append true adds its parts to the
// artifact of the same id (an id not seen yet starts it), append false
// starts or replaces it.
func (k *results) update(u *wireResult, br Breaks) {
	k.forTask(u.TaskID)
	a := u.Artifact
	if a == nil {
		return
	}
	old := k.arts[a.ID]
	switch {
	case u.Append && old != nil:
		parts := a.Parts
		if br.JoinChunksWithSpace {
			parts = append([]json.RawMessage{json.RawMessage(`{"text":" "}`)}, parts...)
		}
		if br.DuplicateFirstChunk && old.chunks == 1 {
			parts = append(append([]json.RawMessage(nil), old.Parts...), parts...)
		}
		old.Parts = append(old.Parts, parts...)
		old.chunks++
		if old.Name == "" {
			old.Name = a.Name
		}
	case u.Append && br.DropUnknownAppend:
		// The break: an append to an id not seen as an artifact is lost.
	default:
		c := *a
		c.Parts, c.chunks = append([]json.RawMessage(nil), a.Parts...), 1
		k.put(&c)
	}
}

// put starts (or replaces) an artifact, keeping the order in which ids
// were first announced.
func (k *results) put(a *keptArtifact) {
	if k.arts == nil {
		k.arts = map[string]*keptArtifact{}
	}
	if _, ok := k.arts[a.ID]; !ok {
		k.order = append(k.order, a.ID)
	}
	k.arts[a.ID] = a
}

// report fills in the outcome's artifacts and statusText from what was
// kept.
func (k *results) report(out *contract.DelegationOutcome, br Breaks) {
	if !br.NoArtifacts {
		for _, id := range k.order {
			b, err := json.Marshal(k.arts[id])
			if err != nil {
				continue
			}
			if s, err := contract.SummarizeArtifact(b); err == nil {
				out.Artifacts = append(out.Artifacts, s)
			}
		}
	}
	out.StatusText = k.status
}
