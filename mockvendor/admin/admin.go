// Package admin is the fleet's admin API: a loopback HTTP server, guarded by
// a bearer token, to list vendors and fault types, attach and detach faults
// at run time, reset the fleet, read and stream the trace, draw it as a
// sequence diagram, and a live traffic page for a browser.
//
//	GET    /                                   live traffic page (?token= on the first visit sets the cookie)
//	GET    /admin/vendors                      vendors with their hosts and attached faults (and a proxied one's agent)
//	GET    /admin/vendors/{vendor}             one vendor
//	GET    /admin/vendors/{vendor}/faults      its attached faults
//	POST   /admin/vendors/{vendor}/faults      attach a fault {"type","hosts","config"} -> 201 {"id"}
//	DELETE /admin/vendors/{vendor}/faults/{id} detach it -> 204
//	GET    /admin/faults                       fault types and their config fields
//	POST   /admin/reset                        back to the start-up faults -> 204
//	GET    /admin/trace                        events as a JSON array (?host= ?op= ?vendor= ?since=)
//	GET    /admin/trace/stream                 the same as server-sent events, live
//	DELETE /admin/trace                        forget the trace -> 204
//	GET    /admin/diagram.svg                  the trace as a sequence diagram (same filters, ?highlight=SEQ, ?last=N)
//
// Errors are JSON {"error": "...", "field": "..."}; writeError is the one
// place that maps them to HTTP statuses.
//
// The token travels in "Authorization: Bearer TOKEN" or in the admin
// cookie, which one authenticated visit of the page sets: GET /?token=TOKEN
// answers 303 to / with the cookie (HttpOnly, SameSite=Strict, Path=/,
// named for the listener's port), so the token leaves the address bar and
// the page holds none. The page's fetches, its event stream and its
// diagram then carry the cookie. A request authenticated by the cookie
// alone must come from the page's own origin: a Sec-Fetch-Site other than
// same-origin or none, or an Origin that is not the Host's, is refused
// (403), and a method other than GET must carry a matching Origin (a
// browser sends one). ?token= is read on GET / only.
//
// Bounds: the Host header must name a loopback address or localhost (a
// DNS-rebinding page cannot), a request without the token is answered
// 401 and its connection closed without reading its body, a body is read
// within 10 s and is at most 1 MiB, a vendor holds at most MaxFaults
// faults, a fault config is at most MaxFaultConfig bytes and all configs
// together at most MaxConfigTotal (413 or 409 past them), at most
// MaxStreams trace streams are open at once (503 with Retry-After past
// it), and a stream that falls behind loses events rather than slowing
// the fleet. Start refuses a token shorter than MinTokenLen and serves
// at most MaxConns connections at once.
package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/seqdiag"
)

// maxBody bounds an admin request body.
const maxBody = 1 << 20

// Caps of the admin API (see the package documentation).
const (
	MaxFaults      = 32
	MaxFaultConfig = 64 << 10
	MaxConfigTotal = 1 << 20
	MaxStreams     = 16
)

// bodyTimeout bounds reading an admin request body.
const bodyTimeout = 10 * time.Second

type api struct {
	fleet *mockvendor.Fleet
	token string
	// done, when closed, ends the trace streams (the admin server closing).
	done <-chan struct{}
	// faultMu makes a fault's cap checks and its attaching one step.
	faultMu sync.Mutex
	streams atomic.Int64
}

// New returns the admin API of the fleet. Every request must carry
// "Authorization: Bearer TOKEN" or the admin cookie, which GET /?token=TOKEN
// sets (see the package doc). Requests from outside loopback are refused.
// An empty token refuses everything.
func New(f *mockvendor.Fleet, token string) http.Handler {
	return newHandler(f, token, nil)
}

func newHandler(f *mockvendor.Fleet, token string, done <-chan struct{}) http.Handler {
	a := &api{fleet: f, token: token, done: done}
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, errRoute)
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, errMethod)
	})
	r.HandleFunc("/", a.page).Methods(http.MethodGet)
	r.HandleFunc("/admin/vendors", a.vendors).Methods(http.MethodGet)
	r.HandleFunc("/admin/vendors/{vendor}", a.vendor).Methods(http.MethodGet)
	r.HandleFunc("/admin/vendors/{vendor}/faults", a.faults).Methods(http.MethodGet)
	r.HandleFunc("/admin/vendors/{vendor}/faults", a.addFault).Methods(http.MethodPost)
	r.HandleFunc("/admin/vendors/{vendor}/faults/{id}", a.removeFault).Methods(http.MethodDelete)
	r.HandleFunc("/admin/faults", a.faultTypes).Methods(http.MethodGet)
	r.HandleFunc("/admin/reset", a.reset).Methods(http.MethodPost)
	r.HandleFunc("/admin/trace", a.trace).Methods(http.MethodGet)
	r.HandleFunc("/admin/trace", a.resetTrace).Methods(http.MethodDelete)
	r.HandleFunc("/admin/trace/stream", a.stream).Methods(http.MethodGet)
	r.HandleFunc("/admin/diagram.svg", a.diagram).Methods(http.MethodGet)
	return a.guard(r)
}

// Errors of the API itself; the fleet's are *mockvendor.ConfigError and
// *mockvendor.NotFoundError.
var (
	errUnauthorized = errors.New("missing or wrong bearer token")
	errForbidden    = errors.New("the admin API answers loopback clients only")
	errMethod       = errors.New("method not allowed")
	errRoute        = errors.New("no such route")
	errHost         = errors.New("the Host header must name the admin API's loopback address or localhost")
	errCrossOrigin  = errors.New("a request authenticated by the admin cookie must come from the admin page's own origin")
	errTooMany      = errors.New("too many")
	errTooLarge     = errors.New("too large")
)

// capError is a request past one of the API's caps.
type capError struct {
	kind error // errTooMany (409, 503 for streams) or errTooLarge (413)
	msg  string
}

func (e *capError) Error() string { return e.msg }
func (e *capError) Unwrap() error { return e.kind }

// badRequest is input the API cannot use (bad JSON, a bad query value).
type badRequest struct{ field, msg string }

func (e *badRequest) Error() string { return e.msg }

// loopbackHost reports whether a Host header names a loopback address or
// localhost (with or without a port).
func loopbackHost(h string) bool {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// guard refuses clients outside loopback, Host headers that name anything
// else, and requests without the token. A refused request's connection is
// closed without its body being read.
func (a *api) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				w.Header().Set("Connection", "close")
				writeError(w, errForbidden)
				return
			}
		}
		if !loopbackHost(r.Host) {
			w.Header().Set("Connection", "close")
			writeError(w, errHost)
			return
		}
		switch how := a.authenticate(r); how {
		case authFirstVisit:
			a.setCookie(w, r)
			w.Header().Set("Location", "/")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Referrer-Policy", "no-referrer")
			w.WriteHeader(http.StatusSeeOther)
			return
		case authCookie:
			if !sameOrigin(r) {
				w.Header().Set("Connection", "close")
				writeError(w, errCrossOrigin)
				return
			}
		case authNone:
			w.Header().Set("Connection", "close")
			writeError(w, errUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeError is the one place that maps an error to an HTTP status and the
// JSON error body.
func writeError(w http.ResponseWriter, err error) {
	type body struct {
		Error string `json:"error"`
		Field string `json:"field,omitempty"`
	}
	status, b := http.StatusInternalServerError, body{Error: err.Error()}
	var (
		ce *mockvendor.ConfigError
		nf *mockvendor.NotFoundError
		br *badRequest
	)
	switch {
	case errors.Is(err, errUnauthorized):
		status = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a-conform fleet admin"`)
	case errors.Is(err, errForbidden), errors.Is(err, errHost), errors.Is(err, errCrossOrigin):
		status = http.StatusForbidden
	case errors.Is(err, errTooLarge):
		status = http.StatusRequestEntityTooLarge
	case errors.Is(err, errTooMany):
		status = http.StatusConflict
	case errors.Is(err, errMethod):
		status = http.StatusMethodNotAllowed
	case errors.Is(err, errRoute):
		status = http.StatusNotFound
	case errors.As(err, &nf):
		status = http.StatusNotFound
	case errors.As(err, &ce):
		status, b = http.StatusBadRequest, body{Error: ce.Msg, Field: ce.Field}
	case errors.As(err, &br):
		status, b = http.StatusBadRequest, body{Error: br.msg, Field: br.field}
	}
	writeJSON(w, status, b)
}

// writeJSON writes v as compact JSON: an indented request body (the
// trace's, a fault's config) would grow with its nesting depth.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// VendorInfo is a vendor as GET /admin/vendors lists it.
type VendorInfo struct {
	ID           string                     `json:"id"`
	Organization string                     `json:"organization"`
	Hosts        []string                   `json:"hosts"`
	Faults       []mockvendor.AttachedFault `json:"faults"`
	// Upstream is the real agent the vendor stands in front of (its URL,
	// or the recording it replays); "" for the fleet's own vendors.
	Upstream string `json:"upstream,omitempty"`
	// ApplicableFaults are the fault types the vendor takes, by name, when
	// it has an upstream (Vendor.ApplicableFaults); nil when every type
	// applies.
	ApplicableFaults []string `json:"applicableFaults,omitempty"`
}

func (a *api) vendorInfo(v *mockvendor.Vendor) (VendorInfo, error) {
	faults, err := a.fleet.Faults(v.ID())
	if err != nil {
		return VendorInfo{}, err
	}
	if faults == nil {
		faults = []mockvendor.AttachedFault{}
	}
	vi := VendorInfo{ID: v.ID(), Organization: v.Config().Organization, Hosts: v.Hosts(), Faults: faults, ApplicableFaults: v.ApplicableFaults()}
	if uc := v.Config().Upstream; uc != nil {
		vi.Upstream = uc.URL
		if uc.Replay != "" {
			vi.Upstream = "replay of " + uc.Replay
		}
	}
	return vi, nil
}

func (a *api) vendors(w http.ResponseWriter, r *http.Request) {
	out := []VendorInfo{}
	for _, v := range a.fleet.Vendors() {
		vi, err := a.vendorInfo(v)
		if err != nil {
			writeError(w, err)
			return
		}
		out = append(out, vi)
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) lookup(r *http.Request) (*mockvendor.Vendor, error) {
	id := mux.Vars(r)["vendor"]
	if v := a.fleet.Vendor(id); v != nil {
		return v, nil
	}
	return nil, &mockvendor.NotFoundError{What: "vendor", Name: id}
}

// vendor and faults answer GET /admin/vendors/{vendor} and its /faults.
func (a *api) vendor(w http.ResponseWriter, r *http.Request) {
	if vi, ok := a.vendorInfoOf(w, r); ok {
		writeJSON(w, http.StatusOK, vi)
	}
}

func (a *api) faults(w http.ResponseWriter, r *http.Request) {
	if vi, ok := a.vendorInfoOf(w, r); ok {
		writeJSON(w, http.StatusOK, vi.Faults)
	}
}

// vendorInfoOf describes the request's vendor, or writes the error.
func (a *api) vendorInfoOf(w http.ResponseWriter, r *http.Request) (VendorInfo, bool) {
	v, err := a.lookup(r)
	if err == nil {
		var vi VendorInfo
		if vi, err = a.vendorInfo(v); err == nil {
			return vi, true
		}
	}
	writeError(w, err)
	return VendorInfo{}, false
}

func (a *api) addFault(w http.ResponseWriter, r *http.Request) {
	v, err := a.lookup(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var spec mockvendor.FaultSpec
	if err := decodeBody(w, r, &spec); err != nil {
		writeError(w, err)
		return
	}
	if spec.Type == "" {
		writeError(w, &badRequest{field: "type", msg: "a fault needs a type"})
		return
	}
	a.faultMu.Lock()
	defer a.faultMu.Unlock()
	if err := a.faultFits(v, spec); err != nil {
		writeError(w, err)
		return
	}
	id, err := a.fleet.AddFault(v.ID(), spec)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/admin/vendors/"+v.ID()+"/faults/"+id)
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// faultFits checks a new fault against MaxFaults, MaxFaultConfig and
// MaxConfigTotal.
func (a *api) faultFits(v *mockvendor.Vendor, spec mockvendor.FaultSpec) error {
	if len(spec.Config) > MaxFaultConfig {
		return &capError{errTooLarge, fmt.Sprintf("the fault config has %d bytes, more than %d", len(spec.Config), MaxFaultConfig)}
	}
	total := len(spec.Config)
	for _, o := range a.fleet.Vendors() {
		faults, _ := a.fleet.Faults(o.ID())
		if o == v && len(faults) >= MaxFaults {
			return &capError{errTooMany, fmt.Sprintf("vendor %s already has %d faults, the most it may hold", v.ID(), MaxFaults)}
		}
		for _, af := range faults {
			total += len(af.Config)
		}
	}
	if total > MaxConfigTotal {
		return &capError{errTooLarge, fmt.Sprintf("the fault configs would hold %d bytes together, more than %d", total, MaxConfigTotal)}
	}
	return nil
}

// decodeBody reads a JSON body strictly, within bodyTimeout: unknown
// fields and trailing data are refused, naming the field where
// encoding/json does.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(bodyTimeout)) == nil {
		defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	}
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return &badRequest{field: te.Field, msg: fmt.Sprintf("want %s, not %s", te.Type, te.Value)}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			return &badRequest{field: f, msg: err.Error()}
		case errors.Is(err, io.EOF):
			return &badRequest{msg: "empty body: want a JSON object"}
		}
		return &badRequest{msg: "invalid JSON: " + err.Error()}
	}
	if dec.More() {
		return &badRequest{msg: "invalid JSON: data after the object"}
	}
	return nil
}

func (a *api) removeFault(w http.ResponseWriter, r *http.Request) {
	v, err := a.lookup(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := a.fleet.RemoveFault(v.ID(), mux.Vars(r)["id"]); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *api) faultTypes(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, mockvendor.FaultTypes())
}

func (a *api) reset(w http.ResponseWriter, _ *http.Request) {
	if err := a.fleet.Reset(); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *api) resetTrace(w http.ResponseWriter, _ *http.Request) {
	a.fleet.Trace().Reset()
	w.WriteHeader(http.StatusNoContent)
}

// filter is the trace query: ?host= ?op= ?vendor= (each may repeat) and
// ?since=SEQ.
type filter struct {
	hosts, ops, vendors map[string]bool
	since               int64
}

func parseFilter(r *http.Request) (filter, error) {
	q := r.URL.Query()
	set := func(k string) map[string]bool {
		m := map[string]bool{}
		for _, v := range q[k] {
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					m[s] = true
				}
			}
		}
		return m
	}
	f := filter{hosts: set("host"), ops: set("op"), vendors: set("vendor")}
	if s := q.Get("since"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return f, &badRequest{field: "since", msg: fmt.Sprintf("since must be a sequence number, not %q", s)}
		}
		f.since = n
	}
	// A reconnecting EventSource says what it has seen last; that wins
	// over the ?since= of its URL.
	if s := r.Header.Get("Last-Event-ID"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
			f.since = n
		}
	}
	for op := range f.ops {
		if !slices.Contains(mockvendor.Ops(), mockvendor.Op(op)) {
			return f, &badRequest{field: "op", msg: fmt.Sprintf("unknown op %q", op)}
		}
	}
	return f, nil
}

func (f filter) match(e mockvendor.Event) bool {
	return e.Seq > f.since &&
		(len(f.hosts) == 0 || f.hosts[e.Host]) &&
		(len(f.ops) == 0 || f.ops[string(e.Op)]) &&
		(len(f.vendors) == 0 || f.vendors[e.Vendor])
}

func (a *api) events(f filter) []mockvendor.Event {
	out := []mockvendor.Event{}
	for _, e := range a.fleet.Trace().Since(f.since) {
		if f.match(e) {
			out = append(out, e)
		}
	}
	return out
}

func (a *api) trace(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, a.events(f))
}

func (a *api) diagram(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var opts seqdiag.Options
	q := r.URL.Query()
	if s := q.Get("highlight"); s != "" {
		if opts.Highlight, err = strconv.ParseInt(s, 10, 64); err != nil {
			writeError(w, &badRequest{field: "highlight", msg: fmt.Sprintf("highlight must be a sequence number, not %q", s)})
			return
		}
	}
	evs := a.events(f)
	if s := q.Get("last"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			writeError(w, &badRequest{field: "last", msg: fmt.Sprintf("last must be a count, not %q", s)})
			return
		}
		if len(evs) > n {
			evs = evs[len(evs)-n:]
		}
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write(seqdiag.Render(evs, opts))
}

// heartbeat keeps idle event streams open through proxies.
var heartbeat = 15 * time.Second

// stream sends each new trace event as a server-sent event ("event: trace",
// id = the sequence number, data = the event JSON). With ?since=SEQ (or
// Last-Event-ID) it first sends the kept events after SEQ. It ends when the
// client goes away, the fleet closes or the admin server closes.
func (a *api) stream(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if n := a.streams.Add(1); n > MaxStreams {
		a.streams.Add(-1)
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": fmt.Sprintf("%d trace streams are open, the most the admin API serves", MaxStreams)})
		return
	}
	defer a.streams.Add(-1)
	rc := http.NewResponseController(w)
	ch, stop := a.fleet.Trace().Subscribe()
	defer stop()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(e mockvendor.Event) bool {
		b, _ := json.Marshal(e)
		if _, err := fmt.Fprintf(w, "id: %d\nevent: trace\ndata: %s\n\n", e.Seq, b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if _, err := io.WriteString(w, ": a2a-conform fleet trace\nretry: 1000\n\n"); err != nil || rc.Flush() != nil {
		return
	}
	// The backlog, then live events. An event still in flight when the
	// backlog was read is sent again when it completes.
	sent := map[int64]bool{}
	if r.URL.Query().Get("since") != "" || r.Header.Get("Last-Event-ID") != "" {
		for _, e := range a.events(f) {
			if !send(e) {
				return
			}
			sent[e.Seq] = e.Status != 0 || e.Op == mockvendor.OpRefused
		}
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return
			}
			if sent[e.Seq] || !f.match(e) {
				continue
			}
			if !send(e) {
				return
			}
		case <-tick.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-a.fleet.Done():
			return
		case <-a.done:
			return
		}
	}
}
