package driver_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestParseWith checks that the timing options land on every driver kind.
func TestParseWith(t *testing.T) {
	opts := driver.Options{HelloTimeout: 3 * time.Second, StartupGrace: 7 * time.Second, Deadline: 45 * time.Second}
	builtins := map[string]func() driver.GoOrchestrator{"deadline": func() driver.GoOrchestrator { return deadlineOrch{} }}
	for _, spec := range []string{"exec:./bin/orch", "http://127.0.0.1:9000/a2a-conform", "builtin:deadline"} {
		d, err := driver.ParseWith(spec, builtins, opts)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		var got driver.Options
		switch d := d.(type) {
		case *driver.Exec:
			got = driver.Options{HelloTimeout: d.HelloTimeout, StartupGrace: d.StartupGrace, Deadline: d.Deadline}
		case *driver.HTTP:
			got = driver.Options{HelloTimeout: d.HelloTimeout, StartupGrace: d.StartupGrace, Deadline: d.Deadline}
		case *driver.Go:
			got = driver.Options{HelloTimeout: opts.HelloTimeout, StartupGrace: opts.StartupGrace, Deadline: d.Deadline}
		default:
			t.Fatalf("%s: driver %T", spec, d)
		}
		if got != opts {
			t.Errorf("%s: options %+v, want %+v", spec, got, opts)
		}
	}
	if driver.DefaultHelloTimeout != 2*time.Second {
		t.Errorf("DefaultHelloTimeout %v; the contract documents 2 s", driver.DefaultHelloTimeout)
	}
}

// deadlineOrch reports the deadlineMs it was given and the time ctx has.
type deadlineOrch struct{}

func (deadlineOrch) Delegate(ctx context.Context, req contract.DelegationRequest, _ *http.Client) contract.DelegationOutcome {
	return contract.DelegationOutcome{Contract: 1, ID: req.ID, Outcome: contract.OutcomeCompleted, Detail: strconv.Itoa(req.DeadlineMs)}
}

// deadlineServer is an http OUT that answers each delegation with the
// deadlineMs it carried.
func deadlineServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			Type       string `json:"type"`
			ID         string `json:"id"`
			DeadlineMs int    `json:"deadlineMs"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &m)
		switch m.Type {
		case "reset":
			_ = json.NewEncoder(w).Encode(contract.Reset{Contract: 1, Type: "reset", OK: true})
		case "hello":
			_ = json.NewEncoder(w).Encode(contract.Hello{Contract: 1, Type: "hello", Name: "deadline-out"})
		default:
			_ = json.NewEncoder(w).Encode(contract.DelegationOutcome{Contract: 1, ID: m.ID, Outcome: contract.OutcomeCompleted, Detail: strconv.Itoa(m.DeadlineMs)})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestDeadlineOverrideHTTPAndGo is TestDeadlineOverride for the http and
// go drivers.
func TestDeadlineOverrideHTTPAndGo(t *testing.T) {
	t.Parallel()
	srv := deadlineServer(t)
	for _, tc := range []struct {
		name     string
		deadline time.Duration
		want     string
	}{
		{"zero keeps the request's", 0, "2000"},
		{"override", 1500 * time.Millisecond, "1500"},
	} {
		for _, kind := range []string{"http", "go"} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var d driver.Driver
				if kind == "http" {
					d = &driver.HTTP{URL: srv.URL, Deadline: tc.deadline}
				} else {
					g := driver.NewGo("deadline", func() driver.GoOrchestrator { return deadlineOrch{} }).(*driver.Go)
					g.Deadline = tc.deadline
					d = g
				}
				s := open(t, d, driver.Env{})
				r := s.Delegate(context.Background(), request("a", 2000))
				tr := s.Close()
				if r.Outcome == nil || r.Outcome.Detail != tc.want {
					t.Fatalf("result %+v, want deadlineMs %s", r, tc.want)
				}
				if noted := hasNote(tr, "replaced by"); noted != (tc.deadline > 0) {
					t.Errorf("override noted %v; notes %q", noted, tr.Notes)
				}
			})
		}
	}
}

// freeAddr returns a loopback address nothing listens on (it was just
// closed).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestHTTPPreflight checks the http driver's pre-flight check against real
// loopback listeners: nothing listening, a service that answers any
// status, one that accepts but never answers, and one that comes up late,
// within the startup grace or after it.
func TestHTTPPreflight(t *testing.T) {
	t.Parallel()
	ok := deadlineServer(t)
	status500 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	t.Cleanup(status500.Close)
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	// listenLate serves ok's handler on a free address from after on; it
	// returns the address at once.
	listenLate := func(t *testing.T, after time.Duration) string {
		addr := freeAddr(t)
		timer := time.AfterFunc(after, func() {
			l, err := net.Listen("tcp", addr)
			if err != nil {
				t.Errorf("late listener: %v", err)
				return
			}
			srv := &http.Server{Handler: ok.Config.Handler}
			go srv.Serve(l)
			t.Cleanup(func() { srv.Close() })
		})
		t.Cleanup(func() { timer.Stop() })
		return addr
	}
	for _, tc := range []struct {
		name      string
		url       string        // "late": a listener that starts lateStart after the check
		lateStart time.Duration // for url "late"
		grace     time.Duration
		wantErr   string // "" for no error
		atLeast   time.Duration
	}{
		{name: "answers hello", url: ok.URL + "/a2a-conform"},
		{name: "any status is reachable", url: status500.URL},
		{name: "nothing listening", url: "http://" + freeAddr(t) + "/a2a-conform", wantErr: "connection refused"},
		{name: "nothing listening during the grace", url: "http://" + freeAddr(t) + "/a2a-conform", grace: 500 * time.Millisecond,
			wantErr: "connection refused", atLeast: 350 * time.Millisecond},
		{name: "no answer in time", url: "http://" + silent.Addr().String() + "/x", wantErr: "no HTTP answer to a hello within 300ms"},
		{name: "no such host", url: "http://no-such-host.invalid/x", wantErr: "not reachable"},
		{name: "starts within the grace", url: "late", lateStart: 400 * time.Millisecond, grace: 5 * time.Second, atLeast: 350 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.url == "late" {
				tc.url = "http://" + listenLate(t, tc.lateStart) + "/a2a-conform"
			}
			d := &driver.HTTP{URL: tc.url, HelloTimeout: 300 * time.Millisecond, StartupGrace: tc.grace}
			start := time.Now()
			err := driver.Preflight(context.Background(), d)
			took := time.Since(start)
			t.Logf("%v after %v", err, took.Round(time.Millisecond))
			if took < tc.atLeast {
				t.Errorf("returned after %v, want at least %v", took, tc.atLeast)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Preflight: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Preflight = %v, want an error containing %q", err, tc.wantErr)
			case err != nil && (strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "orchestrator "+tc.url+": not reachable: ")):
				t.Fatalf("error is not one line naming the orchestrator: %q", err)
			}
		})
	}
	// Drivers without a check pass.
	if err := driver.Preflight(context.Background(), driver.NewGo("x", func() driver.GoOrchestrator { return deadlineOrch{} })); err != nil {
		t.Fatalf("go driver: %v", err)
	}
}

// TestHTTPStartupGrace checks that a session opened before the service is
// up resets and says hello once it is, within the grace.
func TestHTTPStartupGrace(t *testing.T) {
	t.Parallel()
	ok := deadlineServer(t)
	addr := freeAddr(t)
	time.AfterFunc(400*time.Millisecond, func() {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("late listener: %v", err)
			return
		}
		srv := &http.Server{Handler: ok.Config.Handler}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
	})
	d := &driver.HTTP{URL: "http://" + addr + "/a2a-conform", HelloTimeout: 300 * time.Millisecond, StartupGrace: 3 * time.Second}
	s := open(t, d, driver.Env{})
	h, err := s.Hello(context.Background())
	if err != nil || h.Name != "deadline-out" {
		t.Fatalf("hello %+v %v", h, err)
	}
	tr := s.Close()
	if hasNote(tr, "reset") {
		t.Errorf("reset not confirmed: %q", tr.Notes)
	}
}
