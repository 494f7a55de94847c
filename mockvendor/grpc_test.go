package mockvendor

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"golang.org/x/net/http2"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// The gRPC binding (A2A 1.0.1 §10) over real TLS on loopback: a grpc-go
// client trusting the fleet's CA reaches a host with HostConfig.GRPC
// through the fleet's CONNECT proxy or its resolve map.

// tGRPCHost is the gRPC host of tGRPCConfig's vendor.
const tGRPCHost = "rpc.agent-g.example"

// tGRPCConfig is one vendor "g" whose host tGRPCHost serves JSON-RPC,
// HTTP+JSON and gRPC, streaming and push notifications on; change edits
// the vendor first.
func tGRPCConfig(change func(*VendorConfig)) Config {
	v := VendorConfig{
		ID:           "g",
		Organization: "Vendor G",
		Hosts: []HostConfig{
			{Name: "agent-g.example", Card: true},
			{Name: tGRPCHost, RPCPath: DefaultRPCPath, RESTPath: DefaultRESTPath, GRPC: true},
		},
		Card:   CardConfig{Streaming: true, PushNotifications: true},
		Skills: []SkillConfig{{ID: SkillInvoice}, {ID: SkillFXHedging}},
	}
	if change != nil {
		change(&v)
	}
	return Config{Vendors: []VendorConfig{v}}
}

// tGRPCDial returns a client of A2AService on host (name:443) over route,
// trusting the fleet's CA, closed when the test ends.
func tGRPCDial(t testing.TB, f *Fleet, route tRoute, host string) a2apb.A2AServiceClient {
	t.Helper()
	target := host + ":443"
	dial := func(ctx context.Context, addr string) (net.Conn, error) {
		if route == tViaProxy {
			conn, code := tConnect(t, f, addr)
			if conn == nil {
				return nil, errors.New("CONNECT refused: " + strconv.Itoa(code))
			}
			return conn, nil
		}
		return f.DialContext(ctx, "tcp", addr)
	}
	cc, err := grpc.NewClient("passthrough:///"+target,
		grpc.WithTransportCredentials(credentials.NewTLS(f.TLSConfig())),
		grpc.WithContextDialer(dial),
		grpc.WithAuthority(target))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return a2apb.NewA2AServiceClient(cc)
}

// tStruct is m as a google.protobuf.Struct.
func tStruct(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}

// tGRPCCtx is a context with the metadata kv (a2a-version: 1.0 unless kv
// names it) and a deadline.
func tGRPCCtx(t testing.TB, kv ...string) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	md := metadata.Pairs(kv...)
	if _, ok := md["a2a-version"]; !ok {
		md.Set("a2a-version", "1.0")
	}
	if md.Get("a2a-version")[0] == "" {
		md.Delete("a2a-version")
	}
	return metadata.NewOutgoingContext(ctx, md)
}

// tGRPCSend is a SendMessage request with one text part for skill
// ("": the default).
func tGRPCSend(text, skill string) *a2apb.SendMessageRequest {
	msg := &a2apb.Message{MessageId: "m-" + text + "-" + time.Now().Format("150405.000000000"), Role: a2apb.Role_ROLE_USER,
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: text}}}}
	q := &a2apb.SendMessageRequest{Message: msg}
	if skill != "" {
		q.Metadata = tStruct(map[string]any{"skillId": skill})
	}
	return q
}

// tGRPCStatus checks that err is a status of code whose first ErrorInfo
// has reason under a2a-protocol.org (reason "": no check of details).
func tGRPCStatus(t testing.TB, err error, code codes.Code, reason string) *status.Status {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || st.Code() != code {
		t.Fatalf("error %v: want status %v", err, code)
	}
	if reason == "" {
		return st
	}
	info := tErrorInfos(st)
	if len(info) == 0 || info[0].GetReason() != reason || info[0].GetDomain() != "a2a-protocol.org" {
		t.Fatalf("status %v: details %v, want an ErrorInfo %s under a2a-protocol.org first", st.Code(), info, reason)
	}
	return st
}

// tErrorInfos are the ErrorInfo details of st, in order.
func tErrorInfos(st *status.Status) []*errdetails.ErrorInfo {
	var out []*errdetails.ErrorInfo
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			out = append(out, info)
		}
	}
	return out
}

// tGRPCEvent is the newest finished trace event of a gRPC call after
// since, failing unless it has op.
func tGRPCEvent(t testing.TB, f *Fleet, since int64, op Op) Event {
	t.Helper()
	e := tWaitEvent(t, f, since, func(e Event) bool { return e.Binding == "GRPC" && !e.Pending })
	if e.Op != op {
		t.Fatalf("trace: gRPC call traced as op %q, want %q (%+v)", e.Op, op, e)
	}
	return e
}

// tRecv reads a server stream to its end: its events and the status
// that ended it (nil: OK).
func tRecv(t testing.TB, st grpc.ServerStreamingClient[a2apb.StreamResponse]) ([]*a2apb.StreamResponse, error) {
	t.Helper()
	var out []*a2apb.StreamResponse
	for {
		m, err := st.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

// tFinalState is the state the last state-bearing event of a stream
// announces.
func tFinalState(evs []*a2apb.StreamResponse) a2apb.TaskState {
	st := a2apb.TaskState_TASK_STATE_UNSPECIFIED
	for _, e := range evs {
		switch {
		case e.GetTask() != nil:
			st = e.GetTask().GetStatus().GetState()
		case e.GetStatusUpdate() != nil:
			st = e.GetStatusUpdate().GetStatus().GetState()
		}
	}
	return st
}

// TestGRPCOperations: each of A2AService's 11 methods, over the proxy and
// the resolve map, answers as the operation does over the other
// bindings, and the trace records the call as that operation, binding
// GRPC, with its request as protojson JSON.
func TestGRPCOperations(t *testing.T) {
	for _, route := range tRoutes {
		t.Run(string(route), func(t *testing.T) {
			f := tStart(t, tGRPCConfig(func(v *VendorConfig) { v.Card.ExtendedCard = &ExtendedCardConfig{Public: true} }))
			c := tGRPCDial(t, f, route, tGRPCHost)
			tGRPCUnaryOps(t, f, c)
			tGRPCPushOps(t, f, c)
		})
	}
}

// tGRPCUnaryOps checks SendMessage, GetTask, ListTasks, CancelTask,
// GetExtendedAgentCard and SendStreamingMessage.
func tGRPCUnaryOps(t *testing.T, f *Fleet, c a2apb.A2AServiceClient) {
	since := f.Trace().Seq()
	sent, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("reconcile", SkillInvoice))
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	task := sent.GetTask()
	if task.GetId() == "" || task.GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED || len(task.GetArtifacts()) == 0 {
		t.Fatalf("SendMessage answered %v, want a completed task with artifacts", sent)
	}
	ev := tGRPCEvent(t, f, since, OpSend)
	if ev.Method != "SendMessage" || ev.TaskID != task.GetId() || !strings.Contains(string(ev.Request), `"messageId"`) || ev.State != "completed" || ev.Skill != SkillInvoice {
		t.Errorf("trace of SendMessage: %+v", ev)
	}
	got, err := c.GetTask(tGRPCCtx(t), &a2apb.GetTaskRequest{Id: task.GetId()})
	if err != nil || got.GetId() != task.GetId() {
		t.Fatalf("GetTask: %v %v", got, err)
	}
	list, err := c.ListTasks(tGRPCCtx(t), &a2apb.ListTasksRequest{})
	if err != nil || len(list.GetTasks()) != 1 {
		t.Fatalf("ListTasks: %v %v", list, err)
	}
	_, err = c.CancelTask(tGRPCCtx(t), &a2apb.CancelTaskRequest{Id: task.GetId()})
	tGRPCStatus(t, err, codes.FailedPrecondition, "TASK_NOT_CANCELABLE")
	_, err = c.GetTask(tGRPCCtx(t), &a2apb.GetTaskRequest{Id: "no-such-task"})
	tGRPCStatus(t, err, codes.NotFound, "TASK_NOT_FOUND")
	since = f.Trace().Seq()
	card, err := c.GetExtendedAgentCard(tGRPCCtx(t), &a2apb.GetExtendedAgentCardRequest{})
	if err != nil || !strings.HasSuffix(card.GetDescription(), "(extended card)") || len(card.GetSkills()) != 2 || len(card.GetSupportedInterfaces()) == 0 {
		t.Fatalf("GetExtendedAgentCard: %v %v", card, err)
	}
	if ev := tGRPCEvent(t, f, since, OpExtendedCard); ev.ErrorCode != 0 || ev.Method != "GetExtendedAgentCard" {
		t.Errorf("trace of GetExtendedAgentCard: %+v", ev)
	}
	st, err := c.SendStreamingMessage(tGRPCCtx(t), tGRPCSend("hedge", SkillFXHedging))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := tRecv(t, st)
	if err != nil || len(evs) < 2 || evs[0].GetTask() == nil || tFinalState(evs) != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Fatalf("SendStreamingMessage: %d events (%v), end %v; want the task first and a completed end", len(evs), evs, err)
	}
}

// tGRPCPushOps checks the four push-notification config methods.
func tGRPCPushOps(t *testing.T, f *Fleet, c a2apb.A2AServiceClient) {
	sent, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("push", SkillInvoice))
	if err != nil {
		t.Fatal(err)
	}
	id := sent.GetTask().GetId()
	cfg := &a2apb.TaskPushNotificationConfig{TaskId: id, Id: "cfg-1", Url: "https://127.0.0.1:9/hook", Token: "tok"}
	made, err := c.CreateTaskPushNotificationConfig(tGRPCCtx(t), cfg)
	if err != nil || made.GetUrl() != cfg.Url {
		t.Fatalf("CreateTaskPushNotificationConfig: %v %v", made, err)
	}
	got, err := c.GetTaskPushNotificationConfig(tGRPCCtx(t), &a2apb.GetTaskPushNotificationConfigRequest{TaskId: id, Id: made.GetId()})
	if err != nil || got.GetUrl() != cfg.Url {
		t.Fatalf("GetTaskPushNotificationConfig: %v %v", got, err)
	}
	list, err := c.ListTaskPushNotificationConfigs(tGRPCCtx(t), &a2apb.ListTaskPushNotificationConfigsRequest{TaskId: id})
	if err != nil || len(list.GetConfigs()) != 1 {
		t.Fatalf("ListTaskPushNotificationConfigs: %v %v", list, err)
	}
	if _, err := c.DeleteTaskPushNotificationConfig(tGRPCCtx(t), &a2apb.DeleteTaskPushNotificationConfigRequest{TaskId: id, Id: made.GetId()}); err != nil {
		t.Fatalf("DeleteTaskPushNotificationConfig: %v", err)
	}
	list, err = c.ListTaskPushNotificationConfigs(tGRPCCtx(t), &a2apb.ListTaskPushNotificationConfigsRequest{TaskId: id})
	if err != nil || len(list.GetConfigs()) != 0 {
		t.Fatalf("ListTaskPushNotificationConfigs after the delete: %v %v", list, err)
	}
}

// TestGRPCSubscribe: SubscribeToTask on a task still working is a server
// stream of its events to the completed status; on an unknown task its
// status is NOT_FOUND. The trace records the states the stream delivered.
func TestGRPCSubscribe(t *testing.T) {
	f := tStart(t, tGRPCConfig(nil))
	c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
	q := tGRPCSend("later", SkillInvoice)
	q.Configuration = &a2apb.SendMessageConfiguration{ReturnImmediately: true}
	sent, err := c.SendMessage(tGRPCCtx(t), q)
	if err != nil || sent.GetTask().GetStatus().GetState() == a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Fatalf("non-blocking SendMessage: %v %v", sent, err)
	}
	since := f.Trace().Seq()
	st, err := c.SubscribeToTask(tGRPCCtx(t), &a2apb.SubscribeToTaskRequest{Id: sent.GetTask().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := tRecv(t, st)
	if err != nil || len(evs) == 0 || tFinalState(evs) != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Fatalf("SubscribeToTask: %v, end %v; want events to completed", evs, err)
	}
	if ev := tGRPCEvent(t, f, since, OpSubscribe); ev.State != "completed" || len(ev.Seen) == 0 || ev.TaskID != sent.GetTask().GetId() {
		t.Errorf("trace of SubscribeToTask: %+v", ev)
	}
	st, err = c.SubscribeToTask(tGRPCCtx(t), &a2apb.SubscribeToTaskRequest{Id: "no-such-task"})
	if err == nil {
		_, err = tRecv(t, st)
	}
	tGRPCStatus(t, err, codes.NotFound, "TASK_NOT_FOUND")
}

// TestGRPCVersionNegotiation: the a2a-version metadata is the version
// (A2A 1.0.1 §10.2); none is 0.3 (§3.6.2), which the 1.0-only gRPC
// endpoint refuses with VersionNotSupported: FAILED_PRECONDITION with
// the spec's ErrorInfo (§5.4, §10.6).
func TestGRPCVersionNegotiation(t *testing.T) {
	f := tStart(t, tGRPCConfig(nil))
	c := tGRPCDial(t, f, tViaProxy, tGRPCHost)
	for _, tc := range []struct {
		version string
		ok      bool
	}{{"", false}, {"0.3", false}, {"1.0", true}, {"1.0.1", true}, {"2.0", false}} {
		since := f.Trace().Seq()
		_, err := c.SendMessage(tGRPCCtx(t, "a2a-version", tc.version), tGRPCSend("v", ""))
		ev := tGRPCEvent(t, f, since, OpSend)
		if ev.HasA2AVersion != (tc.version != "") || ev.A2AVersion != tc.version {
			t.Errorf("a2a-version %q traced as %q (present %v)", tc.version, ev.A2AVersion, ev.HasA2AVersion)
		}
		if tc.ok {
			if err != nil {
				t.Errorf("a2a-version %q: %v", tc.version, err)
			}
			continue
		}
		st := tGRPCStatus(t, err, codes.FailedPrecondition, "VERSION_NOT_SUPPORTED")
		if md := tErrorInfos(st)[0].GetMetadata(); md["supportedVersions"] != "1.0" || ev.ErrorCode != -32009 {
			t.Errorf("a2a-version %q: ErrorInfo metadata %v, traced error %d", tc.version, md, ev.ErrorCode)
		}
	}
}

// TestGRPCCredentials: a vendor with a bearer scheme refuses a call
// without its token with UNAUTHENTICATED and the challenge in the
// www-authenticate header metadata, and takes the token from the
// authorization metadata; a vendor with an API key reads it from the
// metadata key its card names, lowercased (A2A 1.0.1 §10.2).
func TestGRPCCredentials(t *testing.T) {
	for _, tc := range []struct {
		scheme, key string
		present     func(cred string) []string
	}{
		{AuthBearer, "authorization", func(cred string) []string { return []string{"authorization", "Bearer " + cred} }},
		{AuthAPIKey, "x-api-key", func(cred string) []string { return []string{"x-api-key", cred} }},
	} {
		t.Run(tc.scheme, func(t *testing.T) {
			f := tStart(t, tGRPCConfig(func(v *VendorConfig) { v.Auth = &AuthConfig{Scheme: tc.scheme} }))
			c := tGRPCDial(t, f, tViaProxy, tGRPCHost)
			var hdr metadata.MD
			since := f.Trace().Seq()
			_, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("no credential", ""), grpc.Header(&hdr))
			tGRPCStatus(t, err, codes.Unauthenticated, "")
			if ch := hdr.Get("www-authenticate"); len(ch) != 1 || ch[0] == "" {
				t.Errorf("no www-authenticate header metadata: %v", hdr)
			}
			if ev := tGRPCEvent(t, f, since, OpSend); ev.Status != 401 || len(ev.Credentials) != 0 {
				t.Errorf("trace of the refused call: status %d, credentials %v", ev.Status, ev.Credentials)
			}
			cred, _ := f.Credential("g")
			since = f.Trace().Seq()
			if _, err := c.SendMessage(tGRPCCtx(t, tc.present(cred.Value)...), tGRPCSend("credential", "")); err != nil {
				t.Fatalf("with the credential in %s: %v", tc.key, err)
			}
			if ev := tGRPCEvent(t, f, since, OpSend); ev.Status != 200 || len(ev.Credentials) != 1 || ev.Credentials[0].Owner != "g" {
				t.Errorf("trace of the accepted call: status %d, credentials %v", ev.Status, ev.Credentials)
			}
		})
	}
}

// TestGRPCExtensions: a card's required extension must be activated in
// the a2a-extensions metadata (FAILED_PRECONDITION,
// EXTENSION_SUPPORT_REQUIRED, otherwise); the answer's header metadata
// names the extensions activated.
func TestGRPCExtensions(t *testing.T) {
	const ext = "https://example.com/ext/geo/v1"
	f := tStart(t, tGRPCConfig(func(v *VendorConfig) {
		v.Card.Extensions = []CardExtension{{URI: ext, Required: true}}
	}))
	c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
	_, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("no ext", ""))
	tGRPCStatus(t, err, codes.FailedPrecondition, "EXTENSION_SUPPORT_REQUIRED")
	var hdr metadata.MD
	since := f.Trace().Seq()
	if _, err := c.SendMessage(tGRPCCtx(t, "a2a-extensions", "https://other.example/x, "+ext), tGRPCSend("ext", ""), grpc.Header(&hdr)); err != nil {
		t.Fatal(err)
	}
	if got := hdr.Get("a2a-extensions"); len(got) != 1 || got[0] != ext {
		t.Errorf("a2a-extensions header metadata %v, want [%s]", got, ext)
	}
	if ev := tGRPCEvent(t, f, since, OpSend); !strings.Contains(ev.A2AExtensions, ext) {
		t.Errorf("trace: a2a-extensions %q", ev.A2AExtensions)
	}
}

// TestGRPCUnknownMethod: a method A2AService does not have is
// UNIMPLEMENTED, traced as an operation of no kind with -32601.
func TestGRPCUnknownMethod(t *testing.T) {
	f := tStart(t, tGRPCConfig(nil))
	cc, err := grpc.NewClient("passthrough:///"+tGRPCHost+":443",
		grpc.WithTransportCredentials(credentials.NewTLS(f.TLSConfig())),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) { return f.DialContext(ctx, "tcp", addr) }))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	since := f.Trace().Seq()
	err = cc.Invoke(tGRPCCtx(t), "/lf.a2a.v1.A2AService/NoSuchMethod", &a2apb.GetTaskRequest{}, new(a2apb.Task))
	tGRPCStatus(t, err, codes.Unimplemented, "METHOD_NOT_FOUND")
	if ev := tGRPCEvent(t, f, since, OpOther); ev.ErrorCode != -32601 || ev.Method != "/lf.a2a.v1.A2AService/NoSuchMethod" {
		t.Errorf("trace of an unknown method: %+v", ev)
	}
}

// TestCardGRPCInterface: vendor D's card lists its gRPC interface last,
// as host:port (the proto's AgentInterface.url), and a gRPC client
// reaches it there in the default fleet; a card with explicit
// interfaces lists only those.
func TestCardGRPCInterface(t *testing.T) {
	f := tDefault(t)
	card := tGet(t, tClient(t, f, tViaProxy), "https://"+HostCardD+CardPath, nil).JSON
	ifaces := tAsList(card["supportedInterfaces"])
	last := ifaces[len(ifaces)-1]
	if tPath(last, "protocolBinding") != BindingGRPC || tPath(last, "url") != HostRPCD+":443" || tPath(last, "protocolVersion") != "1.0" {
		t.Fatalf("D's last interface %v, want GRPC 1.0 at %s:443", last, HostRPCD)
	}
	c := tGRPCDial(t, f, tViaProxy, HostRPCD)
	if _, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("via the card", "")); err != nil {
		t.Fatalf("SendMessage to D's gRPC interface: %v", err)
	}
	f2 := tStart(t, tGRPCConfig(func(v *VendorConfig) {
		v.Card.Interfaces = []CardInterface{{URL: "https://" + tGRPCHost + DefaultRPCPath}}
	}))
	card = tGet(t, tClient(t, f2, tViaProxy), "https://agent-g.example"+CardPath, nil).JSON
	if n := len(tAsList(card["supportedInterfaces"])); n != 1 {
		t.Errorf("explicit card: %d interfaces, want the 1 given", n)
	}
}

// TestGRPCExplicitInterface: an explicit card's GRPC entry names the
// endpoint as host:port or as an https URL alike; the tenant it declares
// is the one a call's tenant field must name (A2A 1.0 §8.3.2).
func TestGRPCExplicitInterface(t *testing.T) {
	for _, u := range []string{tGRPCHost + ":443", "https://" + tGRPCHost, "https://" + tGRPCHost + ":443/"} {
		t.Run(u, func(t *testing.T) {
			f := tStart(t, tGRPCConfig(func(v *VendorConfig) {
				v.Card.Interfaces = []CardInterface{{URL: u, Binding: BindingGRPC, Tenant: "acme"}}
			}))
			c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
			_, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("no tenant", ""))
			tGRPCStatus(t, err, codes.InvalidArgument, "INVALID_PARAMS")
			q := tGRPCSend("tenant", "")
			q.Tenant = "acme"
			since := f.Trace().Seq()
			if _, err := c.SendMessage(tGRPCCtx(t), q); err != nil {
				t.Fatalf("with the declared tenant: %v", err)
			}
			if ev := tGRPCEvent(t, f, since, OpSend); ev.Tenant != "acme" {
				t.Errorf("trace: tenant %q", ev.Tenant)
			}
		})
	}
}

// tRawCodec sends a []byte as the message as it is (a request message
// no method can read).
type tRawCodec struct{}

func (tRawCodec) Marshal(v any) ([]byte, error)   { return v.([]byte), nil }
func (tRawCodec) Unmarshal(b []byte, v any) error { return nil }
func (tRawCodec) Name() string                    { return "proto" }

// TestGRPCUnreadMessage: a request message grpc-go cannot read (not the
// method's proto: INTERNAL; over Limits.MaxBody: RESOURCE_EXHAUSTED) is
// refused before the handler, and traced as the other bindings trace an
// unreadable or over-limit body (-32700; -32600 with 413).
func TestGRPCUnreadMessage(t *testing.T) {
	cfg := tGRPCConfig(nil)
	cfg.Limits.MaxBody = 4096
	f := tStart(t, cfg)
	c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
	cc, err := grpc.NewClient("passthrough:///"+tGRPCHost+":443",
		grpc.WithTransportCredentials(credentials.NewTLS(f.TLSConfig())),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) { return f.DialContext(ctx, "tcp", addr) }))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	since := f.Trace().Seq()
	err = cc.Invoke(tGRPCCtx(t), a2apb.A2AService_SendMessage_FullMethodName, []byte{0x0a, 0xff, 0xff}, new([]byte), grpc.ForceCodec(tRawCodec{}))
	tGRPCStatus(t, err, codes.Internal, "")
	if ev := tGRPCEvent(t, f, since, OpSend); ev.ErrorCode != -32700 || !strings.Contains(ev.Note, "not read") {
		t.Errorf("trace of an unreadable message: %+v", ev)
	}
	since = f.Trace().Seq()
	_, err = c.SendMessage(tGRPCCtx(t), tGRPCSend(strings.Repeat("x", 8000), ""))
	tGRPCStatus(t, err, codes.ResourceExhausted, "")
	if ev := tGRPCEvent(t, f, since, OpSend); ev.ErrorCode != -32600 || ev.Status != 413 {
		t.Errorf("trace of an over-limit message: %+v", ev)
	}
}

// TestGRPCCloseEndsStreams: Fleet.Close ends a gRPC stream held open (a
// subscription to a task that works for ever) and returns; the client
// reads the stream's end.
func TestGRPCCloseEndsStreams(t *testing.T) {
	f, err := NewFleet(tGRPCConfig(func(v *VendorConfig) { v.Faults = []FaultSpec{Spec("long-task", LongTask{Forever: true})} }))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := tGRPCDial(t, f, tViaProxy, tGRPCHost)
	q := tGRPCSend("forever", "")
	q.Configuration = &a2apb.SendMessageConfiguration{ReturnImmediately: true}
	r, err := c.SendMessage(tGRPCCtx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.SubscribeToTask(tGRPCCtx(t), &a2apb.SubscribeToTaskRequest{Id: r.GetTask().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recv(); err != nil {
		t.Fatalf("first event: %v", err)
	}
	done := make(chan struct{})
	go func() { f.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Fleet.Close did not return with a gRPC stream open")
	}
	if _, err := tRecv(t, st); status.Code(err) == codes.DeadlineExceeded {
		t.Errorf("the stream did not end with the fleet: %v", err)
	}
}

// TestHTTP2OnGRPCHost: a host with the gRPC binding offers h2 after
// http/1.1: a client offering both keeps HTTP/1.1 (JSON-RPC answered);
// one offering only h2 (as gRPC clients do) is served on grpc-go's own
// transport, where HTTP/2 is gRPC: a JSON-RPC request there is answered
// 415 Unsupported Media Type by grpc-go (grpc-status in the header), not
// by the fleet.
func TestHTTP2OnGRPCHost(t *testing.T) {
	f := tStart(t, tGRPCConfig(nil))
	u := "https://" + tGRPCHost + DefaultRPCPath
	tr := tResolveTransport(f)
	tr.ForceAttemptHTTP2 = true // offers h2 and http/1.1
	defer tr.CloseIdleConnections()
	h2 := tH2Transport(f)
	defer h2.CloseIdleConnections()
	post := func(rt http.RoundTripper, text string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(tEnvelope("SendMessage", tSendParams(Dialect10, text, ""))))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		return (&http.Client{Transport: rt, Timeout: 10 * time.Second}).Do(req)
	}
	cases := []struct {
		rt     http.RoundTripper
		major  int
		status int
		grpc   bool // grpc-go answered (a grpc-status header)
	}{
		{tr, 1, http.StatusOK, false},
		{h2, 2, http.StatusUnsupportedMediaType, true},
	}
	for _, tc := range cases {
		since := f.Trace().Seq()
		resp, err := post(tc.rt, "which protocol")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.ProtoMajor != tc.major || resp.StatusCode != tc.status || (resp.Header.Get("Grpc-Status") != "") != tc.grpc {
			t.Errorf("%T: HTTP/%d %d grpc-status %q, want HTTP/%d %d (grpc-go answering: %v)", tc.rt, resp.ProtoMajor, resp.StatusCode, resp.Header.Get("Grpc-Status"), tc.major, tc.status, tc.grpc)
		}
		if sends := len(tEventsOp(f, since, OpSend)); sends != map[bool]int{false: 1, true: 0}[tc.grpc] {
			t.Errorf("%T: %d sends traced", tc.rt, sends)
		}
	}
}

// tH2Transport is an HTTP/2 transport that offers only h2, dialing the
// fleet's hosts through its resolve map.
func tH2Transport(f *Fleet) *http2.Transport {
	return &http2.Transport{TLSClientConfig: f.TLSConfig(), DialTLSContext: func(ctx context.Context, network, addr string, cfg *tls.Config) (net.Conn, error) {
		conn, err := f.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return tls.Client(conn, cfg), nil
	}}
}

// tEventsOp are the finished events of op after since.
func tEventsOp(f *Fleet, since int64, op Op) []Event {
	f.Settle(time.Second)
	var out []Event
	for _, e := range tEvents(f, since) {
		if e.Op == op && !e.Pending {
			out = append(out, e)
		}
	}
	return out
}

// TestGRPCGzip: a call compressed with gzip (grpc-encoding) is read and
// answered.
func TestGRPCGzip(t *testing.T) {
	f := tStart(t, tGRPCConfig(nil))
	c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
	r, err := c.SendMessage(tGRPCCtx(t), tGRPCSend(strings.Repeat("zip ", 100), ""), grpc.UseCompressor(gzip.Name))
	if err != nil || r.GetTask().GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Fatalf("gzip call: %v %v", r, err)
	}
}

// TestGRPCConnTimeouts: on grpc-go's transport the connection bounds
// still hold: a gRPC connection with no call is closed after
// Limits.IdleTimeout, and one whose call's request message is not in by
// Limits.ReadTimeout is closed then, the call traced as not read.
func TestGRPCConnTimeouts(t *testing.T) {
	const limit = 300 * time.Millisecond
	cfg := tGRPCConfig(nil)
	cfg.Limits = Limits{IdleTimeout: limit, ReadTimeout: limit}
	f := tStart(t, cfg)
	t.Run("idle", func(t *testing.T) {
		c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
		if _, err := c.SendMessage(tGRPCCtx(t), tGRPCSend("hello", "")); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if open, _ := f.Conns(); open != 1 {
			t.Fatalf("%d connections open after the call, want 1", open)
		}
		for open, _ := f.Conns(); open > 0; open, _ = f.Conns() {
			if time.Since(start) > 5*time.Second {
				t.Fatal("the idle gRPC connection is still open after 5 s")
			}
			time.Sleep(5 * time.Millisecond)
		}
		if d := time.Since(start); d < limit*2/3 {
			t.Errorf("closed after %v, before the idle timeout", d)
		}
	})
	t.Run("read", func(t *testing.T) {
		h2 := tH2Transport(f)
		defer h2.CloseIdleConnections()
		body, w := io.Pipe()
		defer w.Close()
		req, _ := http.NewRequest(http.MethodPost, "https://"+tGRPCHost+a2apb.A2AService_SendMessage_FullMethodName, body)
		req.Header.Set("Content-Type", "application/grpc")
		since := f.Trace().Seq()
		start := time.Now()
		resp, err := (&http.Client{Transport: h2, Timeout: 5 * time.Second}).Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		d := time.Since(start)
		if d < limit*2/3 || d > 3*time.Second {
			t.Errorf("a call with no message ended after %v (%v), want about %v", d, err, limit)
		}
		ev := tWaitEvent(t, f, since, func(e Event) bool { return e.Op == OpSend && !e.Pending })
		if !strings.Contains(ev.Note, "not read") {
			t.Errorf("trace note %q, want the message not read", ev.Note)
		}
	})
}
