package reference

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// The task followed by push notifications (contract task.push; A2A 1.0
// §3.5.1, §4.3.3, §13.2). When the caller asks for push and the card
// claims pushNotifications on the 1.0 JSON-RPC interface in use, the
// reference runs a webhook receiver of its own for the delegation (plain
// HTTP on 127.0.0.1, a random port; the fleet's CA issues it no
// certificate, so HTTPS is not offered), sends the task to return
// immediately, and registers the webhook with
// CreateTaskPushNotificationConfig (the PushInline alternative: in the
// send's configuration) with a fresh Bearer credential of 32 random bytes,
// one per config. The receiver:
//
//   - answers 401 to any delivery whose Authorization is not "Bearer
//     <that credential>" (compared in constant time), and never acts on it;
//   - reads at most pushMaxBody bytes of a body, within pushReadTimeout;
//   - answers 2xx to every authenticated delivery, and takes in only those
//     about the task the config was registered for (one that comes before
//     the send's answer named the task waits, at most pushMaxPending);
//   - takes a body it has taken before (a duplicate) once: the SHA-256 of
//     each body taken is kept;
//   - hands what it takes to the follow loop (followPush), which updates
//     the results (results.go) and the state until the task settles. With
//     no delivery for pushQuiet, one GetTask reads the state instead, so a
//     lost notification costs time, not the task.

// Bounds of the receiver.
const (
	pushMaxBody     = 64 << 10
	pushReadTimeout = 5 * time.Second
	pushMaxPending  = 32
	pushMaxSeen     = 256
	pushQuiet       = 3 * time.Second
	// pushCloseGrace bounds the wait for deliveries under way when the
	// receiver closes.
	pushCloseGrace = time.Second
)

// pushHook is the webhook receiver of one delegation.
type pushHook struct {
	srv    *http.Server
	url    string
	path   string
	secret string
	br     Breaks
	events chan json.RawMessage

	mu      sync.Mutex
	taskID  string            // the task the config is for ("" until known)
	pending []json.RawMessage // authenticated deliveries before taskID was known
	seen    map[[32]byte]bool
}

// wantsPush reports whether the attempt follows its task by push.
func (r *run) wantsPush(a *attempt) bool {
	return r.req.Task.Push && a.card.Capabilities.PushNotifications && a.ep.Binding == bindingJSONRPC && a.ep.Version == ProtocolVersion
}

// startPush starts the delegation's receiver (once) and returns it; nil
// when it cannot listen.
func (r *run) startPush() *pushHook {
	if r.push != nil {
		return r.push
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.notef("push: cannot listen on loopback: %v", err)
		return nil
	}
	secret := r.o.pushSecret(r.br)
	h := &pushHook{secret: secret, br: r.br, events: make(chan json.RawMessage, pushMaxPending+MaxPushEvents), seen: map[[32]byte]bool{}}
	h.path = "/a2a-webhook/" + wire.NewID("d-")
	h.url = "http://" + ln.Addr().String() + h.path
	h.srv = &http.Server{Handler: h, ReadHeaderTimeout: pushReadTimeout, ReadTimeout: pushReadTimeout, WriteTimeout: pushReadTimeout, MaxHeaderBytes: 16 << 10}
	go func() { _ = h.srv.Serve(ln) }()
	r.push = h
	return h
}

// MaxPushEvents bounds the deliveries a receiver holds for its follow
// loop; past it an authenticated delivery is answered 503 (the sender
// may retry).
const MaxPushEvents = 64

// pushSecret is a fresh credential, or the orchestrator's one shared
// credential under the SharedPushToken break.
func (o *Orchestrator) pushSecret(br Breaks) string {
	if br.SharedPushToken {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.sharedPush == "" {
			o.sharedPush = randomSecret()
		}
		return o.sharedPush
	}
	return randomSecret()
}

// randomSecret is 32 random bytes, base64url.
func randomSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// config is the TaskPushNotificationConfig registering the hook for task
// ("" in a send's configuration).
func (h *pushHook) config(task string) map[string]any {
	c := map[string]any{"url": h.url, "authentication": map[string]any{"scheme": "Bearer", "credentials": h.secret}}
	if task != "" {
		c["taskId"] = task
	}
	return c
}

// close stops the receiver: it takes no new delivery, answers the ones
// under way (the follow loop may have acted on one before its handler
// wrote the 200: cut off, the sender would count it undelivered and send
// it again), at most pushCloseGrace, then drops what is left.
func (h *pushHook) close() {
	if h == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), pushCloseGrace)
	defer cancel()
	if h.srv.Shutdown(ctx) != nil {
		_ = h.srv.Close()
	}
}

// authentic reports whether the delivery carries the registered
// credential where the reference looks for it.
func (h *pushHook) authentic(req *http.Request) bool {
	if h.br.PushAcceptAll {
		return true
	}
	got := req.Header.Get("Authorization")
	if h.br.PushTokenHeader {
		got = "Bearer " + req.Header.Get("X-A2A-Notification-Token")
	}
	scheme, cred, _ := strings.Cut(got, " ")
	return strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(cred), []byte(h.secret)) == 1
}

// ServeHTTP answers one delivery.
func (h *pushHook) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != h.path {
		http.NotFound(w, req)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, pushMaxBody))
	if err != nil {
		http.Error(w, "body too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	if !h.authentic(req) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a-webhook"`)
		http.Error(w, "unauthenticated", http.StatusUnauthorized)
		if h.br.PushActOnRefused {
			h.take(body)
		}
		return
	}
	if !json.Valid(body) {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return
	}
	if errors.Is(h.take(body), errPushFull) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// errPushFull is a delivery the receiver has no room for.
var errPushFull = errors.New("the receiver's queue is full")

// take hands an authenticated delivery to the follow loop: once (a body
// taken before is a duplicate), only for the config's task, kept aside
// while the task is not known yet.
func (h *pushHook) take(body []byte) error {
	sum := sha256.Sum256(body)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[sum] && !h.br.PushNoDedup {
		return nil
	}
	if len(h.seen) < pushMaxSeen {
		h.seen[sum] = true
	}
	task := pushTaskOf(body)
	switch {
	case h.taskID == "":
		if len(h.pending) < pushMaxPending {
			h.pending = append(h.pending, body)
		}
		return nil
	case task != h.taskID && !h.br.PushNoTaskCheck:
		return nil // not a task of this config: acknowledged, ignored
	}
	select {
	case h.events <- body:
		return nil
	default:
		return errPushFull
	}
}

// follow names the config's task: the deliveries kept aside for it go to
// the follow loop, the others are dropped.
func (h *pushHook) follow(task string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.taskID = task
	for _, b := range h.pending {
		if pushTaskOf(b) == task || h.br.PushNoTaskCheck {
			select {
			case h.events <- b:
			default:
			}
		}
	}
	h.pending = nil
}

// pushBody is a delivery's body as the reference reads it: a 1.0
// StreamResponse or a 0.3 Task.
type pushBody struct {
	Task           *pushObject `json:"task"`
	StatusUpdate   *pushObject `json:"statusUpdate"`
	ArtifactUpdate *pushObject `json:"artifactUpdate"`
	pushObject
}

// pushObject is the part of a task or an event the reference reads.
type pushObject struct {
	ID     string `json:"id"`
	TaskID string `json:"taskId"`
	Status *struct {
		State string `json:"state"`
	} `json:"status"`
}

// pushTaskOf is the id of the task a delivery is about ("" when none).
func pushTaskOf(body []byte) string {
	o, _ := pushDecode(body)
	return o.TaskID
}

// pushDecode reads the task id and the state (0.3 spelling, "" for
// none) a delivery announces.
func pushDecode(body []byte) (pushObject, string) {
	var b pushBody
	if json.Unmarshal(body, &b) != nil {
		return pushObject{}, ""
	}
	o := b.pushObject
	switch {
	case b.Task != nil:
		o = *b.Task
	case b.StatusUpdate != nil:
		o = *b.StatusUpdate
	case b.ArtifactUpdate != nil:
		o = *b.ArtifactUpdate
	}
	if o.TaskID == "" {
		o.TaskID = o.ID
	}
	state := ""
	if o.Status != nil {
		state = wire.NormalState(o.Status.State)
	}
	return o, state
}

// pushParams adds push to the real send's params: return at once, and,
// with the PushInline alternative, the config itself.
func (r *run) pushParams(a *attempt, params map[string]any) map[string]any {
	h := r.startPush()
	if h == nil {
		return params
	}
	a.push = h
	p := make(map[string]any, len(params)+1)
	for k, v := range params {
		p[k] = v
	}
	conf := map[string]any{"returnImmediately": true}
	if r.alt.PushInline {
		conf["taskPushNotificationConfig"] = h.config("")
	}
	p["configuration"] = conf
	return p
}

// registerPush registers the webhook for the task the send created
// (CreateTaskPushNotificationConfig), unless the send carried it. False
// means push is not available: the task is polled.
func (r *run) registerPush(a *attempt, task string) bool {
	if !r.alt.PushInline {
		res := r.callOnce(a, "CreateTaskPushNotificationConfig", a.push.config(task))
		if !res.ok() {
			r.notef("push: registering the webhook for task %s: %s; polling instead", task, describe(res))
			return false
		}
	}
	a.push.follow(task)
	return true
}

// followPush follows the task by the deliveries the receiver takes until
// it settles, reading GetTask after pushQuiet without one.
func (r *run) followPush(a *attempt, info wire.TaskInfo) wire.TaskInfo {
	if !r.registerPush(a, info.ID) {
		return r.poll(a, info)
	}
	quiet := time.NewTimer(pushQuiet)
	defer quiet.Stop()
	for !settled(info.State) {
		select {
		case <-r.ctx.Done():
			r.notef("deadline: task %s still %s (followed by push)", info.ID, info.State)
			return info
		case body := <-a.push.events:
			r.takeResult(body) // results.go
			if _, st := pushDecode(body); st != "" {
				info.State = st
			}
			quiet.Reset(pushQuiet)
		case <-quiet.C:
			g := r.call(a, "GetTask", map[string]any{"id": info.ID})
			if g.ok() {
				info.State = g.info.State
			}
			quiet.Reset(pushQuiet)
		}
	}
	r.notef("task %s %s, followed by push", info.ID, info.State)
	return info
}
