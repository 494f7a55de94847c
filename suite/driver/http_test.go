package driver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// newOUTServer serves an http OUT whose behaviour is chosen by path.
func newOUTServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var resets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want POST of application/json", http.StatusUnsupportedMediaType)
			return
		}
		var m struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &m); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		switch m.Type {
		case "reset":
			resets.Add(1)
			if r.URL.Path == "/ok" {
				json.NewEncoder(w).Encode(contract.Reset{Contract: 1, Type: "reset", OK: true})
				return
			}
		case "hello":
			if r.URL.Path == "/ok" {
				json.NewEncoder(w).Encode(contract.Hello{Contract: 1, Type: "hello", Name: "svc", Version: "2"})
				return
			}
		}
		switch r.URL.Path {
		case "/ok":
			json.NewEncoder(w).Encode(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: "completed", Reason: "ok"})
		case "/500":
			http.Error(w, "internal trouble", http.StatusInternalServerError)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "/garbage":
			w.Write([]byte("<html>gateway error</html>"))
		case "/wrongid":
			json.NewEncoder(w).Encode(contract.DelegationOutcome{Contract: 1, ID: "nope", Outcome: "completed"})
		case "/huge":
			w.Write([]byte(`{"contract":1,"detail":"`))
			w.Write([]byte(strings.Repeat("x", 2<<20)))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &resets
}

func TestHTTPDriver(t *testing.T) {
	srv, resets := newOUTServer(t)
	tests := []struct {
		path       string
		deadlineMs int
		check      func(t *testing.T, r driver.Result)
	}{
		{"/ok", 2000, func(t *testing.T, r driver.Result) {
			if r.Outcome == nil || r.Outcome.Outcome != "completed" || r.Outcome.ID != "h1" {
				t.Fatalf("result %+v", r)
			}
		}},
		{"/500", 2000, func(t *testing.T, r driver.Result) {
			if r.NoOutcome != "http status 500" {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
		}},
		{"/slow", 200, func(t *testing.T, r driver.Result) {
			if r.NoOutcome != "timeout" {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
			// 200ms deadline + 200ms grace.
			if r.Elapsed < 350*time.Millisecond || r.Elapsed > 2*time.Second {
				t.Fatalf("elapsed %v", r.Elapsed)
			}
		}},
		{"/garbage", 2000, func(t *testing.T, r driver.Result) {
			if r.NoOutcome != `not json: "<html>gateway error</html>"` {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
		}},
		{"/wrongid", 2000, func(t *testing.T, r driver.Result) {
			if r.NoOutcome != "wrong id" {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
		}},
		{"/huge", 2000, func(t *testing.T, r driver.Result) {
			if r.NoOutcome != "body too long" {
				t.Fatalf("NoOutcome %q", r.NoOutcome)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			d := &driver.HTTP{URL: srv.URL + tc.path, Grace: 200 * time.Millisecond, HelloTimeout: 300 * time.Millisecond}
			s := open(t, d, driver.Env{})
			h, err := s.Hello(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			r := s.Delegate(context.Background(), request("h1", tc.deadlineMs))
			tr := s.Close()
			t.Logf("hello=%q result: outcome=%v noOutcome=%q elapsed=%v notes=%q",
				h.Name, r.Outcome != nil, r.NoOutcome, r.Elapsed.Round(time.Millisecond), tr.Notes)
			if tc.path == "/ok" && (h.Name != "svc" || len(tr.Notes) != 0) {
				t.Fatalf("hello %+v, notes %q", h, tr.Notes)
			}
			if tc.path != "/ok" && (h.Name != "" || !hasNote(tr, "reset")) {
				t.Fatalf("hello %+v, notes %q", h, tr.Notes)
			}
			tc.check(t, r)
		})
	}
	t.Cleanup(func() {
		if n := resets.Load(); n != int32(len(tests)) {
			t.Errorf("%d resets for %d sessions", n, len(tests))
		}
	})
}

func TestHTTPUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	s := open(t, driver.NewHTTP(url), driver.Env{})
	r := s.Delegate(context.Background(), request("x", 500))
	s.Close()
	if !strings.HasPrefix(r.NoOutcome, "http error: ") {
		t.Fatalf("NoOutcome %q", r.NoOutcome)
	}
}

// TestHTTPNoRedirect: an OUT that answers every message with a redirect to
// another host gets no answer counted, and the other host receives nothing:
// not the hello, not the reset, not the delegation with the caller's
// credentials (trust.credentials). This holds for a caller's Client that
// would follow redirects too. The note names the status and the Location.
func TestHTTPNoRedirect(t *testing.T) {
	var reached atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Write([]byte(`{"contract":1,"type":"hello","name":"stolen"}`))
	}))
	t.Cleanup(target.Close)
	for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, client := range []*http.Client{nil, {}} {
			t.Run(fmt.Sprintf("%d/own-client=%v", code, client != nil), func(t *testing.T) {
				out := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, target.URL+"/steal", code)
				}))
				t.Cleanup(out.Close)
				d := &driver.HTTP{URL: out.URL, Client: client, HelloTimeout: time.Second}
				if err := d.Preflight(context.Background()); err != nil {
					t.Fatalf("preflight: %v (a redirect is an HTTP answer: the OUT is there)", err)
				}
				s := open(t, d, driver.Env{})
				h, _ := s.Hello(context.Background())
				req := request("r1", 2000)
				req.Trust.Credentials = map[string]contract.Credential{"https://rpc.agent-d.example": {Scheme: "bearer", Value: "a2ac-d-secret"}}
				r := s.Delegate(context.Background(), req)
				tr := s.Close()
				want := fmt.Sprintf("http status %d, a redirect to %q (not followed", code, target.URL+"/steal")
				if !strings.HasPrefix(r.NoOutcome, want) || r.Outcome != nil {
					t.Errorf("result: outcome %v, NoOutcome %q; want no outcome starting %q", r.Outcome, r.NoOutcome, want)
				}
				if !hasNote(tr, want) || h.Name != "" {
					t.Errorf("hello %+v, notes %q: want a note starting %q", h, tr.Notes, want)
				}
			})
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the redirect target received %d requests, want 0", n)
	}
}

// TestHTTPSessions: a service whose pre-flight hello declares sessions is
// told each message's session and each session's end, and the driver's
// session limit follows the declaration (capped); one that declares none
// (or one) gets neither and one session at a time.
func TestHTTPSessions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		declared int
		limit    int
		named    bool // messages carry the session, and a close ends it
	}{
		{"no declaration", 0, 1, false},
		{"one", 1, 1, false},
		{"four", 4, 4, true},
		{"above the cap", 1000, driver.MaxHTTPSessions, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var seen []string // type and session of every message after the pre-flight hello
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var m struct{ Type, ID, Session string }
				_ = json.NewDecoder(r.Body).Decode(&m)
				mu.Lock()
				seen = append(seen, m.Type+" "+m.Session)
				mu.Unlock()
				switch m.Type {
				case "hello":
					json.NewEncoder(w).Encode(contract.Hello{Contract: 1, Type: "hello", Sessions: tc.declared})
				case "reset":
					json.NewEncoder(w).Encode(contract.Reset{Contract: 1, Type: "reset", OK: true})
				case "delegate":
					json.NewEncoder(w).Encode(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: "completed"})
				}
			}))
			defer srv.Close()
			d := driver.NewHTTP(srv.URL)
			if err := d.Preflight(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := d.MaxSessions(); got != tc.limit {
				t.Errorf("MaxSessions() = %d, want %d", got, tc.limit)
			}
			s, err := d.Open(context.Background(), driver.Env{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Hello(context.Background()); err != nil {
				t.Fatal(err)
			}
			if r := s.Delegate(context.Background(), contract.DelegationRequest{Contract: 1, Type: "delegate", ID: "r-1", DeadlineMs: 2000}); r.Outcome == nil {
				t.Fatalf("no outcome: %+v", r)
			}
			s.Close()
			mu.Lock()
			defer mu.Unlock()
			if seen[0] != "hello " {
				t.Fatalf("pre-flight %q, want a hello without a session", seen[0])
			}
			msgs := seen[1:]
			session := strings.TrimPrefix(msgs[0], "reset ")
			want := []string{"reset " + session, "hello " + session, "delegate " + session}
			if tc.named {
				want = append(want, "close "+session)
				if !strings.HasPrefix(session, "s-") {
					t.Errorf("session name %q, want s-...", session)
				}
			} else if session != "" {
				t.Errorf("session %q sent to a service that declared %d", session, tc.declared)
			}
			if strings.Join(msgs, ", ") != strings.Join(want, ", ") {
				t.Errorf("messages %q, want %q", msgs, want)
			}
		})
	}
}
