package driver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// GoOrchestrator is an orchestrator linked into the harness (or a harness
// linked into an orchestrator's own go test).
//
// Delegate handles one request. ctx ends at the request's deadline; client
// is [Env.Client], already routed to the fleet and trusting its CA. The
// returned outcome should carry Contract 1 and the request's ID; a zero
// Contract and an empty ID are filled in by the driver (and noted), since an
// in-process value cannot be "missing" the way a line can.
//
// An orchestrator may also implement Reset() (dropping every cache); the
// driver calls it whenever it takes an orchestrator from the factory: at the
// start of each session, and after a timeout or panic.
type GoOrchestrator interface {
	Delegate(ctx context.Context, req contract.DelegationRequest, client *http.Client) contract.DelegationOutcome
}

// Go drives a [GoOrchestrator] in process. Create it with [NewGo].
//
// A Delegate that has not returned by the request's deadline plus Grace is
// abandoned with the result "timeout": Go cannot stop a goroutine, so it
// keeps running (its ctx is canceled) and may still touch the fleet. After a
// timeout or a panic the session continues with a fresh orchestrator from
// the factory, as the exec driver continues with a fresh process.
type Go struct {
	name    string
	factory func() GoOrchestrator
	// Grace is added to each request's deadline before a Delegate that has
	// not returned is abandoned. Zero means [DefaultGrace].
	Grace time.Duration
	// Deadline replaces every request's deadlineMs (see [Options]). Zero
	// means the request's own.
	Deadline time.Duration
	// Sessions is how many sessions may be open at once (see
	// [SessionLimiter]). Zero means no limit: the factory hands every
	// session an orchestrator of its own. Set it to 1 when the factory
	// hands out one shared instance.
	Sessions int
}

// MaxSessions returns d.Sessions.
func (d *Go) MaxSessions() int { return d.Sessions }

// NewGo returns a driver that gets a fresh orchestrator from factory for
// every session, so that caches do not leak across scenarios. If factory
// hands out a shared instance instead, that instance should implement
// Reset(), which the driver calls whenever it takes an orchestrator from the
// factory. The returned driver is a *Go.
func NewGo(name string, factory func() GoOrchestrator) Driver {
	return &Go{name: name, factory: factory}
}

// Name returns "builtin:" and the name given to [NewGo].
func (d *Go) Name() string { return "builtin:" + d.name }

// Open takes an orchestrator from the factory. It fails when the factory
// returns nil or panics.
func (d *Go) Open(ctx context.Context, env Env) (Session, error) {
	s := &goSession{d: d, client: env.Client, grace: orDefault(d.Grace, DefaultGrace)}
	if err := s.fresh(); err != nil {
		return nil, err
	}
	return s, nil
}

type goSession struct {
	d      *Go
	client *http.Client
	grace  time.Duration
	rec    recorder

	mu        sync.Mutex
	o         GoOrchestrator
	lingering int // abandoned Delegate calls
	closed    bool
	// deadlineNoted is set once the Deadline override has been noted.
	deadlineNoted bool
}

// fresh replaces the session's orchestrator with a new one from the factory.
func (s *goSession) fresh() (err error) {
	if s.d.factory == nil {
		return errors.New("go driver: no factory")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("go driver %s: panic in factory or Reset: %v", s.d.name, r)
		}
	}()
	o := s.d.factory()
	if o == nil {
		return fmt.Errorf("go driver %s: factory returned nil", s.d.name)
	}
	if r, ok := o.(interface{ Reset() }); ok {
		r.Reset()
	}
	s.o = o
	return nil
}

// GoSpeaker is a [GoOrchestrator] that declares what it speaks as an A2A
// client: the protocol versions and bindings a hello answer declares
// ([contract.Hello]).
type GoSpeaker interface {
	Speaks() (protocolVersions, bindings []string)
}

// Hello returns the driver's name and, for a [GoSpeaker], the versions
// and bindings it declares; a Go orchestrator is not asked otherwise.
func (s *goSession) Hello(ctx context.Context) (contract.Hello, error) {
	h := contract.NewHello()
	h.Name = s.d.name
	s.mu.Lock()
	o := s.o
	s.mu.Unlock()
	if sp, ok := o.(GoSpeaker); ok {
		h.ProtocolVersions, h.Bindings = sp.Speaks()
	}
	return h, nil
}

type goReturn struct {
	out   contract.DelegationOutcome
	panic string
}

// Delegate calls the orchestrator in a goroutine and waits for it until the
// deadline plus grace.
func (s *goSession) Delegate(ctx context.Context, req contract.DelegationRequest) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	r := s.delegate(ctx, req)
	r.Elapsed = time.Since(start)
	return r
}

func (s *goSession) delegate(ctx context.Context, req contract.DelegationRequest) Result {
	if s.closed {
		return Result{NoOutcome: "session closed"}
	}
	if s.o == nil {
		if err := s.fresh(); err != nil {
			return Result{NoOutcome: err.Error()}
		}
	}
	overrideDeadline(&req, s.d.Deadline, &s.rec, &s.deadlineNoted)
	dctx, cancel := context.WithTimeout(ctx, requestDeadline(req))
	ch := make(chan goReturn, 1) // buffered: an abandoned call can still send and exit
	o, client := s.o, s.client
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- goReturn{panic: fmt.Sprint(r) + "\n" + string(debug.Stack())}
			}
		}()
		ch <- goReturn{out: o.Delegate(dctx, req, client)}
	}()
	hard := time.NewTimer(requestDeadline(req) + s.grace)
	defer hard.Stop()
	select {
	case ret := <-ch:
		cancel()
		if ret.panic != "" {
			first, _, _ := strings.Cut(ret.panic, "\n")
			s.rec.notef("request %s: panic: %s", req.ID, ret.panic)
			s.o = nil // continue with a fresh orchestrator
			return Result{NoOutcome: "panic: " + first}
		}
		out := ret.out
		if out.Contract == 0 {
			out.Contract = contract.Version
			s.rec.notef("request %s: outcome had no contract version; set to %d", req.ID, contract.Version)
		}
		if out.ID == "" {
			out.ID = req.ID
			s.rec.notef("request %s: outcome had no id; set to the request's", req.ID)
		}
		j := judgeOutcome(out, req.ID, fmt.Sprintf("%+v", out))
		if j.note != "" {
			s.rec.notef("request %s: %s", req.ID, j.note)
		}
		if j.result != nil {
			return *j.result
		}
		return Result{NoOutcome: j.problem, BrokeContract: true}
	case <-hard.C:
		cancel()
		s.lingering++
		s.o = nil
		s.rec.notef("request %s: Delegate did not return within deadline plus %v; abandoned (goroutine may linger)", req.ID, s.grace)
		return Result{NoOutcome: "timeout"}
	case <-ctx.Done():
		cancel()
		s.lingering++
		s.o = nil
		s.rec.notef("request %s: canceled; Delegate abandoned (goroutine may linger)", req.ID)
		return Result{NoOutcome: "canceled"}
	}
}

// Close ends the session. It does not wait for abandoned calls.
func (s *goSession) Close() Transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.lingering > 0 {
		s.rec.notef("%d abandoned Delegate calls may still be running", s.lingering)
	}
	s.closed = true
	return s.rec.transcript("")
}
