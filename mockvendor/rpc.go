package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Call is one JSON-RPC call as the faults see it. Faults may change the
// fields below "fault outputs".
type Call struct {
	Vendor *Vendor
	// Host is the host the call reached (bare-IP hosts as 127.0.0.1:PORT).
	Host    string
	hostKey string // configured name; "127.0.0.1" for bare-IP hosts
	Region  string
	Method  string
	Op      Op
	Dialect Dialect
	// A2AVersion is the request's A2A-Version header ("" when absent).
	A2AVersion string
	// Skill is the skill id the message names ("" = the default skill).
	Skill string
	// Probe is true for a probe send.
	Probe bool
	// Message is the decoded message of a send or stream (nil otherwise).
	Message *Message

	// Fault outputs.

	// AnySkill makes the endpoint run any skill (a reseller gateway's runtime).
	AnySkill bool
	// Hold keeps the task the call creates open (working) until cancelled.
	Hold bool
	// StreamAsJSON answers a stream method with a plain JSON response.
	StreamAsJSON bool
	// FirstFrameDelay holds a stream open this long before its first event.
	FirstFrameDelay time.Duration
	// Coercions are the parts a fault changed.
	Coercions []Coercion
	// Faults names the faults that acted on the call.
	Faults []string
}

type rpcEnvelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	ID      json.RawMessage `json:"id"`
	Params  json.RawMessage `json:"params"`
}

type sendParams struct {
	ID            string          `json:"id"` // 0.1: the client names the task
	SessionID     string          `json:"sessionId"`
	Message       json.RawMessage `json:"message"`
	Configuration struct {
		Blocking          *bool `json:"blocking"`
		ReturnImmediately bool  `json:"returnImmediately"`
	} `json:"configuration"`
	Metadata map[string]any `json:"metadata"`
}

type taskParams struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"` // "tasks/{id}", an early 1.0 spelling
	Metadata map[string]any `json:"metadata"`
}

// rpcAnswer is what the endpoint decided; writeAnswer renders it.
type rpcAnswer struct {
	dialect Dialect
	id      json.RawMessage
	err     *RPCError
	result  any
	stream  []any // SSE results, for a stream answered as a stream
	call    *Call
	status  int
}

// serveRPC answers one JSON-RPC request on host h.
func (h *host) serveRPC(w http.ResponseWriter, r *http.Request, ev *Event) {
	f := h.vendor.fleet
	limit := f.limits.MaxBody
	ans := &rpcAnswer{dialect: dialectFromHeader(headerGet(r.Header, a2aVersionKey)), status: http.StatusOK}
	defer func() { h.writeAnswer(w, r, ans, ev) }()

	if r.ContentLength > limit {
		ans.status = http.StatusRequestEntityTooLarge
		ans.err = errInvalidRequest(fmt.Sprintf("body of %d bytes is over the %d byte limit", r.ContentLength, limit))
		return
	}
	body, err := readAllSized(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			ans.status = http.StatusRequestEntityTooLarge
			ans.err = errInvalidRequest(fmt.Sprintf("body is over the %d byte limit", limit))
		} else {
			ans.err = errParse("reading body: " + err.Error())
		}
		ev.Note = "body not read whole"
		return
	}
	trimmed := bytes.TrimSpace(body)
	valid := json.Valid(trimmed)
	// body is valid JSON exactly when trimmed is and nothing but JSON
	// whitespace was trimmed; scan body again only when something was.
	if len(body) <= MaxTracedBody && (len(trimmed) == len(body) && valid || len(trimmed) != len(body) && json.Valid(body)) {
		ev.Request = body
	}
	if !valid {
		ans.err = errParse("the body is not JSON")
		return
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		ans.err = errInvalidRequest("batch requests are not supported by A2A")
		return
	}
	env, ok := scanEnvelope(trimmed)
	if !ok {
		env = rpcEnvelope{}
		if err := json.Unmarshal(trimmed, &env); err != nil {
			ans.err = errInvalidRequest("the body is not a JSON-RPC request object")
			return
		}
	}
	ans.id = validID(env.ID)
	ev.RPCID = ans.id
	if string(env.JSONRPC) != `"2.0"` {
		ans.err = errInvalidRequest(`jsonrpc must be "2.0"`)
		return
	}
	method, ok := plainString(env.Method)
	if !ok {
		if err := json.Unmarshal(env.Method, &method); err != nil {
			method = ""
		}
	}
	if method == "" {
		ans.err = errInvalidRequest("method must be a non-empty string")
		return
	}
	if env.ID != nil && ans.id == nil {
		ans.err = errInvalidRequest("id must be a string, a number or null")
		return
	}
	ev.Method = method
	info, known := methods[method]
	d := info.dialect
	if d == "" {
		d = ans.dialect
		if info.op == OpGet || info.op == OpCancel {
			if t := f.tasks.get(h.vendor.cfg.ID, taskIDOf(env.Params)); t != nil {
				d = t.dialect
			} else if !strings.HasPrefix(headerGet(r.Header, a2aVersionKey), "1.") {
				d = Dialect03
			}
		}
	}
	ans.dialect = d
	ev.Dialect = string(d)
	ev.Op = info.op
	if !known {
		ev.Op = OpOther
	}
	if len(env.Params) > 0 && (bytes.TrimSpace(env.Params)[0] != '{') {
		ans.err = errInvalidParams("params must be an object")
		return
	}

	call := &Call{Vendor: h.vendor, Host: h.name, hostKey: h.sanName(), Region: h.cfg.Region, Method: method, Op: ev.Op, Dialect: d, A2AVersion: headerGet(r.Header, a2aVersionKey)}
	ans.call = call
	var sp sendParams
	if info.op == OpSend || info.op == OpStream {
		msg, ok := decodeSendFast(env.Params, d, &sp)
		if !ok {
			sp = sendParams{}
			if err := json.Unmarshal(nonNull(env.Params), &sp); err != nil {
				ans.err = errInvalidParams(err.Error())
				return
			}
			var err error
			if msg, err = decodeMessage(sp.Message, d); err != nil {
				ans.err = errInvalidParams(err.Error())
				return
			}
		}
		call.Message = msg
		call.Skill = skillOf(sp.Metadata, msg.Metadata)
		call.Probe = isProbe(sp.Metadata, msg)
		ev.Skill, ev.Probe = call.Skill, call.Probe
	}
	if e := h.vendor.runCallHooks(call); e != nil {
		ans.err = e
		return
	}
	if !known {
		ans.err = errMethodNotFound(method)
		return
	}
	now := time.Now()
	switch info.op {
	case OpSend, OpStream:
		ans.err = h.runTask(call, &sp, ans, now)
	case OpGet, OpCancel:
		var tp taskParams
		if err := json.Unmarshal(nonNull(env.Params), &tp); err != nil {
			ans.err = errInvalidParams(err.Error())
			return
		}
		id := tp.ID
		if id == "" {
			id = strings.TrimPrefix(tp.Name, "tasks/")
		}
		if id == "" {
			ans.err = errInvalidParams("params.id is required")
			return
		}
		ev.TaskID = id
		// A get for a synthetic id marked as a probe checks that the endpoint
		// implements the task lifecycle (-32001 expected) [seed 000,
		// Condition of Validity]; it is recorded as a probe.
		ev.Probe = tp.Metadata["a2a_probe"] == true || strings.HasPrefix(id, ProbeText)
		var t *task
		if info.op == OpGet {
			if t = f.tasks.get(h.vendor.cfg.ID, id); t == nil {
				ans.err = errTaskNotFound(id)
				return
			}
		} else {
			var ok bool
			t, ok = f.tasks.cancel(h.vendor.cfg.ID, id, now, f.limits.WorkTime)
			if t == nil {
				ans.err = errTaskNotFound(id)
				return
			}
			if !ok {
				ans.err = errTaskNotCancelable(id, t.state(now, f.limits.WorkTime))
				return
			}
		}
		ans.result = f.encodeTask(t, d, time.Now())
		ev.State = t.state(time.Now(), f.limits.WorkTime)
	default:
		if strings.Contains(strings.ToLower(method), "push") {
			ans.err = errPushNotSupported()
		} else {
			ans.err = errUnsupported(method + " is not offered by this agent")
		}
	}
}

// runTask creates the task of a send or stream and prepares the answer.
func (h *host) runTask(c *Call, sp *sendParams, ans *rpcAnswer, now time.Time) *RPCError {
	v := h.vendor
	f := v.fleet
	skill := c.Skill
	if skill == "" {
		skill = v.defaultSkill()
	}
	if !c.AnySkill {
		if !v.servesSkill(skill, h.cfg.Region) {
			return errSkillUnavailable(h.cfg.Region, v.skillsIn(h.cfg.Region))
		}
	}
	t := &task{
		id:        newID("t-"),
		contextID: c.Message.ContextID,
		vendor:    v.cfg.ID,
		dialect:   c.Dialect,
		skill:     skill,
		created:   now,
		blocking:  true,
		hold:      c.Hold,
		input:     c.Message,
	}
	if c.Dialect == Dialect01 && sp.ID != "" {
		t.id = sp.ID
		t.contextID = sp.SessionID
	}
	if t.contextID == "" {
		t.contextID = newID("ctx-")
	}
	if (sp.Configuration.Blocking != nil && !*sp.Configuration.Blocking) || sp.Configuration.ReturnImmediately {
		t.blocking = false
	}
	t.output = fmt.Sprintf("%s ran %s on %s", v.cfg.Organization, skill, summarize(c.Message))
	f.tasks.put(t)
	if c.Op == OpStream && !c.StreamAsJSON {
		ans.stream = f.streamEvents(t, c.Dialect)
		return nil
	}
	if c.Dialect == Dialect10 && c.Op == OpSend || c.Dialect == Dialect10 && c.StreamAsJSON {
		// The common answer, encoded without building maps.
		// {"id":...,"jsonrpc":"2.0","result":{"task":...}}, as marshalAnswer
		// writes the answer.
		state := t.state(now, f.limits.WorkTime)
		b, err := appendJSON(append(make([]byte, 0, 1024), `{"id":`...), idOrNull(ans.id))
		if err == nil {
			b, err = appendTask10(append(b, `,"jsonrpc":"2.0","result":{"task":`...), t, state, now)
		}
		if err == nil {
			ans.result = &encodedResult{body: append(b, "}}"...), taskID: t.id, state: normalState(stateName(state, Dialect10))}
			return nil
		}
	}
	task := f.encodeTask(t, c.Dialect, now)
	if c.Dialect == Dialect10 && c.Op == OpSend || c.Dialect == Dialect10 && c.StreamAsJSON {
		ans.result = map[string]any{"task": task}
	} else {
		ans.result = task
	}
	return nil
}

// writeAnswer renders the answer in its dialect and completes the trace event.
func (h *host) writeAnswer(w http.ResponseWriter, r *http.Request, ans *rpcAnswer, ev *Event) {
	hdr := w.Header()
	if rv := h.vendor.responseVersion(headerGet(r.Header, a2aVersionKey), ans.dialect); rv != "" {
		hdr[a2aVersionKey] = []string{rv} // hdr.Set("A2A-Version", rv)
	}
	h.vendor.runHeaderHooks(h.sanName(), hdr)
	if c := ans.call; c != nil {
		ev.Coercions = c.Coercions
		ev.Faults = c.Faults
	}
	if ans.err != nil {
		ev.ErrorCode, ev.ErrorMessage = ans.err.Code, ans.err.Message
	}
	if ans.stream != nil {
		ev.TaskID, ev.State = streamTask(ans.stream)
		h.writeStream(w, r, ans, ev)
		return
	}
	if ans.err != nil && ans.status == http.StatusOK && ans.dialect != Dialect01 &&
		ans.call != nil && ans.call.Op == OpStream && !ans.call.StreamAsJSON {
		// A 0.3 or 1.0 stream's answer is an SSE stream of JSON-RPC responses,
		// which includes the error response: a2a-go v0.3.3 reads only "data: "
		// lines and sees an application/json error body as an empty stream,
		// and @a2a-js/sdk refuses any stream answer that is not
		// text/event-stream before it looks at the error; so the error
		// travels as the stream's one event (as a2a-go's own server sends it).
		b := marshalAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(ans.id), "error": ans.err.wire(ans.dialect)})
		hdr.Set("Content-Type", "text/event-stream")
		hdr.Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(append(append([]byte("data: "), b...), "\n\n"...))
		ev.Status, ev.ContentType = http.StatusOK, "text/event-stream"
		return
	}
	if er, ok := ans.result.(*encodedResult); ok && ans.err == nil {
		body := er.body
		if ev.TaskID == "" {
			ev.TaskID = er.taskID
		}
		ev.State = er.state
		hdr.Set("Content-Type", "application/json")
		w.WriteHeader(ans.status)
		_, _ = w.Write(body)
		ev.Status, ev.ContentType = ans.status, "application/json"
		return
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": idOrNull(ans.id)}
	if ans.err != nil {
		resp["error"] = ans.err.wire(ans.dialect)
	} else {
		resp["result"] = ans.result
		if tm, ok := ans.result.(map[string]any); ok {
			if inner, ok := tm["task"].(map[string]any); ok {
				tm = inner
			}
			if ev.TaskID == "" {
				ev.TaskID, _ = tm["id"].(string)
			}
			if st, ok := tm["status"].(map[string]any); ok {
				ev.State = normalState(fmt.Sprint(st["state"]))
			}
		}
	}
	body := marshalAnswer(resp)
	hdr.Set("Content-Type", "application/json")
	w.WriteHeader(ans.status)
	_, _ = w.Write(body)
	ev.Status, ev.ContentType = ans.status, "application/json"
}

// writeStream sends the events as server-sent events and closes the stream.
func (h *host) writeStream(w http.ResponseWriter, r *http.Request, ans *rpcAnswer, ev *Event) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev.Status, ev.ContentType = http.StatusOK, "text/event-stream"
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if d := ans.call.FirstFrameDelay; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			ev.Note = "client left before the first frame"
			return
		case <-h.vendor.fleet.closing:
			return
		}
	}
	var buf bytes.Buffer
	for _, res := range ans.stream {
		buf.Reset()
		b := marshalAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(ans.id), "result": res})
		buf.WriteString("data: ")
		buf.Write(b)
		buf.WriteString("\n\n")
		if _, err := w.Write(buf.Bytes()); err != nil {
			ev.Note = "client left mid-stream"
			return
		}
		_ = rc.Flush()
	}
}

func (f *Fleet) encodeTask(t *task, d Dialect, now time.Time) map[string]any {
	state := t.state(now, f.limits.WorkTime)
	status := map[string]any{"state": stateName(state, d), "timestamp": now.UTC().Format(time.RFC3339Nano)}
	out := map[string]any{"id": t.id, "status": status}
	switch d {
	case Dialect01:
		out["sessionId"] = t.contextID
	case Dialect03:
		out["kind"] = "task"
		out["contextId"] = t.contextID
	case Dialect10:
		out["contextId"] = t.contextID
	}
	if d != Dialect01 {
		in := *t.input
		in.TaskID, in.ContextID = t.id, t.contextID
		out["history"] = []any{encodeMessage(&in, d)}
	}
	if state == "completed" {
		out["artifacts"] = []any{artifact(t, d)}
	}
	return out
}

// a2aVersionKey is "A2A-Version" in canonical form, so that reading and
// setting it does not canonicalize (and allocate) on every request.
var a2aVersionKey = http.CanonicalHeaderKey("A2A-Version")

func artifact(t *task, d Dialect) map[string]any {
	text := Part{Kind: "text", Text: t.output}
	a := map[string]any{"name": "result", "parts": []any{encodePart(text, d)}}
	if d == Dialect01 {
		a["index"] = 0
	} else {
		a["artifactId"] = "a-" + t.id
	}
	return a
}

// streamEvents lists the results of a stream in dialect d: the task first,
// then working, the artifact and the final status (0.x marks it final).
func (f *Fleet) streamEvents(t *task, d Dialect) []any {
	now := time.Now()
	ts := now.UTC().Format(time.RFC3339Nano)
	status := func(state string) map[string]any {
		return map[string]any{"state": stateName(state, d), "timestamp": ts}
	}
	final := "completed"
	if t.hold {
		final = "working"
	}
	switch d {
	case Dialect01:
		evs := []any{map[string]any{"id": t.id, "status": status("working"), "final": t.hold}}
		if !t.hold {
			evs = append(evs,
				map[string]any{"id": t.id, "artifact": artifact(t, d)},
				map[string]any{"id": t.id, "status": status(final), "final": true})
		}
		return evs
	case Dialect03:
		first := f.encodeTask(t, d, now)
		first["status"] = status("submitted")
		delete(first, "artifacts")
		evs := []any{first, map[string]any{"kind": "status-update", "taskId": t.id, "contextId": t.contextID, "status": status("working"), "final": t.hold}}
		if !t.hold {
			evs = append(evs,
				map[string]any{"kind": "artifact-update", "taskId": t.id, "contextId": t.contextID, "artifact": artifact(t, d), "lastChunk": true},
				map[string]any{"kind": "status-update", "taskId": t.id, "contextId": t.contextID, "status": status(final), "final": true})
		}
		return evs
	}
	first := f.encodeTask(t, d, now)
	first["status"] = status("submitted")
	delete(first, "artifacts")
	evs := []any{map[string]any{"task": first}, map[string]any{"statusUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "status": status("working")}}}
	if !t.hold {
		evs = append(evs,
			map[string]any{"artifactUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "artifact": artifact(t, d), "lastChunk": true}},
			map[string]any{"statusUpdate": map[string]any{"taskId": t.id, "contextId": t.contextID, "status": status(final)}})
	}
	return evs
}

// streamTask reads the task id and last state out of stream results.
func streamTask(evs []any) (id, state string) {
	for _, e := range evs {
		m, _ := e.(map[string]any)
		for _, k := range []string{"task", "statusUpdate"} {
			if inner, ok := m[k].(map[string]any); ok {
				m = inner
			}
		}
		if v, ok := m["id"].(string); ok {
			id = v
		}
		if v, ok := m["taskId"].(string); ok && id == "" {
			id = v
		}
		if st, ok := m["status"].(map[string]any); ok {
			state = normalState(fmt.Sprint(st["state"]))
		}
	}
	return id, state
}

// normalState turns any dialect's state spelling into the 0.3 spelling.
func normalState(s string) string {
	if rest, ok := strings.CutPrefix(s, "TASK_STATE_"); ok {
		return strings.ReplaceAll(strings.ToLower(rest), "_", "-")
	}
	return s
}

// skillOf reads the skill a message is for: params.metadata.skillId, then
// params.message.metadata.skillId.
func skillOf(params, msg map[string]any) string {
	if s, ok := params["skillId"].(string); ok && s != "" {
		return s
	}
	if s, ok := msg["skillId"].(string); ok {
		return s
	}
	return ""
}

// ProbeText is the text of a probe part [seed 000, Decision Boundary].
const ProbeText = "__probe__"

// isProbe reports whether a send is a probe: its only text part is
// __probe__, or params, message or a part carries a2a_probe: true.
func isProbe(params map[string]any, m *Message) bool {
	if params["a2a_probe"] == true || m.Metadata["a2a_probe"] == true {
		return true
	}
	texts := 0
	probeText := false
	for _, p := range m.Parts {
		if p.Metadata["a2a_probe"] == true {
			return true
		}
		switch p.Kind {
		case "text":
			texts++
			probeText = p.Text == ProbeText
		case "data":
			var d map[string]any
			if json.Unmarshal(p.Data, &d) == nil && d["a2a_probe"] == true {
				return true
			}
		}
	}
	return texts == 1 && probeText
}

func summarize(m *Message) string {
	var parts []string
	for _, p := range m.Parts {
		switch p.Kind {
		case "text":
			parts = append(parts, fmt.Sprintf("text %q", clip(p.Text, 80)))
		case "data":
			parts = append(parts, "data "+clip(string(p.Data), 80))
		default:
			parts = append(parts, p.Kind)
		}
	}
	return strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// validID returns the id if it is a string, a number or null, else nil.
func validID(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	switch {
	case t[0] == '"', t[0] == '-', t[0] >= '0' && t[0] <= '9', string(t) == "null":
		return t
	}
	return nil
}

func idOrNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

func nonNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

func taskIDOf(params json.RawMessage) string {
	var tp taskParams
	_ = json.Unmarshal(nonNull(params), &tp)
	if tp.ID != "" {
		return tp.ID
	}
	return strings.TrimPrefix(tp.Name, "tasks/")
}

var (
	sendParamsFields  = []string{"id", "sessionId", "message", "configuration", "metadata"}
	configFields      = []string{"blocking", "returnImmediately"}
	wireMessageFields = []string{"kind", "role", "messageId", "contextId", "taskId", "parts", "metadata"}
	wirePartFields    = []string{"type", "kind", "text", "data", "file", "raw", "url", "mediaType", "filename", "metadata"}
)
