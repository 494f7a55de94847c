package mockvendor

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// Shared helpers of fleet_test.go, faults_test.go, dialect_test.go and
// badinput_test.go. Every name starts with "t" so it cannot clash with the
// helpers of other test files in the package.

// tStart starts a fleet for cfg and closes it when the test ends.
func tStart(t testing.TB, cfg Config) *Fleet {
	t.Helper()
	f, err := NewFleet(cfg)
	if err != nil {
		t.Fatalf("NewFleet: %v", err)
	}
	t.Cleanup(f.Close)
	return f
}

// tDefault starts the catalog's default fleet.
func tDefault(t testing.TB) *Fleet { return tStart(t, DefaultConfig()) }

// tRoute is how a test client reaches the fleet: through the CONNECT proxy,
// or through a DialContext that maps host:443 to the host's listener.
type tRoute string

const (
	tViaProxy   tRoute = "proxy"
	tViaResolve tRoute = "resolve"
)

var tRoutes = []tRoute{tViaProxy, tViaResolve}

// tClient returns a client for the route that trusts the fleet CA. Its idle
// connections are closed when the test ends.
func tClient(t testing.TB, f *Fleet, r tRoute) *http.Client {
	t.Helper()
	var tr *http.Transport
	switch r {
	case tViaProxy:
		tr = f.Transport()
	case tViaResolve:
		tr = tResolveTransport(f)
	default:
		t.Fatalf("unknown route %q", r)
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// tResolveTransport dials "name:443" at the address Fleet.Resolve maps it
// to, without any proxy; other addresses fail.
func tResolveTransport(f *Fleet) *http.Transport {
	routes := f.Resolve()
	return &http.Transport{
		Proxy:           nil,
		TLSClientConfig: f.TLSConfig(),
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			to, ok := routes[addr]
			if !ok {
				return nil, fmt.Errorf("test resolver: %s is not in the resolve map", addr)
			}
			var d net.Dialer
			return d.DialContext(ctx, network, to)
		},
		MaxIdleConnsPerHost: 64,
	}
}

// tURL returns the https URL of path on a named fleet host.
func tURL(t testing.TB, f *Fleet, host, path string) string {
	t.Helper()
	u, ok := f.HostURL(host)
	if !ok {
		t.Fatalf("no fleet host %q", host)
	}
	return u + path
}

// tResp is a decoded answer.
type tResp struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any // nil when the body is not a JSON object
}

// Result returns the JSON-RPC result object.
func (r *tResp) Result() map[string]any {
	m, _ := r.JSON["result"].(map[string]any)
	return m
}

// Err returns the JSON-RPC error object (nil when none).
func (r *tResp) Err() map[string]any {
	m, _ := r.JSON["error"].(map[string]any)
	return m
}

// Code returns the JSON-RPC error code, 0 when there is none.
func (r *tResp) Code() int {
	if e := r.Err(); e != nil {
		if c, ok := e["code"].(float64); ok {
			return int(c)
		}
	}
	return 0
}

// tPost posts body (raw) to u with extra headers and reads the whole answer.
func tPost(t testing.TB, c *http.Client, u string, body []byte, hdr map[string]string) *tResp {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return tDo(t, c, req)
}

// tGet fetches u with extra headers.
func tGet(t testing.TB, c *http.Client, u string, hdr map[string]string) *tResp {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return tDo(t, c, req)
}

func tDo(t testing.TB, c *http.Client, req *http.Request) *tResp {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	out := &tResp{Status: resp.StatusCode, Header: resp.Header, Body: b}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A stream's first event (a 0.3 stream answers errors as one event).
		if ev, err := tNewSSE(bytes.NewReader(b)).Next(); err == nil {
			out.JSON = ev
		}
		return out
	}
	_ = json.Unmarshal(b, &out.JSON)
	return out
}

var tRPCID atomic.Int64

// tRPC sends one JSON-RPC call and decodes the answer. A version header of
// "" sends no A2A-Version.
func tRPC(t testing.TB, c *http.Client, u, version, method string, params any) *tResp {
	t.Helper()
	body := tEnvelope(method, params)
	hdr := map[string]string{}
	if version != "" {
		hdr["A2A-Version"] = version
	}
	return tPost(t, c, u, body, hdr)
}

func tEnvelope(method string, params any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": tRPCID.Add(1), "method": method, "params": params})
	if err != nil {
		panic(err)
	}
	return b
}

// tDialectCase names the methods and header of a dialect.
type tDialectCase struct {
	D       Dialect
	Version string // A2A-Version sent
	Send    string
	Stream  string
	Get     string
	Cancel  string
}

var tDialects = []tDialectCase{
	{Dialect01, "", "tasks/send", "tasks/sendSubscribe", "tasks/get", "tasks/cancel"},
	{Dialect03, "0.3", "message/send", "message/stream", "tasks/get", "tasks/cancel"},
	{Dialect10, "1.0", "SendMessage", "SendStreamingMessage", "GetTask", "CancelTask"},
}

func tDialectOf(t testing.TB, d Dialect) tDialectCase {
	for _, dc := range tDialects {
		if dc.D == d {
			return dc
		}
	}
	t.Fatalf("no dialect %s", d)
	return tDialectCase{}
}

// tTextPart is a text part in dialect d.
func tTextPart(d Dialect, text string) map[string]any {
	switch d {
	case Dialect01:
		return map[string]any{"type": "text", "text": text}
	case Dialect03:
		return map[string]any{"kind": "text", "text": text}
	}
	return map[string]any{"text": text}
}

// tMessage is a user message in dialect d with one text part; msgMeta may be nil.
func tMessage(d Dialect, text string, msgMeta map[string]any) map[string]any {
	m := map[string]any{"role": "user", "parts": []any{tTextPart(d, text)}}
	switch d {
	case Dialect03:
		m["kind"] = "message"
		m["messageId"] = fmt.Sprintf("m-%d", tRPCID.Add(1))
	case Dialect10:
		m["role"] = "ROLE_USER"
		m["messageId"] = fmt.Sprintf("m-%d", tRPCID.Add(1))
	}
	if msgMeta != nil {
		m["metadata"] = msgMeta
	}
	return m
}

// tSendParams is the params of a send in dialect d for skill ("" = default).
func tSendParams(d Dialect, text, skill string) map[string]any {
	p := map[string]any{"message": tMessage(d, text, nil)}
	if d == Dialect01 {
		p["id"] = fmt.Sprintf("t01-%d", tRPCID.Add(1))
	}
	if skill != "" {
		p["metadata"] = map[string]any{"skillId": skill}
	}
	return p
}

// tSend sends a task in dialect d to the RPC URL u.
func tSend(t testing.TB, c *http.Client, u string, d Dialect, text, skill string) *tResp {
	t.Helper()
	dc := tDialectOf(t, d)
	return tRPC(t, c, u, dc.Version, dc.Send, tSendParams(d, text, skill))
}

// tTask returns the task of a send, get or cancel result (unwrapping the 1.0
// {"task": ...} wrapper).
func tTask(r *tResp) map[string]any {
	res := r.Result()
	if inner, ok := res["task"].(map[string]any); ok {
		return inner
	}
	return res
}

// tState returns the task state of a result in the 0.3 spelling.
func tState(r *tResp) string {
	st, _ := tTask(r)["status"].(map[string]any)
	s, _ := st["state"].(string)
	return a2a.NormalState(s)
}

// tRawState returns the state as the wire spelled it.
func tRawState(r *tResp) string {
	st, _ := tTask(r)["status"].(map[string]any)
	s, _ := st["state"].(string)
	return s
}

// tStream posts a stream call and returns the response with its body open.
func tStream(t testing.TB, c *http.Client, u, version, method string, params any) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(tEnvelope(method, params)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if version != "" {
		req.Header.Set("A2A-Version", version)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("stream %s: %v", method, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// tSSEReader reads server-sent events' data lines.
type tSSEReader struct{ br *bufio.Reader }

func tNewSSE(r io.Reader) *tSSEReader { return &tSSEReader{br: bufio.NewReader(r)} }

// Next returns the next event's data decoded as JSON, or io.EOF.
func (s *tSSEReader) Next() (map[string]any, error) {
	var data []byte
	for {
		line, err := s.br.ReadString('\n')
		if err != nil {
			if len(data) > 0 && err == io.EOF {
				break
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(data) == 0 {
				continue
			}
			break
		}
		if v, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(v, " ")...)
		}
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("event data %q: %v", data, err)
	}
	return m, nil
}

// tReadSSE reads every event until the server ends the stream.
func tReadSSE(t testing.TB, body io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	sr := tNewSSE(body)
	for {
		ev, err := sr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading SSE after %d events: %v", len(out), err)
		}
		out = append(out, ev)
	}
}

// tPath walks m along keys (strings for objects, ints for arrays).
func tPath(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// tSkillIDs lists the skill ids of a card.
func tSkillIDs(card map[string]any) []string {
	var out []string
	for _, s := range tAsList(card["skills"]) {
		if id, ok := tPath(s, "id").(string); ok {
			out = append(out, id)
		}
	}
	return out
}

func tAsList(v any) []any { a, _ := v.([]any); return a }

// tEvents returns the trace events after seq.
func tEvents(f *Fleet, since int64) []Event { return f.Trace().Since(since) }

// tLastEvent returns the newest event for the host (fatal when none).
func tLastEvent(t testing.TB, f *Fleet, host string) Event {
	t.Helper()
	evs := f.Trace().Events()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Host == host {
			return evs[i]
		}
	}
	t.Fatalf("no trace event for host %s", host)
	return Event{}
}

// tWaitEvent waits for a finished trace event (one with a status) matching
// pred after seq: a stream's event is completed after its last frame.
func tWaitEvent(t testing.TB, f *Fleet, since int64, pred func(Event) bool) Event {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		for _, e := range tEvents(f, since) {
			if pred(e) {
				return e
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no matching trace event; trace since %d: %+v", since, tEvents(f, since))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// tConnect opens a CONNECT tunnel through the fleet proxy to target and
// returns the raw connection and the proxy's status code.
func tConnect(t testing.TB, f *Fleet, target string) (net.Conn, int) {
	t.Helper()
	pu, err := url.Parse(f.ProxyURL())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", pu.Host, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		conn.Close()
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		conn.Close()
		return nil, resp.StatusCode
	}
	_ = conn.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		t.Fatalf("CONNECT %s: %d unexpected bytes after the proxy's answer", target, br.Buffered())
	}
	return conn, resp.StatusCode
}

// tTLSHandshake does a TLS handshake for serverName over conn with the
// given roots (nil: skip verification) and returns the leaf certificate
// and the verification error.
func tTLSHandshake(conn net.Conn, serverName string, roots *x509.CertPool) (*x509.Certificate, error) {
	cfg := &tls.Config{ServerName: serverName, RootCAs: roots, MinVersion: tls.VersionTLS12}
	if roots == nil {
		cfg.InsecureSkipVerify = true
	}
	tc := tls.Client(conn, cfg)
	_ = tc.SetDeadline(time.Now().Add(5 * time.Second))
	err := tc.Handshake()
	var leaf *x509.Certificate
	if cs := tc.ConnectionState(); len(cs.PeerCertificates) > 0 {
		leaf = cs.PeerCertificates[0]
	}
	_ = tc.Close()
	return leaf, err
}

// tPresented returns the certificate a host presents, reached through the
// proxy or directly through the resolve map, and the error of verifying it
// for serverName against the fleet CA.
func tPresented(t testing.TB, f *Fleet, r tRoute, authority, serverName string) (*x509.Certificate, error) {
	t.Helper()
	dial := func() net.Conn {
		switch r {
		case tViaProxy:
			c, code := tConnect(t, f, authority)
			if c == nil {
				t.Fatalf("CONNECT %s: status %d", authority, code)
			}
			return c
		default:
			addr, ok := f.Resolve()[authority]
			if !ok {
				t.Fatalf("%s is not in the resolve map %v", authority, f.Resolve())
			}
			c, err := net.DialTimeout("tcp", addr, 3*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	leaf, _ := tTLSHandshake(dial(), serverName, nil)
	if leaf == nil {
		t.Fatalf("%s via %s: no certificate presented", authority, r)
	}
	_, err := tTLSHandshake(dial(), serverName, f.CA().Pool())
	return leaf, err
}

// tJWSHeader decodes the protected header of a card's first signature.
func tJWSHeader(t testing.TB, card map[string]any) map[string]any {
	t.Helper()
	p, _ := tPath(card, "signatures", 0, "protected").(string)
	if p == "" {
		t.Fatalf("card has no signatures[0].protected: %v", card["signatures"])
	}
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		t.Fatalf("protected header: %v", err)
	}
	var h map[string]any
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("protected header: %v", err)
	}
	return h
}

// tJWKSKids lists the kids of a JWKS document, in order.
func tJWKSKids(t testing.TB, doc map[string]any) []string {
	t.Helper()
	var out []string
	for _, k := range tAsList(doc["keys"]) {
		kid, _ := tPath(k, "kid").(string)
		out = append(out, kid)
	}
	return out
}

// tWithoutSignatures returns the card JSON without its signatures member.
func tWithoutSignatures(t testing.TB, b []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("card is not JSON: %v\n%s", err, b)
	}
	delete(m, "signatures")
	out, _ := json.Marshal(m)
	return string(out)
}

// tRawTLS dials a fleet host's listener directly and completes TLS.
func tRawTLS(t testing.TB, f *Fleet, host string) *tls.Conn {
	t.Helper()
	addr, ok := f.Resolve()[net.JoinHostPort(host, "443")]
	if !ok {
		t.Fatalf("no route for %s", host)
	}
	cfg := f.TLSConfig()
	cfg.ServerName = host
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 3 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		t.Fatalf("tls dial %s: %v", host, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// tTLSClientConn wraps conn in a TLS client and completes the handshake
// lazily (on first use).
func tTLSClientConn(conn net.Conn, cfg *tls.Config) *tls.Conn { return tls.Client(conn, cfg) }
