package main

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The proxy lane: what `a2a-conform proxy` adds to a request on its way to
// a real agent, against what net/http/httputil.ReverseProxy adds, in the
// same run. Three targets answer the same 1.0 SendMessage: the agent
// itself ("agent": a minimal JSON-RPC agent on TLS that serves a card and
// answers every call with one completed task), a bare reverse proxy in
// front of it ("revproxy": httputil.ReverseProxy on TLS, forwarding over
// TLS), and a fleet vendor standing in front of it ("proxy": an upstream
// vendor with no fault). Every server runs in this process, so a target's
// server CPU includes the agent's: what a proxy adds is its CPU less the
// agent's.

const proxyDialect = "proxy"

// proxyTargets starts the agent, the reverse proxy and the fleet proxy
// and hands keep their targets (all speaking dialect 10); the returned
// func stops them.
func proxyTargets(ca *mockvendor.CA, cert tls.Certificate, body []byte, clientTLS *tls.Config, keep func(*target)) (func(), error) {
	agentCert, err := ca.Issue(rpcHost, "127.0.0.1") // the proxies reach it by address
	if err != nil {
		return nil, err
	}
	agent, err := startAgent(agentCert, body)
	if err != nil {
		return nil, err
	}
	rp, err := startReverseProxy(cert, agent.addr, clientTLS)
	if err != nil {
		agent.Close()
		return nil, err
	}
	caFile, err := os.CreateTemp("", "fleetbench-agent-ca-*.pem")
	if err != nil {
		return nil, err
	}
	_, _ = caFile.Write(ca.CertPEM())
	caFile.Close()
	f, err := mockvendor.NewFleet(mockvendor.Config{CA: ca, Vendors: []mockvendor.VendorConfig{{
		ID: "p", Organization: "Proxied",
		Hosts:    []mockvendor.HostConfig{{Name: rpcHost, Card: true, RPCPath: mockvendor.DefaultRPCPath}},
		Upstream: &mockvendor.UpstreamConfig{URL: "https://" + agent.addr, CAFile: caFile.Name()},
	}}})
	if err != nil {
		return nil, err
	}
	stop := func() { f.Close(); rp.Close(); agent.Close(); os.Remove(caFile.Name()) }
	for name, addr := range map[string]string{"agent": agent.addr, "revproxy": rp.addr, "proxy": f.Resolve()[rpcHost+":443"]} {
		if _, b, err := once(addr, clientTLS, "10"); err != nil {
			stop()
			return nil, fmt.Errorf("proxy lane, %s: %v %s", name, err, b)
		}
	}
	for _, t := range []*target{
		{name: "agent", dialect: proxyDialect, addr: agent.addr},
		{name: "revproxy", dialect: proxyDialect, addr: rp.addr},
		{name: "proxy", dialect: proxyDialect, addr: f.Resolve()[rpcHost+":443"]},
	} {
		keep(t)
	}
	return stop, nil
}

// startAgent is the minimal agent: its card (JSON-RPC at its own address)
// and the fixed answer to every call.
func startAgent(cert tls.Certificate, body []byte) (*bareServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	card := []byte(`{"name":"bench agent","version":"1","supportedInterfaces":[{"url":"https://` + addr + mockvendor.DefaultRPCPath + `","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"skills":[{"id":"invoice-reconciliation","name":"x"}]}`)
	mux := http.NewServeMux()
	mux.HandleFunc(mockvendor.CardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(card)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("A2A-Version", "1.0")
		_, _ = w.Write(body)
	})
	return serveTLS(ln, cert, mux), nil
}

// startReverseProxy is httputil.ReverseProxy on TLS in front of the agent
// at agentAddr, reached over TLS as a fleet vendor reaches its agent.
func startReverseProxy(cert tls.Certificate, agentAddr string, clientTLS *tls.Config) (*bareServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	target, _ := url.Parse("https://" + agentAddr)
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: clientTLS.RootCAs}, MaxIdleConnsPerHost: 64, ForceAttemptHTTP2: true}
	return serveTLS(ln, cert, rp), nil
}

// serveTLS serves h on ln over TLS (HTTP/1.1) with cert.
func serveTLS(ln net.Listener, cert tls.Certificate, h http.Handler) *bareServer {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	tcfg := &tls.Config{NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	go func() { _ = srv.Serve(tls.NewListener(ln, tcfg)) }()
	return &bareServer{srv: srv, addr: ln.Addr().String()}
}

// reportProxy prints the proxy lane's figures: each target's, then what
// each proxy adds to a request over the agent alone (latency at the
// median and the 99th percentile, server CPU), and the ratio of the
// fleet's addition to the reverse proxy's.
func reportProxy(byName map[string]*target) {
	ag, rp, px := byName[proxyDialect+"_agent"], byName[proxyDialect+"_revproxy"], byName[proxyDialect+"_proxy"]
	for _, t := range []*target{ag, rp, px} {
		if t == nil {
			return
		}
		p := "proxy_lane_" + t.name
		fmt.Printf("%s_rps=%.0f\n%s_p50_ms=%.3f\n%s_p99_ms=%.3f\n%s_server_cpu_us=%.1f\n", p, median(t.rps), p, median(t.p50), p, median(t.p99), p, median(t.srvCPU))
	}
	for _, t := range []*target{rp, px} {
		p := "proxy_lane_" + t.name
		fmt.Printf("%s_added_p50_ms=%.3f\n%s_added_p99_ms=%.3f\n%s_added_cpu_us=%.1f\n", p, median(t.p50)-median(ag.p50), p, median(t.p99)-median(ag.p99), p, median(t.srvCPU)-median(ag.srvCPU))
	}
	if d := median(rp.srvCPU) - median(ag.srvCPU); d > 0 {
		fmt.Printf("proxy_lane_added_cpu_ratio=%.2f\n", (median(px.srvCPU)-median(ag.srvCPU))/d)
	}
	fmt.Printf("proxy_lane_throughput_ratio=%.3f\n", median(px.rps)/median(rp.rps))
}
