package mockvendor

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
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
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
// creates the task (push.go, inlinePush) exists from the task's start, so
// the state that send answers is delivered too. Follow-up messages do not
// change a task's state and send nothing.
//
// A task's state is computed from the clock (Task.State), so each task with
// configs has one timer that fires at its next transition (submitted ->
// working at half the work time, -> its end state when the work is done);
// a cancel wakes it at once (pushChanged). The timer is stopped when the
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
// receiver (push_queue.go), so a receiver that hangs holds only its own
// share. §4.3.3 (Server Guarantees) asks for at least one attempt per
// config, allows retries with backoff and giving up after a number of
// failures, and recommends a 10-30 s timeout. A failure that would fail
// the same way again (a TLS handshake that fails: an untrusted
// certificate, a receiver that refuses the handshake, an https URL at a
// plain-HTTP port) is not retried, and a delivery the fleet's Close ends
// is traced as such, with no further attempt.

// Bounds of webhook delivery, per vendor.
const (
	// PushDeliveryTimeout bounds one delivery attempt, from dialing to the
	// end of the (capped) response body: 10 s, the low end of the 10-30 s
	// §4.3.3 recommends.
	PushDeliveryTimeout = 10 * time.Second
	// MaxPushAttempts is the most attempts one notification gets (3): the
	// first, and two retries after a connection error, a timeout, a 429 or
	// a 5xx answer. Any other answer (2xx, 3xx, 4xx), a failed TLS
	// handshake and the fleet's close end it.
	MaxPushAttempts = 3
	// PushRetryDelay is the wait before the first retry (250 ms); it
	// doubles for each later one.
	PushRetryDelay = 250 * time.Millisecond
	// MaxPushInFlight is the most notifications a vendor has in flight at
	// once (8), all receivers together; a notification that finds them all
	// taken waits in its receiver's queue.
	MaxPushInFlight = 8
	// MaxPushInFlightPerReceiver is the most notifications one receiver
	// (a URL's host and port) has in flight at once (2): a receiver that
	// hangs holds two of the vendor's slots, not all eight.
	MaxPushInFlightPerReceiver = 2
	// MaxPushQueuedPerReceiver is the most notifications waiting for one
	// receiver (32); past it the oldest waiting one is dropped, and the
	// trace says so.
	MaxPushQueuedPerReceiver = 32
	// MaxPushQueued is the most notifications waiting for all of a
	// vendor's receivers together (256); past it the oldest waiting one of
	// the receiver with the most is dropped, and the trace says so.
	MaxPushQueued = 256
	// MaxPushResponseBytes is the most bytes of a receiver's answer body
	// read (4 KiB); the rest is left unread and the connection closed.
	MaxPushResponseBytes = 4 << 10
)

// pushWatch follows one task with push configs.
type pushWatch struct {
	t     *task
	last  string      // the state last seen (delivered, or at registration)
	timer *time.Timer // fires at the next transition; nil for none
}

// pushDelivery is the delivery side of a pushStore.
type pushDelivery struct {
	watches map[string]*pushWatch // by task id
	queue   pushQueue             // push_queue.go
	stopped bool
	ctx     context.Context // cancelled, with errFleetClosed, by stop
	cancel  context.CancelCauseFunc
	client  *http.Client

	// timeout and retryDelay replace PushDeliveryTimeout and
	// PushRetryDelay when set (tests); roots are the CAs an https
	// receiver's certificate is checked against (nil: the system's).
	timeout, retryDelay time.Duration
	roots               *x509.CertPool
}

// initLocked prepares the delivery state; s.mu is held.
func (s *pushStore) initLocked() {
	if s.watches != nil {
		return
	}
	s.watches = map[string]*pushWatch{}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
}

// watch starts following t after a config was set for it, unless it is
// already followed or terminal: the state it is in now is not delivered.
func (s *pushStore) watch(v *Vendor, t *task) {
	s.watchFrom(v, t, t.State(time.Now(), v.fleet.limits.WorkTime))
}

// watchFrom starts following t as one whose state last seen was seen
// ("": none, so the state it is in now is delivered at once: a config the
// send that created the task carried).
func (s *pushStore) watchFrom(v *Vendor, t *task, seen string) {
	now := time.Now()
	s.mu.Lock()
	s.initLocked()
	if s.stopped || s.watches[t.ID] != nil || seen != "" && tasks.Terminal(seen) {
		s.mu.Unlock()
		return
	}
	w := &pushWatch{t: t, last: seen}
	s.watches[t.ID] = w
	s.scheduleLocked(v, w, now)
	s.mu.Unlock()
	if seen == "" {
		s.check(v, t)
	}
}

// unwatchLocked stops following task id; s.mu is held.
func (s *pushStore) unwatchLocked(id string) {
	if w := s.watches[id]; w != nil {
		if w.timer != nil {
			w.timer.Stop()
		}
		delete(s.watches, id)
	}
}

// scheduleLocked arms w's timer for the task's next transition (none for
// a held task: only a cancel changes it); s.mu is held.
func (s *pushStore) scheduleLocked(v *Vendor, w *pushWatch, now time.Time) {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	at, ok := nextTransition(w.t, now, v.fleet.limits.WorkTime)
	if !ok {
		return
	}
	t := w.t
	w.timer = time.AfterFunc(max(at.Sub(now), 0), func() { s.check(v, t) })
}

// nextTransition is when the state of t changes next after now, as
// Task.State computes it; false when only a cancel changes it.
func nextTransition(t *task, now time.Time, work time.Duration) (time.Time, bool) {
	switch {
	case t.Canceled(), t.Hold:
		return time.Time{}, false
	case t.WorkFor > 0:
		end := t.Created.Add(t.WorkFor)
		return end, now.Before(end)
	case t.Blocking:
		return time.Time{}, false
	}
	if half := t.Created.Add(work / 2); now.Before(half) {
		return half, true
	}
	end := t.Created.Add(work)
	return end, now.Before(end)
}

// pushChanged wakes the watch of a task whose state a request changed (a
// cancel): the change is delivered now rather than at the next timer.
func (v *Vendor) pushChanged(t *task) {
	v.push.mu.Lock()
	followed := v.push.watches[t.ID] != nil
	v.push.mu.Unlock()
	if followed {
		v.push.check(v, t)
	}
}

// check delivers t's state to its configs when it changed since the last
// look, and arms the timer for the next change.
func (s *pushStore) check(v *Vendor, t *task) {
	f := v.fleet
	if !f.enter() {
		return // the fleet is closing
	}
	defer f.active.Done()
	now := time.Now()
	state := t.State(now, f.limits.WorkTime)
	known := f.tasks.Get(t.Vendor, t.ID) == t
	s.mu.Lock()
	w := s.watches[t.ID]
	if s.stopped || w == nil || w.t != t {
		s.mu.Unlock()
		return
	}
	if !known { // the task store forgot the task: so does the push store
		s.unwatchLocked(t.ID)
		delete(s.byTask, t.ID)
		s.order = slices.DeleteFunc(s.order, func(id string) bool { return id == t.ID })
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
	var drops []pushDrop
	for _, c := range s.byTask[t.ID] {
		u, err := pushTarget(c.url)
		if err != nil {
			drops = append(drops, pushDrop{&pushJob{taskID: t.ID, state: state, at: now, c: c, u: u}, err.Error()})
			continue
		}
		drops = s.queueLocked(&pushJob{taskID: t.ID, state: state, at: now, c: c, u: u}, drops)
	}
	s.dispatchLocked(v)
	s.mu.Unlock()
	s.traceDrops(v, drops)
}

// errFleetClosed is why a delivery ended when the fleet closed.
var errFleetClosed = errors.New("the fleet closed")

// stop ends delivery for good (the fleet is closing): timers stopped,
// requests in flight cancelled, and the notifications still queued traced
// as not delivered.
func (s *pushStore) stop(v *Vendor) {
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
// handshake told apart (pushTLSError).
func (s *pushStore) httpClient() *http.Client {
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

// pushTarget checks a config's URL: http or https, to a loopback host.
func pushTarget(raw string) (*url.URL, error) {
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
// an answer that is not TLS) is a pushTLSError.
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
				err = &pushTLSError{err}
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
	var h *pushTLSError
	return errors.As(err, &h) || tlsAlert(err)
}

// pushTLSError is a TLS handshake with a receiver that failed for good:
// its certificate did not verify, it refused the handshake, or it does not
// speak TLS at all. Another attempt would fail the same way.
type pushTLSError struct{ err error }

func (e *pushTLSError) Error() string {
	var rh tls.RecordHeaderError
	if errors.As(e.err, &rh) && string(rh.RecordHeader[:]) == "HTTP/" {
		return "the TLS handshake failed: the receiver answered in plain HTTP (an https URL at a plain-HTTP port)"
	}
	return "the TLS handshake failed: " + e.err.Error()
}

func (e *pushTLSError) Unwrap() error { return e.err }

// pushEvent is the event of a notification of task id in state to config
// c, before any attempt.
func pushEvent(v *Vendor, id, state string, c pushConfig) Event {
	return Event{Vendor: v.cfg.ID, Op: OpPushDelivery, Dialect: string(c.dialect), TaskID: id,
		State: state, URL: c.url, Note: "push notification config " + c.id}
}

// deliver sends one notification: up to MaxPushAttempts attempts, each
// traced, fewer when an attempt fails for good or the fleet closes.
func (s *pushStore) deliver(ctx context.Context, v *Vendor, j *pushJob) {
	f := v.fleet
	ev := pushEvent(v, j.taskID, j.state, j.c)
	ev.Host = j.u.Host
	t := f.tasks.Get(v.cfg.ID, j.taskID)
	if t == nil {
		ev.DeliveryError = "not delivered: the task store forgot the task before it was sent"
		f.trace.Add(redactPush(f, ev))
		return
	}
	body, hdr, err := pushPayload(f, t, j.state, j.at, j.c)
	if err != nil {
		ev.DeliveryError = "not delivered: " + err.Error()
		f.trace.Add(redactPush(f, ev))
		return
	}
	s.mu.Lock()
	timeout, delay := cmp.Or(s.timeout, PushDeliveryTimeout), cmp.Or(s.retryDelay, PushRetryDelay)
	s.mu.Unlock()
	client := s.httpClient()
	for attempt := 1; attempt <= MaxPushAttempts; attempt++ {
		if attempt > 1 && !sleepCtx(ctx, delay<<(attempt-2)) {
			ev.DeliveryError = fmt.Sprintf("not delivered: %v before attempt %d", context.Cause(ctx), attempt)
			f.trace.Add(redactPush(f, ev))
			return
		}
		e := ev
		e.Attempt = attempt
		e.Authorization = hdr.Get("Authorization") != ""
		e.ContentType = hdr.Get("Content-Type")
		seq := f.trace.Begin(redactPush(f, e))
		status, err := postOnce(ctx, client, timeout, j.u, body, hdr)
		why, again := attemptOutcome(ctx, status, err)
		f.trace.Finish(seq, func(e *Event) {
			e.Status = status
			e.DeliveryError, _ = f.RedactText(why)
		})
		if !again {
			return
		}
	}
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

// redactPush is e with the credentials the fleet issued cut out of its
// text (Fleet.redact: a config's URL may carry one).
func redactPush(f *Fleet, e Event) Event {
	f.redact(&e)
	return e
}

// postOnce makes one attempt and returns the status (0 when no answer
// came). At most MaxPushResponseBytes of the answer body are read.
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
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxPushResponseBytes))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("reading the answer: %w", err)
	}
	return resp.StatusCode, nil
}

// pushAuth is a config's authentication object: 1.0 AuthenticationInfo
// {scheme, credentials}, 0.x {schemes, credentials}.
type pushAuth struct {
	Scheme      string   `json:"scheme"`
	Schemes     []string `json:"schemes"`
	Credentials string   `json:"credentials"`
}

// pushPayload is the body and headers of a notification of t in state to
// config c, in c's dialect (see the comment at the top of this file).
func pushPayload(f *Fleet, t *task, state string, now time.Time, c pushConfig) ([]byte, http.Header, error) {
	hdr := http.Header{}
	hdr.Set("User-Agent", "a2a-conform-mockvendor/"+t.Vendor)
	var doc any = f.encodeTaskAt(t, c.dialect, state, now)
	if c.dialect == Dialect10 {
		doc = map[string]any{"task": doc} // a StreamResponse of one member
		hdr.Set("Content-Type", "application/a2a+json")
	} else {
		hdr.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		hdr.Set("X-A2A-Notification-Token", c.token)
	}
	if len(c.auth) > 0 && string(c.auth) != "null" {
		var a pushAuth
		if err := json.Unmarshal(c.auth, &a); err != nil {
			return nil, nil, fmt.Errorf("the config's authentication is not an object: %w", err)
		}
		scheme := a.Scheme
		if scheme == "" && len(a.Schemes) > 0 {
			scheme = a.Schemes[0]
		}
		if scheme != "" && a.Credentials != "" {
			hdr.Set("Authorization", scheme+" "+a.Credentials)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	return b, hdr, nil
}
