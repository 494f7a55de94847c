package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// The reference is judged by the real catalog (suite/variants_test.go:
// every break fails the checks its tag names, every alternative passes,
// and suite_test.go: the reference itself passes). These tests cover the
// package's own surface: flags, the in-process driver, its client and its
// caches.

var _ driver.GoOrchestrator = (*reference.Orchestrator)(nil)
var _ driver.GoOrchestrator = (*naive.Orchestrator)(nil)

const message = `{"role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile INV-1042"}]}`

func cardURL(host string) string { return "https://" + host + mockvendor.CardPath }

// delegation is one request to make: the skill and the card hosts.
type delegation struct {
	skill string
	cards []string
}

func request(id string, d delegation) contract.DelegationRequest {
	var cands []string
	for _, h := range d.cards {
		cands = append(cands, cardURL(h))
	}
	return contract.DelegationRequest{
		Contract: contract.Version, Type: contract.TypeDelegate, ID: id, Scenario: "test",
		Task:       contract.Task{Skill: d.skill, Message: json.RawMessage(message)},
		Candidates: cands,
		Trust: contract.Trust{Issuers: map[string]contract.Issuer{
			"https://" + mockvendor.HostVendorA: {Operators: []string{mockvendor.HostVendorA}},
		}},
		DeadlineMs: 10000,
	}
}

// runScenario resets the fleet, runs the delegations with o and returns
// what happened.
func TestParseBreaks(t *testing.T) {
	b, err := reference.ParseBreaks("no-probe,extra-calls", "SkipTLSVerify")
	if err != nil {
		t.Fatal(err)
	}
	if !b.NoProbe || !b.ExtraCalls || !b.SkipTLSVerify || b.NoRefetch {
		t.Errorf("ParseBreaks: %+v", b)
	}
	if got := strings.Join(b.Names(), ","); got != "no-probe,extra-calls,skip-tls-verify" {
		t.Errorf("Names: %s", got)
	}
	if _, err := reference.ParseBreaks("no-such-thing"); err == nil {
		t.Error("unknown break accepted")
	}
	seen := map[string]bool{}
	for _, bi := range reference.BreakList() {
		if bi.Name == "" || len(bi.Checks) == 0 || bi.Checks[0] == "" || seen[bi.Name] {
			t.Errorf("break %s: name %q checks %q (duplicate %v)", bi.Field, bi.Name, bi.Checks, seen[bi.Name])
		}
		seen[bi.Name] = true
	}
}

func TestParseAlternatives(t *testing.T) {
	a, err := reference.ParseAlternatives("lifecycle-probe,version-query")
	if err != nil {
		t.Fatal(err)
	}
	if !a.LifecycleProbe || !a.VersionQuery || a.RefuseUnbound {
		t.Errorf("ParseAlternatives: %+v", a)
	}
	if _, err := reference.ParseAlternatives("no-such-thing"); err == nil {
		t.Error("unknown alternative accepted")
	}
	for _, ai := range reference.AltList() {
		if ai.Name == "" || len(ai.Keeps) == 0 || ai.Keeps[0] == "" {
			t.Errorf("alternative %s: name %q keeps %q", ai.Field, ai.Name, ai.Keeps)
		}
	}
}

// TestGoDriver runs the reference through the suite's in-process driver,
// Reset included.
func TestGoDriver(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := reference.New(reference.Options{})
	d := driver.NewGo("reference", func() driver.GoOrchestrator { return o })
	s, err := d.Open(context.Background(), driver.Env{Client: f.Client()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := s.Delegate(context.Background(), request("g-1", delegation{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardB}}))
	if res.Outcome == nil || res.Outcome.Outcome != contract.OutcomeCompleted || res.Outcome.Skill != mockvendor.SkillInvoiceV2 {
		t.Fatalf("result %+v %+v", res, res.Outcome)
	}
}

// TestNoClientBuildsItsOwn checks the nil-client path: the reference builds
// its client from trust.caFile and network.proxy, or network.resolve.
func TestNoClientBuildsItsOwn(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ca, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	for _, viaProxy := range []bool{true, false} {
		t.Run(fmt.Sprintf("proxy=%v", viaProxy), func(t *testing.T) {
			req := request("n-1", delegation{skill: mockvendor.SkillSummarize, cards: []string{mockvendor.HostVendorA}})
			req.Trust.CAFile = ca
			if viaProxy {
				req.Network.Proxy = f.ProxyURL()
			} else {
				req.Network.Resolve = f.Resolve()
			}
			o := reference.New(reference.Options{})
			defer o.Reset()
			out := o.Delegate(context.Background(), req, nil)
			if out.Outcome != contract.OutcomeCompleted || out.TrustMode != contract.TrustModeFull || out.CardTrust != contract.CardTrustAuthoritative {
				t.Fatalf("outcome %+v", out)
			}
		})
	}
}

// TestResetDropsCaches: after Reset the card is fetched again.
func TestResetDropsCaches(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{mockvendor.VendorD()}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := reference.New(reference.Options{})
	count := func() int {
		n := 0
		for _, e := range f.Trace().Events() {
			if e.Op == mockvendor.OpCardFetch {
				n++
			}
		}
		return n
	}
	req := request("r", delegation{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}})
	var client *http.Client = f.Client()
	o.Delegate(context.Background(), req, client)
	o.Delegate(context.Background(), req, client)
	if n := count(); n != 1 {
		t.Fatalf("%d card fetches before Reset, want 1 (cached)", n)
	}
	o.Reset()
	o.Delegate(context.Background(), req, client)
	if n := count(); n != 2 {
		t.Fatalf("%d card fetches after Reset, want 2", n)
	}
}

// TestGRPCDelegation runs delegations against the fleet's gRPC binding
// (vendor D's rpc.agent-d.example serves it): with D's card listing gRPC
// first the reference completes the task over gRPC, through the in-process
// driver's client and through a client it builds (proxy, resolve map);
// streamed; with an API key in the metadata the card's scheme names; after
// a lost answer (the call's HTTP/2 stream reset: the same send again) and a
// stream cut short (SubscribeToTask over gRPC); and when the gRPC host
// serves nothing (no h2), it moves to the card's next interface. The breaks
// show the opposite: grpc-skip takes JSON-RPC, grpc-no-version is refused
// as a 0.3 call.
func TestGRPCDelegation(t *testing.T) {
	const grpcHost = "grpc.agent-d.example"
	rpcURL := "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath
	grpcFirst := func(url string) func(*mockvendor.VendorConfig) {
		return func(d *mockvendor.VendorConfig) {
			d.Card.Interfaces = []mockvendor.CardInterface{{URL: url, Binding: mockvendor.BindingGRPC}, {URL: rpcURL}}
		}
	}
	cases := []struct {
		name    string
		vendor  func(*mockvendor.VendorConfig)
		br      reference.Breaks
		client  string // "driver" (the fleet's client), "proxy" or "resolve" (built by the reference)
		stream  bool
		outcome string
		agent   string // the outcome's agent
		binding string // the binding of every call at D ("" for JSON-RPC)
		failed  string // a host whose TLS handshake the client broke off
		faults  []mockvendor.FaultSpec
		ops     []mockvendor.Op // operations that must reach D
		sends   int             // real sends at D, all with one messageId (0: not counted)
	}{
		{"gRPC first, host:port", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "driver", false,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, https URL", grpcFirst("https://" + mockvendor.HostRPCD), reference.Breaks{}, "driver", false,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, own client through the proxy", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "proxy", false,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, own client through the resolve map", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "resolve", false,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, streamed", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "driver", true,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, an API key", func(d *mockvendor.VendorConfig) {
			grpcFirst(mockvendor.HostRPCD + ":443")(d)
			d.Auth = &mockvendor.AuthConfig{Scheme: mockvendor.AuthAPIKey, Header: "X-Vendor-Key"}
		}, reference.Breaks{}, "driver", false, contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "", nil, nil, 0},
		{"gRPC first, the send's answer lost", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "driver", false,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "",
			[]mockvendor.FaultSpec{mockvendor.Spec("lost-answer", nil)}, nil, 2},
		{"gRPC first, the stream cut short", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{}, "driver", true,
			contract.OutcomeCompleted, "https://" + mockvendor.HostRPCD, mockvendor.BindingGRPC, "",
			[]mockvendor.FaultSpec{mockvendor.Spec("stream-cut", nil)}, []mockvendor.Op{mockvendor.OpStream, mockvendor.OpSubscribe}, 1},
		{"D's default card: gRPC last, JSON-RPC first", nil, reference.Breaks{}, "driver", false,
			contract.OutcomeCompleted, rpcURL, "", "", nil, nil, 0},
		{"the gRPC host serves nothing: the next interface", func(d *mockvendor.VendorConfig) {
			grpcFirst(grpcHost + ":443")(d)
			d.Hosts = append(d.Hosts, mockvendor.HostConfig{Name: grpcHost})
		}, reference.Breaks{}, "driver", false, contract.OutcomeCompleted, rpcURL, "", grpcHost, nil, nil, 0},
		{"grpc-skip (break)", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{GRPCSkip: true}, "driver", false,
			contract.OutcomeCompleted, rpcURL, "", "", nil, nil, 0},
		{"grpc-no-version (break)", grpcFirst(mockvendor.HostRPCD + ":443"), reference.Breaks{GRPCNoVersion: true}, "driver", false,
			contract.OutcomeRejected, "", mockvendor.BindingGRPC, "", nil, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mockvendor.VendorD()
			if c.vendor != nil {
				c.vendor(&d)
			}
			d.Faults = c.faults
			f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{d}})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			req := request("grpc-1", delegation{skill: mockvendor.SkillInvoice, cards: []string{mockvendor.HostCardD}})
			req.Task.PreferStreaming = c.stream
			if cred, ok := f.Credential("d"); ok {
				req.Trust.Credentials = map[string]contract.Credential{}
				for _, o := range cred.Origins {
					req.Trust.Credentials[o] = contract.Credential{Scheme: cred.Scheme, Value: cred.Value}
				}
			}
			client := f.Client()
			if c.client != "driver" {
				client = nil
				if req.Trust.CAFile, err = f.WriteCAFile(); err != nil {
					t.Fatal(err)
				}
				if c.client == "proxy" {
					req.Network.Proxy = f.ProxyURL()
				} else {
					req.Network.Resolve = f.Resolve()
				}
			}
			o := reference.New(reference.Options{Break: c.br})
			defer o.Reset()
			out := o.Delegate(context.Background(), req, client)
			if out.Outcome != c.outcome || out.Agent != c.agent {
				t.Fatalf("outcome %s at %q (%s: %s), want %s at %q", out.Outcome, out.Agent, out.Reason, out.Detail, c.outcome, c.agent)
			}
			t.Logf("%s: %s", out.Outcome, out.Detail)
			if c.outcome == contract.OutcomeRejected && out.Reason != contract.ReasonVersionMismatch {
				t.Errorf("reason %s, want %s (%s)", out.Reason, contract.ReasonVersionMismatch, out.Detail)
			}
			// A broken-off handshake is traced when the fleet closes the
			// connection, which can come after the client has moved on.
			f.Settle(2 * time.Second)
			calls, streamed, failed := 0, false, false
			seen := map[mockvendor.Op]bool{}
			var sends []string // the real sends' messageIds
			for _, e := range f.Trace().Events() {
				if e.Op == mockvendor.OpTLSFailed && e.Host == c.failed {
					failed = true
				}
				if e.Host != mockvendor.HostRPCD || e.Method == "" {
					continue
				}
				calls++
				if e.Binding != c.binding {
					t.Errorf("#%d %s %s: binding %q, want %q", e.Seq, e.Op, e.Method, e.Binding, c.binding)
				}
				if e.Binding == mockvendor.BindingGRPC {
					if want := !c.br.GRPCNoVersion; e.HasA2AVersion != want || want && e.A2AVersion != "1.0" {
						t.Errorf("#%d %s: a2a-version %q (sent %v)", e.Seq, e.Method, e.A2AVersion, e.HasA2AVersion)
					}
					if d.Auth != nil && len(e.Credentials) != 1 {
						t.Errorf("#%d %s: credentials %+v, want D's API key", e.Seq, e.Method, e.Credentials)
					}
				}
				streamed = streamed || e.Op == mockvendor.OpStream
				seen[e.Op] = true
				if (e.Op == mockvendor.OpSend || e.Op == mockvendor.OpStream) && !e.Probe {
					var body struct {
						Message struct {
							MessageID string `json:"messageId"`
						} `json:"message"`
						Params struct {
							Message struct {
								MessageID string `json:"messageId"`
							} `json:"message"`
						} `json:"params"`
					}
					_ = json.Unmarshal(e.Body(), &body)
					sends = append(sends, body.Message.MessageID+body.Params.Message.MessageID)
				}
			}
			for _, op := range c.ops {
				if !seen[op] {
					t.Errorf("no %s reached D", op)
				}
			}
			if c.sends > 0 && (len(sends) != c.sends || sends[0] == "" || slices.ContainsFunc(sends, func(id string) bool { return id != sends[0] })) {
				t.Errorf("real sends (their messageIds) %q, want %d with one messageId", sends, c.sends)
			}
			if calls == 0 {
				t.Fatalf("no call reached %s", mockvendor.HostRPCD)
			}
			if streamed != c.stream {
				t.Errorf("streamed %v, want %v", streamed, c.stream)
			}
			if failed != (c.failed != "") {
				t.Errorf("TLS handshake broken off at %q: %v", c.failed, failed)
			}
		})
	}
}

// TestGRPCTrust: vendor A's signed card listing gRPC first; the signer is
// bound to the gRPC endpoint by the certificate the gRPC handshake saw,
// and the endpoint's a2a-version answer agrees with the card: full trust,
// an authoritative card, as over JSON-RPC.
func TestGRPCTrust(t *testing.T) {
	a := mockvendor.VendorA()
	a.Hosts[0].GRPC = true
	a.Card.Interfaces = []mockvendor.CardInterface{
		{URL: mockvendor.HostVendorA + ":443", Binding: mockvendor.BindingGRPC},
		{URL: "https://" + mockvendor.HostVendorA + mockvendor.VendorARPCPath},
	}
	f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{a}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := reference.New(reference.Options{})
	out := o.Delegate(context.Background(), request("grpc-a", delegation{skill: mockvendor.SkillSummarize, cards: []string{mockvendor.HostVendorA}}), f.Client())
	if out.Outcome != contract.OutcomeCompleted || out.Agent != "https://"+mockvendor.HostVendorA ||
		out.TrustMode != contract.TrustModeFull || out.CardTrust != contract.CardTrustAuthoritative {
		t.Fatalf("outcome %+v", out)
	}
	grpcCalls := 0
	for _, e := range f.Trace().Events() {
		if e.Binding == mockvendor.BindingGRPC {
			grpcCalls++
		}
	}
	if grpcCalls == 0 {
		t.Fatal("no gRPC call in the trace")
	}
}
