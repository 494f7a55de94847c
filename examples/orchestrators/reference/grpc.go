package reference

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// The gRPC binding [A2A 1.0.1 §10]. The reference speaks it to a 1.0
// interface whose protocolBinding is GRPC, as a thin transport under the
// same operations it runs over JSON-RPC: the params it builds (1.0 JSON)
// become the proto request by protojson, and the proto answer becomes the
// 1.0 JSON the rest of the reference reads (results, states, errors).
//
//   - Reaching the host: the interface URL is host:port (the proto's
//     comment on AgentInterface.url) or an https URL; the connection goes
//     the way the delegation's HTTP requests go (the fleet's CONNECT proxy,
//     or its resolve map: wire.Dialer), with TLS verified against the same
//     roots, offering ALPN h2 alone (§10.1: gRPC over HTTP/2 with TLS), and
//     with the client certificate of the endpoint's origin when the caller
//     holds one (mtls.go). At most maxGRPCConns connections per
//     delegation; run.close closes them.
//   - Service parameters go as metadata (§10.2): a2a-version, the
//     credential in the header the card's scheme names (authorization, or
//     an API key's own name), a2a-extensions; keys lowercased.
//   - Errors (§10.6, §5.4): a status whose google.rpc.ErrorInfo names an
//     A2A error is that error (its JSON-RPC code, its details as the
//     error's data); UNAUTHENTICATED is a refused credential, its
//     www-authenticate metadata the challenge.
//   - An interface that cannot be reached (the dial or the TLS handshake
//     failed, or what answered serves no A2AService: UNIMPLEMENTED at the
//     first call) is left for the card's next interface, as an unreachable
//     JSON-RPC URL is (iface.go); a call whose connection broke after it
//     went out lost its answer (retry.go).
//   - Push notifications stay JSON-RPC (push.go): a task at a gRPC
//     interface is polled, or followed by its stream.

// maxGRPCConns bounds the gRPC client connections of one delegation.
const maxGRPCConns = 8

// grpcMethods are the unary methods the reference calls over gRPC.
var grpcMethods = map[string]bool{"SendMessage": true, "GetTask": true, "CancelTask": true, "GetExtendedAgentCard": true}

// unreachableError is a gRPC interface that could not be reached: the dial
// or the handshake failed, the fence refused its host, or what answered
// serves no A2AService. callResult.unreached reads it.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string { return e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

// grpcTarget is the host:port a gRPC interface URL names: "host:port",
// "host" (port 443) or an https URL (its path is not used: a gRPC method
// path is the service's own).
func grpcTarget(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil {
			return "", err
		}
		if u.Scheme != "https" || u.Hostname() == "" {
			return "", fmt.Errorf("gRPC interface url %q: want host:port or an https URL", raw)
		}
		port := u.Port()
		if port == "" {
			port = "443"
		}
		return net.JoinHostPort(strings.ToLower(u.Hostname()), port), nil
	}
	host, port, err := net.SplitHostPort(raw)
	if err != nil {
		host, port = raw, "443"
	}
	if host == "" || strings.ContainsAny(host, "/?#@ ") {
		return "", fmt.Errorf("gRPC interface url %q: want host:port or an https URL", raw)
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return "", fmt.Errorf("gRPC interface url %q: port %q", raw, port)
	}
	return net.JoinHostPort(strings.ToLower(host), port), nil
}

// grpcURL is the https URL the reference keeps for a gRPC interface (its
// iface.URL, the outcome's agent): the origin of grpcTarget, the default
// port left out, so that the endpoint's origin keys its credentials, its
// fence entry and its signer binding as an https interface's does.
func grpcURL(raw string) (string, bool) {
	target, err := grpcTarget(raw)
	if err != nil {
		return "", false
	}
	host, port, _ := net.SplitHostPort(target)
	if port == "443" {
		if strings.Contains(host, ":") {
			return "https://[" + host + "]", true
		}
		return "https://" + host, true
	}
	return "https://" + net.JoinHostPort(host, port), true
}

// grpcConns are a delegation's gRPC client connections, by target and the
// TLS configuration (client certificate) they were made with.
type grpcConns struct {
	conns map[string]*grpc.ClientConn
	order []string
}

// close closes every connection.
func (g *grpcConns) close() {
	for _, k := range g.order {
		_ = g.conns[k].Close()
	}
	g.conns, g.order = nil, nil
}

// grpcClient is the A2AService client of the attempt's interface, on a
// connection of the delegation (made at the first call).
func (r *run) grpcClient(a *attempt) (a2apb.A2AServiceClient, error) {
	target, err := grpcTarget(a.ep.URL)
	if err != nil {
		return nil, err
	}
	if !r.fence.Admits(a.ep.URL) {
		return nil, &unreachableError{fmt.Errorf("%s: %w", target, wire.ErrFenced)}
	}
	t := r.httpBase
	if t == nil {
		return nil, &unreachableError{errors.New("the delegation's HTTP client has no transport the gRPC connection could follow")}
	}
	if r.certs != nil {
		t = r.certs.transportFor(contract.OriginOf(a.ep.URL))
	}
	key := fmt.Sprintf("%s|%p", target, t)
	if cc, ok := r.grpc.conns[key]; ok {
		return a2apb.NewA2AServiceClient(cc), nil
	}
	if len(r.grpc.order) >= maxGRPCConns {
		return nil, fmt.Errorf("gRPC connection budget (%d) spent", maxGRPCConns)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.TLSClientConfig != nil {
		cfg = t.TLSClientConfig.Clone()
	}
	// credentials.NewTLS offers h2 and takes the server name from the
	// target: what an HTTP/1.1 transport put there is not for gRPC.
	cfg.NextProtos, cfg.ServerName = nil, ""
	cc, err := grpc.NewClient("passthrough:///"+target,
		grpc.WithTransportCredentials(credentials.NewTLS(cfg)),
		grpc.WithContextDialer(wire.Dialer{Transport: t}.DialContext),
		grpc.WithNoProxy(), // the dialer follows the delegation's proxy
		grpc.WithUserAgent(Name+"/"+Version),
	)
	if err != nil {
		return nil, err
	}
	if r.grpc.conns == nil {
		r.grpc.conns = map[string]*grpc.ClientConn{}
	}
	r.grpc.conns[key] = cc
	r.grpc.order = append(r.grpc.order, key)
	return a2apb.NewA2AServiceClient(cc), nil
}

// grpcMetadata are the service parameters of a call [A2A 1.0.1 §10.2]:
// the headers the reference puts on an HTTP request to the interface
// (credential, extensions), lowercased, and a2a-version.
func (r *run) grpcMetadata(a *attempt, method string) metadata.MD {
	req := &http.Request{Header: http.Header{}}
	if !r.withholdCredential(method) && !r.br.GRPCNoCredential {
		r.authorize(a, req) // auth.go
	}
	if method == "GetExtendedAgentCard" && r.br.ExtendedCardNoCredential {
		req.Header = http.Header{}
	}
	r.activate(a, req) // extensions.go
	md := metadata.MD{}
	for k, v := range req.Header {
		md[strings.ToLower(k)] = v
	}
	if !r.br.NoVersionHeader && !r.br.GRPCNoVersion && !r.br.GRPCSwallowStatus {
		md.Set("a2a-version", a.ep.version())
	}
	return md
}

// grpcRequest turns a call's params (the 1.0 JSON) into its proto request,
// the interface's tenant in it.
func (r *run) grpcRequest(a *attempt, method string, params map[string]any) (proto.Message, error) {
	var in proto.Message
	switch method {
	case "SendMessage", "SendStreamingMessage":
		in = &a2apb.SendMessageRequest{}
	case "GetTask":
		in = &a2apb.GetTaskRequest{}
	case "CancelTask":
		in = &a2apb.CancelTaskRequest{}
	case "SubscribeToTask":
		in = &a2apb.SubscribeToTaskRequest{}
	case "GetExtendedAgentCard":
		in = &a2apb.GetExtendedAgentCardRequest{}
	default:
		return nil, fmt.Errorf("the reference does not call %s over gRPC", method)
	}
	p := make(map[string]any, len(params)+1)
	for k, v := range params {
		p[k] = v
	}
	if t := r.tenant(a); t != "" {
		p["tenant"] = t
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	// Members the proto request has no field for (a get's probe
	// metadata) are not sent.
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, in); err != nil {
		return nil, fmt.Errorf("%s params as %T: %w", method, in, err)
	}
	return in, nil
}

// callGRPC makes one unary call on the attempt's gRPC interface. A refused
// OAuth 2.0 access token is renewed once, as over HTTP (oauth.go).
func (r *run) callGRPC(ctx context.Context, a *attempt, method string, params map[string]any) callResult {
	res, hdr := r.invokeGRPC(ctx, a, method, params)
	if errors.Is(res.err, errAuthRejected) {
		if r.renewToken(a, hdr) {
			res, _ = r.invokeGRPC(ctx, a, method, params)
		} else if r.br.RetryOn401 && !r.auth.retried {
			r.auth.retried = true
			for i := 0; i < 3; i++ {
				r.invokeGRPC(ctx, a, method, params)
			}
		}
	}
	return res
}

// invokeGRPC sends one unary call and reads its answer; hdr is the
// answer's metadata as an HTTP response (grpcHeaders), nil when nothing
// answered.
func (r *run) invokeGRPC(ctx context.Context, a *attempt, method string, params map[string]any) (callResult, *http.Response) {
	if !grpcMethods[method] {
		return callResult{err: fmt.Errorf("the reference does not call %s over gRPC", method)}, nil
	}
	if r.rpcCalls >= maxRPCCalls {
		return callResult{err: fmt.Errorf("call budget (%d) spent", maxRPCCalls)}, nil
	}
	in, err := r.grpcRequest(a, method, params)
	if err != nil {
		return callResult{err: err}, nil
	}
	cl, err := r.grpcClient(a)
	if err != nil {
		return callResult{err: err}, nil
	}
	first := !a.sawResponse
	ctx = metadata.NewOutgoingContext(ctx, r.grpcMetadata(a, method))
	var header, trailer metadata.MD
	var p peer.Peer
	opts := []grpc.CallOption{grpc.Header(&header), grpc.Trailer(&trailer), grpc.Peer(&p)}
	r.rpcCalls++
	var out proto.Message
	switch req := in.(type) {
	case *a2apb.SendMessageRequest:
		var m *a2apb.SendMessageResponse
		if m, err = cl.SendMessage(ctx, req, opts...); err == nil {
			out = m
		}
	case *a2apb.GetTaskRequest:
		var m *a2apb.Task
		if m, err = cl.GetTask(ctx, req, opts...); err == nil {
			out = m
		}
	case *a2apb.CancelTaskRequest:
		var m *a2apb.Task
		if m, err = cl.CancelTask(ctx, req, opts...); err == nil {
			out = m
		}
	case *a2apb.GetExtendedAgentCardRequest:
		var m *a2apb.AgentCard
		if m, err = cl.GetExtendedAgentCard(ctx, req, opts...); err == nil {
			out = m
		}
	}
	if err != nil {
		return r.grpcFailure(a, method, err, header, trailer, &p, first)
	}
	hdr := grpcHeaders(http.StatusOK, header, nil, &p)
	r.observe(a, hdr)
	raw, err := protojson.Marshal(out)
	if err != nil {
		return callResult{err: err}, hdr
	}
	if method == "GetExtendedAgentCard" {
		return callResult{raw: raw}, hdr
	}
	info, err := wire.ParseResult(raw)
	if err != nil {
		return callResult{err: err}, hdr
	}
	return callResult{info: info, raw: raw}, hdr
}

// grpcFailure reads a failed call: an interface that was not reached, an
// answer lost with its connection, a refused credential, or an A2A error.
func (r *run) grpcFailure(a *attempt, method string, err error, header, trailer metadata.MD, p *peer.Peer, first bool) (callResult, *http.Response) {
	st := status.Convert(err)
	if e := grpcTransportError(method, a.ep.URL, st, p, first); e != nil {
		return callResult{err: e, tls: wire.IsTLSVerifyError(e)}, nil
	}
	if r.br.GRPCSwallowStatus && method == "SendMessage" {
		// The break: the status is not looked at, and an empty answer
		// reads as a Message reply.
		return callResult{info: wire.TaskInfo{Message: true}, raw: json.RawMessage(`{"message":{"role":"ROLE_AGENT","parts":[]}}`)}, nil
	}
	code := http.StatusOK
	if st.Code() == codes.Unauthenticated {
		code = http.StatusUnauthorized
	}
	hdr := grpcHeaders(code, header, trailer, p)
	if code == http.StatusUnauthorized {
		return callResult{err: fmt.Errorf("%s %s: %w (gRPC UNAUTHENTICATED, www-authenticate: %s)", method, a.ep.URL, errAuthRejected, hdr.Header.Get("WWW-Authenticate"))}, hdr
	}
	r.observe(a, hdr)
	return callResult{rpcErr: grpcRPCError(st)}, hdr
}

// grpcTransportError is the error of a call the interface did not answer
// (nil when it did): nothing reached (no connection, a failed handshake:
// unreachableError), what answered at the interface's first call serves no
// A2AService (UNIMPLEMENTED without an A2A ErrorInfo: unreachableError),
// the deadline, or a call whose connection broke, or whose HTTP/2 stream
// was reset, after it went out (its answer lost: io.ErrUnexpectedEOF,
// retry.go; grpc-go reads a reset as INTERNAL "stream terminated by
// RST_STREAM").
func grpcTransportError(method, ep string, st *status.Status, p *peer.Peer, first bool) error {
	base := fmt.Errorf("gRPC %s %s: %s: %s", method, ep, st.Code(), st.Message())
	if _, ok := a2aReason(st); !ok && p != nil && p.Addr != nil && strings.Contains(st.Message(), "RST_STREAM") {
		return fmt.Errorf("%w: answer lost: %w", base, io.ErrUnexpectedEOF)
	}
	switch st.Code() {
	case codes.Unavailable:
		if _, ok := a2aReason(st); ok {
			return nil
		}
		if p == nil || p.Addr == nil {
			return &unreachableError{base}
		}
		return fmt.Errorf("%w: answer lost: %w", base, io.ErrUnexpectedEOF)
	case codes.Unimplemented:
		if _, ok := a2aReason(st); !ok && first {
			return &unreachableError{fmt.Errorf("%w: the interface serves no A2AService", base)}
		}
	case codes.DeadlineExceeded, codes.Canceled:
		if _, ok := a2aReason(st); !ok {
			return fmt.Errorf("%w: %w", base, context.DeadlineExceeded)
		}
	}
	return nil
}

// a2aReason is the reason of the status's google.rpc.ErrorInfo in the
// A2A domain (any domain when the reason is one A2A defines).
func a2aReason(st *status.Status) (string, bool) {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetReason() != "" {
			if _, known := reasonCodes[info.GetReason()]; known || info.GetDomain() == "a2a-protocol.org" {
				return info.GetReason(), true
			}
		}
	}
	return "", false
}

// grpcRPCError is the A2A error a status stands for [A2A 1.0.1 §10.6,
// §5.4]: the code its ErrorInfo reason names, else the nearest JSON-RPC
// code of the gRPC code; its details, as protojson, are the error's data
// (where wire.RPCError.Hint and errorReason read them).
func grpcRPCError(st *status.Status) *wire.RPCError {
	e := &wire.RPCError{Code: -32603, Message: st.Message()}
	if e.Message == "" {
		e.Message = "gRPC " + st.Code().String()
	}
	var details []json.RawMessage
	for _, d := range st.Proto().GetDetails() {
		if b, err := protojson.Marshal(d); err == nil {
			details = append(details, b)
		} else {
			b, _ := json.Marshal(map[string]string{"@type": d.GetTypeUrl()})
			details = append(details, b)
		}
	}
	if len(details) > 0 {
		e.Data, _ = json.Marshal(details)
	}
	if reason, ok := a2aReason(st); ok {
		if c, known := reasonCodes[reason]; known {
			e.Code = c
			return e
		}
	}
	switch st.Code() {
	case codes.NotFound:
		e.Code = -32001
	case codes.Unimplemented:
		e.Code = -32601
	case codes.InvalidArgument:
		e.Code = -32602
	}
	return e
}

// grpcHeaders presents a gRPC answer's metadata as the HTTP response the
// reference's HTTP path reads (observe: the peer certificate and
// A2A-Version; renewToken: WWW-Authenticate): header metadata, then
// trailer metadata where the header has no such key (a trailers-only
// answer carries everything there), keys in canonical form.
func grpcHeaders(code int, header, trailer metadata.MD, p *peer.Peer) *http.Response {
	resp := &http.Response{StatusCode: code, Header: http.Header{}}
	for _, md := range []metadata.MD{header, trailer} {
		for k, v := range md {
			ck := http.CanonicalHeaderKey(k)
			if _, ok := resp.Header[ck]; !ok && !strings.HasSuffix(k, "-bin") {
				resp.Header[ck] = v
			}
		}
	}
	if p != nil {
		if ti, ok := p.AuthInfo.(credentials.TLSInfo); ok {
			cs := ti.State
			resp.TLS = &cs
		}
	}
	return resp
}
