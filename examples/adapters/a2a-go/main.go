// Command a2a-go is an a2a-conform exec adapter around the official Go A2A
// client, github.com/a2aproject/a2a-go v0.3.3, used the way its
// documentation shows and with its defaults. It exists to score what that
// SDK does out of the box, so it is deliberately not clever:
//
//   - the first candidate's card is fetched with agentcard.Resolver (no
//     cache, no cache-bypass headers; a fresh fetch per delegation);
//   - a client is built with a2aclient.NewFromCard and a JSON-RPC transport
//     over an *http.Client made from the request (trust.caFile,
//     network.proxy, and trust.clientCertificates: a transport per origin
//     whose tls.Config presents that origin's certificate, so no other
//     host sees it);
//   - the task's message is sent with SendMessage, or SendStreamingMessage
//     when task.preferStreaming is set and the card says streaming, with
//     the skill id in params.metadata.skillId and message.metadata.skillId;
//   - the next candidate is tried only when a card cannot be fetched or
//     used, or the endpoint cannot be reached;
//   - task.extensions go to the SDK's request metadata (a2aclient.CallMeta,
//     which its JSON-RPC transport sends as HTTP headers) through a
//     CallInterceptor, the SDK's hook for per-request metadata: v0.3.3 has
//     no client-side extension API of its own, and names the header
//     X-A2A-Extensions (a2asrv.ExtensionsMetaKey, the A2A 0.3 name, the
//     version it speaks). The card's required extensions are not compared
//     with them: the SDK does not, so a card requiring one the caller
//     lacks is sent to and its -32008 reported (extension-unsupported);
//   - trust.credentials go to the SDK's own a2aclient.AuthInterceptor,
//     through an InMemoryCredentialsStore keyed by session: the session is
//     the origin of the endpoint the card names, so the SDK presents only
//     the credential issued for that origin, in the way the card's
//     (0.3-shaped) securitySchemes say;
//   - a task the SDK leaves at input-required gets the caller's next
//     answer (task.replies) through the same SDK call, as a continuation:
//     the message's taskId and contextId are the task's (A2A 1.0 §3.4.3);
//   - the outcome is completed, interrupted (a task the SDK left at
//     input-required or auth-required) or failed with what the SDK
//     returned; cardTrust is always "authoritative" (the SDK takes the card
//     as a contract) and trustMode "unpinned" (the SDK verifies no
//     signature). With it go the task's contextId, its artifacts (streamed
//     chunks joined; summarised by package contract from the SDK's JSON),
//     the text of its last status message, and the A2A error the SDK
//     returned: the JSON-RPC code its sentinel error stands for (the
//     transport keeps no other code and drops the server's message, and
//     turns a code it does not know into ErrInternalError, -32603).
//
// It is a module of its own (go.mod here, with a replace back to the
// repository root for package contract), so that a2a-go and gRPC stay out
// of the harness module. Build and run it from the repository root:
//
//	go -C examples/adapters/a2a-go build -o "$PWD/bin/adapter-a2a-go" .
//	a2a-conform run --orchestrator exec:./bin/adapter-a2a-go
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"

	"github.com/a2a-conform/a2a-conform/contract"
)

const (
	name       = "a2a-conform-adapter-a2a-go"
	sdkModule  = "github.com/a2aproject/a2a-go"
	sdkVersion = "v0.3.3" // what go.mod pins; the build info wins when present
	// margin is kept back from deadlineMs so the outcome is written before
	// the harness gives up on the process.
	margin = 500 * time.Millisecond
)

func main() {
	if err := serve(os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "a2a-go adapter:", err)
		os.Exit(1)
	}
}

// adapter holds the HTTP clients built so far, keyed by CA file and proxy,
// so connections are reused within a scenario. reset drops them.
type adapter struct {
	clients map[string]*http.Client
	logw    io.Writer
}

// serve answers NDJSON messages from in on out until in ends.
func serve(in io.Reader, out, logw io.Writer) error {
	a := &adapter{clients: map[string]*http.Client{}, logw: logw}
	lr := contract.NewLineReader(in, 0)
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, contract.ErrLineTooLong) {
			fmt.Fprintln(logw, "skipped an over-long line")
			continue
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(line)) == "" {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			fmt.Fprintf(logw, "skipped a line that is not JSON: %v\n", err)
			continue
		}
		var answer any
		switch head.Type {
		case contract.TypeHello:
			answer = contract.Hello{Contract: contract.Version, Type: contract.TypeHello, Name: name, Version: sdkModule + "@" + version()}
		case contract.TypeReset:
			a.reset()
			answer = contract.Reset{Contract: contract.Version, Type: contract.TypeReset, OK: true}
		case contract.TypeDelegate:
			var req contract.DelegationRequest
			if err := json.Unmarshal(line, &req); err != nil {
				fmt.Fprintf(logw, "skipped a request that does not decode: %v\n", err)
				continue
			}
			answer = a.delegate(req)
		default:
			fmt.Fprintf(logw, "skipped a message of type %q\n", head.Type)
			continue
		}
		b, err := contract.MarshalLine(answer)
		if err != nil {
			return err
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
}

// version is the a2a-go version linked into this binary.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == sdkModule {
				return d.Version
			}
		}
	}
	return sdkVersion
}

func (a *adapter) reset() {
	for _, c := range a.clients {
		c.CloseIdleConnections()
	}
	a.clients = map[string]*http.Client{}
}

// httpClient returns the client for the request's CA file, proxy and
// client certificates: the system roots plus trust.caFile, and every
// request through network.proxy (Go's ProxyFromEnvironment would skip
// loopback; the explicit proxy does not). Without a proxy, host names are
// dialled through network.resolve. A client certificate is presented only
// to its origin (withClientCerts: a transport per origin).
func (a *adapter) httpClient(req contract.DelegationRequest) (*http.Client, error) {
	key := req.Trust.CAFile + "\x00" + req.Network.Proxy + "\x00" + clientCertsKey(req.Trust.ClientCertificates)
	if c, ok := a.clients[key]; ok {
		return c, nil
	}
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	if req.Trust.CAFile != "" {
		pem, err := os.ReadFile(req.Trust.CAFile)
		if err != nil {
			return nil, fmt.Errorf("trust.caFile: %w", err)
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("trust.caFile %s holds no certificate", req.Trust.CAFile)
		}
	}
	t := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
	}
	if req.Network.Proxy != "" {
		pu, err := url.Parse(req.Network.Proxy)
		if err != nil {
			return nil, fmt.Errorf("network.proxy: %w", err)
		}
		t.Proxy = http.ProxyURL(pu)
	} else {
		resolve := req.Network.Resolve
		d := &net.Dialer{Timeout: 10 * time.Second}
		t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if to, ok := resolve[addr]; ok {
				addr = to
			}
			return d.DialContext(ctx, network, addr)
		}
	}
	rt, err := withClientCerts(t, req.Trust.ClientCertificates)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Transport: rt}
	a.clients[key] = c
	return c, nil
}

// delegate runs one delegation the way the SDK's documentation shows.
func (a *adapter) delegate(req contract.DelegationRequest) contract.DelegationOutcome {
	out := contract.DelegationOutcome{
		Contract:  contract.Version,
		ID:        req.ID,
		Skill:     req.Task.Skill,
		CardTrust: contract.CardTrustAuthoritative,
		TrustMode: contract.TrustModeUnpinned,
	}
	fail := func(reason, detail string) contract.DelegationOutcome {
		out.Outcome, out.Reason, out.Detail = contract.OutcomeFailed, reason, detail
		return out
	}
	deadline := time.Duration(req.DeadlineMs) * time.Millisecond
	if deadline <= 0 {
		deadline = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(deadline-margin, deadline/2))
	defer cancel()

	hc, err := a.httpClient(req)
	if err != nil {
		return fail(contract.ReasonOther, err.Error())
	}
	var msg a2a.Message
	if err := json.Unmarshal(req.Task.Message, &msg); err != nil {
		out.Outcome, out.Reason, out.Detail = contract.OutcomeRejected, contract.ReasonOther, "task.message: "+err.Error()
		return out
	}
	if msg.ID == "" {
		msg.ID = a2a.NewMessageID()
	}
	if msg.Role == "" {
		msg.Role = a2a.MessageRoleUser
	}
	params := &a2a.MessageSendParams{Message: &msg}
	if s := req.Task.Skill; s != "" {
		if msg.Metadata == nil {
			msg.Metadata = map[string]any{}
		}
		msg.Metadata["skillId"] = s
		params.Metadata = map[string]any{"skillId": s}
	}

	var problems []string
	spokeNone := false // a card offered no transport the SDK speaks
	badCard := false   // the SDK could not decode what a card URL answered
	for _, cand := range req.Candidates {
		card, client, err := connect(ctx, hc, cand, req.Trust.Credentials, req.Task.Extensions)
		if err != nil {
			problems = append(problems, err.Error())
			spokeNone = spokeNone || noTransport(err)
			badCard = badCard || invalidCard(err)
			fmt.Fprintf(a.logw, "%s: %v\n", cand, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		out.Agent = card.URL
		stream := req.Task.PreferStreaming && card.Capabilities.Streaming
		// The AuthInterceptor finds the credentials of the session named in
		// the context: the endpoint's origin.
		cctx := a2aclient.WithSessionID(ctx, a2aclient.SessionID(contract.OriginOf(card.URL)))
		res := converse(cctx, client, params, req.Task.Replies, stream)
		_ = client.Destroy()
		out.TaskID, out.TaskState = res.taskID, string(res.state)
		res.results.report(&out)
		if res.err != nil && unreachable(res.err) && ctx.Err() == nil {
			// The endpoint could not be reached: the next candidate may do.
			problems = append(problems, fmt.Sprintf("%s: %v", card.URL, res.err))
			fmt.Fprintf(a.logw, "%s: %v\n", card.URL, res.err)
			out.Agent, out.TaskID, out.TaskState = "", "", ""
			out.ContextID, out.StatusText, out.Artifacts = "", "", nil
			continue
		}
		switch {
		case res.err != nil:
			out.Error = remoteError(res.err)
			return fail(reasonFor(ctx, res.err), res.err.Error())
		case res.message || res.state == a2a.TaskStateCompleted:
			out.Outcome, out.Reason = contract.OutcomeCompleted, contract.ReasonOK
			out.Detail = fmt.Sprintf("a2a-go %s via %s", map[bool]string{true: "SendStreamingMessage", false: "SendMessage"}[stream], card.URL)
			return out
		case contract.InterruptedState(string(res.state)) && res.taskID != "":
			// The SDK returns the task as the agent left it; at
			// input-required or auth-required it waits for the caller.
			out.Outcome, out.Reason = contract.OutcomeInterrupted, contract.ReasonOK
			out.Detail = fmt.Sprintf("remote task %s waits in state %q", res.taskID, res.state)
			return out
		case res.state == "":
			return fail(contract.ReasonOther, "the agent answered with neither a task nor a message")
		default:
			return fail(contract.ReasonOther, fmt.Sprintf("remote task ended in state %q", res.state))
		}
	}
	if ctx.Err() != nil {
		return fail(contract.ReasonDeadline, strings.Join(append(problems, ctx.Err().Error()), "; "))
	}
	if len(problems) == 0 {
		problems = []string{"no candidates"}
	}
	if spokeNone {
		return fail(contract.ReasonVersionMismatch, strings.Join(problems, "; "))
	}
	if badCard {
		return fail(contract.ReasonInvalidCard, strings.Join(problems, "; "))
	}
	return fail(contract.ReasonOther, strings.Join(problems, "; "))
}

// invalidCard reports whether err is agentcard.Resolver's refusal of a
// card response it could not decode into an AgentCard ("card parsing
// failed"): the library says the card is bad. It checks no REQUIRED
// member: {} decodes, and NewFromCard then finds no transport
// (noTransport).
func invalidCard(err error) bool {
	return strings.Contains(err.Error(), "card parsing failed")
}

// noTransport reports whether err is NewFromCard's refusal of a card whose
// interfaces name no transport the SDK was given (a 1.0-only card has no
// url/preferredTransport, which is all v0.3.3 reads). The SDK returns a
// plain error: "no compatible transports found: available transports - [...]".
func noTransport(err error) bool {
	return strings.Contains(err.Error(), "no compatible transports found")
}

// credentialStore puts the caller's credential for origin, if it holds
// one, under every scheme of the card it answers (bearer: an HTTP or
// OAuth2 scheme, sent as Authorization: Bearer; apiKey: an API key scheme,
// sent in the header the scheme names), for the session named origin.
func credentialStore(card *a2a.AgentCard, origin string, creds map[string]contract.Credential) *a2aclient.InMemoryCredentialsStore {
	store := a2aclient.NewInMemoryCredentialsStore()
	c, ok := creds[origin]
	if !ok || origin == "" {
		return store
	}
	for name, scheme := range card.SecuritySchemes {
		switch scheme.(type) {
		case a2a.HTTPAuthSecurityScheme, a2a.OAuth2SecurityScheme:
			if c.Scheme == contract.CredentialSchemeBearer {
				store.Set(a2aclient.SessionID(origin), name, a2aclient.AuthCredential(c.Value))
			}
		case a2a.APIKeySecurityScheme:
			if c.Scheme == contract.CredentialSchemeAPIKey {
				store.Set(a2aclient.SessionID(origin), name, a2aclient.AuthCredential(c.Value))
			}
		}
	}
	return store
}

// connect resolves the card at cardURL and builds an SDK client from it,
// with the SDK's AuthInterceptor holding the caller's credential for the
// origin of the endpoint the card names, and the caller's extensions
// (exts) activated on every call.
func connect(ctx context.Context, hc *http.Client, cardURL string, creds map[string]contract.Credential, exts []string) (*a2a.AgentCard, *a2aclient.Client, error) {
	u, err := url.Parse(cardURL)
	if err != nil {
		return nil, nil, fmt.Errorf("candidate %q: %w", cardURL, err)
	}
	base := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	var opts []agentcard.ResolveOption
	if u.Path != "" && u.Path != "/" {
		opts = append(opts, agentcard.WithPath(u.Path))
	}
	card, err := agentcard.NewResolver(hc).Resolve(ctx, base, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("resolving %s: %w", cardURL, err)
	}
	auth := &a2aclient.AuthInterceptor{Service: credentialStore(card, contract.OriginOf(card.URL), creds)}
	interceptors := []a2aclient.CallInterceptor{auth}
	if ext := activation(exts); ext != nil {
		interceptors = append(interceptors, ext)
	}
	client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(hc), a2aclient.WithInterceptors(interceptors...))
	if err != nil {
		return nil, nil, fmt.Errorf("client from card %s: %w", cardURL, err)
	}
	return card, client, nil
}

// extensionHeader is the header a2a-go's server side reads extensions from
// (a2asrv.ExtensionsMetaKey), the A2A 0.3 name: the version the client
// speaks, which sends no A2A-Version header.
const extensionHeader = "X-A2A-Extensions"

// extInterceptor activates the caller's extensions on every call: it puts
// their URIs, comma-separated, in the call's metadata under
// extensionHeader, which the JSON-RPC transport sends as a header.
type extInterceptor struct {
	a2aclient.PassthroughInterceptor
	value string
}

// activation is the interceptor for the caller's extensions (task.extensions),
// or nil when it implements none.
func activation(exts []string) a2aclient.CallInterceptor {
	var uris []string
	for _, u := range exts {
		if u = strings.TrimSpace(u); u != "" {
			uris = append(uris, u)
		}
	}
	if len(uris) == 0 {
		return nil
	}
	return &extInterceptor{value: strings.Join(uris, ",")}
}

// Before sets the extension header in the request's metadata.
func (e *extInterceptor) Before(ctx context.Context, req *a2aclient.Request) (context.Context, error) {
	if req.Meta == nil {
		req.Meta = a2aclient.CallMeta{}
	}
	req.Meta[extensionHeader] = []string{e.value}
	return ctx, nil
}

// result is what a send or a stream brought back.
type result struct {
	taskID  string
	state   a2a.TaskState
	message bool // the agent answered with a message rather than a task
	err     error
	results results
}

func (r *result) see(ev any) {
	switch e := ev.(type) {
	case *a2a.Task:
		r.taskID, r.state = string(e.ID), e.Status.State
		r.results.context(e.ContextID)
		r.results.status(e.Status)
		for _, a := range e.Artifacts {
			r.results.put(a, false)
		}
	case *a2a.Message:
		r.message = true
		if e.TaskID != "" {
			r.taskID = string(e.TaskID)
		}
		r.results.context(e.ContextID)
		r.results.put(&a2a.Artifact{Parts: e.Parts}, false)
	case *a2a.TaskStatusUpdateEvent:
		r.taskID, r.state = string(e.TaskID), e.Status.State
		r.results.context(e.ContextID)
		r.results.status(e.Status)
	case *a2a.TaskArtifactUpdateEvent:
		r.taskID = string(e.TaskID)
		r.results.context(e.ContextID)
		r.results.put(e.Artifact, e.Append)
	}
}

// converse sends the task's message, then, each time the task waits at
// input-required, the caller's next reply as its continuation, by the same
// SDK call (SendStreamingMessage or SendMessage).
func converse(ctx context.Context, client *a2aclient.Client, params *a2a.MessageSendParams, replies []json.RawMessage, stream bool) result {
	var r result
	send := func(p *a2a.MessageSendParams) {
		if stream {
			streamMessage(ctx, client, p, &r)
			return
		}
		got, err := client.SendMessage(ctx, p)
		r.err = err
		r.see(got)
	}
	send(params)
	for _, reply := range replies {
		if r.err != nil || r.state != a2a.TaskStateInputRequired || r.taskID == "" {
			break
		}
		next, err := continuation(reply, a2a.TaskID(r.taskID), r.results.contextID, params)
		if err != nil {
			r.err = err
			break
		}
		r.message = false
		send(next)
	}
	return r
}

// streamMessage reads the stream until the server ends it, as the SDK does:
// a final event does not stop the iteration.
func streamMessage(ctx context.Context, client *a2aclient.Client, params *a2a.MessageSendParams, r *result) {
	for ev, err := range client.SendStreamingMessage(ctx, params) {
		if err != nil {
			r.err = err
			break
		}
		r.see(ev)
	}
	if r.err == nil && r.state != "" {
		r.message = false // a task's state decides
	}
}

// unreachable reports whether err means the endpoint was never reached
// (dial, proxy or TLS failure), as opposed to an answer the agent gave.
func unreachable(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

func reasonFor(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return contract.ReasonDeadline
	case errors.Is(err, a2a.ErrMethodNotFound):
		return contract.ReasonEndpointNotA2A
	case strings.Contains(err.Error(), "unexpected HTTP status: 401"):
		// The JSON-RPC transport turns any status but 200 into a plain
		// error naming the status, and drops the body.
		return contract.ReasonAuthRejected
	}
	return contract.ReasonOther
}
