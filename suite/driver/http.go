package driver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// HTTP drives an OUT that runs as a service: every message is one POST of its
// JSON (Content-Type application/json) to URL, and the response body, at most
// [MaxBody] bytes, is the answer. A non-200 status is no answer; a redirect
// is one too, and is never followed, whatever Client says: a delegation
// carries the caller's credentials (trust.credentials), which go to URL and
// nowhere else.
//
// The OUT serves every scenario from one process, so each session starts by
// sending a reset message; an OUT that does not confirm it is noted in the
// transcript, not failed.
//
// Set the fields before the first Open; an HTTP is then safe for concurrent
// use.
type HTTP struct {
	// URL is where messages are posted.
	URL string
	// Client posts the messages. Nil means a client that connects directly,
	// ignoring the harness's proxy environment variables. Its CheckRedirect
	// is not used: the driver follows no redirect.
	Client *http.Client
	// Grace is added to each request's deadline. Zero means [DefaultGrace].
	Grace time.Duration
	// HelloTimeout bounds the hello and reset exchanges. Zero means
	// [DefaultHelloTimeout].
	HelloTimeout time.Duration
	// StartupGrace is how long a service that is still starting (its
	// connections refused or failing) is given: the session's reset and
	// Hello retry until they get an HTTP answer or StartupGrace from the
	// session's start has run out, so the first delegation goes out once
	// the service answers; [HTTP.Preflight] waits as long for the first
	// answer. Zero means no retry (see [Options]).
	StartupGrace time.Duration
	// Deadline replaces every request's deadlineMs (see [Options]). Zero
	// means the request's own.
	Deadline time.Duration

	// sessions is what the service's pre-flight hello declared
	// (contract.Hello.Sessions), capped at MaxHTTPSessions; zero before
	// Preflight or without a declaration.
	sessions atomic.Int32
}

// MaxHTTPSessions caps what a service may declare in its hello's sessions:
// more would only hold more fleets open at once, and --parallel caps the
// run anyway.
const MaxHTTPSessions = 64

// NewHTTP returns an http driver posting to url with default settings.
func NewHTTP(url string) *HTTP { return &HTTP{URL: url} }

// Name returns the URL.
func (d *HTTP) Name() string { return d.URL }

// MaxSessions is what the service declared in the hello [HTTP.Preflight]
// posted (its sessions), or 1: without a declaration the service is one
// orchestrator, each session begins by resetting it, and two sessions at
// once would reset each other's caches and mix their delegations. A
// service that declares sessions gets the session's name in every
// message, and a close message when the session ends.
func (d *HTTP) MaxSessions() int { return max(1, int(d.sessions.Load())) }

// multiSession reports whether the service declared more than one session,
// and so is told which session each message belongs to.
func (d *HTTP) multiSession() bool { return d.sessions.Load() > 1 }

var directClient = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	return &http.Client{Transport: t}
})

// postClient is c, or the direct client when c is nil, made to follow no
// redirect: the 3xx answer itself comes back, and post turns it into a
// statusError naming its Location.
func postClient(c *http.Client) *http.Client {
	if c == nil {
		c = directClient()
	}
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &nc
}

// Open starts a session and asks the OUT to reset its caches. It fails only
// when the driver is misconfigured; an unreachable OUT shows up in results.
func (d *HTTP) Open(ctx context.Context, env Env) (Session, error) {
	if d.URL == "" {
		return nil, errors.New("http driver: empty url")
	}
	s := &httpSession{d: d, client: postClient(d.Client), grace: orDefault(d.Grace, DefaultGrace),
		hello: orDefault(d.HelloTimeout, DefaultHelloTimeout), opened: time.Now()}
	if d.multiSession() {
		s.id = newSessionID()
	}
	s.reset(ctx)
	return s, nil
}

type httpSession struct {
	d      *HTTP
	client *http.Client
	grace  time.Duration
	hello  time.Duration
	opened time.Time
	rec    recorder
	// id names the session in every message; empty for a service that
	// holds one session at a time.
	id string

	mu            sync.Mutex
	closed        bool
	deadlineNoted bool
}

// Preflight posts a hello and returns an error when no HTTP answer comes
// (any status will do): connection refused, no such host, a TLS failure,
// or no answer within HelloTimeout. Failed connections are retried until
// StartupGrace has run out.
func (d *HTTP) Preflight(ctx context.Context) error {
	if d.URL == "" {
		return errors.New("orchestrator http: empty url")
	}
	s := &httpSession{d: d, client: postClient(d.Client), hello: orDefault(d.HelloTimeout, DefaultHelloTimeout), opened: time.Now()}
	body, err := s.postRetrying(ctx, contract.NewHello())
	if err == nil {
		var h contract.Hello
		if json.Unmarshal(body, &h) == nil && h.Type == contract.TypeHello {
			d.sessions.Store(int32(min(max(h.Sessions, 0), MaxHTTPSessions)))
		}
		return nil
	}
	var se *statusError
	if errors.As(err, &se) || errors.Is(err, errBodyTooLong) {
		return nil
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return fmt.Errorf("orchestrator %s: not reachable: no HTTP answer to a hello within %v", d.URL, s.hello)
	}
	return fmt.Errorf("orchestrator %s: not reachable: %v", d.URL, unwrapURLError(err))
}

// unwrapURLError drops the `Post "URL": ` prefix that net/http adds.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// postRetrying posts v with the hello timeout per attempt, retrying a
// failed connection (not an HTTP answer of any status) every 100 ms until
// StartupGrace from the session's start has run out.
func (s *httpSession) postRetrying(ctx context.Context, v any) ([]byte, error) {
	until := s.opened.Add(s.d.StartupGrace)
	for {
		actx, cancel := context.WithTimeout(ctx, s.hello)
		body, err := s.post(actx, v)
		cancel()
		var se *statusError
		if err == nil || errors.As(err, &se) || errors.Is(err, errBodyTooLong) || ctx.Err() != nil {
			return body, err
		}
		rest := time.Until(until)
		if rest <= 0 {
			return nil, err
		}
		select {
		case <-time.After(min(rest, 100*time.Millisecond)):
		case <-ctx.Done():
			return nil, err
		}
	}
}

var errBodyTooLong = errors.New("body too long")

// post sends v and returns the response body. A non-200 status is an error
// carrying the status.
func (s *httpSession) post(ctx context.Context, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.d.URL, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{code: resp.StatusCode, body: body, location: resp.Header.Get("Location")}
	}
	if err != nil {
		return nil, err
	}
	if len(body) > MaxBody {
		return nil, errBodyTooLong
	}
	return body, nil
}

// statusError is an answer other than 200; location is its Location
// header, which the driver never follows.
type statusError struct {
	code     int
	body     []byte
	location string
}

func (e *statusError) Error() string {
	if e.code >= 300 && e.code < 400 {
		return fmt.Sprintf("http status %d, a redirect to %s (not followed: a redirect is no answer)", e.code, snippet([]byte(e.location)))
	}
	return fmt.Sprintf("http status %d", e.code)
}

// newSessionID returns a fresh session name ("s-" and 16 hex digits).
func newSessionID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "s-" + hex.EncodeToString(b)
}

func (s *httpSession) reset(ctx context.Context) {
	req := contract.NewReset()
	req.Session = s.id
	body, err := s.postRetrying(ctx, req)
	if err != nil {
		s.rec.notef("reset: %v", err)
		return
	}
	var r contract.Reset
	if json.Unmarshal(body, &r) != nil || r.Type != contract.TypeReset || !r.OK {
		s.rec.notef("reset not confirmed: %s", snippet(body))
	}
}

// Hello posts a hello. Any failure leaves the OUT unnamed.
func (s *httpSession) Hello(ctx context.Context) (contract.Hello, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return contract.Hello{}, errors.New("session closed")
	}
	hello := contract.NewHello()
	hello.Session = s.id
	body, err := s.postRetrying(ctx, hello)
	if err != nil {
		s.rec.notef("hello: %v; treated as unnamed", err)
		return contract.Hello{}, nil
	}
	var h contract.Hello
	if json.Unmarshal(body, &h) != nil || h.Type != contract.TypeHello {
		s.rec.notef("hello: unexpected answer %s; treated as unnamed", snippet(body))
		return contract.Hello{}, nil
	}
	return h, nil
}

// Delegate posts req and reads the outcome from the response.
func (s *httpSession) Delegate(ctx context.Context, req contract.DelegationRequest) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	r := s.delegate(ctx, req)
	r.Elapsed = time.Since(start)
	return r
}

func (s *httpSession) delegate(ctx context.Context, req contract.DelegationRequest) Result {
	if s.closed {
		return Result{NoOutcome: "session closed"}
	}
	overrideDeadline(&req, s.d.Deadline, &s.rec, &s.deadlineNoted)
	req.Session = s.id
	ctx, cancel := context.WithTimeout(ctx, requestDeadline(req)+s.grace)
	defer cancel()
	body, err := s.post(ctx, req)
	if err != nil {
		var se *statusError
		switch {
		case errors.As(err, &se):
			s.rec.notef("request %s: %v: %s", req.ID, err, snippet(se.body))
			return Result{NoOutcome: err.Error()}
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return Result{NoOutcome: "timeout"}
		case ctx.Err() != nil:
			return Result{NoOutcome: "canceled"}
		case errors.Is(err, errBodyTooLong):
			return Result{NoOutcome: err.Error()}
		}
		s.rec.notef("request %s: %v", req.ID, err)
		return Result{NoOutcome: "http error: " + err.Error()}
	}
	j := judge(bytes.TrimSpace(body), req.ID)
	if j.note != "" {
		s.rec.notef("request %s: %s", req.ID, j.note)
	}
	if j.result != nil {
		return *j.result
	}
	return Result{NoOutcome: j.problem, BrokeContract: true}
}

// Close ends the session: nothing is running, so it returns at once, or,
// for a service that holds several sessions, once the close message is
// answered (or HelloTimeout has run out).
func (s *httpSession) Close() Transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), s.hello)
		if _, err := s.post(ctx, contract.Close{Contract: contract.Version, Type: contract.TypeClose, Session: s.id}); err != nil {
			s.rec.notef("close: %v", err)
		}
		cancel()
	}
	s.closed = true
	return s.rec.transcript("")
}
