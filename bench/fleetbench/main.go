// Command fleetbench measures the mock vendor fleet against a bare net/http
// TLS server side by side, in one process, with interleaved rounds, and
// prints name=value lines:
//
//	fleet_rps, bare_rps, throughput_ratio (median fleet / median bare),
//	fleet_p50_ms, fleet_p99_ms, bare_p50_ms, bare_p99_ms, fleet_startup_ms.
//
// The fleet is the default fleet with a cheap fault armed on vendor D
// (version-header-lie answering "1.0", the version it would answer anyway)
// and its trace recording; the request is a 1.0 SendMessage to
// rpc.agent-d.example, answered with a completed task. The load client
// dials the host's listener directly (Fleet.Resolve) with SNI set, so the
// proxy is not measured. The bare server answers the same bytes the fleet
// answered, with the same certificate chain and TLS settings.
//
// Load generator and servers share the machine's cores: read the ratio, not
// the absolute figures (see docs in /bench/run.sh).
package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

const sendBody = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	dur := flag.Duration("duration", 3*time.Second, "length of one measurement")
	conns := flag.Int("conns", 16, "keep-alive connections")
	startups := flag.Int("startups", 20, "fleet start-ups measured")
	only := flag.String("only", "", "measure only \"fleet\" or \"bare\" (for profiling)")
	traceCap := flag.Int("tracecap", 0, "the fleet's MaxTraceEvents (0: the default), for diagnosis")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fleetbench:", err)
			os.Exit(2)
		}
		_ = pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	if err := run(*rounds, *dur, *conns, *startups, *only, *traceCap); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "fleetbench:", err)
		os.Exit(2)
	}
}

type target struct {
	name string
	addr string
	rps  []float64
	cpu  []float64 // process CPU (client and server) per request, us
	lat  []time.Duration
	errs int64
}

const rpcHost = mockvendor.HostRPCD

func run(rounds int, dur time.Duration, conns, startups int, only string, traceCap int) error {
	startup, err := measureStartup(startups)
	if err != nil {
		return err
	}

	cfg := mockvendor.DefaultConfig()
	cfg.Limits.MaxTraceEvents = traceCap
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.AddFault("d", mockvendor.Spec("version-header-lie", mockvendor.VersionHeaderLie{Version: "1.0"})); err != nil {
		return err
	}
	fleetAddr := f.Resolve()[rpcHost+":443"]
	clientTLS := &tls.Config{RootCAs: f.CA().Pool(), ServerName: rpcHost, MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13}

	// One request to the fleet gives the bytes the bare server answers.
	hdr, body, err := once(fleetAddr, clientTLS)
	if err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	cert, err := f.CA().Issue(rpcHost)
	if err != nil {
		return err
	}
	bare, err := startBare(cert, hdr, body)
	if err != nil {
		return err
	}
	defer bare.Close()
	if _, b2, err := once(bare.addr, clientTLS); err != nil || !bytes.Equal(b2, body) {
		return fmt.Errorf("bare server: %v", err)
	}

	fl := &target{name: "fleet", addr: fleetAddr}
	bt := &target{name: "bare", addr: bare.addr}
	seq0 := f.Trace().Seq()
	for r := 0; r < rounds; r++ {
		order := []*target{fl, bt}
		if r%2 == 1 {
			order = []*target{bt, fl}
		}
		for _, t := range order {
			if only != "" && t.name != only {
				continue
			}
			if err := load(t, clientTLS, conns, dur); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "round %d %s: %.0f req/s, %.1f us CPU/req\n", r+1, t.name, t.rps[len(t.rps)-1], t.cpu[len(t.cpu)-1])
		}
	}
	fmt.Printf("fleet_startup_ms=%.1f\n", startup)
	if only != "bare" {
		fmt.Printf("fleet_rps=%.0f\n", median(fl.rps))
		fmt.Printf("fleet_p50_ms=%.3f\n", pct(fl.lat, 0.50))
		fmt.Printf("fleet_p99_ms=%.3f\n", pct(fl.lat, 0.99))
		fmt.Printf("fleet_cpu_us_per_req=%.1f\n", median(fl.cpu))
		fmt.Printf("fleet_errors=%d\n", fl.errs)
		fmt.Printf("fleet_trace_events=%d\n", f.Trace().Seq()-seq0)
	}
	if only != "fleet" {
		fmt.Printf("bare_rps=%.0f\n", median(bt.rps))
		fmt.Printf("bare_p50_ms=%.3f\n", pct(bt.lat, 0.50))
		fmt.Printf("bare_p99_ms=%.3f\n", pct(bt.lat, 0.99))
		fmt.Printf("bare_cpu_us_per_req=%.1f\n", median(bt.cpu))
		fmt.Printf("bare_errors=%d\n", bt.errs)
	}
	if only == "" {
		fmt.Printf("throughput_ratio=%.3f\n", median(fl.rps)/median(bt.rps))
		// CPU per request (load client included) is steadier than
		// throughput on a shared machine: bare/fleet estimates the ratio an
		// otherwise idle machine would show.
		fmt.Printf("cpu_ratio=%.3f\n", median(bt.cpu)/median(fl.cpu))
	}
	if fl.errs+bt.errs > 0 {
		return errors.New("some requests failed")
	}
	return nil
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

func newRequest() *http.Request {
	req, _ := http.NewRequest(http.MethodPost, "https://"+rpcHost+mockvendor.DefaultRPCPath, bytes.NewReader([]byte(sendBody)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	return req
}

// once sends one request and returns the answer's headers and body.
func once(addr string, clientTLS *tls.Config) (http.Header, []byte, error) {
	tr := transport(addr, clientTLS, 1)
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(newRequest())
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("TASK_STATE_COMPLETED")) {
		return nil, nil, fmt.Errorf("answer %d: %s", resp.StatusCode, b)
	}
	if resp.TLS == nil || resp.TLS.Version != tls.VersionTLS13 {
		return nil, nil, errors.New("not TLS 1.3")
	}
	return resp.Header, b, nil
}

// load runs conns workers over one transport for dur and records the
// throughput and every latency.
func load(t *target, clientTLS *tls.Config, conns int, dur time.Duration) error {
	tr := transport(t.addr, clientTLS, conns)
	defer tr.CloseIdleConnections()
	// Warm the connections up outside the measurement.
	var wg sync.WaitGroup
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := tr.RoundTrip(newRequest()); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	var (
		stop  atomic.Bool
		count atomic.Int64
		errs  atomic.Int64
		mu    sync.Mutex
	)
	lats := make([][]time.Duration, conns)
	cpu0 := cpuTime()
	start := time.Now()
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 1<<16)
			body := []byte(sendBody)
			for !stop.Load() {
				req, _ := http.NewRequest(http.MethodPost, "https://"+rpcHost+mockvendor.DefaultRPCPath, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("A2A-Version", "1.0")
				t0 := time.Now()
				resp, err := tr.RoundTrip(req)
				if err != nil {
					errs.Add(1)
					continue
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					errs.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
				count.Add(1)
			}
			mu.Lock()
			lats[i] = mine
			mu.Unlock()
		}()
	}
	time.Sleep(dur)
	stop.Store(true)
	wg.Wait()
	el := time.Since(start)
	t.rps = append(t.rps, float64(count.Load())/el.Seconds())
	t.cpu = append(t.cpu, float64((cpuTime()-cpu0).Microseconds())/float64(max(count.Load(), 1)))
	for _, l := range lats {
		t.lat = append(t.lat, l...)
	}
	t.errs += errs.Load()
	return nil
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
		_, _, err = once(f.Resolve()[rpcHost+":443"], clientTLS)
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
