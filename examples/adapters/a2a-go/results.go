package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/a2a-conform/a2a-conform/contract"
)

// results is what the agent produced and said in one delegation, as the
// SDK handed it over: the task's context, its artifacts in the order the
// agent first announced them (streamed chunks joined as append says) and
// the text of its last status message.
type results struct {
	contextID  string
	statusText string
	order      []a2a.ArtifactID
	artifacts  map[a2a.ArtifactID]*a2a.Artifact
}

// put records artifact a whole (appendParts false) or adds its parts to
// those seen under its id (an append chunk).
func (r *results) put(a *a2a.Artifact, appendParts bool) {
	if a == nil {
		return
	}
	if r.artifacts == nil {
		r.artifacts = map[a2a.ArtifactID]*a2a.Artifact{}
	}
	have, ok := r.artifacts[a.ID]
	if !ok {
		r.order = append(r.order, a.ID)
	}
	next := &a2a.Artifact{ID: a.ID, Name: a.Name, Parts: append(a2a.ContentParts(nil), a.Parts...)}
	if ok && appendParts {
		next.Parts = append(append(a2a.ContentParts(nil), have.Parts...), a.Parts...)
		if next.Name == "" {
			next.Name = have.Name
		}
	}
	r.artifacts[a.ID] = next
}

// status notes a status message's text, when the status has a message.
func (r *results) status(s a2a.TaskStatus) {
	if s.Message == nil {
		return
	}
	var b strings.Builder
	for _, p := range s.Message.Parts {
		switch t := p.(type) {
		case a2a.TextPart:
			b.WriteString(t.Text)
		case *a2a.TextPart:
			b.WriteString(t.Text)
		}
	}
	r.statusText = b.String()
}

// context notes a contextId when the event names one.
func (r *results) context(id string) {
	if id != "" {
		r.contextID = id
	}
}

// report puts the results in out, each artifact summarised by package
// contract from its JSON (the SDK's 0.3 shape); one that cannot be
// summarised is said in the detail instead.
func (r *results) report(out *contract.DelegationOutcome) {
	out.ContextID, out.StatusText = r.contextID, r.statusText
	out.Artifacts = nil
	for _, id := range r.order {
		raw, err := json.Marshal(r.artifacts[id])
		var a contract.Artifact
		if err == nil {
			a, err = contract.SummarizeArtifact(raw)
		}
		if err != nil {
			out.Detail = strings.TrimPrefix(out.Detail+"; artifacts not summarised: "+err.Error(), "; ")
			out.Artifacts = nil
			return
		}
		out.Artifacts = append(out.Artifacts, a)
	}
}

// sdkErrors are the errors a2a-go's JSON-RPC transport returns for an
// error answer, by JSON-RPC code: the transport keeps only the sentinel
// of the code (ErrInternalError for a code it does not know) and the
// server's data.error text, not its message.
var sdkErrors = []struct {
	code int
	err  error
}{
	{-32700, a2a.ErrParseError}, {-32600, a2a.ErrInvalidRequest}, {-32601, a2a.ErrMethodNotFound},
	{-32602, a2a.ErrInvalidParams}, {-32603, a2a.ErrInternalError}, {-32000, a2a.ErrServerError},
	{-32001, a2a.ErrTaskNotFound}, {-32002, a2a.ErrTaskNotCancelable}, {-32003, a2a.ErrPushNotificationNotSupported},
	{-32004, a2a.ErrUnsupportedOperation}, {-32005, a2a.ErrUnsupportedContentType}, {-32006, a2a.ErrInvalidAgentResponse},
	{-32007, a2a.ErrAuthenticatedExtendedCardNotConfigured},
}

// remoteError is the outcome's error for an SDK error that carries an A2A
// error, or nil. The code is the one the SDK's sentinel stands for; the
// message is the SDK's text.
func remoteError(err error) *contract.RemoteError {
	for _, e := range sdkErrors {
		if errors.Is(err, e.err) {
			return &contract.RemoteError{Code: e.code, Message: err.Error()}
		}
	}
	return nil
}

// continuation is the caller's reply as the next message of task taskID
// in context contextID (A2A 1.0 §3.4.3), with the skill id where the
// first message had it, and the params to send it with.
func continuation(reply json.RawMessage, taskID a2a.TaskID, contextID string, first *a2a.MessageSendParams) (*a2a.MessageSendParams, error) {
	var msg a2a.Message
	if err := json.Unmarshal(reply, &msg); err != nil {
		return nil, fmt.Errorf("task.replies: %w", err)
	}
	msg.TaskID, msg.ContextID = taskID, contextID
	if msg.ID == "" {
		msg.ID = a2a.NewMessageID()
	}
	if msg.Role == "" {
		msg.Role = a2a.MessageRoleUser
	}
	if s, ok := first.Metadata["skillId"]; ok {
		if msg.Metadata == nil {
			msg.Metadata = map[string]any{}
		}
		msg.Metadata["skillId"] = s
	}
	return &a2a.MessageSendParams{Message: &msg, Metadata: first.Metadata}, nil
}
