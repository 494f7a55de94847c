package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Interface and version selection [A2A 1.0 §8.3.2, §5.2, §3.6; a2a-cli
// SPEC §13.1-13.2 (A2ACLI_TX_001..003, A2ACLI_VER_001)].
//
// The reference speaks A2A 1.0 over JSON-RPC, HTTP+JSON and gRPC, and A2A
// 0.3 over JSON-RPC for agents whose card offers nothing newer. From a
// card it takes, in order:
//
//   - supportedInterfaces when the card has them: the entries whose
//     binding and version it speaks, the 1.0 ones first (in card order),
//     then the 0.3 ones; unknown bindings are skipped. A gRPC interface's
//     url is host:port (the proto's comment on AgentInterface.url) or an
//     https URL: either is kept as the https origin it names (grpc.go);
//   - else the 0.3 members: url with preferredTransport, then
//     additionalInterfaces, at the card's protocolVersion (0.3 when absent).
//
// It sends every request to the selected interface's URL, with that
// interface's version (A2A-Version 1.0 or 0.3; a2a-version metadata over
// gRPC) and tenant (params.tenant for JSON-RPC, the request's tenant field
// for gRPC, the /{tenant}/ path segment for HTTP+JSON). When an interface
// cannot be reached it tries the next one. A -32009 is final: the
// reference asked for 1.0 and does not fall back below it.

// Protocol bindings the reference knows.
const (
	bindingJSONRPC = "JSONRPC"
	bindingREST    = "HTTP+JSON"
	bindingGRPC    = "GRPC"
)

// legacyVersion is the only pre-1.0 version the reference speaks.
const legacyVersion = "0.3"

// cardInterface is one supportedInterfaces entry.
type cardInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
	Tenant          string `json:"tenant"`
}

// legacyInterface is one 0.3 additionalInterfaces entry.
type legacyInterface struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

// speaks reports whether the reference speaks the binding at the version
// (gRPC at 1.0 only; not at all under the GRPCSkip break and the NoGRPC
// alternative).
func (r *run) speaks(binding, version string) bool {
	b := strings.ToUpper(strings.TrimSpace(binding))
	switch version {
	case ProtocolVersion:
		return b == bindingJSONRPC || b == bindingREST || b == bindingGRPC && !r.br.GRPCSkip && !r.alt.NoGRPC
	case legacyVersion:
		return b == bindingJSONRPC
	}
	return false
}

// interfaces are the card's interfaces the reference would use, in the
// order it tries them: under the Only10 and Only03 alternatives, those of
// the one version it speaks (a 0.3 client reads a card's 0.3 members
// whatever else the card has).
func (r *run) interfaces(c *agentCard) []iface {
	if r.br.HybridLegacy03 && c.URL != "" && len(c.SupportedInterfaces) > 0 {
		return append([]iface{{URL: c.URL, Version: legacyVersion, Binding: bindingJSONRPC}}, r.spokenInterfaces(c)...)
	}
	return r.spokenInterfaces(c)
}

// spokenInterfaces are the card's interfaces in the versions the
// reference speaks (both, or one under Only10 and Only03).
func (r *run) spokenInterfaces(c *agentCard) []iface {
	switch {
	case r.alt.Only10:
		return onlyVersion(r.allInterfaces(c), ProtocolVersion)
	case r.alt.Only03:
		out := onlyVersion(r.fromSupported(c.SupportedInterfaces), legacyVersion)
		if c.ProtocolVersion == "" || strings.HasPrefix(c.ProtocolVersion, "0.") {
			for _, i := range onlyVersion(r.fromLegacy(c), legacyVersion) {
				if !slices.ContainsFunc(out, func(h iface) bool { return h.URL == i.URL && h.Binding == i.Binding }) {
					out = append(out, i)
				}
			}
		}
		return out
	}
	return r.allInterfaces(c)
}

// onlyVersion keeps the interfaces of version v.
func onlyVersion(l []iface, v string) []iface {
	var out []iface
	for _, i := range l {
		if i.version() == v {
			out = append(out, i)
		}
	}
	return out
}

// allInterfaces are the card's interfaces in either version the reference
// speaks, in the order it tries them.
func (r *run) allInterfaces(c *agentCard) []iface {
	var out []iface
	if r.br.LegacyURLFirst && c.URL != "" {
		// The break: the top-level url taken as this client's own 1.0
		// JSON-RPC interface, ahead of supportedInterfaces.
		out = append(out, iface{URL: c.URL, Version: ProtocolVersion, Binding: bindingJSONRPC})
	}
	if len(c.SupportedInterfaces) > 0 {
		return append(out, r.fromSupported(c.SupportedInterfaces)...)
	}
	if r.br.NoLegacyFallback {
		return out
	}
	return append(out, r.fromLegacy(c)...)
}

// fromSupported orders the supportedInterfaces the reference speaks: 1.0
// entries first, then 0.3 ones, each in card order (or all in card order,
// the CardOrder alternative).
func (r *run) fromSupported(list []cardInterface) []iface {
	var v10, v03, all []iface
	for _, ci := range list {
		binding := strings.ToUpper(strings.TrimSpace(ci.ProtocolBinding))
		version := majorMinor(ci.ProtocolVersion)
		if r.br.IgnoreBinding {
			binding = bindingJSONRPC
		}
		if r.br.AnyVersionInterface && (binding == bindingJSONRPC || binding == bindingREST) {
			version = ProtocolVersion
		}
		if ci.URL == "" || !r.speaks(binding, version) {
			continue
		}
		i := iface{URL: ci.URL, Version: version, Binding: binding, Tenant: ci.Tenant}
		if binding == bindingGRPC {
			u, ok := grpcURL(ci.URL)
			if !ok {
				continue // neither host:port nor an https URL
			}
			i.URL = u
		}
		all = append(all, i)
		if version == ProtocolVersion {
			v10 = append(v10, i)
		} else {
			v03 = append(v03, i)
		}
	}
	if r.alt.CardOrder || r.br.AnyVersionInterface {
		return r.grpcFirst(all)
	}
	return r.grpcFirst(append(v10, v03...))
}

// grpcFirst moves the gRPC interfaces ahead of the others, in their
// order, under the PreferGRPC alternative (A2A 1.0.1 §5.2: a client may
// choose any protocol the agent declares); a delegation that asks for
// push notifications keeps the card's order, since the reference
// registers webhooks over JSON-RPC only (push.go).
func (r *run) grpcFirst(l []iface) []iface {
	if !r.alt.PreferGRPC || r.req.Task.Push {
		return l
	}
	var g, other []iface
	for _, i := range l {
		if i.Binding == bindingGRPC {
			g = append(g, i)
		} else {
			other = append(other, i)
		}
	}
	return append(g, other...)
}

// fromLegacy reads a card without supportedInterfaces: url at its
// preferredTransport (JSON-RPC when absent), then additionalInterfaces, at
// the card's protocolVersion (0.3 when absent).
func (r *run) fromLegacy(c *agentCard) []iface {
	version := legacyVersion
	if c.ProtocolVersion != "" {
		version = majorMinor(c.ProtocolVersion)
	}
	if r.br.LegacyAs10 {
		version = ProtocolVersion
	}
	var out []iface
	add := func(u, transport string) {
		b := strings.ToUpper(strings.TrimSpace(transport))
		if b == "" {
			b = bindingJSONRPC
		}
		if u == "" || !r.speaks(b, version) {
			return
		}
		if b == bindingGRPC {
			g, ok := grpcURL(u)
			if !ok {
				return
			}
			u = g
		}
		for _, have := range out {
			if have.URL == u && have.Binding == b {
				return
			}
		}
		out = append(out, iface{URL: u, Version: version, Binding: b})
	}
	add(c.URL, c.PreferredTransport)
	for _, li := range c.AdditionalInterfaces {
		add(li.URL, li.Transport)
	}
	return out
}

// nextInterface moves the attempt to the card's next interface after a
// failure to reach the current one (A2A 1.0 §5.2: the client tries the
// next interface when one fails to connect). Whatever the endpoint
// answered (a 401, a body that is no A2A answer) is no connection
// failure, and neither is a certificate that does not verify: those are
// refusals. False means there is none, or the NoInterfaceFallback break is
// on.
func (r *run) nextInterface(a *attempt, res callResult) bool {
	if r.br.NoInterfaceFallback || !res.unreached() || res.tls || r.ctx.Err() != nil || a.epIndex+1 >= len(a.eps) {
		return false
	}
	failed := a.ep.URL
	a.epIndex++
	a.ep = a.eps[a.epIndex]
	r.fence.Allow(a.ep.URL)
	a.probed, a.probeOK, a.peer, a.tlsSeen = false, false, nil, false
	a.versionOK, a.sawResponse = true, false
	r.notef("%s could not be reached (%v): trying the card's next interface, %s %s at %s", failed, res.err, a.ep.Binding, a.ep.Version, a.ep.URL)
	return true
}

// downgrade is the DowngradeOnVersionError break: after -32009 the same
// URL is tried again as a 0.3 JSON-RPC interface.
func (r *run) downgrade(a *attempt) bool {
	if !r.br.DowngradeOnVersionError || a.ep.Version == legacyVersion {
		return false
	}
	r.notef("%s refused A2A %s: trying 0.3", a.ep.URL, a.ep.Version)
	a.ep = iface{URL: a.ep.URL, Version: legacyVersion, Binding: bindingJSONRPC}
	a.probed, a.versionOK, a.sawResponse = false, true, false
	return true
}

// tenant is the tenant requests to the interface carry ("" for none).
func (r *run) tenant(a *attempt) string {
	if r.br.OmitTenant {
		return ""
	}
	return a.ep.Tenant
}

// versionKey carries the A2A-Version a request speaks, for versionHeader.
type versionKey struct{}

// versionHeader sets each request's A2A-Version to the version of the
// interface it goes to, under the fence (which sets 1.0 on every
// request); a request without the header (NoVersionHeader, VersionQuery)
// is left without it.
type versionHeader struct{ base http.RoundTripper }

func (v versionHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	if ver, ok := req.Context().Value(versionKey{}).(string); ok && ver != "" && req.Header.Get("A2A-Version") != "" && req.Header.Get("A2A-Version") != ver {
		req = req.Clone(req.Context())
		req.Header.Set("A2A-Version", ver)
	}
	return v.base.RoundTrip(req)
}

// withVersion marks ctx with the version of the attempt's interface.
func withVersion(ctx context.Context, a *attempt) context.Context {
	if a.ep.Version == "" {
		return ctx
	}
	return context.WithValue(ctx, versionKey{}, a.ep.Version)
}

// callOther makes a call to an interface that is not 1.0 JSON-RPC: 0.3
// JSON-RPC (the 0.3 method and message shapes), 1.0 HTTP+JSON or 1.0 gRPC
// (grpc.go). ok false means the interface is 1.0 JSON-RPC (call's own
// path).
func (r *run) callOther(a *attempt, method string, params map[string]any) (res callResult, ok bool) {
	switch {
	case a.ep.Binding == bindingREST:
		return r.callREST(a, method, params), true
	case a.ep.Binding == bindingGRPC:
		return r.callGRPC(r.ctx, a, method, params), true
	case a.ep.Version == legacyVersion:
		m, p := to03(method, params)
		resp, err := r.post(withVersion(r.ctx, a), a, m, p, "application/json")
		if err != nil {
			return callResult{err: err, tls: wire.IsTLSVerifyError(err)}, true
		}
		defer resp.Body.Close()
		return decodeAnswer(resp), true
	}
	return callResult{}, false
}

// methods03 are the 0.3 names of the 1.0 methods the reference calls.
var methods03 = map[string]string{
	"SendMessage":          "message/send",
	"SendStreamingMessage": "message/stream",
	"GetTask":              "tasks/get",
	"CancelTask":           "tasks/cancel",
}

// to03 turns a 1.0 call into its 0.3 form: the method's 0.3 name, the
// message with kind discriminators and role "user", and returnImmediately
// as 0.3's blocking false.
func to03(method string, params map[string]any) (string, map[string]any) {
	m := methods03[method]
	if m == "" {
		m = method
	}
	out := map[string]any{}
	for k, v := range params {
		out[k] = v
	}
	if msg, ok := params["message"].(map[string]any); ok {
		out["message"] = message03(msg)
	}
	if c, ok := params["configuration"].(map[string]any); ok && c["returnImmediately"] == true {
		out["configuration"] = map[string]any{"blocking": false}
	}
	return m, out
}

// message03 renders a 1.0 message map in the 0.3 shape.
func message03(msg map[string]any) map[string]any {
	out := map[string]any{"kind": "message"}
	for k, v := range msg {
		out[k] = v
	}
	if role, _ := msg["role"].(string); strings.HasPrefix(role, "ROLE_") {
		out["role"] = strings.ToLower(strings.TrimPrefix(role, "ROLE_"))
	}
	parts, _ := msg["parts"].([]any)
	var ps []any
	for _, p := range parts {
		pm, ok := p.(map[string]any)
		if !ok || pm["kind"] != nil {
			ps = append(ps, p)
			continue
		}
		np := map[string]any{}
		if md, ok := pm["metadata"]; ok {
			np["metadata"] = md
		}
		switch {
		case pm["text"] != nil:
			np["kind"], np["text"] = "text", pm["text"]
		case pm["data"] != nil:
			np["kind"], np["data"] = "data", pm["data"]
		default:
			f := map[string]any{}
			if u, ok := pm["url"]; ok {
				f["uri"] = u
			}
			if b, ok := pm["raw"]; ok {
				f["bytes"] = b
			}
			if n, ok := pm["filename"]; ok {
				f["name"] = n
			}
			if mt, ok := pm["mediaType"]; ok {
				f["mimeType"] = mt
			}
			np["kind"], np["file"] = "file", f
		}
		ps = append(ps, np)
	}
	out["parts"] = ps
	return out
}

// callREST makes a call over the 1.0 HTTP+JSON binding [A2A 1.0 §11]:
// POST /message:send, GET /tasks/{id}, POST /tasks/{id}:cancel, under the
// interface URL and its /{tenant} segment.
func (r *run) callREST(a *attempt, method string, params map[string]any) callResult {
	if r.rpcCalls >= maxRPCCalls {
		return callResult{err: fmt.Errorf("call budget (%d) spent", maxRPCCalls)}
	}
	// The declared URL is the binding's base: its routes are appended with
	// their own slash, so a base declared with a trailing one is not
	// doubled (.../rest/ + /message:send). JSON-RPC URLs are used as
	// declared, byte for byte (rpc.go).
	base := strings.TrimSuffix(a.ep.URL, "/")
	if t := r.tenant(a); t != "" {
		base += "/" + url.PathEscape(t)
	}
	id, _ := params["id"].(string)
	var httpMethod, target string
	var body []byte
	switch method {
	case "SendMessage":
		httpMethod, target = http.MethodPost, base+"/message:send"
		body, _ = json.Marshal(params)
	case "GetTask":
		httpMethod, target = http.MethodGet, base+"/tasks/"+url.PathEscape(id)
	case "CancelTask":
		httpMethod, target = http.MethodPost, base+"/tasks/"+url.PathEscape(id)+":cancel"
		body = []byte("{}")
	default:
		return callResult{err: fmt.Errorf("the reference does not call %s over HTTP+JSON", method)}
	}
	if r.alt.VersionQuery {
		target = withQuery(target, "A2A-Version", a.ep.version())
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(withVersion(r.ctx, a), httpMethod, target, rd)
	if err != nil {
		return callResult{err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	r.activate(a, req) // extensions.go
	r.rpcCalls++
	resp, err := r.client.Do(req)
	if err != nil {
		return callResult{err: err, tls: wire.IsTLSVerifyError(err)}
	}
	defer resp.Body.Close()
	r.observe(a, resp)
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return callResult{err: err}
	}
	if resp.StatusCode/100 == 2 {
		info, err := wire.ParseResult(b)
		if err != nil {
			return callResult{err: fmt.Errorf("http status %d: %w", resp.StatusCode, err)}
		}
		return callResult{info: info, raw: b}
	}
	return callResult{rpcErr: restError(resp.StatusCode, b)}
}

// restError reads an HTTP+JSON error (a google.rpc.Status) as the A2A
// error it stands for: the ErrorInfo reason names it, else the HTTP status
// gives the nearest JSON-RPC code.
func restError(status int, b []byte) *wire.RPCError {
	var st struct {
		Error struct {
			Message string            `json:"message"`
			Details []json.RawMessage `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(b, &st)
	data, _ := json.Marshal(st.Error.Details)
	e := &wire.RPCError{Code: -32603, Message: st.Error.Message, Data: data}
	if e.Message == "" {
		e.Message = fmt.Sprintf("http status %d", status)
	}
	for _, d := range st.Error.Details {
		var info struct {
			Reason string `json:"reason"`
		}
		if json.Unmarshal(d, &info) == nil && info.Reason != "" {
			if c, ok := reasonCodes[info.Reason]; ok {
				e.Code = c
				return e
			}
		}
	}
	switch status {
	case http.StatusNotFound:
		e.Code = -32601
	case http.StatusBadRequest:
		e.Code = -32602
	}
	return e
}

// reasonCodes map the A2A ErrorInfo reasons to their JSON-RPC codes
// [A2A 1.0 §5.4].
var reasonCodes = map[string]int{
	"TASK_NOT_FOUND":                  -32001,
	"TASK_NOT_CANCELABLE":             -32002,
	"PUSH_NOTIFICATION_NOT_SUPPORTED": -32003,
	"UNSUPPORTED_OPERATION":           -32004,
	"SKILL_NOT_AVAILABLE":             -32004,
	"CONTENT_TYPE_NOT_SUPPORTED":      -32005,
	"INVALID_AGENT_RESPONSE":          -32006,
	"VERSION_NOT_SUPPORTED":           -32009,
	"METHOD_NOT_FOUND":                -32601,
	"INVALID_PARAMS":                  -32602,
	"INVALID_REQUEST":                 -32600,
	"PARSE_ERROR":                     -32700,
	"INTERNAL":                        -32603,
}

// version is the interface's version, 1.0 when the card named none.
func (i iface) version() string {
	if i.Version == "" {
		return ProtocolVersion
	}
	return i.Version
}

// noInterfaceReason says why a card offers no interface the reference
// speaks: version-mismatch when it offers a binding the reference speaks,
// but only in versions it does not; other when it offers none at all (or
// when, under NoLegacyFallback, it reads only supportedInterfaces).
func (r *run) noInterfaceReason(c *agentCard) string {
	if r.alt.Only10 || r.alt.Only03 {
		return contract.ReasonVersionMismatch
	}
	for _, ci := range c.SupportedInterfaces {
		if r.speaks(ci.ProtocolBinding, ProtocolVersion) || r.speaks(ci.ProtocolBinding, legacyVersion) {
			return contract.ReasonVersionMismatch
		}
	}
	if len(c.SupportedInterfaces) == 0 && c.URL != "" && !r.br.NoLegacyFallback {
		return contract.ReasonVersionMismatch
	}
	return contract.ReasonOther
}
