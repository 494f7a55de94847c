package push

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Webhook delivery of push notifications. A vendor whose card claims
// capabilities.pushNotifications POSTs each change of a task's state to
// every push config of the task, as a real agent does:
//
//   - A2A 1.0 §4.3.3 (Push Notification Payload): the body is a
//     StreamResponse holding exactly one member (here always "task", the
//     task as it is now), sent with Content-Type application/a2a+json; the
//     config's authentication (AuthenticationInfo: scheme, credentials)
//     goes into the Authorization header as "scheme credentials". The
//     a2a-python 1.0 sender posts the same StreamResponse{task} and adds
//     the config's token as X-A2A-Notification-Token, which D does too.
//   - A2A 0.3 (and 0.1): the body is the Task object itself, with
//     Content-Type application/json and the config's token in
//     X-A2A-Notification-Token (what the a2a-js and a2a-python 0.3 senders
//     do); authentication {schemes, credentials} gives Authorization as
//     "schemes[0] credentials" when credentials are there.
//
// A config is delivered in the dialect of the request that set it. The
// state at the moment a config is set is not delivered: §4.3.3 speaks of
// updates ("when a task update occurs"), and says nothing of sending the
// current state on registration, so a config set on a task that is already
// terminal never receives anything. A config carried by the send that
// creates the task (Store.WatchNew) exists from the task's start, so
// the state that send answers is delivered too. Follow-up messages do not
// change a task's state and send nothing.
//
// A task's state is computed from the clock (tasks.Task.State), so each
// task with configs has one timer that fires at its next transition
// (tasks.Task.NextChange: submitted -> working at half the work time, ->
// its end state when the work is done); a cancel wakes it at once
// (Store.Changed). The timer is stopped when the
// task reaches a terminal state, when its configs are forgotten (the
// store's cap), when it fires and finds the task forgotten by the task
// store, and when the fleet closes.
//
// The fleet never reaches outside loopback: a config's URL is delivered
// only when its host is an IP literal in 127.0.0.0/8 or ::1, or the name
// localhost (which is never resolved: D dials 127.0.0.1 and then ::1).
// Any other host is not contacted and the trace says so. (§13.2 tells a
// real agent to refuse loopback and private ranges against SSRF, or to
// keep an allow-list; the fleet's whole world is loopback, so its
// allow-list is loopback and nothing else.) Each delivery is
// bounded by the constants below, and deliveries wait in a queue per
// receiver (queue.go), so a receiver that hangs holds only its own
// share. §4.3.3 (Server Guarantees) asks for at least one attempt per
// config, allows retries with backoff and giving up after a number of
// failures, and recommends a 10-30 s timeout. A failure that would fail
// the same way again (a TLS handshake that fails: an untrusted
// certificate, a receiver that refuses the handshake, an https URL at a
// plain-HTTP port) is not retried, and a delivery the fleet's Close ends
// is traced as such, with no further attempt.

// Bounds of webhook delivery, per vendor.
const (
	// DeliveryTimeout bounds one delivery attempt, from dialing to the
	// end of the (capped) response body: 10 s, the low end of the 10-30 s
	// §4.3.3 recommends.
	DeliveryTimeout = 10 * time.Second
	// MaxAttempts is the most attempts one notification gets (3): the
	// first, and two retries after a connection error, a timeout, a 429 or
	// a 5xx answer. Any other answer (2xx, 3xx, 4xx), a failed TLS
	// handshake and the fleet's close end it.
	MaxAttempts = 3
	// RetryDelay is the wait before the first retry (250 ms); it
	// doubles for each later one.
	RetryDelay = 250 * time.Millisecond
	// MaxInFlight is the most notifications a vendor has in flight at
	// once (8), all receivers together; a notification that finds them all
	// taken waits in its receiver's queue.
	MaxInFlight = 8
	// MaxInFlightPerReceiver is the most notifications one receiver
	// (a URL's host and port) has in flight at once (2): a receiver that
	// hangs holds two of the vendor's slots, not all eight.
	MaxInFlightPerReceiver = 2
	// MaxQueuedPerReceiver is the most notifications waiting for one
	// receiver (32); past it the oldest waiting one is dropped, and the
	// trace says so.
	MaxQueuedPerReceiver = 32
	// MaxQueued is the most notifications waiting for all of a
	// vendor's receivers together (256); past it the oldest waiting one of
	// the receiver with the most is dropped, and the trace says so.
	MaxQueued = 256
	// MaxResponseBytes is the most bytes of a receiver's answer body
	// read (4 KiB); the rest is left unread and the connection closed.
	MaxResponseBytes = 4 << 10
)

// watch follows one task with push configs.
type watch struct {
	t     *tasks.Task
	last  string      // the state last seen (delivered, or at registration)
	timer *time.Timer // fires at the next transition; nil for none
}

// delivery is the delivery side of a Store.
type delivery struct {
	watches map[string]*watch // by task id
	queue   jobQueue          // queue.go
	stopped bool
	ctx     context.Context // cancelled, with errFleetClosed, by Stop
	cancel  context.CancelCauseFunc
	client  *http.Client

	// timeout and retryDelay replace DeliveryTimeout and RetryDelay when
	// set (Tune); roots are the CAs an https receiver's certificate is
	// checked against (nil: the system's; Trust).
	timeout, retryDelay time.Duration
	roots               *x509.CertPool
}

// Tune replaces DeliveryTimeout and RetryDelay for the store's next
// deliveries (zero: the constant), so tests need not wait for them.
func (s *Store) Tune(timeout, retryDelay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timeout, s.retryDelay = timeout, retryDelay
}

// Trust sets the CAs an https receiver's certificate is checked against
// (nil: the system's). It takes effect before the store's first delivery
// only: the client is made then.
func (s *Store) Trust(roots *x509.CertPool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roots = roots
}

// Stats is a snapshot of a store's delivery.
type Stats struct {
	// Watched is how many tasks are followed, Armed how many of them
	// have a timer armed for their next change.
	Watched, Armed int
	// InFlight is how many notifications are being delivered, Queued how
	// many wait for a slot, LongestQueue the most that wait for one
	// receiver.
	InFlight, Queued, LongestQueue int
}

// Stats returns what the store follows and delivers now.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Watched: len(s.watches), InFlight: s.queue.inFlight, Queued: s.queue.queued}
	for _, w := range s.watches {
		if w.timer != nil {
			st.Armed++
		}
	}
	for _, r := range s.queue.receivers {
		st.LongestQueue = max(st.LongestQueue, len(r.waiting))
	}
	return st
}

// initLocked prepares the delivery state; s.mu is held.
func (s *Store) initLocked() {
	if s.watches != nil {
		return
	}
	s.watches = map[string]*watch{}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
}

// Watch starts following t after a config was set for it, unless it is
// already followed or terminal: the state it is in now is not delivered.
func (s *Store) Watch(v Vendor, t *tasks.Task) {
	s.watchFrom(v, t, t.State(time.Now(), v.WorkTime()))
}

// WatchNew starts following t, a task created by the send that carried
// its config: the config exists from the task's start, so the state the
// send answered is delivered at once, then each change.
func (s *Store) WatchNew(v Vendor, t *tasks.Task) { s.watchFrom(v, t, "") }

// watchFrom starts following t as one whose state last seen was seen
// ("": none, so the state it is in now is delivered at once).
func (s *Store) watchFrom(v Vendor, t *tasks.Task, seen string) {
	now := time.Now()
	s.mu.Lock()
	s.initLocked()
	if s.stopped || s.watches[t.ID] != nil || seen != "" && tasks.Terminal(seen) {
		s.mu.Unlock()
		return
	}
	w := &watch{t: t, last: seen}
	s.watches[t.ID] = w
	s.scheduleLocked(v, w, now)
	s.mu.Unlock()
	if seen == "" {
		s.check(v, t)
	}
}

// unwatchLocked stops following task id; s.mu is held.
func (s *Store) unwatchLocked(id string) {
	if w := s.watches[id]; w != nil {
		if w.timer != nil {
			w.timer.Stop()
		}
		delete(s.watches, id)
	}
}

// scheduleLocked arms w's timer for the task's next transition (none for
// a held task: only a cancel changes it); s.mu is held.
func (s *Store) scheduleLocked(v Vendor, w *watch, now time.Time) {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	at, ok := w.t.NextChange(now, v.WorkTime())
	if !ok {
		return
	}
	t := w.t
	w.timer = time.AfterFunc(max(at.Sub(now), 0), func() { s.check(v, t) })
}

// Changed wakes the watch of a task whose state a request changed (a
// cancel): the change is delivered now rather than at the next timer.
func (s *Store) Changed(v Vendor, t *tasks.Task) {
	s.mu.Lock()
	followed := s.watches[t.ID] != nil
	s.mu.Unlock()
	if followed {
		s.check(v, t)
	}
}

// check delivers t's state to its configs when it changed since the last
// look, and arms the timer for the next change.
func (s *Store) check(v Vendor, t *tasks.Task) {
	if !v.Enter() {
		return // the fleet is closing
	}
	defer v.Leave()
	now := time.Now()
	state := t.State(now, v.WorkTime())
	known := v.Task(t.ID) == t
	s.mu.Lock()
	w := s.watches[t.ID]
	if s.stopped || w == nil || w.t != t {
		s.mu.Unlock()
		return
	}
	if !known { // the task store forgot the task: so does the push store
		s.forgetLocked(t.ID)
		s.mu.Unlock()
		return
	}
	changed := state != w.last
	w.last = state
	if tasks.Terminal(state) {
		s.unwatchLocked(t.ID)
	} else {
		s.scheduleLocked(v, w, now)
	}
	if !changed {
		s.mu.Unlock()
		return
	}
	// Queued under the same lock that saw the change, so two changes
	// seen one after the other are queued in that order too.
	var drops []drop
	for _, c := range s.byTask[t.ID] {
		u, err := target(c.URL)
		if err != nil {
			drops = append(drops, drop{&job{taskID: t.ID, state: state, at: now, c: c, u: u}, err.Error()})
			continue
		}
		drops = s.queueLocked(&job{taskID: t.ID, state: state, at: now, c: c, u: u}, drops)
	}
	s.dispatchLocked(v)
	s.mu.Unlock()
	s.traceDrops(v, drops)
}

// errFleetClosed is why a delivery ended when the fleet closed.
var errFleetClosed = errors.New("the fleet closed")

// Stop ends delivery for good (the fleet is closing): timers stopped,
// requests in flight cancelled, and the notifications still queued traced
// as not delivered.
func (s *Store) Stop(v Vendor) {
	s.mu.Lock()
	s.initLocked()
	s.stopped = true
	for id := range s.watches {
		s.unwatchLocked(id)
	}
	s.cancel(errFleetClosed)
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	drops := s.drainLocked()
	s.mu.Unlock()
	s.traceDrops(v, drops)
}

// httpClient is the vendor's webhook client: no proxy from the
// environment, loopback dials only, no redirects followed (a redirect
// could point anywhere), no kept-alive connections, and a failed TLS
// handshake told apart (tlsError).
func (s *Store) httpClient() *http.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		s.client = &http.Client{
			Transport: &http.Transport{
				Proxy:                  nil,
				DialContext:            dialLoopback,
				DialTLSContext:         dialTLSLoopback(s.roots),
				DisableKeepAlives:      true,
				MaxResponseHeaderBytes: 16 << 10,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return s.client
}

// errNotLoopback is why a URL outside loopback is not delivered.
var errNotLoopback = errors.New("the fleet delivers push notifications to loopback only (127.0.0.0/8, ::1, localhost)")

// target checks a config's URL: http or https, to a loopback host.
func target(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the url does not parse: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return u, fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if !loopbackHost(u.Hostname()) {
		return u, fmt.Errorf("host %q: %w", u.Hostname(), errNotLoopback)
	}
	return u, nil
}

// loopbackHost reports whether host is localhost or a loopback IP literal
// (no zone). Nothing is resolved.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// dialLoopback dials a loopback address only: localhost is dialed as
// 127.0.0.1, then ::1, without a lookup; any other name is refused.
func dialLoopback(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if !loopbackHost(host) {
		return nil, fmt.Errorf("dial %s: %w", addr, errNotLoopback)
	}
	var d net.Dialer
	if host != "localhost" {
		return d.DialContext(ctx, network, addr)
	}
	c, err := d.DialContext(ctx, "tcp4", net.JoinHostPort("127.0.0.1", port))
	if err == nil {
		return c, nil
	}
	if c, err6 := d.DialContext(ctx, "tcp6", net.JoinHostPort("::1", port)); err6 == nil {
		return c, nil
	}
	return nil, err
}

// dialTLSLoopback dials a receiver's https URL (dialLoopback) and makes
// the TLS handshake, checking the certificate against roots (nil: the
// system's) for the URL's host. A handshake that fails for a reason other
// than the network (an untrusted certificate, an alert from the receiver,
// an answer that is not TLS) is a tlsError.
func dialTLSLoopback(roots *x509.CertPool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := dialLoopback(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(addr)
		c := tls.Client(raw, &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12, ServerName: host})
		if err := c.HandshakeContext(ctx); err != nil {
			_ = raw.Close()
			if ctx.Err() == nil && !networkError(err) {
				err = &tlsError{err}
			}
			return nil, err
		}
		return c, nil
	}
}

// networkError reports whether a handshake failed on the way (the
// connection cut, a timeout) rather than by what the receiver said.
func networkError(err error) bool {
	if tlsAlert(err) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// tlsAlert reports whether err is a TLS alert the receiver sent (crypto/tls
// reports one as a *net.OpError "remote error"). With TLS 1.3 a server
// that refuses the client's certificate sends it after the client has
// finished its handshake, so it comes with the first read of the answer.
func tlsAlert(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "remote error"
}

// tlsFailure reports whether err is a TLS failure that another attempt
// would meet again: a failed handshake or an alert from the receiver.
func tlsFailure(err error) bool {
	var h *tlsError
	return errors.As(err, &h) || tlsAlert(err)
}

// tlsError is a TLS handshake with a receiver that failed for good:
// its certificate did not verify, it refused the handshake, or it does not
// speak TLS at all. Another attempt would fail the same way.
type tlsError struct{ err error }

func (e *tlsError) Error() string {
	var rh tls.RecordHeaderError
	if errors.As(e.err, &rh) && string(rh.RecordHeader[:]) == "HTTP/" {
		return "the TLS handshake failed: the receiver answered in plain HTTP (an https URL at a plain-HTTP port)"
	}
	return "the TLS handshake failed: " + e.err.Error()
}

func (e *tlsError) Unwrap() error { return e.err }

// event is the event of a notification of vendor's task id in state to
// config c, before any attempt.
func event(vendor, id, state string, c Config) trace.Event {
	return trace.Event{Vendor: vendor, Op: trace.OpPushDelivery, Dialect: string(c.Dialect), TaskID: id,
		State: state, URL: c.URL, Note: "push notification config " + c.ID}
}

// deliver sends one notification: up to MaxAttempts attempts, each
// traced, fewer when an attempt fails for good or the fleet closes. The
// completion of a task the push-trials fault marked is a sequence of
// deliveries instead (trials.go), each sent the same way, in order.
func (s *Store) deliver(ctx context.Context, v Vendor, j *job) {
	ev := event(v.ID(), j.taskID, j.state, j.c)
	ev.Host = j.u.Host
	t := v.Task(j.taskID)
	if t == nil {
		ev.DeliveryError = "not delivered: the task store forgot the task before it was sent"
		v.Add(ev)
		return
	}
	posts, err := notification(v, t, j.state, j.at, j.c)
	if err != nil {
		ev.DeliveryError = "not delivered: " + err.Error()
		v.Add(ev)
		return
	}
	for k, p := range posts {
		if !s.send(ctx, v, j.u, ev, p) && k < len(posts)-1 {
			why := "the receiver did not answer the one before"
			if ctx.Err() != nil {
				why = context.Cause(ctx).Error()
			}
			ev.Delivery, ev.DeliveryError = posts[k+1].kind, fmt.Sprintf("not delivered: this and the %d deliveries after it (%s)", len(posts)-2-k, why)
			v.Add(ev)
			return
		}
	}
}

// post is one delivery of a notification: its body and headers, and what
// the trace says of it (its kind, the task and state it names, a note,
// the results it carries).
type post struct {
	kind          string // Event.Delivery ("" for an honest vendor's)
	body          []byte
	hdr           http.Header
	taskID, state string
	note          string
	results       *trace.Results
}

// notification is the deliveries of t in state to c: one, or the trials'
// sequence for the completion of a task the push-trials fault marked.
func notification(v Vendor, t *tasks.Task, state string, now time.Time, c Config) ([]post, error) {
	hdr, err := header(t.Vendor, c)
	if err != nil {
		return nil, err
	}
	doc := v.EncodeTask(t, c.Dialect, state, now)
	if c.Dialect == a2a.Dialect10 {
		doc = map[string]any{"task": doc} // a StreamResponse of one member
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	p := post{body: b, hdr: hdr, taskID: t.ID, state: state}
	if len(t.PushTrials) == 0 {
		return []post{p}, nil
	}
	p.kind = trace.DeliveryGenuine
	if state != "completed" {
		return []post{p}, nil
	}
	p.results = v.Results(t, c.Dialect, state)
	return trials(v, t, now, c, p)
}

// send makes one delivery: up to MaxAttempts attempts, each traced. It
// reports whether the receiver answered the last attempt made (with any
// status).
func (s *Store) send(ctx context.Context, v Vendor, u *url.URL, ev trace.Event, p post) bool {
	s.mu.Lock()
	timeout, delay := cmp.Or(s.timeout, DeliveryTimeout), cmp.Or(s.retryDelay, RetryDelay)
	s.mu.Unlock()
	client := s.httpClient()
	ev.Delivery, ev.TaskID, ev.State = p.kind, p.taskID, p.state
	if p.note != "" {
		ev.Note += ": " + p.note
	}
	ev.Results = nil
	trace.KeepResults(&ev, p.results)
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		if attempt > 1 && !sleepCtx(ctx, delay<<(attempt-2)) {
			ev.DeliveryError = fmt.Sprintf("not delivered: %v before attempt %d", context.Cause(ctx), attempt)
			v.Add(ev)
			return false
		}
		e := ev
		e.Attempt = attempt
		e.Authorization = p.hdr.Get("Authorization") != ""
		e.ContentType = p.hdr.Get("Content-Type")
		seq := v.Begin(e)
		status, err := postOnce(ctx, client, timeout, u, p.body, p.hdr)
		why, again := attemptOutcome(ctx, status, err)
		v.Finish(seq, status, why)
		if !again {
			return status != 0
		}
	}
	return false
}

// attemptOutcome is what an attempt's result says: why it failed ("" for
// a 2xx answer) and whether another attempt may do better (a connection
// error, a timeout, 429 or 5xx). The reason leaves out the method and URL
// net/http puts first (the event has the URL), so that it fits in
// MaxTracedField.
func attemptOutcome(ctx context.Context, status int, err error) (string, bool) {
	var ue *url.Error
	why := ""
	if errors.As(err, &ue) {
		why = ue.Err.Error()
	} else if err != nil {
		why = err.Error()
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Sprintf("%v during the attempt: not retried", context.Cause(ctx)), false
	case tlsFailure(err):
		return why + " (not retried: it would fail the same way again)", false
	case err != nil:
		return why, true
	case status < 200 || status > 299:
		return fmt.Sprintf("the receiver answered HTTP %d (not 2xx)", status), status == http.StatusTooManyRequests || status >= 500
	}
	return "", false
}

// sleepCtx waits for d, or less when ctx ends first (false then).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// postOnce makes one attempt and returns the status (0 when no answer
// came). At most MaxResponseBytes of the answer body are read.
func postOnce(ctx context.Context, client *http.Client, timeout time.Duration, u *url.URL, body []byte, hdr http.Header) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header = hdr.Clone()
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("reading the answer: %w", err)
	}
	return resp.StatusCode, nil
}

// auth is a config's authentication object: 1.0 AuthenticationInfo
// {scheme, credentials}, 0.x {schemes, credentials}.
type auth struct {
	Scheme      string   `json:"scheme"`
	Schemes     []string `json:"schemes"`
	Credentials string   `json:"credentials"`
	scheme      string   // the one scheme named (Config.authentication)
}

// header is the headers of a genuine notification to config c of vendor
// (see the comment at the top of this file): the content type of c's
// dialect, the config's token as X-A2A-Notification-Token, and its
// authentication as Authorization.
func header(vendor string, c Config) (http.Header, error) {
	hdr := http.Header{}
	hdr.Set("User-Agent", "a2a-conform-mockvendor/"+vendor)
	if c.Dialect == a2a.Dialect10 {
		hdr.Set("Content-Type", "application/a2a+json")
	} else {
		hdr.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		hdr.Set("X-A2A-Notification-Token", c.Token)
	}
	a, err := c.authentication()
	if err != nil {
		return nil, err
	}
	if a.scheme != "" && a.Credentials != "" {
		hdr.Set("Authorization", a.scheme+" "+a.Credentials)
	}
	return hdr, nil
}

// authentication decodes the config's authentication object (a zero auth
// when it has none), with scheme the one scheme it names: 1.0's scheme,
// else 0.x's first.
func (c Config) authentication() (auth, error) {
	var a auth
	if len(c.Auth) == 0 || string(c.Auth) == "null" {
		return a, nil
	}
	if err := json.Unmarshal(c.Auth, &a); err != nil {
		return a, fmt.Errorf("the config's authentication is not an object: %w", err)
	}
	a.scheme = a.Scheme
	if a.scheme == "" && len(a.Schemes) > 0 {
		a.scheme = a.Schemes[0]
	}
	return a, nil
}
