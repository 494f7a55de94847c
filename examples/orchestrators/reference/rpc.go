package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// callResult is what one JSON-RPC call brought back.
type callResult struct {
	// err is a transport failure (no JSON-RPC answer at all).
	err error
	// tls is set when err is a certificate verification failure.
	tls bool
	// rpcErr is the JSON-RPC error answered, if any.
	rpcErr *wire.RPCError
	// info is the task (or message) a successful call returned, raw the
	// result as received (results.go keeps what it carries).
	info wire.TaskInfo
	raw  json.RawMessage
}

func (c callResult) ok() bool { return c.err == nil && c.rpcErr == nil }

// unreached reports whether the call failed before any HTTP answer: the
// HTTP client's own error (dial, proxy, TLS), as opposed to an answer the
// endpoint gave that was no A2A answer; for gRPC, the interface could not
// be reached or serves no A2AService (grpc.go).
func (c callResult) unreached() bool {
	var ue *url.Error
	var ge *unreachableError // grpc.go
	return errors.As(c.err, &ue) || errors.As(c.err, &ge)
}

// envelope builds a JSON-RPC request body.
func (r *run) envelope(method string, params map[string]any) ([]byte, error) {
	r.rpcSeq++
	version := "2.0"
	if r.br.BadJSONRPC {
		version = "1.0"
	}
	return json.Marshal(map[string]any{
		"jsonrpc": version,
		"id":      fmt.Sprintf("ref-%s-%d", r.req.ID, r.rpcSeq),
		"method":  method,
		"params":  params,
	})
}

// newRequest builds one JSON-RPC request to the attempt's endpoint and
// counts it against the delegation's budget.
func (r *run) newRequest(ctx context.Context, a *attempt, method string, params map[string]any, accept string) (*http.Request, error) {
	if r.rpcCalls >= maxRPCCalls {
		return nil, fmt.Errorf("json-rpc call budget (%d) spent", maxRPCCalls)
	}
	if t := r.tenant(a); t != "" {
		params["tenant"] = t
	} else if r.br.EmptyTenant && a.ep.version() == ProtocolVersion {
		params["tenant"] = ""
	}
	body, err := r.envelope(method, params)
	if err != nil {
		return nil, err
	}
	target := a.ep.URL // byte for byte, as the card spells it
	if r.br.TrimEndpointSlash {
		target = strings.TrimSuffix(target, "/")
	}
	if r.alt.VersionQuery {
		target = withQuery(target, "A2A-Version", a.ep.version())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	if !r.withholdCredential(method) {
		r.authorize(a, req)
	}
	r.activate(a, req) // extensions.go
	r.rpcCalls++
	return req, nil
}

// post sends one JSON-RPC request to the attempt's endpoint.
func (r *run) post(ctx context.Context, a *attempt, method string, params map[string]any, accept string) (*http.Response, error) {
	req, err := r.newRequest(ctx, a, method, params, accept)
	if err != nil {
		return nil, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && r.renewToken(a, resp) { // oauth.go
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		return r.post(ctx, a, method, params, accept)
	}
	r.observe(a, resp)
	return resp, nil
}

// observe records what a response says about the endpoint: its TLS
// identity and whether its A2A-Version agrees with the card.
func (r *run) observe(a *attempt, resp *http.Response) {
	if resp.TLS != nil && len(resp.TLS.PeerCertificates) > 0 && a.peer == nil {
		a.peer = resp.TLS.PeerCertificates[0]
		a.tlsSeen = true
	}
	a.sawResponse = true
	if got := resp.Header.Get("A2A-Version"); got != a.ep.Version {
		if a.versionOK {
			r.notef("%s answered A2A-Version %q, card says %q", a.ep.URL, got, a.ep.Version)
		}
		a.versionOK = false
	}
}

// call makes a JSON-RPC call and decodes its answer.
func (r *run) call(a *attempt, method string, params map[string]any) callResult {
	res := r.callOnce(a, method, params)
	if res.ok() {
		if err := r.strictRead(res.raw); err != nil { // reading.go's breaks
			return callResult{err: err}
		}
	}
	r.takeResult(res.raw) // results.go
	return res
}

// callOnce makes one call on the attempt's interface.
func (r *run) callOnce(a *attempt, method string, params map[string]any) callResult {
	if res, ok := r.callOther(a, method, params); ok {
		return res
	}
	resp, err := r.post(r.ctx, a, method, params, "application/json")
	if err != nil {
		return callResult{err: err, tls: wire.IsTLSVerifyError(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return r.unauthorized(a, resp, method, params)
	}
	return decodeAnswer(resp)
}

func decodeAnswer(resp *http.Response) callResult {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return callResult{err: err}
	}
	var rr wire.RPCResponse
	if err := json.Unmarshal(body, &rr); err != nil || (rr.Error == nil && rr.Result == nil) {
		return callResult{err: fmt.Errorf("http status %d, not a JSON-RPC response", resp.StatusCode)}
	}
	if rr.Error != nil {
		return callResult{rpcErr: rr.Error}
	}
	info, err := wire.ParseResult(rr.Result)
	if err != nil {
		return callResult{err: err}
	}
	return callResult{info: info, raw: rr.Result}
}

// probeParams is the probe: a side-effect-free send whose only part is the
// probe text (or, for a skill that takes no text, a data part marked as a
// probe), with a2a_probe in the metadata [seed 000, Decision Boundary].
func (r *run) probeParams(a *attempt) map[string]any {
	part := map[string]any{"text": ProbeText}
	modes := a.card.inputModes(a.skill)
	if !acceptsText(modes) && acceptsJSON(modes) {
		part = map[string]any{"data": map[string]any{"a2a_probe": true}, "mediaType": "application/json"}
	}
	md := map[string]any{"a2a_probe": true}
	if a.skill != "" {
		md["skillId"] = a.skill
	}
	msg := map[string]any{"role": "ROLE_USER", "messageId": wire.NewID("probe-"), "parts": []any{part}, "metadata": md}
	pmd := map[string]any{"a2a_probe": true}
	if a.skill != "" {
		pmd["skillId"] = a.skill
	}
	return map[string]any{"message": msg, "metadata": pmd}
}

// probe sends one probe and cancels the task it created if that task is
// still live.
func (r *run) probe(a *attempt) callResult {
	var res callResult
	if r.alt.LifecycleProbe {
		// Seed 000's lifecycle probe: -32001 proves the task lifecycle.
		res = r.call(a, "GetTask", map[string]any{"id": ProbeText + wire.NewID("-"), "metadata": map[string]any{"a2a_probe": true}})
	} else {
		res = r.call(a, "SendMessage", r.probeParams(a))
	}
	a.probed = true
	r.o.mu.Lock()
	r.o.probed[a.ep.URL] = r.o.now()
	r.o.mu.Unlock()
	if res.ok() && res.info.ID != "" && !wire.Terminal(res.info.State) {
		if r.br.NoProbeCancel {
			r.notef("probe task %s left %s", res.info.ID, res.info.State)
		} else {
			c := r.call(a, "CancelTask", map[string]any{"id": res.info.ID})
			r.notef("probe task %s was %s: cancelled (%s)", res.info.ID, res.info.State, describe(c))
		}
	}
	return res
}

func describe(c callResult) string {
	switch {
	case c.err != nil:
		return c.err.Error()
	case c.rpcErr != nil:
		return c.rpcErr.Error()
	case c.info.Message:
		return "message"
	}
	return "task " + c.info.ID + " " + c.info.State
}

// probeStep is the one re-verification between discovery and commitment.
// False means the candidate is done (reason set).
func (r *run) probeStep(a *attempt) bool {
	if r.br.NoProbe {
		return true
	}
	if a.probed {
		return true
	}
	if r.br.ReprobeNever {
		r.o.mu.Lock()
		_, seen := r.o.probed[a.ep.URL]
		r.o.mu.Unlock()
		if seen {
			a.probeOK = true
			return true
		}
	}
	res := r.probe(a)
	if res.rpcErr != nil && r.br.ExtraCalls {
		for i := 0; i < 5; i++ {
			r.call(a, "SendMessage", r.probeParams(a))
		}
	}
	switch {
	case res.err != nil:
		if r.nextInterface(a, res) {
			return r.probeStep(a)
		}
		return r.transportFailure(a, "probe", res)
	case res.rpcErr == nil:
		a.probeOK = true
		return true
	case res.rpcErr.NotA2A():
		a.toolRefused = true
		r.notef("probe of %s: %v: endpoint-not-a2a", a.ep.URL, res.rpcErr)
		a.reason = contract.ReasonEndpointNotA2A
		if r.br.CommitOnStub {
			return true
		}
		return false
	case res.rpcErr.Code == -32001:
		a.probeOK = true // TaskNotFound: the endpoint speaks the task lifecycle
		return true
	case res.rpcErr.Code == -32008:
		r.extensionRefused(a, "probe", res.rpcErr, func() { r.probe(a) })
		return false
	case res.rpcErr.Code == -32009:
		r.notef("probe of %s: %v", a.ep.URL, res.rpcErr)
		if r.downgrade(a) {
			return r.probeStep(a)
		}
		a.reason = contract.ReasonVersionMismatch
		return false
	case res.rpcErr.ServerRange() && r.br.CommitAfterRefusedProbe:
		r.notef("probe of %s for %q: %v: taken as a live task lifecycle", a.ep.URL, a.skill, res.rpcErr)
		a.probeOK = true
		return true
	case res.rpcErr.ServerRange():
		r.notef("probe of %s for %q: %v: card is stale", a.ep.URL, a.skill, res.rpcErr)
		return r.reroute(a, res.rpcErr)
	}
	r.notef("probe of %s: %v", a.ep.URL, res.rpcErr)
	a.reason = contract.ReasonOther
	return false
}

func (r *run) transportFailure(a *attempt, what string, res callResult) bool {
	if r.authFailure(a, what, res) {
		return false
	}
	if res.tls {
		r.notef("%s of %s: certificate does not verify: %v", what, a.ep.URL, res.err)
		a.reason = contract.ReasonTLSSANMismatch
		if a.outcome == "" {
			a.outcome = contract.OutcomeRejected
		}
		return false
	}
	r.notef("%s of %s: %v", what, a.ep.URL, res.err)
	a.reason = contract.ReasonOther
	// A gRPC call's deadline travels with it (grpc-timeout): the server
	// may end it a moment before the delegation's own context runs out.
	if r.ctx.Err() != nil || errors.Is(res.err, context.DeadlineExceeded) && r.nearDeadline() {
		a.reason = contract.ReasonDeadline
	}
	return false
}

// nearDeadline reports whether the delegation's deadline is at most
// 200 ms away.
func (r *run) nearDeadline() bool {
	dl, ok := r.ctx.Deadline()
	return ok && time.Until(dl) < 200*time.Millisecond
}

// reroute handles a server-range error (probe or real task): the card is
// stale. The availability entry is invalidated (for -32004), the card is
// fetched again bypassing every cache, and the route chosen again: the
// skill's successor at the same endpoint, a new endpoint (probed once), or
// the next candidate. True means: send the real task (again).
func (r *run) reroute(a *attempt, e *wire.RPCError) bool {
	a.stale = true
	o := r.o
	now := o.now()
	host := hostOf(a.ep.URL)
	hint := e.Hint()
	skillErr := e.Code == -32004
	if skillErr && r.br.EscalateOnSkillError {
		a.final, a.outcome, a.reason = true, contract.OutcomeEscalated, contract.ReasonSkillUnavailable
		return false
	}
	if skillErr {
		o.avail.markUnavailable(host, a.skill, hint.Region, now, o.availTTL(), r.br.NoAvailabilityCacheInvalidation)
		if r.br.GlobalSkillAvailability {
			o.mu.Lock()
			o.skillDown[a.skill] = now.Add(o.availTTL())
			o.mu.Unlock()
		}
	}
	names := append([]string(nil), hint.AvailableSkills...)
	if r.br.AnyAvailableSkill && skillErr {
		for _, n := range names {
			if !a.tried[n] && n != a.skill {
				r.notef("re-routing %q to %q, the first skill offered", a.skill, n)
				a.tried[a.skill] = true
				a.skill = n
				return r.probeStep(a)
			}
		}
	}
	if !r.br.NoRefetch && !a.refetched {
		a.refetched = true
		card, err := r.card(a.cardURL, fetchBypass)
		if err != nil {
			r.notef("re-fetch of %s: %v", a.cardURL, err)
		} else {
			if !r.br.RefetchWithETag {
				o.avail.cardRefetched(host)
			}
			oldURL := a.ep.URL
			if !r.useCard(a, card) {
				return false
			}
			if a.ep.URL != oldURL {
				r.notef("fresh card moved the endpoint to %s", a.ep.URL)
				if !skillErr {
					return r.probeStep(a)
				}
				host = hostOf(a.ep.URL)
			}
			for _, s := range card.Skills {
				names = append(names, s.ID)
			}
		}
	}
	if !skillErr {
		a.reason = contract.ReasonStaleCard
		return false
	}
	a.tried[a.skill] = true
	next := successorOf(a.wanted, names, func(s string) bool { return a.tried[s] || o.avail.blocked(host, s) })
	if next == "" && r.borrow(a) {
		return true
	}
	if next == "" {
		r.notef("no successor of %q at %s", a.wanted, a.ep.URL)
		a.reason = contract.ReasonSkillUnavailable
		return false
	}
	o.avail.setSuccessor(hostOf(a.ep.URL), a.skill, next)
	if a.skill != a.wanted {
		o.avail.setSuccessor(hostOf(a.ep.URL), a.wanted, next)
	}
	r.notef("re-routing %q to %q at %s", a.skill, next, a.ep.URL)
	a.skill = next
	return r.probeStep(a)
}

// commit sends the real task, re-routing on -32004.
func (r *run) commit(a *attempt) {
	o := r.o
	for round := 0; round < 4 && r.ctx.Err() == nil; round++ {
		host := hostOf(a.ep.URL)
		if o.avail.blocked(host, a.skill) && !r.br.NoAvailabilityCacheInvalidation {
			// Never resend a refused skill before the card is fetched again.
			if _, err := r.card(a.cardURL, fetchBypass); err == nil {
				o.avail.cardRefetched(host)
			} else {
				a.reason = contract.ReasonSkillUnavailable
				return
			}
		}
		msg, ok := r.shape(a)
		if !ok {
			a.reason = contract.ReasonInputModeMismatch
			return
		}
		if r.br.ProbeEveryCall {
			r.probe(a)
		}
		params := r.sendParams(a, msg)
		res, decided := r.afterLost(a, r.send(a, params)) // retry.go: a lost answer
		if decided {
			return
		}
		if res.err != nil {
			r.transportFailure(a, "send", res)
			return
		}
		if res.rpcErr == nil {
			r.completeTask(a, res.info)
			if r.br.SendTwice && a.outcome == contract.OutcomeCompleted {
				r.call(a, "SendMessage", r.sendParams(a, msg))
			}
			return
		}
		e := res.rpcErr
		r.rememberError(a, e) // streamerr.go
		r.notef("send of %q to %s: %v", a.skill, a.ep.URL, e)
		if r.br.ExtraCalls {
			for i := 0; i < 5; i++ {
				r.call(a, "SendMessage", r.sendParams(a, msg))
			}
		}
		switch {
		case e.Code == -32008:
			r.extensionRefused(a, "send", e, func() { r.call(a, "SendMessage", params) })
			return
		case e.Code == -32004 && r.br.RefetchPlain && !a.resentStale:
			a.resentStale = true
			if _, err := r.card(a.cardURL, fetchPlain); err == nil {
				o.avail.cardRefetched(host)
			}
			continue
		case e.Code == -32004:
			if r.br.NoAvailabilityCacheInvalidation && !a.resentStale && o.avail.isAvailable(host, a.skill, o.now()) {
				a.resentStale = true
				continue
			}
			if !r.reroute(a, e) {
				return
			}
		case e.ServerRange() && r.alt.RetrySameVendor && !a.retried:
			// The alternative: the card may be stale; re-fetch it past the
			// caches and try this vendor once more.
			a.retried = true
			card, err := r.card(a.cardURL, fetchBypass)
			if err != nil || !r.useCard(a, card) {
				a.reason = contract.ReasonOther
				return
			}
			continue
		case e.ServerRange():
			// Not fatal and not a verdict on the vendor: next candidate.
			a.reason = contract.ReasonOther
			if r.br.EscalateOnServerError {
				a.final, a.outcome = true, contract.OutcomeEscalated
				return
			}
			if r.br.MarkDegraded {
				o.mu.Lock()
				o.degraded[a.cardURL] = true
				o.mu.Unlock()
			}
			return
		case e.NotA2A():
			a.toolRefused = true
			a.reason = contract.ReasonEndpointNotA2A
			return
		case e.Code == -32009:
			a.reason = contract.ReasonVersionMismatch
			return
		default:
			a.reason = contract.ReasonOther
			return
		}
	}
}

// sendParams are the params of the real send: the 1.0 message with the
// skill in params.metadata.skillId and message.metadata.skillId.
func (r *run) sendParams(a *attempt, msg *wire.Message) map[string]any {
	m := msg.Clone()
	if m.MessageID == "" {
		m.MessageID = wire.NewID("m-")
	}
	if a.committed || a.tried[a.skill] {
		m.MessageID = wire.NewID(m.MessageID + "-")
	}
	md := map[string]any{}
	if a.skill != "" {
		if m.Metadata == nil {
			m.Metadata = map[string]any{}
		}
		m.Metadata["skillId"] = a.skill
		md["skillId"] = a.skill
	}
	p := map[string]any{"message": m.V10()}
	if r.br.LegacyParts {
		p["message"] = m.V03()
	}
	if len(md) > 0 {
		p["metadata"] = md
	}
	if r.br.ReturnImmediatelyNoFollow {
		p["configuration"] = map[string]any{"returnImmediately": true}
	}
	return p
}

// send sends the real task, streaming when asked and offered, and falls
// back to SendMessage when the stream does not hold its claims.
func (r *run) send(a *attempt, params map[string]any) callResult {
	a.committed, a.params = true, params
	r.sentTask = true
	if res, ok := r.sendOddly(a, params); ok { // retry.go: the SLOW breaks
		return res
	}
	if r.wantsPush(a) { // push.go: followed by the reference's webhook
		return r.call(a, "SendMessage", r.pushParams(a, params))
	}
	wantStream := r.req.Task.PreferStreaming || r.alt.StreamFollow
	if wantStream && !a.card.Capabilities.Streaming && r.br.GiveUpWithoutStreaming {
		return callResult{err: errors.New("the caller prefers streaming and the card says the agent does not stream")}
	}
	streams := a.card.Capabilities.Streaming || r.br.StreamDespiteCard && r.req.Task.PreferStreaming
	if wantStream && streams && (a.ep.Binding == bindingJSONRPC || a.ep.Binding == bindingGRPC) && a.ep.Version == ProtocolVersion {
		res, fallback := r.stream(a, params)
		if r.br.StreamDespiteCard && !a.card.Capabilities.Streaming && res.rpcErr != nil && res.rpcErr.Code == -32004 {
			r.notef("stream refused (-32004): sending the work by SendMessage")
			return r.call(a, "SendMessage", params)
		}
		if r.br.ResendAfterStreamAuth && errors.Is(res.err, errAuthRejected) {
			r.notef("stream refused (401): sending the work by SendMessage")
			fallback = true
		}
		if !fallback {
			return res
		}
		if r.br.NoStreamFallback {
			return callResult{rpcErr: &wire.RPCError{Code: -32603, Message: "stream did not hold the card's claims"}}
		}
	}
	return r.call(a, "SendMessage", params)
}

// completeTask follows a task to a terminal state (polling GetTask for the
// id the endpoint gave) and decides the attempt.
func (r *run) completeTask(a *attempt, info wire.TaskInfo) {
	info = r.follow(a, info)   // life.go
	info = r.converse(a, info) // conversation.go: an asking task gets the caller's replies
	a.taskID, a.taskState = info.ID, info.State
	a.final = true
	switch {
	case r.lifeOutcome(a, info): // life.go: interrupted, and the LIFE breaks
	case info.Message || info.State == "completed":
		a.outcome, a.reason = contract.OutcomeCompleted, contract.ReasonOK
		if info.Message {
			a.taskState = ""
		}
		r.o.avail.markAvailable(hostOf(a.ep.URL), a.skill, r.o.now(), r.o.availTTL())
		if r.br.BorrowSkillID {
			r.o.mu.Lock()
			r.o.ranAt[a.skill] = a.ep
			r.o.mu.Unlock()
		}
		if r.br.CancelAfterComplete && info.ID != "" {
			r.call(a, "CancelTask", map[string]any{"id": info.ID})
		}
		if r.br.GetUnknownTask {
			r.call(a, "GetTask", map[string]any{"id": wire.NewID("t-made-up-")})
		}
	default:
		a.outcome, a.reason = contract.OutcomeFailed, contract.ReasonOther
		if r.ctx.Err() != nil {
			a.reason = contract.ReasonDeadline
		}
		r.notef("task %s ended %s", info.ID, info.State)
	}
}

func interrupted(state string) bool { return state == "input-required" || state == "auth-required" }

// shape fits the caller's message to the skill's input modes: parts the
// skill accepts go as they are; a text part for a skill that takes only
// JSON becomes a data part {"text": ...} (said out loud, not coerced
// silently by the far side); data for a text-only skill becomes its JSON
// text. Anything else does not fit (MODE-001).
func (r *run) shape(a *attempt) (*wire.Message, bool) {
	m := r.msg.Clone()
	if r.br.IgnoreInputModes {
		return m, true
	}
	modes := a.card.inputModes(a.skill)
	for i, p := range m.Parts {
		switch p.Kind {
		case "text":
			if acceptsText(modes) {
				continue
			}
			if r.alt.RefuseModeMismatch {
				r.notef("skill %q takes %v, not the caller's text: refused", a.skill, modes)
				return nil, false
			}
			if acceptsJSON(modes) {
				d, _ := json.Marshal(map[string]string{"text": p.Text})
				m.Parts[i] = wire.Part{Kind: "data", Data: d, MediaType: "application/json", Metadata: p.Metadata}
				r.notef("skill %q takes %v: text part %d sent as a data part {\"text\": ...}", a.skill, modes, i)
				continue
			}
		case "data":
			if acceptsJSON(modes) {
				continue
			}
			if acceptsText(modes) {
				m.Parts[i] = wire.Part{Kind: "text", Text: string(p.Data), Metadata: p.Metadata}
				r.notef("skill %q takes %v: data part %d sent as its JSON text", a.skill, modes, i)
				continue
			}
		case "file":
			if acceptsMedia(modes, p.MediaType) {
				continue
			}
		}
		r.notef("%s: skill %q takes %v; part %d (%s) does not fit: input-mode-mismatch", a.cardURL, a.skill, modes, i, p.Kind)
		return nil, false
	}
	return m, true
}

func acceptsText(modes []string) bool {
	for _, m := range modes {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == "text" || strings.HasPrefix(m, "text/") || m == "*/*" {
			return true
		}
	}
	return false
}

func acceptsJSON(modes []string) bool {
	for _, m := range modes {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == "application/json" || m == "data" || m == "application/*" || m == "*/*" || strings.HasSuffix(m, "+json") {
			return true
		}
	}
	return false
}

func acceptsMedia(modes []string, mt string) bool {
	mt = strings.ToLower(mt)
	typ, _, _ := strings.Cut(mt, "/")
	for _, m := range modes {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == "*/*" || m == mt || m == typ+"/*" || m == "file" {
			return true
		}
	}
	return false
}

// stream sends SendStreamingMessage. fallback true means the stream broke
// the card's claims (not text/event-stream, or no first frame within the
// card's timeout) and the caller should send SendMessage instead.
func (r *run) stream(a *attempt, params map[string]any) (res callResult, fallback bool) {
	timeout := a.card.firstFrameTimeout()
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()

	ch := make(chan streamEvent)
	emit := func(e streamEvent) bool {
		select {
		case ch <- e:
			return true
		case <-ctx.Done():
			return false
		}
	}
	start := time.Now()
	var read streamReader
	var err error
	if a.ep.Binding == bindingGRPC {
		read, err = r.grpcStream(ctx, a, "SendStreamingMessage", params) // grpcstream.go
	} else {
		read, err = r.sseStream(ctx, a, "SendStreamingMessage", params)
	}
	if err != nil {
		return callResult{err: err, tls: wire.IsTLSVerifyError(err)}, false
	}
	go read(emit)

	var timer <-chan time.Time
	if !r.br.NoStreamTimeout {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var info wire.TaskInfo
	frames := 0
	var resp *http.Response
	for {
		var e streamEvent
		select {
		case e = <-ch:
		case <-timer:
			cancel()
			a.streamTrouble = true
			r.notef("no stream frame from %s within %v: stream abandoned after %v, falling back to SendMessage", a.ep.URL, timeout, time.Since(start).Round(time.Millisecond))
			return callResult{}, true
		case <-r.ctx.Done():
			if info.ID != "" {
				// The deadline ended the stream of a running task: closed
				// here (the deferred cancel), the task is given up and
				// cancelled by follow (life.go).
				r.notef("deadline: stream of task %s closed at %s", info.ID, info.State)
				a.viaStream = true
				return callResult{info: info}, false
			}
			return callResult{err: r.ctx.Err()}, false
		}
		switch {
		case e.resp != nil:
			resp = e.resp
			if resp.StatusCode == http.StatusUnauthorized {
				if r.renewToken(a, resp) { // oauth.go: once, with a new token
					cancel()
					return r.stream(a, params)
				}
				return callResult{err: fmt.Errorf("SendStreamingMessage %s: %w", a.ep.URL, errAuthRejected)}, false
			}
			r.observe(a, resp)
			if !isSSE(resp.Header.Get("Content-Type")) {
				a.streamTrouble = true
			}
			continue
		case e.end:
			if e.err != nil && resp == nil {
				return callResult{err: e.err, tls: wire.IsTLSVerifyError(e.err)}, false
			}
			if frames == 0 {
				a.streamTrouble = true
				r.notef("stream from %s ended without a frame: falling back to SendMessage", a.ep.URL)
				return callResult{}, true
			}
			if info.ID == "" && !info.Message {
				return callResult{err: errors.New("stream named no task")}, false
			}
			a.viaStream, a.streamBroke = true, e.err != nil // life.go follows the task on
			return callResult{info: info}, false
		case !e.sse:
			// A stream method answered with a plain body.
			var rr wire.RPCResponse
			if json.Unmarshal(e.data, &rr) == nil && rr.Error != nil {
				return r.streamErrorAnswer(a, rr.Error) // streamerr.go
			}
			r.notef("stream method of %s answered %q, not text/event-stream: card is a hint, falling back to SendMessage", a.ep.URL, resp.Header.Get("Content-Type"))
			return callResult{}, true
		}
		// An SSE frame.
		if frames == 0 {
			timer = nil
			if !a.streamTrouble {
				a.streamOK = true
			}
		}
		frames++
		var rr wire.RPCResponse
		if err := json.Unmarshal(e.data, &rr); err != nil {
			continue
		}
		if rr.Error != nil {
			a.streamErrEvent = true // streamerr.go
			return callResult{rpcErr: rr.Error}, false
		}
		ti, err := wire.ParseResult(rr.Result)
		if err != nil {
			continue
		}
		if err := r.strictRead(rr.Result); err != nil { // reading.go's breaks
			return callResult{err: err}, false
		}
		r.takeResult(rr.Result) // results.go
		if ti.Message {
			info.Message = true
		}
		if ti.ID != "" {
			info.ID = ti.ID
		}
		if ti.ContextID != "" {
			info.ContextID = ti.ContextID
		}
		if ti.State != "" {
			info.State = ti.State
		}
		if r.unknownStateAsEnd(a, info) { // streamerr.go
			return callResult{info: info}, false
		}
		if r.br.StreamWorkingAsEnd && info.ID != "" && info.State == "working" {
			r.notef("stream of task %s: working, taken as the end", info.ID)
			a.workingAsEnd = true
			return callResult{info: info}, false
		}
	}
}

// streamEvent is one thing a stream's reader saw: the answer's headers,
// an event (or the whole body of an answer that is no stream), or the end.
type streamEvent struct {
	resp *http.Response // headers arrived (over gRPC: grpcHeaders)
	data []byte         // an SSE event, or the whole non-SSE body
	sse  bool
	err  error
	end  bool
}

// streamReader reads one stream, passing what it sees to emit until emit
// returns false or the stream ends.
type streamReader func(emit func(streamEvent) bool)

// sseStream makes the JSON-RPC request of a stream method and returns its
// reader: the response's headers, each SSE event (or a plain body), then
// the end.
func (r *run) sseStream(ctx context.Context, a *attempt, method string, params map[string]any) (streamReader, error) {
	req, err := r.newRequest(ctx, a, method, params, "text/event-stream")
	if err != nil {
		return nil, err
	}
	return func(emit func(streamEvent) bool) {
		resp, err := r.client.Do(req)
		if err != nil {
			emit(streamEvent{err: err, end: true})
			return
		}
		defer resp.Body.Close()
		if !emit(streamEvent{resp: resp}) {
			return
		}
		if !isSSE(resp.Header.Get("Content-Type")) {
			b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
			if emit(streamEvent{data: b, err: err}) {
				emit(streamEvent{end: true})
			}
			return
		}
		err = wire.ReadSSE(resp.Body, func(d []byte) bool { return emit(streamEvent{data: d, sse: true}) })
		emit(streamEvent{err: err, end: true})
	}, nil
}

func isSSE(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/event-stream"
}

// withQuery returns raw with the query parameter added.
func withQuery(raw, key, value string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// borrow is the BorrowSkillID break: with no route left for the wanted
// skill among the delegation's candidates, it moves the attempt to another
// endpoint where a skill of the same id completed before. True means: send
// the real task again, there.
func (r *run) borrow(a *attempt) bool {
	if !r.br.BorrowSkillID {
		return false
	}
	r.o.mu.Lock()
	ep, ok := r.o.ranAt[a.wanted]
	r.o.mu.Unlock()
	if !ok || ep.URL == a.ep.URL {
		return false
	}
	r.notef("re-routing %q to %s, which ran a skill of that id before", a.wanted, ep.URL)
	r.fence.Allow(ep.URL)
	a.ep, a.skill = ep, a.wanted
	a.probed, a.probeOK, a.peer, a.tlsSeen = false, false, nil, false
	return true
}
