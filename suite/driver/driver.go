// Package driver is how the harness talks to an orchestrator under test
// (OUT): it carries driver-contract messages (package contract) to the OUT
// and brings back its outcomes, through one of three drivers:
//
//   - exec: a command started once per scenario, NDJSON on stdin and stdout;
//   - http: one POST per message to a URL;
//   - go: an in-process [GoOrchestrator].
//
// A misbehaving OUT (crash, hang, garbage, wrong id, endless output) never
// makes a driver fail or hang: it is reported in [Result.NoOutcome] and in
// the session's [Transcript], and the next request starts clean.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

const (
	// DefaultDeadline is the deadline of a request whose DeadlineMs is zero.
	DefaultDeadline = 20 * time.Second
	// DefaultGrace is the grace a driver adds to a request's deadline, and
	// the time the exec driver gives a process between SIGTERM and SIGKILL,
	// when none is configured.
	DefaultGrace = time.Second
	// DefaultHelloTimeout is how long a driver waits for a hello answer when
	// none is configured (the driver contract's 2 s). An OUT that stays
	// silent is treated as unnamed.
	DefaultHelloTimeout = 2 * time.Second
	// DefaultStderrLimit is how much of an OUT's stderr (the last bytes) a
	// transcript keeps when no limit is configured.
	DefaultStderrLimit = 64 << 10
	// MaxBody is the largest answer, in bytes, the http driver reads.
	MaxBody = 1 << 20
)

// Env is what a scenario gives a driver session.
type Env struct {
	// Proxy is the fleet's CONNECT proxy URL, exported to exec OUTs as
	// HTTPS_PROXY, HTTP_PROXY, https_proxy and http_proxy. Empty means those
	// variables are removed from the OUT's environment and not set.
	Proxy string
	// CAFile is the fleet root CA in PEM, exported to exec OUTs as
	// SSL_CERT_FILE. Empty means SSL_CERT_FILE is left as the harness has it.
	CAFile string
	// Resolve maps "host:port" to the loopback "ip:port" that serves it. The
	// drivers do not use it (OUTs see the same map in each request's
	// network.resolve); it is here for callers that build Env once. Nil
	// means no overrides.
	Resolve map[string]string
	// Client is the fleet-aware HTTP client (routes to the fleet, trusts its
	// CA) handed to in-process Go orchestrators. Nil means they get nil.
	Client *http.Client
	// Dir is the working directory of exec OUTs. Empty means the harness's
	// current directory.
	Dir string
}

// Driver connects to one kind of OUT. Drivers are safe for concurrent use;
// each scenario opens its own Session.
type Driver interface {
	// Name describes the driver and its target, for reports.
	Name() string
	// Open starts a session for one scenario. An error means the harness
	// could not reach or start the OUT at all (scored as ERROR).
	Open(ctx context.Context, env Env) (Session, error)
}

// SessionLimiter is implemented by a driver that can hold only so many
// sessions at once: the suite runs at most that many scenarios at a time
// with it, whatever parallelism it was asked for.
type SessionLimiter interface {
	// MaxSessions is the most sessions the driver holds at once; zero
	// means no limit of its own.
	MaxSessions() int
}

// MaxSessions is d's session limit: [SessionLimiter.MaxSessions] where d
// implements it, else zero (no limit).
func MaxSessions(d Driver) int {
	if l, ok := d.(SessionLimiter); ok {
		return max(0, l.MaxSessions())
	}
	return 0
}

// Session is one scenario's connection to the OUT. Nothing is shared between
// sessions: caches the OUT builds in one are gone in the next. Calls on a
// Session are serialized; they are not meant to be made concurrently.
type Session interface {
	// Hello asks the OUT its name. Answering is optional: an OUT that does
	// not answer in time is unnamed (zero Hello, nil error). An error means
	// the harness could not start or reach the OUT.
	Hello(ctx context.Context) (contract.Hello, error)
	// Delegate sends one request and waits for its outcome until
	// req.DeadlineMs (zero: [DefaultDeadline]) plus the driver's grace have
	// passed or ctx is done; stopping a late exec process can take up to
	// about two more graces. It never fails: every problem is in the Result.
	Delegate(ctx context.Context, req contract.DelegationRequest) Result
	// Close ends the session, stopping whatever the driver started, and
	// returns what was recorded. It returns within a few seconds whatever the
	// OUT does, and may be called more than once.
	Close() Transcript
}

// Result is what one Delegate brought back. Exactly one of these holds:
// Outcome is set (and Unimplemented is set too when its outcome word is
// "unimplemented"); Unimplemented is set alone (exec exit code 89 before
// answering); NoOutcome says why there is no outcome.
type Result struct {
	// Outcome is the OUT's answer, validated: contract 1, id echoed, known
	// outcome word. Nil when there is none.
	Outcome *contract.DelegationOutcome
	// Unimplemented is true when the OUT declared it cannot run the
	// scenario.
	Unimplemented bool
	// NoOutcome is empty when there is an outcome or Unimplemented is set;
	// otherwise it is the harness's no-outcome reason, for example "timeout",
	// "exited with status 3", "not json: ...", "wrong id", "line too long",
	// "invalid outcome: ...", "http status 500".
	NoOutcome string
	// BrokeContract is set with NoOutcome when the reason is an answer
	// that broke the driver contract (a line that is not JSON or is too
	// long, another request's id, an invalid outcome), not a silence, an
	// exit or a transport error: the orchestrator answered, unusably.
	BrokeContract bool
	// Elapsed is the time from sending the request to the result.
	Elapsed time.Duration
}

// Transcript is what a session recorded besides outcomes, for the report.
type Transcript struct {
	// Stderr is the end of what the OUT wrote to stderr (every process of the
	// session), at most the driver's limit, marked when earlier bytes were
	// dropped. Empty for drivers without a stderr.
	Stderr string `json:"stderr"`
	// Exits has one line per OUT process that ended, in order, for example
	// "pid 4242: exited with status 0" or
	// "pid 4243: killed after timeout: exited on signal: killed".
	Exits []string `json:"exits"`
	// Notes are the driver's observations in order: skipped lines, restarts,
	// unknown reason words, late or ignored hellos. At most MaxNotes are
	// kept, each at most MaxNoteBytes (and a marker).
	Notes []string `json:"notes"`
}

// Options are the timing settings of [ParseWith], the same for every driver
// (the run command's --hello-timeout, --startup-grace and --deadline). The
// zero value of each field keeps the driver's default.
type Options struct {
	// HelloTimeout bounds the wait for the hello answer (exec), or for the
	// reset and hello exchanges (http). Zero means [DefaultHelloTimeout].
	// The go driver does not ask.
	HelloTimeout time.Duration
	// StartupGrace is the time an OUT may take to start before the first
	// delegation's deadline starts to run: the first delegation is sent once
	// the OUT has answered hello or StartupGrace (counted from the start of
	// the process, exec, or of the session, http) has run out, whichever
	// comes first. An exec process started for a request without a hello
	// (a one-shot program's next request, a restart) has StartupGrace added
	// to that request's wait instead. The http pre-flight check waits as
	// long for the service to accept connections. Zero means no grace: the
	// wait for hello is HelloTimeout and the deadline starts when the
	// request is sent. The go driver ignores it.
	StartupGrace time.Duration
	// Deadline replaces every request's deadlineMs: the OUT is told this
	// deadline and the driver waits for it (plus its grace). Zero means the
	// request's own deadlineMs (zero there: [DefaultDeadline]). It is
	// rounded down to a millisecond.
	Deadline time.Duration
}

// Parse builds a driver from an --orchestrator spec with default
// [Options]; see [ParseWith].
func Parse(spec string, builtins map[string]func() GoOrchestrator) (Driver, error) {
	return ParseWith(spec, builtins, Options{})
}

// ParseWith builds a driver from an --orchestrator spec:
//
//   - "exec:CMD ARGS...": the exec driver; CMD ARGS are split like a simple
//     shell command line (see [SplitCommand]), without running a shell;
//   - "http://..." or "https://...": the http driver posting to that URL;
//   - "builtin:NAME": the go driver around the factory builtins[NAME],
//     which gives every session an orchestrator of its own (see [NewGo]).
//
// Anything else is an error. opts set the timing fields of the driver.
func ParseWith(spec string, builtins map[string]func() GoOrchestrator, opts Options) (Driver, error) {
	spec = strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(spec, "exec:"):
		argv, err := SplitCommand(strings.TrimPrefix(spec, "exec:"))
		if err != nil {
			return nil, fmt.Errorf("orchestrator %q: %w", spec, err)
		}
		if len(argv) == 0 {
			return nil, fmt.Errorf("orchestrator %q: empty command", spec)
		}
		d := NewExec(argv)
		d.HelloTimeout, d.StartupGrace, d.Deadline = opts.HelloTimeout, opts.StartupGrace, opts.Deadline
		return d, nil
	case strings.HasPrefix(spec, "http://"), strings.HasPrefix(spec, "https://"):
		u, err := url.Parse(spec)
		if err != nil {
			return nil, fmt.Errorf("orchestrator %q: %w", spec, err)
		}
		if u.Host == "" {
			return nil, fmt.Errorf("orchestrator %q: url has no host", spec)
		}
		d := NewHTTP(spec)
		d.HelloTimeout, d.StartupGrace, d.Deadline = opts.HelloTimeout, opts.StartupGrace, opts.Deadline
		return d, nil
	case strings.HasPrefix(spec, "builtin:"):
		name := strings.TrimPrefix(spec, "builtin:")
		factory, ok := builtins[name]
		if !ok || factory == nil {
			names := make([]string, 0, len(builtins))
			for n := range builtins {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("orchestrator %q: unknown builtin %q (known: %s)", spec, name, strings.Join(names, ", "))
		}
		d := NewGo(name, factory).(*Go)
		d.Deadline = opts.Deadline
		return d, nil
	}
	return nil, fmt.Errorf("orchestrator %q: want exec:COMMAND, http(s)://URL or builtin:NAME", spec)
}

// SplitCommand splits a command line into words the way a POSIX shell does
// for simple cases, without expanding anything: words are separated by
// unquoted blanks; single quotes keep everything literally; double quotes
// keep everything but a backslash before ", \, $ or `; outside quotes a
// backslash keeps the next character. An unterminated quote or a trailing
// backslash is an error.
func SplitCommand(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\\':
			if i+1 >= len(rs) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if rs[i] != '\n' { // backslash-newline continues the line
				cur.WriteRune(rs[i])
			}
			inWord = true
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
			inWord = true
		case r == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
					j++
				}
				cur.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, errors.New("unterminated double quote")
			}
			i = j
			inWord = true
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// absCommand makes a relative command path that names a directory
// ("./bin/orch", "bin/orch") absolute against the harness's current
// directory, so that Env.Dir does not change which program runs. Bare names
// are left for PATH lookup.
func absCommand(argv []string) []string {
	out := append([]string(nil), argv...)
	if len(out) > 0 && strings.ContainsRune(out[0], filepath.Separator) && !filepath.IsAbs(out[0]) {
		if abs, err := filepath.Abs(out[0]); err == nil {
			out[0] = abs
		}
	}
	return out
}

// Checker is a driver that can tell, before any scenario runs, whether its
// OUT can be reached at all.
type Checker interface {
	// Preflight returns an error, one line naming the cause, when the OUT
	// cannot be started or reached; a run would then only score that.
	Preflight(ctx context.Context) error
}

// Preflight runs d's pre-flight check when d has one ([Checker]): the exec
// driver checks that the program exists and is executable, the http driver
// that the URL accepts a connection and answers a hello POST with any HTTP
// response. A nil error means the run can start, not that the OUT works.
func Preflight(ctx context.Context, d Driver) error {
	if c, ok := d.(Checker); ok {
		return c.Preflight(ctx)
	}
	return nil
}

// overrideDeadline applies a Deadline option to req, noting the change once
// per session in rec.
func overrideDeadline(req *contract.DelegationRequest, d time.Duration, rec *recorder, noted *bool) {
	if d <= 0 {
		return
	}
	ms := int(d / time.Millisecond)
	if ms <= 0 || ms == req.DeadlineMs {
		return
	}
	if !*noted {
		*noted = true
		rec.notef("deadlineMs %d of the requests replaced by %d (deadline override)", req.DeadlineMs, ms)
	}
	req.DeadlineMs = ms
}

// requestDeadline is how long the OUT has for req.
func requestDeadline(req contract.DelegationRequest) time.Duration {
	if req.DeadlineMs <= 0 {
		return DefaultDeadline
	}
	return time.Duration(req.DeadlineMs) * time.Millisecond
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// judgement is what one line (or body) from the OUT amounts to for the
// request reqID.
type judgement struct {
	result  *Result // final: stop waiting
	problem string  // not an answer: the no-outcome reason if nothing better comes
	note    string  // something to record
}

// judge reads b as the answer to reqID.
func judge(b []byte, reqID string) judgement {
	var o struct {
		contract.DelegationOutcome
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		p := "not json: " + snippet(b)
		return judgement{problem: p, note: p}
	}
	if o.Type == contract.TypeHello || o.Type == contract.TypeReset {
		// A late answer to a control message: not an outcome, not a fault.
		return judgement{note: "ignored late " + o.Type + " answer " + snippet(b)}
	}
	return judgeOutcome(o.DelegationOutcome, reqID, snippet(b))
}

// judgeOutcome judges a decoded answer; shown is how to quote it in notes.
// The outcome is kept whole (the suite looks for credentials in it before
// it clips it, contract.DelegationOutcome.Clip); what the driver says of
// it (notes, the no-outcome reason) quotes the clipped values.
func judgeOutcome(o contract.DelegationOutcome, reqID, shown string) judgement {
	quoted := o
	quoted.Clip()
	if o.ID != reqID {
		return judgement{problem: "wrong id", note: fmt.Sprintf("answer with wrong id %q (want %q): %s", quoted.ID, reqID, shown)}
	}
	err := quoted.Validate(reqID)
	if err != nil && !errors.Is(err, contract.ErrUnknownWord) {
		return judgement{result: &Result{NoOutcome: "invalid outcome: " + err.Error(), BrokeContract: true},
			note: "invalid outcome: " + shown}
	}
	j := judgement{result: &Result{Outcome: &o, Unimplemented: o.Outcome == contract.OutcomeUnimplemented}}
	if err != nil {
		j.note = "outcome " + reqID + ": " + strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	return j
}

// snippet quotes the start of b for a note.
func snippet(b []byte) string {
	const max = 80
	if len(b) > max {
		return fmt.Sprintf("%q... (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// Bounds on Transcript.Notes, so that an OUT printing endless garbage
// cannot grow the transcript without bound.
const (
	// MaxNotes is how many notes a transcript keeps; one more line says
	// how many were dropped past it.
	MaxNotes = 200
	// MaxNoteBytes bounds each note; past it contract.ClipText's marker
	// says how much was cut.
	MaxNoteBytes = 300
)

// recorder collects a transcript; safe for concurrent use.
type recorder struct {
	mu      sync.Mutex
	notes   []string
	dropped int
	exits   []string
}

func (r *recorder) notef(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.notes) >= MaxNotes {
		r.dropped++
		return
	}
	r.notes = append(r.notes, contract.ClipText(fmt.Sprintf(format, args...), MaxNoteBytes))
}

func (r *recorder) exit(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exits = append(r.exits, s)
}

func (r *recorder) transcript(stderr string) Transcript {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := Transcript{Stderr: stderr, Exits: append([]string(nil), r.exits...), Notes: append([]string(nil), r.notes...)}
	if r.dropped > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d more notes dropped", r.dropped))
	}
	return t
}
