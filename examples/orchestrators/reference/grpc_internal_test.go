package reference

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The gRPC transport against a real grpc-go server on loopback TLS (the
// generated A2AService, answering what each test sets): what goes out as
// metadata and requests, and how statuses are read. The fleet's own gRPC
// binding is exercised end to end in reference_test.go.

const grpcHost = "grpc.test.example"

// a2aServer answers with its funcs and records each call's metadata.
type a2aServer struct {
	a2apb.UnimplementedA2AServiceServer
	mu     sync.Mutex
	md     []metadata.MD
	reqs   []any
	send   func(*a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error)
	stream func(*a2apb.SendMessageRequest, grpc.ServerStreamingServer[a2apb.StreamResponse]) error
}

func (s *a2aServer) seen(ctx context.Context, req any) {
	md, _ := metadata.FromIncomingContext(ctx)
	s.mu.Lock()
	s.md = append(s.md, md)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
}

func (s *a2aServer) SendMessage(ctx context.Context, req *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	s.seen(ctx, req)
	return s.send(req)
}

func (s *a2aServer) SendStreamingMessage(req *a2apb.SendMessageRequest, st grpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	s.seen(st.Context(), req)
	return s.stream(req, st)
}

func (s *a2aServer) lastMD() metadata.MD {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.md) == 0 {
		return nil
	}
	return s.md[len(s.md)-1]
}

// serveGRPC serves srv with a certificate for names from a fresh CA and
// returns a transport that trusts the CA and dials every address to the
// server (a resolve map of one entry).
func serveGRPC(t *testing.T, srv a2apb.A2AServiceServer, names ...string) *http.Transport {
	t.Helper()
	ca, err := mockvendor.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(names...)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})))
	a2apb.RegisterA2AServiceServer(gs, srv)
	go func() { _ = gs.Serve(ln) }()
	t.Cleanup(gs.Stop)
	var d net.Dialer
	return &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: ca.Pool(), MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, ln.Addr().String())
		},
	}
}

// grpcRun is a delegation at the gRPC interface of host, its card cardJSON.
func grpcRun(t *testing.T, tr *http.Transport, br Breaks, cardJSON string, req contract.DelegationRequest) (*run, *attempt) {
	t.Helper()
	card, err := parseCard([]byte(cardJSON))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	r := &run{o: New(Options{Break: br}), ctx: ctx, req: req, br: br, fence: &wire.Fence{Open: true}, httpBase: tr}
	t.Cleanup(r.close)
	a := &attempt{card: card, cardURL: "https://" + grpcHost + "/.well-known/agent-card.json", versionOK: true,
		ep: iface{URL: "https://" + grpcHost, Binding: bindingGRPC, Version: ProtocolVersion, Tenant: "t-1"}}
	return r, a
}

func completedTask(id string) *a2apb.SendMessageResponse {
	return &a2apb.SendMessageResponse{Payload: &a2apb.SendMessageResponse_Task{Task: &a2apb.Task{Id: id, ContextId: "c-1",
		Status: &a2apb.TaskStatus{State: a2apb.TaskState_TASK_STATE_COMPLETED}}}}
}

var sendParams = map[string]any{"message": map[string]any{"role": "ROLE_USER", "messageId": "m-1", "parts": []any{map[string]any{"text": "hi"}}},
	"metadata": map[string]any{"skillId": "s-1"}}

// TestGRPCMetadata: a2a-version, the credential where the card's scheme
// puts it (lowercased), a2a-extensions and the tenant go with each call;
// the grpc-no-version break drops a2a-version alone.
func TestGRPCMetadata(t *testing.T) {
	const ext = "https://ext.example/v1"
	origin := "https://" + grpcHost
	apiKeyCard := `{"name":"d","securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}},"securityRequirements":[{"schemes":{"k":{"list":[]}}}],` +
		`"capabilities":{"extensions":[{"uri":"` + ext + `"}]}}`
	bearerCard := `{"name":"d","securitySchemes":{"b":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},"securityRequirements":[{"schemes":{"b":{"list":[]}}}]}`
	cases := []struct {
		name string
		card string
		cred contract.Credential
		br   Breaks
		want map[string]string // "" means absent
	}{
		{"api key and extension", apiKeyCard, contract.Credential{Scheme: contract.CredentialSchemeAPIKey, Value: "key-1"}, Breaks{},
			map[string]string{"a2a-version": "1.0", "x-api-key": "key-1", "a2a-extensions": ext, "authorization": ""}},
		{"bearer", bearerCard, contract.Credential{Scheme: contract.CredentialSchemeBearer, Value: "tok-1"}, Breaks{},
			map[string]string{"a2a-version": "1.0", "authorization": "Bearer tok-1", "a2a-extensions": ""}},
		{"grpc-no-version (break)", bearerCard, contract.Credential{Scheme: contract.CredentialSchemeBearer, Value: "tok-1"}, Breaks{GRPCNoVersion: true},
			map[string]string{"a2a-version": "", "authorization": "Bearer tok-1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := &a2aServer{send: func(*a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) { return completedTask("t-9"), nil }}
			tr := serveGRPC(t, srv, grpcHost)
			req := contract.DelegationRequest{ID: "d-1", Task: contract.Task{Extensions: []string{ext}},
				Trust: contract.Trust{Credentials: map[string]contract.Credential{origin: c.cred}}}
			r, a := grpcRun(t, tr, c.br, c.card, req)
			res := r.call(a, "SendMessage", sendParams)
			if !res.ok() || res.info.ID != "t-9" || res.info.State != "completed" {
				t.Fatalf("call = %+v (%s)", res, describe(res))
			}
			md := srv.lastMD()
			for k, want := range c.want {
				got := ""
				if v := md.Get(k); len(v) > 0 {
					got = v[0]
				}
				if got != want {
					t.Errorf("metadata %s = %q, want %q (all: %v)", k, got, want, md)
				}
			}
			in := srv.reqs[0].(*a2apb.SendMessageRequest)
			if in.GetTenant() != "t-1" || in.GetMessage().GetMessageId() != "m-1" || in.GetMessage().GetParts()[0].GetText() != "hi" ||
				in.GetMessage().GetRole() != a2apb.Role_ROLE_USER || in.GetMetadata().GetFields()["skillId"].GetStringValue() != "s-1" {
				t.Errorf("request = %v", in)
			}
			if !a.sawResponse || a.peer == nil || !slices.Contains(a.peer.DNSNames, grpcHost) {
				t.Errorf("the answer was not observed: sawResponse %v, peer %v", a.sawResponse, a.peer)
			}
		})
	}
}

// TestGRPCStatuses: how each status answering a call is read.
func TestGRPCStatuses(t *testing.T) {
	withInfo := func(c codes.Code, reason string, md map[string]string) error {
		st, err := status.New(c, "refused").WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: "a2a-protocol.org", Metadata: md})
		if err != nil {
			t.Fatal(err)
		}
		return st.Err()
	}
	cases := []struct {
		name      string
		err       error
		header    metadata.MD
		code      int    // the A2A error's code (0: none)
		authErr   bool   // errAuthRejected
		unreached bool   // the next interface is tried
		skills    string // the error's availableSkills
	}{
		{"skill not available", withInfo(codes.FailedPrecondition, "SKILL_NOT_AVAILABLE", map[string]string{"availableSkills": "s-2,s-3"}), nil, -32004, false, false, "s-2,s-3"},
		{"task not found", withInfo(codes.NotFound, "TASK_NOT_FOUND", nil), nil, -32001, false, false, ""},
		{"version not supported", withInfo(codes.FailedPrecondition, "VERSION_NOT_SUPPORTED", nil), nil, -32009, false, false, ""},
		{"internal, no ErrorInfo", status.Error(codes.Internal, "boom"), nil, -32603, false, false, ""},
		{"invalid argument, no ErrorInfo", status.Error(codes.InvalidArgument, "bad"), nil, -32602, false, false, ""},
		{"unauthenticated", status.Error(codes.Unauthenticated, "no"), metadata.Pairs("www-authenticate", `Bearer realm="d"`), 0, true, false, ""},
		{"unimplemented at the first call: no A2AService", status.Error(codes.Unimplemented, "unknown service"), nil, 0, false, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := serveGRPC(t, &headerServer{a2aServer: &a2aServer{}, header: c.header, err: c.err}, grpcHost)
			r, a := grpcRun(t, tr, Breaks{}, `{"name":"d"}`, contract.DelegationRequest{ID: "d-1"})
			res := r.call(a, "SendMessage", sendParams)
			switch {
			case c.code != 0:
				if res.rpcErr == nil || res.rpcErr.Code != c.code {
					t.Fatalf("call = %+v, want A2A error %d", res, c.code)
				}
				if got := joinSkills(res.rpcErr.Hint().AvailableSkills); got != c.skills {
					t.Errorf("availableSkills %q, want %q", got, c.skills)
				}
			case c.authErr:
				if !errors.Is(res.err, errAuthRejected) {
					t.Fatalf("call = %+v, want the credential refused", res)
				}
			}
			if res.unreached() != c.unreached {
				t.Errorf("unreached = %v, want %v (%v)", res.unreached(), c.unreached, res.err)
			}
		})
	}
}

func joinSkills(l []string) string {
	out := ""
	for i, s := range l {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

// headerServer answers SendMessage with err, after header when set.
type headerServer struct {
	*a2aServer
	header metadata.MD
	err    error
}

func (h *headerServer) SendMessage(ctx context.Context, req *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	h.seen(ctx, req)
	if h.header != nil {
		_ = grpc.SetHeader(ctx, h.header)
	}
	return nil, h.err
}

// TestGRPCUnreachable: nothing listening, a certificate for another name,
// a server that offers no h2: the interface is not reached; only the
// certificate is a refusal (no fallback), the others lead to the next
// interface.
func TestGRPCUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	var d net.Dialer
	nothing := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, closed)
	}}
	wrongName := serveGRPC(t, &a2aServer{}, "other.example")
	http1 := serveHTTP1(t)
	for _, c := range []struct {
		name string
		tr   *http.Transport
		tls  bool
	}{
		{"nothing listening", nothing, false},
		{"certificate for another name", wrongName, true},
		{"an HTTP/1.1 server (no h2)", http1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, a := grpcRun(t, c.tr, Breaks{}, `{"name":"d"}`, contract.DelegationRequest{ID: "d-1"})
			res := r.call(a, "SendMessage", sendParams)
			if res.err == nil || !res.unreached() || res.tls != c.tls {
				t.Fatalf("call = %+v (unreached %v, tls %v), want unreached with tls %v", res, res.unreached(), res.tls, c.tls)
			}
		})
	}
}

// serveHTTP1 is a TLS server for grpcHost that speaks only HTTP/1.1.
func serveHTTP1(t *testing.T) *http.Transport {
	t.Helper()
	ca, err := mockvendor.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(grpcHost)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NotFoundHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	var d net.Dialer
	return &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: ca.Pool(), MinVersion: tls.VersionTLS12},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, ln.Addr().String())
		},
	}
}

// TestGRPCStream: SendStreamingMessage read as the reference reads an SSE
// stream: events in order, the task's end; an A2A status after the first
// message is the stream's error event.
func TestGRPCStream(t *testing.T) {
	working := &a2apb.StreamResponse{Payload: &a2apb.StreamResponse_Task{Task: &a2apb.Task{Id: "t-5", ContextId: "c-5",
		Status: &a2apb.TaskStatus{State: a2apb.TaskState_TASK_STATE_WORKING}}}}
	done := &a2apb.StreamResponse{Payload: &a2apb.StreamResponse_StatusUpdate{StatusUpdate: &a2apb.TaskStatusUpdateEvent{TaskId: "t-5", ContextId: "c-5",
		Status: &a2apb.TaskStatus{State: a2apb.TaskState_TASK_STATE_COMPLETED}}}}
	refused, _ := status.New(codes.FailedPrecondition, "gone").WithDetails(&errdetails.ErrorInfo{Reason: "UNSUPPORTED_OPERATION", Domain: "a2a-protocol.org"})
	cases := []struct {
		name   string
		send   []*a2apb.StreamResponse
		end    error
		state  string
		code   int
		errEvt bool
	}{
		{"to the end", []*a2apb.StreamResponse{working, done}, nil, "completed", 0, false},
		{"an error event", []*a2apb.StreamResponse{working}, refused.Err(), "", -32004, true},
		{"an error before any message", nil, refused.Err(), "", -32004, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := &a2aServer{stream: func(_ *a2apb.SendMessageRequest, st grpc.ServerStreamingServer[a2apb.StreamResponse]) error {
				for _, m := range c.send {
					if err := st.Send(m); err != nil {
						return err
					}
				}
				return c.end
			}}
			tr := serveGRPC(t, srv, grpcHost)
			r, a := grpcRun(t, tr, Breaks{}, `{"name":"d","capabilities":{"streaming":true}}`, contract.DelegationRequest{ID: "d-1"})
			res, fallback := r.stream(a, sendParams)
			if fallback {
				t.Fatalf("fell back to SendMessage: %s", r.notes)
			}
			if c.code != 0 {
				if res.rpcErr == nil || res.rpcErr.Code != c.code || a.streamErrEvent != c.errEvt {
					t.Fatalf("stream = %+v (error event %v), want A2A error %d (error event %v)", res, a.streamErrEvent, c.code, c.errEvt)
				}
				return
			}
			if !res.ok() || res.info.ID != "t-5" || res.info.State != c.state || !a.streamOK || a.streamTrouble || !a.viaStream {
				t.Fatalf("stream = %+v (streamOK %v, trouble %v); want task t-5 %s", res, a.streamOK, a.streamTrouble, c.state)
			}
			if md := srv.lastMD(); len(md.Get("a2a-version")) != 1 {
				t.Errorf("stream metadata %v", md)
			}
		})
	}
}

// TestGRPCConnBudget: calls to one interface share a connection; a
// delegation opens at most maxGRPCConns, and closes them.
func TestGRPCConnBudget(t *testing.T) {
	srv := &a2aServer{send: func(*a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) { return completedTask("t-1"), nil }}
	tr := serveGRPC(t, srv, grpcHost)
	r, a := grpcRun(t, tr, Breaks{}, `{"name":"d"}`, contract.DelegationRequest{ID: "d-1"})
	for i := 0; i < 3; i++ {
		if res := r.call(a, "SendMessage", sendParams); !res.ok() {
			t.Fatalf("call %d: %s", i, describe(res))
		}
	}
	if n := len(r.grpc.order); n != 1 {
		t.Fatalf("%d connections for one interface, want 1", n)
	}
	for i := 0; i < maxGRPCConns+1; i++ {
		a.ep.URL = "https://" + grpcHost + ":" + string(rune('1'+i)) + "443"
		_, err := r.grpcClient(a)
		if i < maxGRPCConns-1 && err != nil {
			t.Fatalf("connection %d: %v", i+2, err)
		}
		if i >= maxGRPCConns-1 && err == nil {
			t.Fatalf("connection %d opened past the budget of %d", i+2, maxGRPCConns)
		}
	}
	r.close()
	if len(r.grpc.order) != 0 {
		t.Fatal("connections left after close")
	}
}
