package mockvendor

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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// tSANConfig is a fleet with a plain host, a host with extra SANs and a
// bare-IP host.
func tSANConfig() Config {
	return Config{Vendors: []VendorConfig{{
		ID:           "s",
		Organization: "SAN vendor",
		Hosts: []HostConfig{
			{Name: "one.example", Card: true},
			{Name: "two.example", RPCPath: DefaultRPCPath, SANs: []string{"two.example", "alt-two.example"}},
		},
		Skills: []SkillConfig{{ID: "alpha"}},
	}, {
		ID:     "ip",
		Hosts:  []HostConfig{{Name: "", Card: true, RPCPath: DefaultRPCPath}},
		Skills: []SkillConfig{{ID: "alpha"}},
	}}}
}

func tBareIPHost(t testing.TB, f *Fleet) string {
	t.Helper()
	for _, h := range f.Hosts() {
		if strings.HasPrefix(h, "127.0.0.1:") {
			return h
		}
	}
	t.Fatalf("no bare-IP host in %v", f.Hosts())
	return ""
}

func TestFleetLifecycle(t *testing.T) {
	f, err := NewUnstartedFleet(tSANConfig())
	if err != nil {
		t.Fatal(err)
	}
	if f.ProxyURL() != "" {
		t.Errorf("unstarted fleet has proxy URL %q", f.ProxyURL())
	}
	if got := f.Hosts(); len(got) != 3 || got[0] != "one.example" || got[1] != "two.example" {
		t.Errorf("Hosts before start = %v", got)
	}
	if err := f.Start(); err != nil {
		t.Fatal(err)
	}
	if err := f.Start(); err == nil {
		t.Error("second Start succeeded")
	}
	if !strings.HasPrefix(f.ProxyURL(), "http://127.0.0.1:") {
		t.Errorf("ProxyURL = %q", f.ProxyURL())
	}
	ip := tBareIPHost(t, f)
	if u, ok := f.HostURL("vendor:ip"); !ok || u != "https://"+ip {
		t.Errorf("HostURL(vendor:ip) = %q, %v; want https://%s", u, ok, ip)
	}
	if u, ok := f.HostURL("two.example"); !ok || u != "https://two.example" {
		t.Errorf("HostURL(two.example) = %q, %v", u, ok)
	}
	if _, ok := f.HostURL("nope.example"); ok {
		t.Error("HostURL of an unknown host succeeded")
	}
	res := f.Resolve()
	if len(res) != 3 || res["one.example:443"] == "" || res["two.example:443"] == "" || res[ip] != ip {
		t.Errorf("Resolve = %v", res)
	}
	c := f.Client()
	if r := tGet(t, c, tURL(t, f, "one.example", CardPath), nil); r.Status != 200 {
		t.Errorf("card fetch: %d", r.Status)
	}
	c.CloseIdleConnections()
	caFile, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { f.Close(); f.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	if _, err := c.Get(tURL(t, f, "one.example", CardPath)); err == nil {
		t.Error("a request after Close succeeded")
	}
	if _, err := net.DialTimeout("tcp", res["one.example:443"], time.Second); err == nil {
		t.Error("a host listener still accepts after Close")
	}
	if _, err := tStatFile(caFile); err == nil {
		t.Errorf("CA file %s survives Close", caFile)
	}
}

func tStatFile(p string) (int64, error) {
	f, err := http.Dir("/").Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func TestFleetConfigErrors(t *testing.T) {
	cases := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"missing id", Config{Vendors: []VendorConfig{{Hosts: []HostConfig{{Name: "x.example"}}}}}, "vendors[0].id"},
		{"duplicate id", Config{Vendors: []VendorConfig{{ID: "x", Hosts: []HostConfig{{Name: "x.example"}}}, {ID: "x", Hosts: []HostConfig{{Name: "y.example"}}}}}, "vendors[1].id"},
		{"no hosts", Config{Vendors: []VendorConfig{{ID: "x"}}}, "vendors[0].hosts"},
		{"host twice", Config{Vendors: []VendorConfig{{ID: "x", Hosts: []HostConfig{{Name: "x.example"}}}, {ID: "y", Hosts: []HostConfig{{Name: "x.example"}}}}}, "vendors[1].hosts[0].name"},
		{"unknown fault", Config{Vendors: []VendorConfig{{ID: "x", Hosts: []HostConfig{{Name: "x.example"}}, Faults: []FaultSpec{{Type: "nope"}}}}}, "vendors[0].faults[0].type"},
		{"fault field", Config{Vendors: []VendorConfig{{ID: "x", Hosts: []HostConfig{{Name: "x.example"}}, Faults: []FaultSpec{{Type: "server-error", Config: json.RawMessage(`{"code":"x"}`)}}}}}, "vendors[0].faults[0].config"},
		{"fault host", Config{Vendors: []VendorConfig{{ID: "x", Hosts: []HostConfig{{Name: "x.example"}}, Faults: []FaultSpec{{Type: "stub-endpoint", Hosts: []string{"y.example"}}}}}}, "vendors[0].faults[0].hosts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewUnstartedFleet(tc.cfg)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want *ConfigError", err, err)
			}
			if ce.Field != tc.field {
				t.Errorf("Field = %q, want %q (%v)", ce.Field, tc.field, err)
			}
		})
	}
}

// TestFleetCertSANs checks that each host presents a CA-signed leaf for
// exactly its SANs, through the proxy and through the resolve map.
func TestFleetCertSANs(t *testing.T) {
	f := tStart(t, tSANConfig())
	ip := tBareIPHost(t, f)
	cases := []struct {
		name       string
		authority  string
		serverName string
		dns        []string
		ips        []string
	}{
		{"named host", "one.example:443", "one.example", []string{"one.example"}, nil},
		{"configured SANs", "two.example:443", "two.example", []string{"two.example", "alt-two.example"}, nil},
		{"configured SANs, second name", "two.example:443", "alt-two.example", []string{"two.example", "alt-two.example"}, nil},
		{"bare IP", ip, "127.0.0.1", nil, []string{"127.0.0.1"}},
	}
	for _, tc := range cases {
		for _, r := range tRoutes {
			t.Run(tc.name+"/"+string(r), func(t *testing.T) {
				leaf, err := tPresented(t, f, r, tc.authority, tc.serverName)
				if err != nil {
					t.Errorf("verification for %s failed: %v", tc.serverName, err)
				}
				if !slices.Equal(leaf.DNSNames, tc.dns) {
					t.Errorf("DNSNames = %v, want %v", leaf.DNSNames, tc.dns)
				}
				var ips []string
				for _, a := range leaf.IPAddresses {
					ips = append(ips, a.String())
				}
				if !slices.Equal(ips, tc.ips) {
					t.Errorf("IP SANs = %v, want %v", ips, tc.ips)
				}
				if err := leaf.CheckSignatureFrom(f.CA().Cert); err != nil {
					t.Errorf("leaf not signed by the fleet CA: %v", err)
				}
				if leaf.IsCA {
					t.Error("leaf is a CA")
				}
			})
		}
	}
	t.Run("other name fails", func(t *testing.T) {
		for _, r := range tRoutes {
			if _, err := tPresented(t, f, r, "one.example:443", "two.example"); err == nil {
				t.Errorf("%s: one.example's certificate verified for two.example", r)
			}
		}
	})
}

// TestFleetBareIPHost reaches a bare-IP host at https://127.0.0.1:PORT
// directly and through the proxy.
func TestFleetBareIPHost(t *testing.T) {
	f := tStart(t, tSANConfig())
	base, ok := f.HostURL("vendor:ip")
	if !ok {
		t.Fatal("no bare-IP host URL")
	}
	direct := &http.Transport{TLSClientConfig: f.TLSConfig()}
	t.Cleanup(direct.CloseIdleConnections)
	clients := map[string]*http.Client{
		"direct": {Transport: direct, Timeout: 5 * time.Second},
		"proxy":  tClient(t, f, tViaProxy),
	}
	for name, c := range clients {
		t.Run(name, func(t *testing.T) {
			r := tGet(t, c, base+CardPath, nil)
			if r.Status != 200 {
				t.Fatalf("card: %d %s", r.Status, r.Body)
			}
			if got := r.JSON["url"]; got != base+DefaultRPCPath {
				t.Errorf("card url = %v, want %s", got, base+DefaultRPCPath)
			}
			s := tSend(t, c, base+DefaultRPCPath, Dialect03, "hi", "")
			if tState(s) != "completed" {
				t.Errorf("send: %s", s.Body)
			}
			ev := tLastEvent(t, f, strings.TrimPrefix(base, "https://"))
			if ev.Op != OpSend || ev.ServerName != "" {
				t.Errorf("trace event %+v", ev)
			}
		})
	}
}

// TestFleetClient checks that Client trusts the CA and goes through the
// proxy (the .example names resolve nowhere else), and that a client
// without the CA is refused.
func TestFleetClient(t *testing.T) {
	f := tDefault(t)
	c := f.Client()
	t.Cleanup(c.CloseIdleConnections)
	r := tGet(t, c, "https://"+HostCardD+CardPath, nil)
	if r.Status != 200 || r.JSON["name"] == nil {
		t.Fatalf("card through Client: %d %s", r.Status, r.Body)
	}
	ev := tLastEvent(t, f, HostCardD)
	if ev.ServerName != HostCardD || ev.Op != OpCardFetch || ev.Vendor != "d" {
		t.Errorf("trace event %+v", ev)
	}
	pu, _ := url.Parse(f.ProxyURL())
	untrusted := &http.Transport{Proxy: http.ProxyURL(pu)}
	t.Cleanup(untrusted.CloseIdleConnections)
	if _, err := (&http.Client{Transport: untrusted, Timeout: 5 * time.Second}).Get("https://" + HostCardD + CardPath); err == nil {
		t.Error("a client without the fleet CA was not refused")
	}
}

// TestProxyRefusals: CONNECT and plain HTTP to hosts outside the fleet are
// refused with 403 and traced as proxy-refused; fleet hosts work.
func TestProxyRefusals(t *testing.T) {
	f := tDefault(t)
	_, ln := tListenerOutside(t)
	cases := []struct {
		target string
		ok     bool
	}{
		{"evil.example:443", false},
		{"agent-b.example:8443", false},
		{ln, false},
		{"agent-b.example:443", true},
		{"rpc.agent-d.example:443", true},
		{f.Resolve()[HostC+":443"], true},
	}
	for _, tc := range cases {
		t.Run("CONNECT "+tc.target, func(t *testing.T) {
			seq := f.Trace().Seq()
			conn, code := tConnect(t, f, tc.target)
			if conn != nil {
				conn.Close()
			}
			if tc.ok != (code == 200) {
				t.Fatalf("status %d, want ok=%v", code, tc.ok)
			}
			if tc.ok {
				return
			}
			if code != http.StatusForbidden {
				t.Errorf("status %d, want 403", code)
			}
			evs := tEvents(f, seq)
			if len(evs) != 1 || evs[0].Op != OpRefused || evs[0].Host != tc.target || evs[0].Status != 403 || evs[0].HTTPMethod != http.MethodConnect {
				t.Errorf("trace %+v, want one proxy-refused event for %s", evs, tc.target)
			}
		})
	}
	c := tClient(t, f, tViaProxy)
	t.Run("client to outside host", func(t *testing.T) {
		seq := f.Trace().Seq()
		if _, err := c.Get("https://evil.example/"); err == nil {
			t.Fatal("request outside the fleet succeeded")
		}
		if evs := tEvents(f, seq); len(evs) != 1 || evs[0].Op != OpRefused {
			t.Errorf("trace %+v", evs)
		}
	})
	t.Run("plain HTTP absolute-form", func(t *testing.T) {
		seq := f.Trace().Seq()
		r := tGet(t, c, "http://"+HostCardD+CardPath, nil)
		if r.Status != 200 || r.JSON["name"] == nil {
			t.Fatalf("plain HTTP card: %d %s", r.Status, r.Body)
		}
		s := tSend(t, c, "http://"+HostRPCD+DefaultRPCPath, Dialect03, "plain", "")
		if tState(s) != "completed" {
			t.Errorf("plain HTTP send: %s", s.Body)
		}
		evs := tEvents(f, seq)
		if len(evs) != 2 || evs[0].Host != HostCardD || evs[0].Op != OpCardFetch || evs[0].ServerName != "" || evs[1].Op != OpSend {
			t.Errorf("trace %+v", evs)
		}
	})
	t.Run("plain HTTP outside", func(t *testing.T) {
		seq := f.Trace().Seq()
		r := tGet(t, c, "http://evil.example/x", nil)
		if r.Status != 403 {
			t.Errorf("status %d, want 403", r.Status)
		}
		if evs := tEvents(f, seq); len(evs) != 1 || evs[0].Op != OpRefused || evs[0].Host != "evil.example" {
			t.Errorf("trace %+v", evs)
		}
	})
}

// tListenerOutside returns a loopback listener that is not part of the fleet.
func tListenerOutside(t testing.TB) (net.Listener, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, ln.Addr().String()
}

func TestFleetDialContext(t *testing.T) {
	f := tDefault(t)
	_, outside := tListenerOutside(t)
	ctx := context.Background()
	for _, addr := range []string{"evil.example:443", outside, HostCardD + ":80"} {
		t.Run("refuses "+addr, func(t *testing.T) {
			seq := f.Trace().Seq()
			c, err := f.DialContext(ctx, "tcp", addr)
			if err == nil {
				c.Close()
				t.Fatal("dial outside the fleet succeeded")
			}
			if evs := tEvents(f, seq); len(evs) != 1 || evs[0].Op != OpRefused || evs[0].Host != addr {
				t.Errorf("trace %+v", evs)
			}
		})
	}
	t.Run("fleet host", func(t *testing.T) {
		tr := &http.Transport{DialContext: f.DialContext, TLSClientConfig: f.TLSConfig()}
		t.Cleanup(tr.CloseIdleConnections)
		c := &http.Client{Transport: tr, Timeout: 5 * time.Second}
		r := tSend(t, c, "https://"+HostRPCD+DefaultRPCPath, Dialect10, "dial", "")
		if tRawState(r) != "TASK_STATE_COMPLETED" {
			t.Errorf("send: %s", r.Body)
		}
	})
}

// TestCDN checks the card CDN of the default fleet's vendor B.
func TestCDN(t *testing.T) {
	f := tDefault(t)
	for _, r := range tRoutes {
		c := tClient(t, f, r)
		for _, path := range []string{CardPath, LegacyCardPath} {
			t.Run(string(r)+path, func(t *testing.T) {
				u := "https://" + HostCardB + path
				first := tGet(t, c, u, nil)
				etag := first.Header.Get("ETag")
				if first.Status != 200 || etag == "" {
					t.Fatalf("first fetch: %d etag %q", first.Status, etag)
				}
				cases := []struct {
					name   string
					hdr    map[string]string
					status int
					skills []string
					served string
					etagEq bool
				}{
					{"cached", nil, 200, []string{SkillInvoice}, "cdn", true},
					{"cached again", nil, 200, []string{SkillInvoice}, "cdn", true},
					{"if-none-match", map[string]string{"If-None-Match": etag}, 304, nil, "not-modified", true},
					{"weak if-none-match", map[string]string{"If-None-Match": "W/" + etag}, 304, nil, "not-modified", true},
					{"other if-none-match", map[string]string{"If-None-Match": `"nope"`}, 200, []string{SkillInvoice}, "cdn", true},
					{"no-cache", map[string]string{"Cache-Control": "no-cache"}, 200, []string{SkillInvoiceV2}, "origin", false},
					{"max-age=0", map[string]string{"Cache-Control": "max-age=0"}, 200, []string{SkillInvoiceV2}, "origin", false},
					{"pragma", map[string]string{"Pragma": "no-cache"}, 200, []string{SkillInvoiceV2}, "origin", false},
					{"no-cache with if-none-match", map[string]string{"Cache-Control": "no-cache", "If-None-Match": etag}, 304, nil, "not-modified", true},
				}
				for _, tc := range cases {
					seq := f.Trace().Seq()
					got := tGet(t, c, u, tc.hdr)
					if got.Status != tc.status {
						t.Errorf("%s: status %d, want %d", tc.name, got.Status, tc.status)
						continue
					}
					if cc := got.Header.Get("Cache-Control"); cc != "public, max-age=86400" {
						t.Errorf("%s: Cache-Control %q", tc.name, cc)
					}
					if (got.Header.Get("ETag") == etag) != tc.etagEq {
						t.Errorf("%s: ETag %q (cdn ETag %q), want equal=%v", tc.name, got.Header.Get("ETag"), etag, tc.etagEq)
					}
					if tc.status == 200 && !slices.Equal(tSkillIDs(got.JSON), tc.skills) {
						t.Errorf("%s: skills %v, want %v", tc.name, tSkillIDs(got.JSON), tc.skills)
					}
					if tc.status == 304 && len(got.Body) != 0 {
						t.Errorf("%s: 304 with a body", tc.name)
					}
					ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Host == HostCardB })
					wantCC := tc.hdr["Cache-Control"]
					if wantCC == "" && tc.hdr["Pragma"] == "no-cache" {
						// net/http's server adds Cache-Control: no-cache to a
						// request with Pragma: no-cache and no Cache-Control
						// (RFC 7234 5.4) before the handler sees it.
						wantCC = "no-cache"
					}
					if ev.Served != tc.served || ev.Op != OpCardFetch || ev.Status != tc.status ||
						ev.CacheControl != wantCC || ev.Pragma != tc.hdr["Pragma"] || ev.IfNoneMatch != tc.hdr["If-None-Match"] {
						t.Errorf("%s: trace %+v", tc.name, ev)
					}
				}
				// The origin's ETag is stable too and differs from the CDN's.
				o1 := tGet(t, c, u, map[string]string{"Cache-Control": "no-cache"})
				o2 := tGet(t, c, u, map[string]string{"Pragma": "no-cache"})
				if o1.Header.Get("ETag") != o2.Header.Get("ETag") || string(o1.Body) != string(o2.Body) {
					t.Error("origin card or ETag changed between fetches")
				}
				if nm := tGet(t, c, u, map[string]string{"If-None-Match": o1.Header.Get("ETag")}); nm.Status != 304 {
					t.Errorf("If-None-Match with the origin ETag: %d", nm.Status)
				}
			})
		}
	}
}

// TestCardMembers checks the 0.3 and 1.0 members of each default vendor's card.
func TestCardMembers(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		host    string
		signed  bool
		rpcURL  string
		streams bool
	}{
		{HostVendorA, true, "https://" + HostVendorA + VendorARPCPath, false},
		{HostCardB, false, "https://" + HostRPCB + DefaultRPCPath, true},
		{HostC, false, "https://" + HostC + DefaultRPCPath, false},
		{HostCardD, false, "https://" + HostRPCD + DefaultRPCPath, true},
	}
	for _, tc := range cases {
		for _, path := range []string{CardPath, LegacyCardPath} {
			t.Run(tc.host+path, func(t *testing.T) {
				r := tGet(t, c, "https://"+tc.host+path, nil)
				if r.Status != 200 || r.Header.Get("Content-Type") != "application/json" {
					t.Fatalf("status %d, content type %q", r.Status, r.Header.Get("Content-Type"))
				}
				card := r.JSON
				ifaces := tAsList(card["supportedInterfaces"])
				if len(ifaces) == 0 {
					t.Fatal("no supportedInterfaces")
				}
				rest, grpc := 0, 0
				for n, i := range ifaces {
					if tPath(i, "protocolBinding") == BindingREST && tPath(i, "url") == "https://"+HostRPCD+DefaultRESTPath && tPath(i, "protocolVersion") == "1.0" {
						rest++ // D's HTTP+JSON interface
						continue
					}
					if tPath(i, "protocolBinding") == BindingGRPC && tPath(i, "url") == HostRPCD+":443" && tPath(i, "protocolVersion") == "1.0" && n == len(ifaces)-1 {
						grpc++ // D's gRPC interface, last
						continue
					}
					if tPath(i, "url") != tc.rpcURL || tPath(i, "protocolBinding") != "JSONRPC" {
						t.Errorf("interface %v", i)
					}
				}
				if want := map[bool]int{true: 1}[tc.host == HostCardD]; rest != want || grpc != want {
					t.Errorf("%d HTTP+JSON and %d gRPC interfaces, want %d of each", rest, grpc, want)
				}
				if tPath(ifaces, 0, "protocolVersion") != "1.0" {
					t.Errorf("first interface %v is not 1.0", ifaces[0])
				}
				if tPath(card, "capabilities", "streaming") != tc.streams {
					t.Errorf("streaming = %v", tPath(card, "capabilities", "streaming"))
				}
				if tc.signed {
					// A's card is a hybrid one, signed twice (internal/card);
					// TestJSInteropFleetCards and TestSignedHybridCard check the
					// signatures.
					if n := len(tAsList(card["signatures"])); n != 2 {
						t.Errorf("signed hybrid card has %d signatures, want 2", n)
					}
					if h := tJWSHeader(t, card); h["kid"] != KIDVendorA || h["alg"] != "ES256" || h["jku"] != "https://"+HostVendorA+JWKSPath {
						t.Errorf("signature header %v", h)
					}
				}
				if card["url"] != tc.rpcURL || card["preferredTransport"] != "JSONRPC" || card["protocolVersion"] == nil {
					t.Errorf("0.3 members: url %v preferredTransport %v protocolVersion %v", card["url"], card["preferredTransport"], card["protocolVersion"])
				}
				if _, ok := card["signatures"]; ok && !tc.signed {
					t.Error("unsigned vendor's card has signatures")
				}
			})
		}
	}
	t.Run("jwks", func(t *testing.T) {
		r := tGet(t, c, "https://"+HostVendorA+JWKSPath, nil)
		if r.Status != 200 || !slices.Equal(tJWKSKids(t, r.JSON), []string{KIDVendorA}) {
			t.Errorf("JWKS: %d %s", r.Status, r.Body)
		}
		if r := tGet(t, c, "https://"+HostCardD+JWKSPath, nil); r.Status != 404 {
			t.Errorf("unsigned vendor serves a JWKS: %d", r.Status)
		}
	})
}

// TestTraceFields checks every field the issue names on a mix of requests.
func TestTraceFields(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	seq := f.Trace().Seq()
	tGet(t, c, "https://"+HostCardB+CardPath, map[string]string{"Cache-Control": "no-cache", "Pragma": "no-cache"})
	tGet(t, c, "https://"+HostCardB+LegacyCardPath, map[string]string{"If-None-Match": `"x"`})
	rpcD := "https://" + HostRPCD + DefaultRPCPath
	s := tSend(t, c, rpcD, Dialect10, "one", SkillFXHedging)
	id, _ := tTask(s)["id"].(string)
	tRPC(t, c, rpcD, "1.0", "GetTask", map[string]any{"id": id})
	tRPC(t, c, rpcD, "", "tasks/cancel", map[string]any{"id": "nope"})
	tSend(t, c, rpcD, Dialect03, ProbeText, "")
	tSend(t, c, "https://"+HostC+DefaultRPCPath, Dialect03, "coerce me", "")
	evs := tEvents(f, seq)
	if len(evs) != 7 {
		t.Fatalf("%d events, want 7: %+v", len(evs), evs)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq || evs[i].Time.Before(evs[i-1].Time) {
			t.Errorf("event %d out of order", i)
		}
	}
	checks := []struct {
		name string
		ok   func(e Event) bool
	}{
		{"card no-cache", func(e Event) bool {
			return e.Op == OpCardFetch && e.CacheControl == "no-cache" && e.Pragma == "no-cache" && e.Host == HostCardB && e.ServerName == HostCardB && e.Served == "origin" && e.Status == 200 && e.Vendor == "b"
		}},
		{"card if-none-match", func(e Event) bool {
			return e.Op == OpCardFetch && e.IfNoneMatch == `"x"` && e.Path == LegacyCardPath && e.Served == "cdn"
		}},
		{"send 1.0", func(e Event) bool {
			return e.Op == OpSend && e.Method == "SendMessage" && e.Dialect == "1.0" && e.A2AVersion == "1.0" && e.HasA2AVersion && e.Skill == SkillFXHedging &&
				!e.Probe && e.TaskID == id && e.State == "completed" && e.Status == 200 && e.ServerName == HostRPCD && e.Host == HostRPCD && len(e.Request) > 0
		}},
		{"get", func(e Event) bool {
			return e.Op == OpGet && e.Method == "GetTask" && e.TaskID == id && e.State == "completed"
		}},
		{"cancel unknown", func(e Event) bool {
			return e.Op == OpCancel && e.Method == "tasks/cancel" && e.Dialect == "0.3" && !e.HasA2AVersion && e.ErrorCode == -32001 && e.TaskID == "nope" && e.Status == 200
		}},
		{"probe", func(e Event) bool { return e.Op == OpSend && e.Probe && e.Dialect == "0.3" && e.Skill == "" }},
		{"coercion", func(e Event) bool {
			return e.Vendor == "c" && len(e.Coercions) == 1 && e.Coercions[0] == (Coercion{Part: 0, From: "text", To: "data"}) && slices.Contains(e.Faults, "input-mode-coercion")
		}},
	}
	for i, ch := range checks {
		if !ch.ok(evs[i]) {
			t.Errorf("%s: event %+v", ch.name, evs[i])
		}
	}
	b, err := json.Marshal(f.Trace())
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(b, &back); err != nil || len(back) != len(f.Trace().Events()) {
		t.Fatalf("trace JSON round trip: %v, %d events", err, len(back))
	}
	var generic []map[string]any
	_ = json.Unmarshal(b, &generic)
	last := generic[len(generic)-1]
	for _, k := range []string{"seq", "time", "op", "host", "status", "coercions", "faults", "method", "dialect"} {
		if _, ok := last[k]; !ok {
			t.Errorf("trace JSON lacks %q: %v", k, last)
		}
	}
}

// TestTraceConcurrent runs 50 concurrent sends over both routes while the
// trace is read and marshalled.
func TestTraceConcurrent(t *testing.T) {
	f := tDefault(t)
	clients := []*http.Client{tClient(t, f, tViaProxy), tClient(t, f, tViaResolve)}
	sub, unsub := f.Trace().Subscribe()
	defer unsub()
	seq := f.Trace().Seq()
	const n = 50
	var wg sync.WaitGroup
	ids := make([]string, n)
	errs := make(chan error, n)
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			case <-sub:
			default:
				_, _ = json.Marshal(f.Trace())
				_ = f.Trace().Since(seq)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := tDialects[i%3]
			body := tEnvelope(d.Send, tSendParams(d.D, fmt.Sprintf("job %d", i), ""))
			req, _ := http.NewRequest(http.MethodPost, "https://"+HostRPCD+DefaultRPCPath, strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			if d.Version != "" {
				req.Header.Set("A2A-Version", d.Version)
			}
			resp, err := clients[i%2].Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			var m map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
				errs <- err
				return
			}
			task, _ := tPath(m, "result").(map[string]any)
			if inner, ok := task["task"].(map[string]any); ok {
				task = inner
			}
			ids[i], _ = task["id"].(string)
		}()
	}
	wg.Wait()
	close(stop)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	evs := tEvents(f, seq)
	if len(evs) != n {
		t.Fatalf("%d events, want %d", len(evs), n)
	}
	seen := map[string]bool{}
	for i, e := range evs {
		if e.Op != OpSend || e.State != "completed" || e.TaskID == "" || e.Status != 200 {
			t.Errorf("event %+v", e)
		}
		if seen[e.TaskID] {
			t.Errorf("task id %s twice", e.TaskID)
		}
		seen[e.TaskID] = true
		if i > 0 && e.Seq != evs[i-1].Seq+1 {
			t.Errorf("seq gap at %d", i)
		}
	}
	for _, id := range ids {
		if !seen[id] {
			t.Errorf("task %q answered but not traced", id)
		}
	}
	if _, err := json.Marshal(f.Trace()); err != nil {
		t.Fatal(err)
	}
}

// TestTraceCap checks that the trace drops its oldest events past the cap.
func TestTraceCap(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxTraceEvents: 10}})
	c := tClient(t, f, tViaResolve)
	for i := 0; i < 25; i++ {
		tGet(t, c, "https://"+HostCardD+CardPath, nil)
	}
	evs := f.Trace().Events()
	if len(evs) > 10 || f.Trace().Dropped() == 0 || evs[len(evs)-1].Seq != 25 {
		t.Errorf("%d events kept, %d dropped, last seq %d", len(evs), f.Trace().Dropped(), evs[len(evs)-1].Seq)
	}
}

// TestFleetCloseLeaks opens a slow stream and an idle CONNECT tunnel, closes
// the fleet and checks that no goroutine is left.
func TestFleetCloseLeaks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	cfg := DefaultConfig()
	cfg.Vendors[3].Faults = []FaultSpec{Spec("slow-first-frame", SlowFirstFrame{DelayMs: 20_000})}
	f, err := NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			f.Close()
		}
	}()
	tr := f.Transport()
	c := &http.Client{Transport: tr}
	rtr := tResolveTransport(f)
	rc := &http.Client{Transport: rtr}
	for _, cl := range []*http.Client{c, rc} {
		tGet(t, cl, "https://"+HostCardB+CardPath, nil)
		tSend(t, cl, "https://"+HostRPCD+DefaultRPCPath, Dialect03, "x", "")
	}
	tGet(t, c, "http://"+HostCardD+CardPath, nil)
	// An open stream waiting for its first frame.
	req, _ := http.NewRequest(http.MethodPost, "https://"+HostRPCD+DefaultRPCPath, strings.NewReader(string(tEnvelope("message/stream", tSendParams(Dialect03, "slow", "")))))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	streamDone := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		streamDone <- err
	}()
	// An open CONNECT tunnel with a TLS session on it, idle.
	tunnel, code := tConnect(t, f, HostC+":443")
	if tunnel == nil {
		t.Fatalf("CONNECT: %d", code)
	}
	tcfg := f.TLSConfig()
	tcfg.ServerName = HostC
	tlsc := tls.Client(tunnel, tcfg)
	if err := tlsc.Handshake(); err != nil {
		t.Fatal(err)
	}
	// A raw connection that sent half a request.
	half := tRawTLS(t, f, HostRPCD)
	fmt.Fprintf(half, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 100\r\n\r\n{", DefaultRPCPath, HostRPCD)
	time.Sleep(50 * time.Millisecond)

	start := time.Now()
	f.Close()
	closed = true
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	select {
	case <-streamDone:
	case <-time.After(3 * time.Second):
		t.Error("the open stream did not end at Close")
	}
	_ = tlsc.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := tlsc.Read(make([]byte, 1)); err == nil || tIsTimeout(err) {
		t.Errorf("tunnel still open after Close: %v", err)
	}
	tlsc.Close()
	half.Close()
	tr.CloseIdleConnections()
	rtr.CloseIdleConnections()
}

func tIsTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
