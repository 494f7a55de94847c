package main

// The gRPC lane (dialect "grpc"): unary SendMessage through the fleet's
// gRPC binding (rpc.agent-d.example with HostConfig.GRPC, the same faults
// armed as for JSON-RPC: the header hook puts a2a-version in the header
// metadata, the region gate checks every send) against two bare grpc-go
// servers whose A2AService answers SendMessage with the fleet's own
// answer, a fixed completed Task, and the fleet's header metadata:
//
//	bare            grpc-go's own HTTP/2 transport (grpc.Creds, Serve)
//	bare_servehttp  (*grpc.Server).ServeHTTP behind net/http's HTTP/2
//	                server, as the fleet served gRPC before it took h2
//	                connections to grpc-go's own transport
//
// and the fleet with Config.PlainJSON (fleet_plain: the binding's fast
// path for the common send off, every call through protojson).
//
// All three use the same certificate chain and TLS settings (TLS 1.3
// from the client, the fleet's CA); the load client opens -conns
// ClientConns, each with -inflight calls at once. The lines:
//
//	grpc_server_cpu_us_T, grpc_rps_T, grpc_p50_ms_T, grpc_p99_ms_T,
//	  grpc_client_cpu_us_T for T in fleet, bare, bare_servehttp,
//	  fleet_plain
//	grpc_server_cpu_ratio (fleet / bare), grpc_throughput_ratio (fleet /
//	  bare requests per second)
//	grpc_servehttp_cpu_ratio (bare_servehttp / bare: what ServeHTTP costs
//	  over grpc-go's transport), grpc_servehttp_throughput_ratio
//	grpc_fleet_servehttp_cpu_ratio (fleet / bare_servehttp: the fleet
//	  against the transport it left; below 1 since)
//	grpc_fastpath_cpu_gain (1 - fleet / fleet_plain)

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// grpcDialect is the dialect name of the gRPC lane.
const grpcDialect = "grpc"

// grpcOnRPCHost turns the gRPC binding on for rpc.agent-d.example (a
// no-op where the default configuration already has it).
func grpcOnRPCHost(cfg *mockvendor.Config) {
	for i := range cfg.Vendors {
		for j := range cfg.Vendors[i].Hosts {
			if h := &cfg.Vendors[i].Hosts[j]; h.Name == rpcHost {
				h.GRPC = true
			}
		}
	}
}

// grpcSendRequest is the benchmark's SendMessage, the JSON-RPC 1.0
// send's params as a proto message.
func grpcSendRequest() *a2apb.SendMessageRequest {
	md, _ := structpb.NewStruct(map[string]any{"skillId": mockvendor.SkillInvoice})
	return &a2apb.SendMessageRequest{
		Message: &a2apb.Message{
			Role:      a2apb.Role_ROLE_USER,
			MessageId: "m-1",
			Parts:     []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "reconcile invoice 42"}}},
		},
		Metadata: md,
	}
}

// grpcCallMD is the request metadata of every call: A2A 1.0 (A2A 1.0.1
// §3.6.1, §10.2).
var grpcCallMD = metadata.Pairs("a2a-version", "1.0")

// grpcTargets checks the gRPC answers of the fleet at fleetAddr and of
// the plain-JSON fleet at plainAddr (alike, ids and timestamps aside),
// starts the bare servers answering the fleet's and hands keep the
// lane's targets; the returned function stops the bare servers.
func grpcTargets(fleetAddr, plainAddr string, cert tls.Certificate, clientTLS *tls.Config, keep func(*target)) (func(), error) {
	resp, hdr, err := onceGRPC(fleetAddr, clientTLS)
	if err != nil {
		return nil, fmt.Errorf("fleet grpc: %w", err)
	}
	presp, phdr, err := onceGRPC(plainAddr, clientTLS)
	if err != nil {
		return nil, fmt.Errorf("plain fleet grpc: %w", err)
	}
	norm := func(m proto.Message, md metadata.MD) string {
		b, _ := protojson.Marshal(m)
		return volatile.ReplaceAllString(strings.Join(strings.Fields(string(b)), ""), "X") + fmt.Sprint(answerMD(md))
	}
	if a, b := norm(resp, hdr), norm(presp, phdr); a != b {
		return nil, fmt.Errorf("the plain-JSON fleet answers gRPC\n%s\nthe fast path\n%s", b, a)
	}
	svc := &bareService{resp: resp, hdr: answerMD(hdr)}
	bare, err := startBareGRPC(cert, svc)
	if err != nil {
		return nil, err
	}
	viaHTTP, err := startBareServeHTTP(cert, svc)
	if err != nil {
		bare.Close()
		return nil, err
	}
	stop := func() { bare.Close(); viaHTTP.Close() }
	for _, addr := range []string{bare.addr, viaHTTP.addr} {
		got, _, err := onceGRPC(addr, clientTLS)
		if err != nil || !proto.Equal(got, resp) {
			stop()
			return nil, fmt.Errorf("bare grpc server %s: %v", addr, err)
		}
	}
	keep(&target{name: "fleet", dialect: grpcDialect, addr: fleetAddr})
	keep(&target{name: "bare", dialect: grpcDialect, addr: bare.addr})
	keep(&target{name: "bare_servehttp", dialect: grpcDialect, addr: viaHTTP.addr})
	keep(&target{name: "fleet_plain", dialect: grpcDialect, addr: plainAddr})
	return stop, nil
}

// answerMD is the header metadata an application sets (a2a-version,
// a2a-extensions), without what the transport adds (content-type, grpc-*).
func answerMD(md metadata.MD) metadata.MD {
	out := metadata.MD{}
	for k, v := range md {
		if k != "content-type" && !strings.HasPrefix(k, "grpc-") {
			out[k] = v
		}
	}
	return out
}

// grpcConn dials a ClientConn to addr over clientTLS (SNI
// rpc.agent-d.example), whatever the target says.
func grpcConn(addr string, clientTLS *tls.Config) (*grpc.ClientConn, error) {
	return grpc.NewClient("passthrough:///"+rpcHost+":443",
		grpc.WithTransportCredentials(credentials.NewTLS(clientTLS.Clone())),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		}))
}

// onceGRPC sends one SendMessage to addr and returns its answer, a
// completed task, and the header metadata.
func onceGRPC(addr string, clientTLS *tls.Config) (*a2apb.SendMessageResponse, metadata.MD, error) {
	cc, err := grpcConn(addr, clientTLS)
	if err != nil {
		return nil, nil, err
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), grpcCallMD), 10*time.Second)
	defer cancel()
	var hdr metadata.MD
	resp, err := a2apb.NewA2AServiceClient(cc).SendMessage(ctx, grpcSendRequest(), grpc.Header(&hdr))
	if err != nil {
		return nil, nil, err
	}
	if st := resp.GetTask().GetStatus().GetState(); st != a2apb.TaskState_TASK_STATE_COMPLETED {
		return nil, nil, fmt.Errorf("answer %v: %v", st, resp)
	}
	return resp, hdr, nil
}

// bareService is the bare servers' A2AService: SendMessage answers resp
// with header metadata hdr, and does nothing else.
type bareService struct {
	a2apb.UnimplementedA2AServiceServer
	resp *a2apb.SendMessageResponse
	hdr  metadata.MD
}

func (s *bareService) SendMessage(ctx context.Context, _ *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	_ = grpc.SetHeader(ctx, s.hdr)
	return s.resp, nil
}

// bareTLS is the bare servers' TLS: the fleet's certificate for
// rpc.agent-d.example and the fleet's settings (TLS 1.2 and up), ALPN
// protos.
func bareTLS(cert tls.Certificate, protos ...string) *tls.Config {
	return &tls.Config{NextProtos: protos, MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
}

// grpcBare is a bare server: Close stops it.
type grpcBare struct {
	addr  string
	Close func()
}

// startBareGRPC serves svc on grpc-go's own HTTP/2 transport.
func startBareGRPC(cert tls.Certificate, svc a2apb.A2AServiceServer) (*grpcBare, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(bareTLS(cert, "h2"))))
	a2apb.RegisterA2AServiceServer(srv, svc)
	go func() { _ = srv.Serve(ln) }()
	return &grpcBare{addr: ln.Addr().String(), Close: srv.Stop}, nil
}

// startBareServeHTTP serves svc through (*grpc.Server).ServeHTTP behind
// net/http's HTTP/2 server, ALPN http/1.1 then h2, as the fleet's hosts
// with the gRPC binding do.
func startBareServeHTTP(cert tls.Certificate, svc a2apb.A2AServiceServer) (*grpcBare, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	gs := grpc.NewServer()
	a2apb.RegisterA2AServiceServer(gs, svc)
	protos := new(http.Protocols)
	protos.SetHTTP1(true)
	protos.SetHTTP2(true)
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
				gs.ServeHTTP(w, r)
				return
			}
			http.NotFound(w, r)
		}),
		Protocols:         protos,
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = hs.Serve(tls.NewListener(ln, bareTLS(cert, "http/1.1", "h2"))) }()
	return &grpcBare{addr: ln.Addr().String(), Close: func() { gs.Stop(); _ = hs.Close() }}, nil
}

// runGRPCClient is the gRPC load client: conns ClientConns, each warmed
// up, then inflight calls at once on each for dur; it prints "ready",
// waits for "go" and prints a clientResult, as runClient does.
func runGRPCClient(a clientArgs, conns, inflight int, dur time.Duration) error {
	clientTLS, err := clientTLSFrom(a.caFile)
	if err != nil {
		return err
	}
	clients := make([]a2apb.A2AServiceClient, conns)
	for i := range clients {
		cc, err := grpcConn(a.addr, clientTLS)
		if err != nil {
			return err
		}
		defer cc.Close()
		clients[i] = a2apb.NewA2AServiceClient(cc)
	}
	req := grpcSendRequest()
	ctx := metadata.NewOutgoingContext(context.Background(), grpcCallMD)
	var wg sync.WaitGroup
	var warmErr atomic.Pointer[error]
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.SendMessage(ctx, req); err != nil {
				warmErr.Store(&err)
			}
		}()
	}
	wg.Wait()
	if p := warmErr.Load(); p != nil {
		return fmt.Errorf("warm-up: %w", *p)
	}
	fmt.Println("ready")
	if err := waitGo(); err != nil {
		return err
	}
	perClient := max(inflight, 1)
	res := drive(len(clients)*perClient, dur, func(w int) bool {
		resp, err := clients[w/perClient].SendMessage(ctx, req)
		return err == nil && resp.GetTask().GetStatus().GetState() == a2apb.TaskState_TASK_STATE_COMPLETED
	})
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	return nil
}

// reportGRPC prints the gRPC lane's lines (see the top of this file).
func reportGRPC(byName map[string]*target) {
	names := []string{"fleet", "bare", "bare_servehttp", "fleet_plain"}
	for _, n := range names {
		t := byName[grpcDialect+"_"+n]
		if t == nil {
			continue
		}
		fmt.Printf("grpc_rps_%s=%.0f\n", n, median(t.rps))
		fmt.Printf("grpc_p50_ms_%s=%.3f\n", n, median(t.p50))
		fmt.Printf("grpc_p99_ms_%s=%.3f\n", n, median(t.p99))
		fmt.Printf("grpc_client_cpu_us_%s=%.1f\n", n, median(t.cliCPU))
		if t.errs > 0 {
			fmt.Printf("grpc_errors_%s=%d\n", n, t.errs)
		}
	}
	for _, n := range names {
		if t := byName[grpcDialect+"_"+n]; t != nil {
			fmt.Printf("grpc_server_cpu_us_%s=%.1f\n", n, median(t.srvCPU))
		}
	}
	fl, bt, sh := byName[grpcDialect+"_fleet"], byName[grpcDialect+"_bare"], byName[grpcDialect+"_bare_servehttp"]
	ratio := func(name string, a, b *target) {
		if a != nil && b != nil {
			fmt.Printf("grpc_%s_cpu_ratio=%.3f\n", name, median(a.srvCPU)/median(b.srvCPU))
			fmt.Printf("grpc_%s_throughput_ratio=%.3f\n", name, median(a.rps)/median(b.rps))
		}
	}
	if fl != nil && bt != nil {
		fmt.Printf("grpc_server_cpu_ratio=%.3f\n", median(fl.srvCPU)/median(bt.srvCPU))
		fmt.Printf("grpc_throughput_ratio=%.3f\n", median(fl.rps)/median(bt.rps))
	}
	ratio("servehttp", sh, bt)
	ratio("fleet_servehttp", fl, sh)
	if pl := byName[grpcDialect+"_fleet_plain"]; fl != nil && pl != nil {
		fmt.Printf("grpc_fastpath_cpu_gain=%.3f\n", 1-median(fl.srvCPU)/median(pl.srvCPU))
	}
}

// waitGo waits for the parent's "go" line on stdin.
func waitGo() error {
	if line, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil || line != "go\n" {
		return fmt.Errorf("no go: %q %v", line, err)
	}
	return nil
}
