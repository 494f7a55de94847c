package grpc

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
)

// The fast path of the common SendMessage: a send of plain text parts
// answered with its task. It skips the JSON round trip the bridge makes
// (protojson out, encoding/json in; encoding/json out, protojson in)
// and gives what the bridge gives, to the byte:
//
//   - the request's params, the JSON the trace keeps, appended as
//     protojson writes them (fields in declaration order, map keys
//     sorted, strings escaped as protojson escapes them), compacted;
//   - the message and send params binding.DecodeSend would read from
//     that JSON, read from the proto instead;
//   - the SendMessageResponse protojson would read from the JSON of
//     ops.Result.ResultValue, built from the task instead.
//
// Anything off the common shape (another part kind, message metadata,
// a push config, a number in the metadata, a task with configured
// artifacts or a question, a history cap, an answer a fault rewrote, an
// enum value the proto does not have) declines, and the bridge does it.
// TestFastSendMatchesBridge and TestFastAnswerMatchesBridge hold the two
// paths to the same bytes, TestGRPCPlainJSONSameAnswers (mockvendor) the
// fleet's answers and trace with Config.PlainJSON (the bridge alone).

// fastSend is what the fast path read of a SendMessageRequest: the
// message and the send params (all but Message, which nothing reads
// after decoding) binding.DecodeSend would give.
type fastSend struct {
	msg  *a2a.Message
	send ops.SendParams
}

// paramsJSON is m's params as the trace keeps them (toJSON), and, with
// the fast path on, for a SendMessageRequest of the common shape what
// DecodeSend reads of it (nil otherwise).
func paramsJSON(m proto.Message, fast bool) ([]byte, *fastSend, error) {
	if in, ok := m.(*a2apb.SendMessageRequest); ok && fast {
		if b, fs, ok := sendFast(in); ok {
			return b, fs, nil
		}
	}
	b, err := toJSON(m)
	return b, nil, err
}

// sendBufs are the buffers sendFast appends to.
var sendBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// sendFast reads a SendMessageRequest of the common shape: a message
// whose role is user or agent, with a messageId and text parts only
// (none with metadata, filename or media type), no metadata, extensions
// or reference task ids; a configuration without a push config; request
// metadata whose values are strings, booleans or null. ok is false for
// anything else.
func sendFast(in *a2apb.SendMessageRequest) (params []byte, fs *fastSend, ok bool) {
	m := in.GetMessage()
	if m == nil || !plainSend(m) || !plainConfig(in.GetConfiguration()) {
		return nil, nil, false
	}
	role := "user"
	if m.GetRole() == a2apb.Role_ROLE_AGENT {
		role = "agent"
	}
	buf := sendBufs.Get().(*[]byte)
	defer sendBufs.Put(buf)
	w := jsonWriter{b: (*buf)[:0], ok: true}
	defer func() { *buf = w.b[:0] }()
	w.b = append(w.b, '{')
	if in.GetTenant() != "" {
		w.member("tenant", in.GetTenant())
	}
	w.name("message")
	w.b = append(w.b, '{')
	w.member("messageId", m.GetMessageId())
	if m.GetContextId() != "" {
		w.member("contextId", m.GetContextId())
	}
	if m.GetTaskId() != "" {
		w.member("taskId", m.GetTaskId())
	}
	w.member("role", m.GetRole().String())
	w.name("parts")
	w.b = append(w.b, '[')
	parts := make([]a2a.Part, len(m.GetParts()))
	for i, p := range m.GetParts() {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, '{')
		w.member("text", p.GetText())
		w.b = append(w.b, '}')
		parts[i] = a2a.Part{Kind: "text", Text: p.GetText()}
	}
	w.b = append(w.b, ']', '}')
	fs = &fastSend{msg: &a2a.Message{Role: role, MessageID: m.GetMessageId(), ContextID: m.GetContextId(), TaskID: m.GetTaskId(), Parts: parts}}
	if c := in.GetConfiguration(); c != nil {
		w.config(c)
		fs.send.Configuration.ReturnImmediately = c.GetReturnImmediately()
		if c.HistoryLength != nil {
			n := int(c.GetHistoryLength())
			fs.send.Configuration.HistoryLength = &n
		}
	}
	if md := in.GetMetadata(); md != nil {
		w.name("metadata")
		w.structValue(md)
		fs.send.Metadata = sendMetadata(md)
	}
	w.b = append(w.b, '}')
	if !w.ok {
		return nil, nil, false
	}
	return slices.Clone(w.b), fs, true
}

// plainSend reports whether m is a message of the common shape.
func plainSend(m *a2apb.Message) bool {
	if m.GetMessageId() == "" || len(m.GetParts()) == 0 || m.GetMetadata() != nil ||
		len(m.GetExtensions()) > 0 || len(m.GetReferenceTaskIds()) > 0 {
		return false
	}
	if r := m.GetRole(); r != a2apb.Role_ROLE_USER && r != a2apb.Role_ROLE_AGENT {
		return false
	}
	for _, p := range m.GetParts() {
		if _, text := p.GetContent().(*a2apb.Part_Text); !text || p.GetMetadata() != nil || p.GetFilename() != "" || p.GetMediaType() != "" {
			return false
		}
	}
	return true
}

// plainConfig reports whether c is absent or has no push config.
func plainConfig(c *a2apb.SendMessageConfiguration) bool {
	return c == nil || c.GetTaskPushNotificationConfig() == nil
}

// sendMetadata is what ops.SendMetadata reads of the metadata md: the
// skillId when a string, a2a_probe when true.
func sendMetadata(md *structpb.Struct) ops.SendMetadata {
	var sm ops.SendMetadata
	if v, ok := md.GetFields()["skillId"].GetKind().(*structpb.Value_StringValue); ok {
		sm.SkillID = v.StringValue
	}
	if v, ok := md.GetFields()["a2a_probe"].GetKind().(*structpb.Value_BoolValue); ok {
		sm.Probe = v.BoolValue
	}
	return sm
}

// jsonWriter appends compact JSON as protojson writes it; ok turns false
// at a value protojson would write otherwise or refuse.
type jsonWriter struct {
	b  []byte
	ok bool
}

// name writes a member name (plain ASCII) and its colon, after a comma
// unless it opens the object.
func (w *jsonWriter) name(n string) {
	if c := w.b[len(w.b)-1]; c != '{' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, n...)
	w.b = append(w.b, '"', ':')
}

func (w *jsonWriter) member(name, value string) {
	w.name(name)
	w.str(value)
}

// str writes s quoted as protojson quotes it: \" and \\, the short
// escapes \b \f \n \r \t, \u00xx for other control characters, the rest
// as it is; invalid UTF-8 (which protojson refuses) declines.
func (w *jsonWriter) str(s string) {
	if !utf8.ValidString(s) {
		w.ok = false
		return
	}
	w.b = append(w.b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.b = append(w.b, '\\', c)
		case c >= ' ':
			w.b = append(w.b, c)
		case c == '\b':
			w.b = append(w.b, '\\', 'b')
		case c == '\f':
			w.b = append(w.b, '\\', 'f')
		case c == '\n':
			w.b = append(w.b, '\\', 'n')
		case c == '\r':
			w.b = append(w.b, '\\', 'r')
		case c == '\t':
			w.b = append(w.b, '\\', 't')
		default:
			w.b = append(w.b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		}
	}
	w.b = append(w.b, '"')
}

// config writes a SendMessageConfiguration without a push config.
func (w *jsonWriter) config(c *a2apb.SendMessageConfiguration) {
	w.name("configuration")
	w.b = append(w.b, '{')
	if modes := c.GetAcceptedOutputModes(); len(modes) > 0 {
		w.name("acceptedOutputModes")
		w.b = append(w.b, '[')
		for i, m := range modes {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.str(m)
		}
		w.b = append(w.b, ']')
	}
	if c.HistoryLength != nil {
		w.name("historyLength")
		w.b = strconv.AppendInt(w.b, int64(c.GetHistoryLength()), 10)
	}
	if c.GetReturnImmediately() {
		w.name("returnImmediately")
		w.b = append(w.b, "true"...)
	}
	w.b = append(w.b, '}')
}

// structValue writes a google.protobuf.Struct whose values are strings,
// booleans or null, its keys sorted as protojson sorts them; any other
// value declines.
func (w *jsonWriter) structValue(s *structpb.Struct) {
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.b = append(w.b, '{')
	for i, k := range keys {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.str(k)
		w.b = append(w.b, ':')
		switch v := s.GetFields()[k].GetKind().(type) {
		case *structpb.Value_StringValue:
			w.str(v.StringValue)
		case *structpb.Value_BoolValue:
			w.b = strconv.AppendBool(w.b, v.BoolValue)
		case *structpb.Value_NullValue:
			w.b = append(w.b, "null"...)
		default:
			w.ok = false
		}
	}
	w.b = append(w.b, '}')
}

// answerFast fills out, when it is a SendMessageResponse, with the task
// res answers a send with, as the bridge would (fromJSON of
// res.ResultValue()): the task's id, context id, status (state and
// timestamp), its one text artifact once completed and its history, the
// input message alone. ok is false when res is anything else (see the
// top of this file), and out is untouched.
func answerFast(res *ops.Result, out proto.Message) bool {
	resp, isSend := out.(*a2apb.SendMessageResponse)
	s := &res.Sent
	if !isSend || s.Task == nil || s.Dialect != a2a.Dialect10 || s.History != nil {
		return false
	}
	t := s.Task
	if t.Artifacts != nil || t.Asks != 0 || t.Question != "" || !t.OnlyInput() || t.Input == nil {
		return false
	}
	state, ok := a2apb.TaskState_value[a2a.StateName(res.State, a2a.Dialect10)]
	if !ok {
		return false
	}
	role, ok := a2apb.Role_value["ROLE_"+strings.ToUpper(t.Input.Role)]
	if !ok || len(t.Input.Metadata) > 0 || !validUTF8(t.ID, t.ContextID, t.Output, t.Input.MessageID) {
		return false
	}
	in := &a2apb.Message{MessageId: t.Input.MessageID, ContextId: t.ContextID, TaskId: t.ID, Role: a2apb.Role(role)}
	for _, p := range t.Input.Parts {
		if p.Kind != "text" || p.MediaType != "" || p.Filename != "" || len(p.Metadata) > 0 || !utf8.ValidString(p.Text) {
			return false
		}
		in.Parts = append(in.Parts, &a2apb.Part{Content: &a2apb.Part_Text{Text: p.Text}})
	}
	task := &a2apb.Task{
		Id:        t.ID,
		ContextId: t.ContextID,
		Status:    &a2apb.TaskStatus{State: a2apb.TaskState(state), Timestamp: timestamppb.New(s.Now)},
		History:   []*a2apb.Message{in},
	}
	if res.State == "completed" {
		task.Artifacts = []*a2apb.Artifact{{ArtifactId: "a-" + t.ID, Name: "result",
			Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: t.Output}}}}}
	}
	resp.Payload = &a2apb.SendMessageResponse_Task{Task: task}
	return true
}

func validUTF8(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
