package upstream

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Defaults of Config's bounds.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxBody    = 8 << 20
	DefaultStreamIdle = 60 * time.Second
	DefaultMaxConns   = 64
	DefaultCardTTL    = time.Second
)

// Config is a real agent and the bounds of every exchange with it.
type Config struct {
	// URL is the agent's base URL (https://host[:port][/base], or http://
	// for an agent on loopback). Required.
	URL string
	// CardPath is the path of the agent's card below the host; "" means
	// /.well-known/agent-card.json.
	CardPath string
	// RootCAs verify the agent's certificate; nil means the system's.
	RootCAs *x509.CertPool
	// Certificates are client certificates offered to the agent (mutual
	// TLS); nil offers none.
	Certificates []tls.Certificate
	// Header is added to every request to the agent (its credentials:
	// Authorization, an API key); it replaces the orchestrator's header of
	// the same name. Nil adds none.
	Header http.Header
	// Timeout bounds the wait for an answer's header, the wait for a free
	// connection (MaxConns) included; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxBody bounds the bytes of a plain answer, of a card and of one
	// stream event; 0 means DefaultMaxBody.
	MaxBody int64
	// StreamIdle bounds the wait for a stream's next event; 0 means
	// DefaultStreamIdle.
	StreamIdle time.Duration
	// MaxConns bounds the connections open to the agent at once; 0 means
	// DefaultMaxConns.
	MaxConns int
	// CardTTL is how long a fetched card is reused before the agent is
	// asked again; 0 means DefaultCardTTL.
	CardTTL time.Duration
	// Recorder, when set, records the agent's card and answers
	// (record.go). Nil records nothing.
	Recorder *Recorder
	// Replay, when set, answers every request from this recording instead
	// of the network (replay.go): the agent played back. URL may then be
	// empty (the recording's agent). Nil: the network.
	Replay *Recording
}

func (c Config) withDefaults() Config {
	if c.CardPath == "" {
		c.CardPath = "/.well-known/agent-card.json"
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.StreamIdle <= 0 {
		c.StreamIdle = DefaultStreamIdle
	}
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.CardTTL <= 0 {
		c.CardTTL = DefaultCardTTL
	}
	return c
}

// Client forwards operations to one agent. It is safe for concurrent use.
type Client struct {
	cfg   Config
	http  *http.Client
	card  cardCache
	ids   atomic.Int64
	inUse atomic.Int64
}

// New makes the client of the agent cfg names; it does not contact it.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if cfg.Replay != nil && cfg.URL == "" {
		cfg.URL = cfg.Replay.Agent
	}
	u, err := parseBase(cfg.URL)
	if err != nil {
		return nil, err
	}
	cfg.URL = u
	tr := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: cfg.RootCAs, Certificates: cfg.Certificates, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxConnsPerHost:       cfg.MaxConns,
		MaxIdleConnsPerHost:   cfg.MaxConns,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c := &Client{cfg: cfg, http: &http.Client{Transport: tr, CheckRedirect: noRedirect}}
	if cfg.Replay != nil {
		c.http.Transport = newReplayer(cfg.Replay)
	}
	c.card.ttl = cfg.CardTTL
	return c, nil
}

// noRedirect hands a redirect back as the answer: a gateway passes it on.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Close ends the client's idle connections and writes its recording as
// it is (its error: the recording's last write failed).
func (c *Client) Close() error {
	c.http.CloseIdleConnections()
	if c.cfg.Recorder != nil {
		return c.cfg.Recorder.Flush()
	}
	return nil
}

// URL is the agent's base URL, as configured.
func (c *Client) URL() string { return c.cfg.URL }

// InFlight is how many exchanges with the agent are open now.
func (c *Client) InFlight() int64 { return c.inUse.Load() }

// Call is one operation to forward.
type Call struct {
	// Method is the JSON-RPC method, in the dialect of the request.
	Method string
	// Params are the params as JSON (nil: none).
	Params json.RawMessage
	// Version is the A2A-Version to send ("": none, as a 0.3 client sends).
	Version string
	// Header holds the orchestrator's headers worth passing on (its
	// credentials, its A2A-Extensions); Config.Header replaces any of the
	// same name.
	Header http.Header
}

// passedOn are the orchestrator's headers a call carries to the agent:
// what an A2A agent reads of a request besides its body. Hop-by-hop and
// transport headers are the proxy's own.
var passedOn = []string{"Authorization", "A2a-Extensions", "X-A2a-Extensions", "X-Api-Key", "Api-Key", "Cookie"}

// request builds the HTTP request of call c to url, its record begun in rec.
func (c *Client) request(ctx context.Context, url string, call Call, id int64, accept string) (*http.Request, error) {
	env := map[string]any{"jsonrpc": "2.0", "id": id, "method": call.Method}
	if len(call.Params) > 0 {
		env["params"] = call.Params
	}
	body, err := json.Marshal(env)
	if err != nil {
		return nil, a2a.InvalidParams(err.Error())
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", accept)
	if call.Version != "" {
		r.Header.Set("A2A-Version", call.Version)
	}
	for _, k := range passedOn {
		if v := call.Header.Values(k); len(v) > 0 {
			r.Header[k] = v
		}
	}
	for k, v := range c.cfg.Header {
		r.Header[http.CanonicalHeaderKey(k)] = v
	}
	return r, nil
}

// exchange sends call to the agent's JSON-RPC endpoint and returns its
// answer once the header is in, with the record begun; the caller reads
// and closes the body.
func (c *Client) exchange(ctx context.Context, call Call, accept string) (*http.Response, *trace.Upstream, error) {
	rec := &trace.Upstream{Method: call.Method}
	url, err := c.Endpoint(ctx)
	if err != nil {
		rec.Error = err.Error()
		return nil, rec, err
	}
	rec.URL = url
	r, err := c.request(ctx, url, call, c.ids.Add(1), accept)
	if err != nil {
		rec.Error = err.Error()
		return nil, rec, err
	}
	resp, err := c.do(r, rec)
	if err != nil {
		return nil, rec, err
	}
	rec.A2AVersion = resp.Header.Get("A2A-Version")
	return resp, rec, nil
}

// do sends r and waits for its answer's header, an *Error when none came.
// Config.Timeout bounds the whole wait: a request waiting for one of the
// MaxConns connections (all held by streams, say) waits within it too,
// where the transport's ResponseHeaderTimeout starts only once it is
// sent. Closing the answer's body ends the exchange.
func (c *Client) do(r *http.Request, rec *trace.Upstream) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(r.Context())
	timer := time.AfterFunc(c.cfg.Timeout, func() { cancel(errNoHeader) })
	var connected atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	start := time.Now()
	resp, err := c.http.Do(r.WithContext(ctx))
	timer.Stop()
	rec.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		e := c.transportError(r.Context(), context.Cause(ctx) == errNoHeader, err, connected.Load())
		cancel(nil)
		rec.Error = e.Error()
		return nil, e
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { cancel(nil) }}
	rec.Status = resp.StatusCode
	return resp, nil
}

// errNoHeader is the cause of an exchange cancelled at Config.Timeout.
var errNoHeader = errors.New("no answer header in time")

// releasingBody is an answer's body that ends its exchange's context when
// closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// Answer forwards a call that is answered once (not a stream): the
// result as JSON, or the agent's A2A error (*a2a.Error), or an *Error
// when no usable answer came. The record is never nil.
func (c *Client) Answer(ctx context.Context, call Call) (json.RawMessage, *trace.Upstream, error) {
	c.inUse.Add(1)
	defer c.inUse.Add(-1)
	resp, rec, err := c.exchange(ctx, call, "application/json")
	if err != nil {
		return nil, rec, err
	}
	defer resp.Body.Close()
	body, err := readBounded(resp.Body, c.cfg.MaxBody)
	rec.Bytes = int64(len(body))
	if err != nil {
		e := bodyError(ctx, err, c.cfg.MaxBody)
		rec.Error = e.Error()
		return nil, rec, e
	}
	if rc := c.cfg.Recorder; rc != nil {
		x := exchangeOf(call, resp)
		x.Body = compact(body)
		rc.add(x, sentSecrets(resp.Request, resp))
	}
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") {
		return firstEvent(body, rec)
	}
	result, err := decodeEnvelope(body, resp.StatusCode)
	noteError(rec, err)
	return result, rec, err
}

// firstEvent reads an answer the agent sent as a stream where a plain
// one was asked for: its first event is the answer.
func firstEvent(body []byte, rec *trace.Upstream) (json.RawMessage, *trace.Upstream, error) {
	r := newEventReader(bytes.NewReader(body), int64(len(body))+1)
	data, err := r.next()
	if err != nil {
		e := &Error{Detail: "the agent answered an empty stream to a plain call"}
		rec.Error = e.Error()
		return nil, rec, e
	}
	result, err := decodeEnvelope(data, http.StatusOK)
	noteError(rec, err)
	return result, rec, err
}

// noteError records in rec the error an answer gave.
func noteError(rec *trace.Upstream, err error) {
	var ae *a2a.Error
	switch {
	case err == nil:
	case errors.As(err, &ae):
		rec.ErrorCode = ae.Code
	default:
		rec.Error = err.Error()
	}
}

// readBounded reads r to its end, at most limit bytes (ErrTooLarge past
// it).
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, nil
}

var errTooLarge = errors.New("too large")

// parseBase checks an agent's base URL: http or https, a host, no query.
func parseBase(s string) (string, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	switch {
	case s == "":
		return "", fmt.Errorf("upstream: the agent's URL is empty")
	case !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://"):
		return "", fmt.Errorf("upstream: %q is not an http(s) URL", s)
	case strings.ContainsAny(s, "?#"):
		return "", fmt.Errorf("upstream: %q has a query or fragment", s)
	}
	return s, nil
}
