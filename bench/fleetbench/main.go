// Command fleetbench measures the mock vendor fleet against a bare net/http
// TLS server, in both JSON-RPC dialects, and its gRPC binding against bare
// grpc-go servers (dialect grpc, grpc.go: its own lines), with the load
// client in a process of its own, and prints name=value lines (D is the
// dialect, 03 or 10):
//
//	fleet_startup_ms
//	D_T_rps, D_T_p50_ms, D_T_p99_ms, D_T_client_cpu_us for each target T:
//	  fleet; bare; fleet_plain (the fleet with Config.PlainJSON, the JSON
//	  fast path off); fleet_live (the fleet while a client reads the admin
//	  API's live trace stream, as the admin page does)
//	D_server_cpu_us_T for each target, side by side: the server process's
//	  CPU per request (median of the rounds)
//	D_server_cpu_ratio (fleet / bare), D_throughput_ratio (fleet / bare
//	  requests per second), D_fastpath_cpu_gain (1 - fleet / fleet_plain),
//	  D_live_trace_cpu_cost (fleet_live / fleet - 1)
//
// The fleets are the default fleet with two faults armed on vendor D that
// act on every request without changing the answer: version-header-lie
// answering "1.0" (a header hook) and region-gate gating fx-hedging (a
// call hook that checks every send; the benchmark sends
// invoice-reconciliation). Their traces record every request. The request
// is a send to rpc.agent-d.example (message/send in 0.3, SendMessage in
// 1.0) answered with a completed task. The load client dials the host's
// listener directly with SNI set, so the proxy is not measured. The bare
// server answers the bytes the fleet answered for the dialect, with the
// same certificate chain and TLS settings.
//
// Rounds are interleaved: each round measures every target, in an order
// that rotates from round to round. The servers' CPU is this process's
// CPU between the client's start signal and its result; the client's
// handshakes and warm-up happen before the signal. The client and the
// servers still share the machine's cores: compare ratios, not absolute
// figures.
//
// fleetbench -client ... is the load client; the parent runs it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/gcbudget"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/mockvendor/admin"
)

const rpcHost = mockvendor.HostRPCD

// volatile matches what differs between two answers to the same send: task
// and context ids, timestamps.
var volatile = regexp.MustCompile(`(t|ctx)-[0-9a-f]{16}|"timestamp":"[^"]*"`)

// sendBodies are the requests of each dialect, with their A2A-Version.
var sendBodies = map[string]struct{ version, body string }{
	"03": {"0.3", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`},
	"10": {"1.0", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`},
}

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	dur := flag.Duration("duration", 3*time.Second, "length of one measurement")
	conns := flag.Int("conns", 16, "keep-alive connections (gRPC: ClientConns)")
	inflight := flag.Int("inflight", 4, "gRPC: calls in flight on each ClientConn")
	startups := flag.Int("startups", 20, "fleet start-ups measured")
	dialects := flag.String("dialects", "03,10,grpc,proxy", "dialects measured (03, 10: JSON-RPC; grpc: the gRPC binding; proxy: a 1.0 send through a2a-conform proxy and through httputil.ReverseProxy to one agent)")
	only := flag.String("only", "", "measure only these targets, a comma-separated list of fleet, bare, fleet_plain, fleet_live, bare_servehttp (for profiling)")
	traceCap := flag.Int("tracecap", 0, "the fleets' MaxTraceEvents (0: the default), for diagnosis")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the servers to this file")
	gcBudget := flag.Bool("gcbudget", true, "run the servers with a2a-conform's GC settings (internal/gcbudget); false keeps Go's defaults")
	var cl clientArgs
	flag.BoolVar(&cl.on, "client", false, "run as the load client (the parent starts it)")
	flag.StringVar(&cl.addr, "client-addr", "", "load client: address to dial")
	flag.StringVar(&cl.dialect, "client-dialect", "10", "load client: dialect of the requests")
	flag.StringVar(&cl.caFile, "client-ca", "", "load client: CA certificate PEM file")
	flag.StringVar(&cl.streamURL, "client-stream", "", "load client: read this admin trace stream during the load")
	flag.StringVar(&cl.token, "client-token", "", "load client: the admin API token")
	flag.Parse()
	if cl.on {
		run := runClient
		if cl.dialect == grpcDialect {
			run = runGRPCClient
		}
		if err := run(cl, *conns, *inflight, *dur); err != nil {
			fmt.Fprintln(os.Stderr, "fleetbench client:", err)
			os.Exit(2)
		}
		return
	}
	if *gcBudget {
		p, l := gcbudget.Apply()
		fmt.Printf("gc_percent=%d\ngc_limit_mib=%d\n", p, l>>20)
	}
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fleetbench:", err)
			os.Exit(2)
		}
		_ = pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	load := loadShape{conns: *conns, inflight: *inflight, dur: *dur}
	if err := run(*rounds, load, *startups, strings.Split(*dialects, ","), *only, *traceCap); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "fleetbench:", err)
		os.Exit(2)
	}
}

// loadShape is what the load client puts on a target: conns connections
// (gRPC: ClientConns, each with inflight calls at once) for dur.
type loadShape struct {
	conns, inflight int
	dur             time.Duration
}

// target is one server configuration measured in one dialect.
type target struct {
	name    string // "fleet", "fleet_plain", "fleet_live", "bare", "bare_servehttp"
	dialect string // "03", "10" or grpcDialect
	addr    string
	stream  string // the admin trace stream the client reads, if any
	rps     []float64
	srvCPU  []float64 // server process CPU per request, us
	cliCPU  []float64 // client process CPU per request, us
	p50     []float64
	p99     []float64
	errs    int64
}

// armedFleet starts the default fleet with the benchmark's faults on D,
// whose host rpc.agent-d.example serves the gRPC binding too.
func armedFleet(traceCap int, plain bool, ca *mockvendor.CA) (*mockvendor.Fleet, error) {
	cfg := mockvendor.DefaultConfig()
	grpcOnRPCHost(&cfg)
	cfg.Limits.MaxTraceEvents = traceCap
	cfg.PlainJSON = plain
	cfg.CA = ca
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		return nil, err
	}
	for _, s := range []mockvendor.FaultSpec{
		mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{Version: "1.0"}),
		mockvendor.Spec("region-gate", mockvendor.RegionGate{GatedSkills: []string{mockvendor.SkillFXHedging}}),
	} {
		if _, err := f.AddFault("d", s); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

func run(rounds int, load loadShape, startups int, dialects []string, only string, traceCap int) error {
	startup, err := measureStartup(startups)
	if err != nil {
		return err
	}
	env, err := startEnv(traceCap)
	if err != nil {
		return err
	}
	defer env.close()
	var targets []*target
	keep := func(t *target) {
		if only == "" || slices.Contains(strings.Split(only, ","), t.name) {
			targets = append(targets, t)
		}
	}
	for _, d := range dialects {
		stop, err := env.targets(d, keep)
		if err != nil {
			return err
		}
		defer stop()
	}
	seq0 := env.fast.Trace().Seq() + env.plain.Trace().Seq()
	for r := 0; r < rounds; r++ {
		for i := range targets {
			t := targets[(i+r)%len(targets)]
			if err := measure(t, env.caFile, env.adm.Token, load); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "round %d %s %s: %.0f req/s, server %.1f us CPU/req, client %.1f\n",
				r+1, t.dialect, t.name, last(t.rps), last(t.srvCPU), last(t.cliCPU))
		}
	}
	fmt.Printf("fleet_startup_ms=%.1f\n", startup)
	report(targets, dialects)
	fmt.Printf("fleet_trace_events=%d\n", env.fast.Trace().Seq()+env.plain.Trace().Seq()-seq0)
	for _, t := range targets {
		if t.errs > 0 {
			return errors.New("some requests failed")
		}
	}
	return nil
}

// benchEnv is what every lane measures against: the fleet with the JSON
// fast path (fast) and without it (plain), an admin server on fast (the
// live trace subscriber), the fleet CA's PEM file for the load client,
// the client's TLS config and a certificate for the bare servers.
type benchEnv struct {
	fast, plain *mockvendor.Fleet
	adm         *admin.Server
	caFile      string
	clientTLS   *tls.Config
	cert        tls.Certificate
	closers     []func()
}

func startEnv(traceCap int) (env *benchEnv, err error) {
	env = &benchEnv{}
	defer func() {
		if err != nil {
			env.close()
		}
	}()
	if env.fast, err = armedFleet(traceCap, false, nil); err != nil {
		return nil, err
	}
	env.closers = append(env.closers, env.fast.Close)
	if env.plain, err = armedFleet(traceCap, true, env.fast.CA()); err != nil {
		return nil, err
	}
	env.closers = append(env.closers, env.plain.Close)
	if env.adm, err = admin.Start(env.fast, ""); err != nil {
		return nil, err
	}
	env.closers = append(env.closers, env.adm.Close)
	f, err := os.CreateTemp("", "fleetbench-ca-*.pem")
	if err != nil {
		return nil, err
	}
	env.caFile = f.Name()
	env.closers = append(env.closers, func() { os.Remove(env.caFile) })
	_, err = f.Write(env.fast.CA().CertPEM())
	f.Close()
	if err != nil {
		return nil, err
	}
	env.clientTLS = &tls.Config{RootCAs: env.fast.CA().Pool(), ServerName: rpcHost, MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13}
	if env.cert, err = env.fast.CA().Issue(rpcHost); err != nil {
		return nil, err
	}
	return env, nil
}

func (env *benchEnv) close() {
	for i := len(env.closers) - 1; i >= 0; i-- {
		env.closers[i]()
	}
}

// targets hands keep the targets of dialect d, started: the JSON-RPC
// dialects' fleet, fleet_plain, fleet_live and bare; the gRPC and proxy
// lanes' own. stop ends the servers it started.
func (env *benchEnv) targets(d string, keep func(*target)) (stop func(), err error) {
	fastAddr, plainAddr := env.fast.Resolve()[rpcHost+":443"], env.plain.Resolve()[rpcHost+":443"]
	switch d {
	case proxyDialect:
		_, body, err := once(fastAddr, env.clientTLS, "10")
		if err != nil {
			return nil, err
		}
		return proxyTargets(env.fast.CA(), env.cert, body, env.clientTLS, keep)
	case grpcDialect:
		return grpcTargets(fastAddr, plainAddr, env.cert, env.clientTLS, keep)
	}
	if _, ok := sendBodies[d]; !ok {
		return nil, fmt.Errorf("unknown dialect %q (03, 10, grpc or proxy)", d)
	}
	// One request to each fleet gives the bytes the bare server answers;
	// both paths must answer alike (ids and timestamps aside).
	hdr, body, err := once(fastAddr, env.clientTLS, d)
	if err != nil {
		return nil, fmt.Errorf("fleet %s: %w", d, err)
	}
	_, pbody, err := once(plainAddr, env.clientTLS, d)
	if err != nil {
		return nil, fmt.Errorf("plain fleet %s: %w", d, err)
	}
	if norm := func(b []byte) string { return volatile.ReplaceAllString(string(b), "X") }; norm(pbody) != norm(body) {
		return nil, fmt.Errorf("the plain-JSON fleet answers\n%s\nthe fast path\n%s", pbody, body)
	}
	bare, err := startBare(env.cert, hdr, body)
	if err != nil {
		return nil, err
	}
	if _, b2, err := once(bare.addr, env.clientTLS, d); err != nil || !bytes.Equal(b2, body) {
		bare.Close()
		return nil, fmt.Errorf("bare server: %v", err)
	}
	for _, t := range []*target{
		{name: "fleet", dialect: d, addr: fastAddr},
		{name: "fleet_plain", dialect: d, addr: plainAddr},
		{name: "fleet_live", dialect: d, addr: fastAddr, stream: env.adm.URL + "/admin/trace/stream"},
		{name: "bare", dialect: d, addr: bare.addr},
	} {
		keep(t)
	}
	return bare.Close, nil
}

// report prints each target's figures, then per dialect the server CPU
// per request side by side and the ratios.
func report(targets []*target, dialects []string) {
	byName := map[string]*target{}
	for _, t := range targets {
		byName[t.dialect+"_"+t.name] = t
		if t.dialect == grpcDialect || t.dialect == proxyDialect {
			continue // printed by reportGRPC, reportProxy
		}
		p := t.dialect + "_" + t.name
		fmt.Printf("%s_rps=%.0f\n", p, median(t.rps))
		fmt.Printf("%s_p50_ms=%.3f\n", p, median(t.p50))
		fmt.Printf("%s_p99_ms=%.3f\n", p, median(t.p99))
		fmt.Printf("%s_client_cpu_us=%.1f\n", p, median(t.cliCPU))
		if t.errs > 0 {
			fmt.Printf("%s_errors=%d\n", p, t.errs)
		}
	}
	for _, d := range dialects {
		switch d {
		case grpcDialect:
			reportGRPC(byName)
		case proxyDialect:
			reportProxy(byName)
		default:
			reportJSONRPC(byName, d)
		}
	}
}

// reportJSONRPC prints dialect d's server CPU per request of each target
// and the fleet's ratios to bare, to fleet_plain and to fleet_live.
func reportJSONRPC(byName map[string]*target, d string) {
	for _, n := range []string{"fleet", "bare", "fleet_plain", "fleet_live"} {
		if t := byName[d+"_"+n]; t != nil {
			fmt.Printf("%s_server_cpu_us_%s=%.1f\n", d, n, median(t.srvCPU))
		}
	}
	fl, bt, pl, lv := byName[d+"_fleet"], byName[d+"_bare"], byName[d+"_fleet_plain"], byName[d+"_fleet_live"]
	if fl != nil && bt != nil {
		fmt.Printf("%s_server_cpu_ratio=%.3f\n", d, median(fl.srvCPU)/median(bt.srvCPU))
		fmt.Printf("%s_throughput_ratio=%.3f\n", d, median(fl.rps)/median(bt.rps))
	}
	if fl != nil && pl != nil {
		fmt.Printf("%s_fastpath_cpu_gain=%.3f\n", d, 1-median(fl.srvCPU)/median(pl.srvCPU))
	}
	if fl != nil && lv != nil {
		fmt.Printf("%s_live_trace_cpu_cost=%.3f\n", d, median(lv.srvCPU)/median(fl.srvCPU)-1)
	}
}

func last(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return v[len(v)-1]
}

// clientResult is what the load client reports on its last line.
type clientResult struct {
	Count   int64   `json:"count"`
	Errors  int64   `json:"errors"`
	Seconds float64 `json:"seconds"`
	P50ms   float64 `json:"p50Ms"`
	P99ms   float64 `json:"p99Ms"`
	CPUus   float64 `json:"cpuUs"` // the client's CPU during the load
}

// measure runs the load client against t once: it starts the client,
// waits until it is warmed up, then takes the server process's CPU over
// the load.
func measure(t *target, caFile, token string, load loadShape) error {
	dialect := t.dialect
	if dialect == proxyDialect {
		dialect = "10" // the proxy lane's requests are 1.0 sends
	}
	args := []string{"-client", "-client-addr", t.addr, "-client-dialect", dialect, "-client-ca", caFile,
		"-conns", fmt.Sprint(load.conns), "-inflight", fmt.Sprint(load.inflight), "-duration", load.dur.String()}
	if t.stream != "" {
		args = append(args, "-client-stream", t.stream, "-client-token", token)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { _ = cmd.Wait() }()
	rd := bufio.NewReader(out)
	if line, err := rd.ReadString('\n'); err != nil || line != "ready\n" {
		return fmt.Errorf("load client: %q %v", line, err)
	}
	cpu0 := cpuTime()
	if _, err := io.WriteString(in, "go\n"); err != nil {
		return err
	}
	line, err := rd.ReadString('\n')
	cpu1 := cpuTime()
	if err != nil {
		return fmt.Errorf("load client: %v", err)
	}
	var res clientResult
	if err := json.Unmarshal([]byte(line), &res); err != nil {
		return fmt.Errorf("load client said %q: %v", line, err)
	}
	n := float64(max(res.Count, 1))
	t.rps = append(t.rps, float64(res.Count)/res.Seconds)
	t.srvCPU = append(t.srvCPU, float64((cpu1-cpu0).Microseconds())/n)
	t.cliCPU = append(t.cliCPU, res.CPUus/n)
	t.p50 = append(t.p50, res.P50ms)
	t.p99 = append(t.p99, res.P99ms)
	t.errs += res.Errors
	_ = in.Close()
	return nil
}

type clientArgs struct {
	on                    bool
	addr, dialect, caFile string
	streamURL, token      string
}

// runClient is the load client: it warms conns connections up, prints
// "ready", waits for "go" on stdin, sends requests for dur and prints a
// clientResult.
func runClient(a clientArgs, conns, _ int, dur time.Duration) error {
	clientTLS, err := clientTLSFrom(a.caFile)
	if err != nil {
		return err
	}
	tr := transport(a.addr, clientTLS, conns)
	defer tr.CloseIdleConnections()
	var wg sync.WaitGroup
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := tr.RoundTrip(newRequest(a.dialect)); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if a.streamURL != "" {
		// A live trace subscriber, as the admin page keeps one open.
		req, _ := http.NewRequest(http.MethodGet, a.streamURL, nil)
		req.Header.Set("Authorization", "Bearer "+a.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("trace stream: %s", resp.Status)
		}
		defer resp.Body.Close()
		go func() { _, _ = io.Copy(io.Discard, resp.Body) }()
	}
	fmt.Println("ready")
	if line, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil || line != "go\n" {
		return fmt.Errorf("no go: %q %v", line, err)
	}
	body := []byte(sendBodies[a.dialect].body)
	version := sendBodies[a.dialect].version
	res := drive(conns, dur, func(int) bool {
		req, _ := http.NewRequest(http.MethodPost, "https://"+rpcHost+mockvendor.DefaultRPCPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", version)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return false
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err == nil && resp.StatusCode == http.StatusOK
	})
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	return nil
}

// drive runs call from workers goroutines (each passing its number) for dur, then reports the
// calls that succeeded, those that did not, latency percentiles of the
// successful ones and the process's CPU over the run: the load loop both
// lanes share.
func drive(workers int, dur time.Duration, call func(worker int) bool) clientResult {
	var (
		wg          sync.WaitGroup
		stop        atomic.Bool
		count, errs atomic.Int64
		mu          sync.Mutex
		lats        []time.Duration
	)
	cpu0 := cpuTime()
	start := time.Now()
	for w := range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 1<<14)
			for !stop.Load() {
				t0 := time.Now()
				if !call(w) {
					errs.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
				count.Add(1)
			}
			mu.Lock()
			lats = append(lats, mine...)
			mu.Unlock()
		}()
	}
	time.Sleep(dur)
	stop.Store(true)
	wg.Wait()
	return clientResult{Count: count.Load(), Errors: errs.Load(), Seconds: time.Since(start).Seconds(),
		P50ms: pct(lats, 0.50), P99ms: pct(lats, 0.99), CPUus: float64((cpuTime() - cpu0).Microseconds())}
}

// clientTLSFrom is the load client's TLS: TLS 1.3 to rpc.agent-d.example,
// trusting the CA in the PEM file caFile.
func clientTLSFrom(caFile string) (*tls.Config, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("no certificate in " + caFile)
	}
	return &tls.Config{RootCAs: pool, ServerName: rpcHost, MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13}, nil
}

// transport dials addr whatever the URL says, over TLS 1.3 with SNI set.
func transport(addr string, clientTLS *tls.Config, conns int) *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		},
		TLSClientConfig:     clientTLS.Clone(),
		ForceAttemptHTTP2:   false,
		MaxConnsPerHost:     conns,
		MaxIdleConnsPerHost: conns,
		DisableCompression:  true,
	}
}

func newRequest(dialect string) *http.Request {
	sb := sendBodies[dialect]
	req, _ := http.NewRequest(http.MethodPost, "https://"+rpcHost+mockvendor.DefaultRPCPath, strings.NewReader(sb.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", sb.version)
	return req
}

// once sends one request and returns the answer's headers and body.
func once(addr string, clientTLS *tls.Config, dialect string) (http.Header, []byte, error) {
	tr := transport(addr, clientTLS, 1)
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(newRequest(dialect))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("COMPLETED")) && !bytes.Contains(b, []byte(`"completed"`)) {
		return nil, nil, fmt.Errorf("answer %d: %s", resp.StatusCode, b)
	}
	if resp.TLS == nil || resp.TLS.Version != tls.VersionTLS13 {
		return nil, nil, errors.New("not TLS 1.3")
	}
	return resp.Header, b, nil
}

// bareServer answers every request with fixed bytes.
type bareServer struct {
	srv  *http.Server
	addr string
}

func (b *bareServer) Close() { _ = b.srv.Close() }

func startBare(cert tls.Certificate, hdr http.Header, body []byte) (*bareServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ct, ver := hdr.Get("Content-Type"), hdr.Get("A2A-Version")
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			h := w.Header()
			h.Set("Content-Type", ct)
			if ver != "" {
				h.Set("A2A-Version", ver)
			}
			_, _ = w.Write(body)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	tcfg := &tls.Config{
		NextProtos:   []string{"http/1.1"},
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{cert},
	}
	go func() { _ = srv.Serve(tls.NewListener(ln, tcfg)) }()
	return &bareServer{srv: srv, addr: ln.Addr().String()}, nil
}

// measureStartup times NewFleet(DefaultConfig()) to the first answered
// request (a fresh TLS connection to rpc.agent-d.example), n times, and
// returns the median in milliseconds.
func measureStartup(n int) (float64, error) {
	var ms []float64
	for i := 0; i < n; i++ {
		t0 := time.Now()
		f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
		if err != nil {
			return 0, err
		}
		clientTLS := &tls.Config{RootCAs: f.CA().Pool(), ServerName: rpcHost, MinVersion: tls.VersionTLS13}
		_, _, err = once(f.Resolve()[rpcHost+":443"], clientTLS, "10")
		el := time.Since(t0)
		f.Close()
		if err != nil {
			return 0, err
		}
		ms = append(ms, float64(el.Microseconds())/1000)
	}
	return median(ms), nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func pct(v []time.Duration, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	i := int(p * float64(len(v)-1))
	return float64(v[i].Microseconds()) / 1000
}
