package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// Vendor is a vendor as its operations see it: the facts of its
// configuration and card they read, and the stores they act on. The root
// package mockvendor implements it.
type Vendor interface {
	// ID is the vendor's id ("b").
	ID() string
	// Organization is the organization a message reply names.
	Organization() string
	// DefaultSkill is the skill a message that names none is for.
	DefaultSkill() string
	// ServesSkill reports whether the vendor serves skill in region.
	ServesSkill(skill, region string) bool
	// SkillsIn lists the skills the vendor serves in region.
	SkillsIn(region string) []string
	// Streaming and PushNotifications are the card's capabilities.
	Streaming() bool
	PushNotifications() bool
	// ExtendedCard is the extended card the card declares (ok false: none).
	ExtendedCard() (ec ExtendedCard, ok bool)
	// ExtendedCardDocument is the extended card the vendor serves to a
	// client of dialect d's generation (1.0: the 1.0 members only), signed
	// as the vendor signs its cards, a fresh map.
	ExtendedCardDocument(d a2a.Dialect) (map[string]any, error)
	// Tasks is the fleet's task store.
	Tasks() *tasks.Store
	// Push is the vendor's push-config store, and the vendor as push
	// delivery sees it.
	Push() (*push.Store, push.Vendor)
	// WorkTime is the clock of every task's state (Limits.WorkTime).
	WorkTime() time.Duration
	// StreamsWork is Config.StreamsWork: a stream's task works WorkTime.
	StreamsWork() bool
	// Upstream is the real agent the vendor stands in front of, to which
	// every operation is forwarded (forward.go); nil for a vendor that
	// answers itself.
	Upstream() *upstream.Client
}

// ExtendedCard is the extended agent card a card declares.
type ExtendedCard struct {
	// Unconfigured declares it without having one (-32007).
	Unconfigured bool
}

// Request is one operation's request, whatever the binding that read it.
type Request struct {
	// Op is the operation.
	Op trace.Op
	// Version is the A2A-Version header (else query parameter).
	Version string
	// Method is the operation's method name: the JSON-RPC method as sent,
	// or the 1.0 method name of the HTTP+JSON route.
	Method string
	// a2a.Dialect is the dialect the answer speaks.
	Dialect a2a.Dialect
	// Params are the params as JSON (1.0 proto names already renamed,
	// except a send's, whose decoder renames them).
	Params json.RawMessage
	// Send holds the params of a send or stream; Task those of a get,
	// cancel or subscribe, with TaskErr the error decoding them gave
	// (reported by the operation, after the fault hooks).
	Send    SendParams
	Task    TaskParams
	TaskErr error
	// Call is the call as the faults saw it (their outputs included).
	Call *fault.Call
	// Now is when the operation runs.
	Now time.Time
	// Context is the client's request context: it ends when the client
	// leaves (an operation forwarded to an upstream ends with it).
	Context context.Context
	// Header is the request's HTTP header (gRPC: its metadata).
	Header http.Header
	// Upstream is the record of the exchange with the vendor's upstream,
	// once the operation was forwarded (nil otherwise).
	Upstream *trace.Upstream
}

// Result is an operation's successful answer, with what the trace records
// of it. Exactly one of Value, Sent and Stream is set.
type Result struct {
	// Value is the answer's result object in the request's dialect, which
	// the binding wraps (JSON-RPC) or sends bare (HTTP+JSON).
	Value any
	// Sent is a send's task, rendered by the binding (Sent.Task nil: none).
	Sent SentTask
	// Stream are the events of a stream answered as server-sent events,
	// the same events in every dialect: an event the dialect does not send
	// is nil (a 0.1 stream starts with the working status, not the task).
	Stream []any
	// TaskID and State (0.3 spelling) are the task the answer carries.
	TaskID, State string
	// RestAfter delays the stream's events from RestFrom on (0: from the
	// second); Task is the task the stream follows (nil for a Message),
	// whose cancel ends that wait with its canceled status.
	RestAfter time.Duration
	RestFrom  int
	Task      *tasks.Task
	// Message is true when the answer is a Message and no task.
	Message bool
	// Abort breaks the connection off after the stream's events instead
	// of ending the stream (stream-cut).
	Abort bool
	// Results is what the answer delivers of the task's results, for the
	// trace (trace.KeepResults): a stream delivers it once its event
	// ResultsAt (the last that carries a part of it) is written. Nil
	// means nothing.
	Results   *trace.Results
	ResultsAt int
	// HoldAnswer holds a send's answer until Task is terminal or
	// interrupted, the client leaves, the task is cancelled or the fleet
	// closes, and answers with the task as it is then (long-task: a
	// blocking send waits, A2A 1.0 §3.2.2). False answers at once.
	HoldAnswer bool
	// Resent is true when the send's message repeated an earlier one
	// (same messageId, parts, skill and blocking mode) and the answer is
	// that message's task, no new one (A2A 1.0 §3.3.1).
	Resent bool
	// Webhook is the push-notification config the request registered (a
	// push-config create, or a send that carried one), for the trace; nil
	// when none.
	Webhook *trace.Webhook
	// EndError, when set, is sent as the stream's last event, an error,
	// after its events (stream-error-event). Nil ends the stream plainly.
	EndError *a2a.Error
	// Live, when set, is a stream whose events come as the upstream sends
	// them (forward.go): the binding takes them in turn instead of Stream,
	// which is then empty. Nil for every stream the fleet makes itself.
	Live *LiveStream
}

// SentTask is the task a send (or a stream answered as plain JSON)
// answers with, before a binding renders it: Task in the result's state
// at Now, in a2a.Dialect, its history capped at History (nil: all of it).
type SentTask struct {
	Task    *tasks.Task
	Dialect a2a.Dialect
	Now     time.Time
	History *int
}

// ResultValue is the result object of a successful answer that is not a
// stream:
// the operation's value, or the task of a send as the dialect shows it
// (wrapped as {"task": ...} in 1.0, a SendMessageResponse).
func (res *Result) ResultValue() any {
	s := &res.Sent
	if s.Task == nil {
		return res.Value
	}
	task := EncodeTaskView(s.Task, s.Dialect, res.State, s.Now, TaskView{History: s.History, Artifacts: true})
	if s.Dialect == a2a.Dialect10 {
		return map[string]any{"task": task}
	}
	return task
}

// operation answers one operation; an error is answered by the binding.
type operation func(v Vendor, q *Request) (Result, error)

// operations answer the operations the fleet implements, one each; Run
// answers the methods it knows but does not offer with Unsupported.
var operations = map[trace.Op]operation{
	trace.OpSend:         send,
	trace.OpStream:       stream,
	trace.OpGet:          get,
	trace.OpCancel:       cancel,
	trace.OpList:         list,
	trace.OpSubscribe:    subscribe,
	trace.OpPushConfig:   pushConfig,
	trace.OpExtendedCard: extendedCard,
}

// Run runs the operation of q for vendor v.
func Run(v Vendor, q *Request) (Result, error) {
	if u := v.Upstream(); u != nil {
		return forward(u, q)
	}
	if op, ok := operations[q.Op]; ok {
		return op(v, q)
	}
	return unsupported(v, q)
}

// SendParams are the params of a send or stream.
type SendParams struct {
	ID            string          `json:"id"` // 0.1: the client names the task
	SessionID     string          `json:"sessionId"`
	Message       json.RawMessage `json:"message"`
	Configuration SendConfig      `json:"configuration"`
	Metadata      SendMetadata    `json:"metadata"`
}

// SendMetadata is what the fleet reads of a send's params.metadata: the
// skill it names (skillId, when a string) and whether it marks a probe
// (a2a_probe: true). The rest of the object is the client's own.
type SendMetadata struct {
	SkillID string
	Probe   bool
}

// UnmarshalJSON reads the metadata object as encoding/json reads it into
// a map (a key given twice: the last one) and keeps what the fleet uses.
func (m *SendMetadata) UnmarshalJSON(b []byte) error {
	var mm map[string]any
	if err := json.Unmarshal(b, &mm); err != nil {
		return err
	}
	m.SkillID, _ = mm["skillId"].(string)
	m.Probe = mm["a2a_probe"] == true
	return nil
}

// SendConfig is the configuration of a send.
type SendConfig struct {
	Blocking          *bool `json:"blocking"`
	ReturnImmediately bool  `json:"returnImmediately"`
	// HistoryLength caps the history the answer carries (nil: all of it).
	HistoryLength *int `json:"historyLength"`
}

// TaskParams are the params of a get, cancel or subscribe.
type TaskParams struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"` // "tasks/{id}", an early 1.0 spelling
	Metadata map[string]any `json:"metadata"`
	// HistoryLength caps the history a get answers with (nil: all of it).
	HistoryLength *int `json:"historyLength"`
}

// DecodeTaskParams decodes the params of a get, cancel or subscribe.
func DecodeTaskParams(params json.RawMessage) (TaskParams, error) {
	var tp TaskParams
	err := json.Unmarshal(NonNull(params), &tp)
	return tp, err
}

// TaskID is the task the params name: id, else the early 1.0 name.
func (tp *TaskParams) TaskID() string {
	if tp.ID != "" {
		return tp.ID
	}
	return strings.TrimPrefix(tp.Name, "tasks/")
}

// taskParamsID is the task id of a get or cancel, or the invalid-params
// error its params give.
func (q *Request) taskParamsID() (string, error) {
	if q.TaskErr != nil {
		return "", a2a.InvalidParams(q.TaskErr.Error())
	}
	id := q.Task.TaskID()
	if id == "" {
		return "", a2a.InvalidParams("params.id is required")
	}
	return id, nil
}

// NonNull is raw, or {} for absent or null params.
func NonNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// strictDecode are encoding/json's semantics on the v2 engine, refusing an
// object that sets a field twice (encoding/json keeps the last, merging
// into a pointer it already filled).
var strictDecode = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.AllowDuplicateNames(false))

// DecodeStrict decodes b into v as encoding/json does, except that an
// object setting a field twice is an error: the decoding of ListTasks'
// params and of the JSON-RPC binding's fast path (whose caller then falls
// back to encoding/json).
func DecodeStrict(b []byte, v any) error { return jsonv2.Unmarshal(b, v, strictDecode) }
