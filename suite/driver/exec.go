package driver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/contract"
)

// ExitUnimplemented is the exit code by which an exec OUT declares, before
// answering, that it cannot run the scenario.
const ExitUnimplemented = 89

// Exec drives an OUT that is a command: one process per session, requests as
// NDJSON on its stdin, outcomes as NDJSON on its stdout.
//
// Each process runs in its own process group (a job object on Windows),
// with the harness's environment except that HTTPS_PROXY, HTTP_PROXY,
// https_proxy and http_proxy are Env.Proxy and NODE_USE_ENV_PROXY=1 (Node
// 24+ then proxies fetch through them); SSL_CERT_FILE, NODE_EXTRA_CA_CERTS,
// REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE and GRPC_DEFAULT_SSL_ROOTS_FILE_PATH are
// Env.CAFile; NO_PROXY, no_proxy, ALL_PROXY and all_proxy are removed; and
// A2A_CONFORM_CONTRACT=1 (see [ChildEnv]).
//
// A process that exits is started again for the next request, so one-shot
// programs work: if a process that had already been sent an earlier message
// exits with status 0 without answering, the request is sent once more to a
// fresh process. A process that misses its deadline is stopped (SIGTERM to
// its group, SIGKILL after Grace) and the next request starts a fresh one.
//
// Set the fields before the first Open; an Exec is then safe for concurrent
// use.
type Exec struct {
	// Argv is the command and its arguments. A relative path with a slash
	// ("./bin/orch") is made absolute against the harness's directory by
	// [NewExec]; a bare name is looked up in PATH.
	Argv []string
	// Grace is added to each request's deadline, is the wait between SIGTERM
	// and SIGKILL, how long Close waits for the process to exit after closing
	// its stdin, and how long the driver waits for descendants that keep
	// stdout or stderr open after the process exits. Zero means
	// [DefaultGrace].
	Grace time.Duration
	// HelloTimeout bounds the wait for a hello answer. Zero means
	// [DefaultHelloTimeout].
	HelloTimeout time.Duration
	// StartupGrace lets a slow-starting process be ready before its first
	// deadline runs: Hello waits for the answer until HelloTimeout or
	// StartupGrace from the process's start, whichever is later, and a
	// process started for a request without a hello gets StartupGrace added
	// to that request's wait. Zero means no grace (see [Options]).
	StartupGrace time.Duration
	// Deadline replaces every request's deadlineMs (see [Options]). Zero
	// means the request's own.
	Deadline time.Duration
	// StderrLimit is how many bytes of stderr (the last ones) a transcript
	// keeps. Zero means [DefaultStderrLimit].
	StderrLimit int
	// MaxLine is the longest stdout line accepted. Zero means
	// [contract.DefaultMaxLine].
	MaxLine int
}

// NewExec returns an exec driver for argv with default settings.
func NewExec(argv []string) *Exec {
	return &Exec{Argv: absCommand(argv)}
}

// Name returns "exec:" and the command line.
func (d *Exec) Name() string {
	quoted := make([]string, len(d.Argv))
	for i, a := range d.Argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		quoted[i] = a
	}
	return "exec:" + strings.Join(quoted, " ")
}

// Open starts the command. An error means it could not be started.
func (d *Exec) Open(ctx context.Context, env Env) (Session, error) {
	if len(d.Argv) == 0 {
		return nil, errors.New("exec driver: empty command")
	}
	limit := d.StderrLimit
	if limit <= 0 {
		limit = DefaultStderrLimit
	}
	s := &execSession{
		d:      d,
		env:    env,
		grace:  orDefault(d.Grace, DefaultGrace),
		hello:  orDefault(d.HelloTimeout, DefaultHelloTimeout),
		stderr: &tailBuffer{limit: limit},
	}
	if _, err := s.ensure(); err != nil {
		return nil, fmt.Errorf("exec driver: %w", err)
	}
	return s, nil
}

// proxyVars are set to Env.Proxy; caVars to Env.CAFile.
var (
	proxyVars = []string{"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"}
	caVars    = []string{
		"SSL_CERT_FILE",                    // OpenSSL users (Python ssl, Ruby, curl), Go on Linux
		"NODE_EXTRA_CA_CERTS",              // Node: added to its bundled roots
		"REQUESTS_CA_BUNDLE",               // Python requests
		"CURL_CA_BUNDLE",                   // curl, and requests when REQUESTS_CA_BUNDLE is unset
		"GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", // gRPC C core (grpcio, ...) and grpc-js
	}
)

// ChildEnv is base (KEY=VALUE entries, as os.Environ returns) with the
// variables the exec driver sets for env: the proxy variables and
// NODE_USE_ENV_PROXY=1 when env.Proxy is set (removed otherwise, as are
// NO_PROXY, no_proxy, ALL_PROXY and all_proxy), the CA variables when
// env.CAFile is set (left as in base otherwise), and A2A_CONFORM_CONTRACT=1.
// An A2A_CONFORM_SESSION or A2A_CONFORM_STARTUP_GRACE_MS in base (a harness
// run under another harness) is dropped: the exec driver adds a marker of
// its own per process, and the grace when it gives one.
func ChildEnv(base []string, env Env) []string {
	drop := map[string]bool{
		"NO_PROXY": true, "no_proxy": true, "ALL_PROXY": true, "all_proxy": true,
		"A2A_CONFORM_CONTRACT": true, sessionMarkerVar: true, startupGraceVar: true,
	}
	for _, k := range proxyVars {
		drop[k] = true
	}
	if env.Proxy != "" {
		drop["NODE_USE_ENV_PROXY"] = true
	}
	if env.CAFile != "" {
		for _, k := range caVars {
			drop[k] = true
		}
	}
	out := make([]string, 0, len(base)+len(proxyVars)+len(caVars)+2)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			out = append(out, kv)
		}
	}
	if env.Proxy != "" {
		for _, k := range proxyVars {
			out = append(out, k+"="+env.Proxy)
		}
		out = append(out, "NODE_USE_ENV_PROXY=1")
	}
	if env.CAFile != "" {
		for _, k := range caVars {
			out = append(out, k+"="+env.CAFile)
		}
	}
	return append(out, "A2A_CONFORM_CONTRACT=1")
}

// Preflight checks that the program exists and can be executed: a path is
// checked as it is, a bare name is looked up in PATH. It starts nothing.
func (d *Exec) Preflight(ctx context.Context) error {
	if len(d.Argv) == 0 {
		return errors.New("orchestrator exec: empty command")
	}
	prog := d.Argv[0]
	_, err := exec.LookPath(prog)
	if err == nil {
		return nil
	}
	cause := err
	var ee *exec.Error
	if errors.As(err, &ee) {
		cause = ee.Err
	}
	var pe *fs.PathError
	switch {
	case errors.Is(cause, exec.ErrNotFound) && !strings.ContainsRune(prog, filepath.Separator) && !strings.ContainsRune(prog, '/'):
		return fmt.Errorf("orchestrator %s: program %q not found in PATH", d.Name(), prog)
	case errors.Is(cause, fs.ErrNotExist):
		return fmt.Errorf("orchestrator %s: program %s does not exist", d.Name(), prog)
	case errors.Is(cause, fs.ErrPermission):
		return fmt.Errorf("orchestrator %s: program %s is not executable (permission denied)", d.Name(), prog)
	case errors.As(cause, &pe):
		return fmt.Errorf("orchestrator %s: program %s: %v", d.Name(), prog, pe.Err)
	}
	return fmt.Errorf("orchestrator %s: program %s: %v", d.Name(), prog, cause)
}

// event is one thing read from a process's stdout.
type event struct {
	line []byte
	err  error // contract.ErrLineTooLong, or io.EOF once stdout is finished
}

// proc is one running OUT process.
type proc struct {
	cmd    *exec.Cmd
	pid    int
	group  *procGroup // the OUT's process group (Unix) or job object (Windows)
	stdin  *os.File
	events chan event
	quit   chan struct{} // closed: the reader discards instead of sending
	done   chan struct{} // closed once the process is reaped
	state  *os.ProcessState
	sent   int // messages written to stdin
	// started is when the process was started; ready is set once it has
	// answered a hello or had its startup grace (see Exec.StartupGrace).
	started time.Time
	ready   bool
	quitMu  sync.Once
}

// exited reports whether the process has been reaped, without waiting.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// discard makes the stdout reader drop everything from now on, so that the
// process (and os/exec's copying goroutine) never blocks on a full pipe.
func (p *proc) discard() { p.quitMu.Do(func() { close(p.quit) }) }

// exitText describes how the process ended.
func (p *proc) exitText() string {
	if p.state == nil {
		return "exit status unknown"
	}
	if !p.state.Exited() {
		return "exited on " + p.state.String() // "signal: killed" on Unix
	}
	return fmt.Sprintf("exited with status %d", p.state.ExitCode())
}

// write sends one NDJSON line, giving up at deadline.
func (p *proc) write(line []byte, deadline time.Time) error {
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return err
	}
	p.sent++
	_, err := p.stdin.Write(line)
	return err
}

type execSession struct {
	d      *Exec
	env    Env
	grace  time.Duration
	hello  time.Duration
	stderr *tailBuffer
	rec    recorder

	mu     sync.Mutex
	cur    *proc
	owner  *orphanOwner // the session as the orphan sweep sees it (reaper_linux.go)
	closed bool
	final  Transcript
	// deadlineNoted is set once the Deadline override has been noted.
	deadlineNoted bool
}

// start launches a new process.
func (s *execSession) start() (*proc, error) {
	argv := s.d.Argv
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.env.Dir
	cmd.Env = append(ChildEnv(os.Environ(), s.env), sessionMarker())
	if g := s.d.StartupGrace; g > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", startupGraceVar, g.Milliseconds()))
	}
	prepareGroup(cmd)
	// Bound Wait when descendants keep stdout or stderr open.
	cmd.WaitDelay = s.grace
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	cmd.Stdin = inR
	cmd.Stdout = pw
	cmd.Stderr = s.stderr
	opened := sessionClock()
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		pr.Close()
		pw.Close()
		return nil, err
	}
	inR.Close()
	if s.owner == nil {
		s.owner = newOrphanOwner(opened)
	}
	s.owner.add(cmd.Process.Pid, markerIn(cmd.Env))
	p := &proc{
		started: time.Now(),
		cmd:     cmd,
		pid:     cmd.Process.Pid,
		group:   newGroup(cmd),
		stdin:   inW,
		events:  make(chan event, 8),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	s.rec.notef("started pid %d", p.pid)
	go p.read(contract.NewLineReader(pr, s.d.MaxLine))
	go func() {
		_ = cmd.Wait() // the exit is in ProcessState; ErrWaitDelay only says descendants held a pipe
		p.state = cmd.ProcessState
		// Descendants left in the group are strays once the leader is gone.
		p.group.kill()
		p.group.release()
		close(p.done)
		pw.Close() // after done: an EOF event means the process is reaped
	}()
	return p, nil
}

// read turns stdout into events until EOF.
func (p *proc) read(lr *contract.LineReader) {
	send := func(ev event) {
		select {
		case <-p.quit:
		default:
			select {
			case p.events <- ev:
			case <-p.quit:
			}
		}
	}
	for {
		line, err := lr.ReadLine()
		switch {
		case err == nil:
			send(event{line: line})
		case errors.Is(err, contract.ErrLineTooLong):
			send(event{err: err})
		default:
			send(event{err: io.EOF})
			return
		}
	}
}

// ensure returns the running process, starting one if there is none or the
// last one has exited.
func (s *execSession) ensure() (*proc, error) {
	if p := s.cur; p != nil {
		if !p.exited() {
			return p, nil
		}
		s.retire(p, "")
	}
	p, err := s.start()
	if err != nil {
		return nil, err
	}
	s.cur = p
	return p, nil
}

// retire forgets p, which has exited or is being abandoned, and records its
// exit. It waits at most a bounded time for p to be reaped.
func (s *execSession) retire(p *proc, why string) {
	p.discard()
	p.stdin.Close()
	text := "not reaped in time; abandoned"
	select {
	case <-p.done:
		text = p.exitText()
	case <-time.After(2*s.grace + time.Second):
	}
	if why != "" {
		text = why + ": " + text
	}
	s.rec.exit(fmt.Sprintf("pid %d: %s", p.pid, text))
	if s.cur == p {
		s.cur = nil
	}
}

// stop ends p: SIGTERM to its group, SIGKILL after grace, then retire.
func (s *execSession) stop(p *proc, why string) {
	p.discard()
	if !p.exited() {
		p.group.terminate()
		select {
		case <-p.done:
		case <-time.After(s.grace):
		}
	}
	p.group.kill()
	s.retire(p, why)
}

// Hello sends a hello and waits up to HelloTimeout for a hello answer. Other
// lines are skipped with a note. Silence, or an exit, leaves the OUT unnamed.
func (s *execSession) Hello(ctx context.Context) (contract.Hello, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return contract.Hello{}, errors.New("session closed")
	}
	p, err := s.ensure()
	if err != nil {
		return contract.Hello{}, err
	}
	wait := s.hello
	if rest := s.d.StartupGrace - time.Since(p.started); rest > wait {
		wait = rest
	}
	// Whatever happens now, the process has had its startup time.
	p.ready = true
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	line, _ := contract.MarshalLine(contract.NewHello())
	deadline, _ := ctx.Deadline()
	if err := p.write(line, deadline); err != nil {
		s.rec.notef("hello: write to pid %d: %v; treated as unnamed", p.pid, err)
		return contract.Hello{}, nil
	}
	for {
		select {
		case ev := <-p.events:
			if ev.err == io.EOF {
				s.rec.notef("hello: pid %d ended before answering; treated as unnamed", p.pid)
				s.retire(p, "")
				return contract.Hello{}, nil
			}
			if ev.err != nil {
				s.rec.notef("hello: skipped a line: %v", ev.err)
				continue
			}
			var h contract.Hello
			if json.Unmarshal(ev.line, &h) == nil && h.Type == contract.TypeHello {
				return h, nil
			}
			if len(strings.TrimSpace(string(ev.line))) > 0 {
				s.rec.notef("hello: skipped line %s", snippet(ev.line))
			}
		case <-ctx.Done():
			s.rec.notef("hello: no answer within %v; treated as unnamed", wait.Round(time.Millisecond))
			return contract.Hello{}, nil
		}
	}
}

// Delegate sends req and waits for the outcome whose id is req.ID.
func (s *execSession) Delegate(ctx context.Context, req contract.DelegationRequest) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	r := s.delegate(ctx, req)
	r.Elapsed = time.Since(start)
	return r
}

func (s *execSession) delegate(ctx context.Context, req contract.DelegationRequest) Result {
	if s.closed {
		return Result{NoOutcome: "session closed"}
	}
	overrideDeadline(&req, s.d.Deadline, &s.rec, &s.deadlineNoted)
	line, err := contract.MarshalLine(req)
	if err != nil {
		return Result{NoOutcome: "cannot encode request: " + err.Error()}
	}
	wait := requestDeadline(req) + s.grace
	if p := s.cur; s.d.StartupGrace > 0 && (p == nil || p.exited() || !p.ready) {
		// The request goes to a process that has had no hello: it may
		// still be starting, and its start-up is not its delegation's time.
		wait += s.d.StartupGrace
		s.rec.notef("request %s: to a process without hello: %v startup grace added to its wait", req.ID, s.d.StartupGrace)
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	deadline, _ := ctx.Deadline()

	problem := ""  // best no-outcome reason seen so far
	broke := false // problem is an answer that broke the contract
	resent := false
	for {
		p, err := s.ensure()
		if err != nil {
			return Result{NoOutcome: "cannot start: " + err.Error()}
		}
		p.ready = true
		if err := p.write(line, deadline); err != nil {
			if ctx.Err() != nil {
				return s.timedOut(ctx, p, problem, broke)
			}
			// Broken pipe: the process is gone or closed its stdin, so it
			// never read this request; a fresh process gets it.
			s.rec.notef("request %s: write to pid %d: %v", req.ID, p.pid, err)
			s.stop(p, "stdin closed")
			if !resent {
				resent = true
				continue
			}
			return Result{NoOutcome: "cannot write request: " + err.Error()}
		}
		sentBefore := p.sent - 1
	wait:
		for {
			select {
			case ev := <-p.events:
				switch {
				case ev.err == io.EOF:
					break wait
				case ev.err != nil:
					problem, broke = ev.err.Error(), errors.Is(ev.err, contract.ErrLineTooLong)
					s.rec.notef("request %s: pid %d: %v", req.ID, p.pid, ev.err)
					continue
				}
				if len(strings.TrimSpace(string(ev.line))) == 0 {
					continue
				}
				j := judge(ev.line, req.ID)
				if j.note != "" {
					s.rec.notef("request %s: %s", req.ID, j.note)
				}
				if j.result != nil {
					return *j.result
				}
				problem, broke = j.problem, true
			case <-ctx.Done():
				return s.timedOut(ctx, p, problem, broke)
			}
		}
		// Stdout ended: the process has exited without answering.
		s.retire(p, "")
		code := -1
		if p.state != nil {
			code = p.state.ExitCode()
		}
		switch {
		case code == ExitUnimplemented:
			return Result{Unimplemented: true}
		case code == 0 && sentBefore > 0 && !resent && problem == "":
			// A one-shot program that had served an earlier message and
			// exited before reading this one.
			s.rec.notef("request %s: pid %d exited after an earlier message; sending to a fresh process", req.ID, p.pid)
			resent = true
			continue
		case problem != "":
			s.rec.notef("request %s: pid %d %s", req.ID, p.pid, p.exitText())
			return Result{NoOutcome: problem, BrokeContract: broke}
		default:
			return Result{NoOutcome: p.exitText()}
		}
	}
}

// timedOut stops p after the request's context ended.
func (s *execSession) timedOut(ctx context.Context, p *proc, problem string, broke bool) Result {
	why := "timeout"
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		why = "canceled"
	}
	s.stop(p, "killed after "+why)
	if problem != "" {
		s.rec.notef("%s; last problem: %s", why, problem)
		return Result{NoOutcome: problem, BrokeContract: broke}
	}
	return Result{NoOutcome: why}
}

// Close closes the process's stdin, waits up to Grace for it to exit, then
// kills its process group. It never waits on stdout without a bound.
func (s *execSession) Close() Transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.final
	}
	s.closed = true
	if p := s.cur; p != nil {
		p.discard()
		p.stdin.Close()
		select {
		case <-p.done:
			s.retire(p, "")
		case <-time.After(s.grace):
			p.group.kill()
			s.retire(p, "killed at close")
		}
	}
	if n := s.owner.close(); n > 0 {
		s.rec.notef("killed %d orphaned descendants reparented to the harness", n)
	}
	s.final = s.rec.transcript(s.stderr.String())
	return s.final
}

// tailBuffer keeps the last limit bytes written to it; safe for concurrent
// use.
type tailBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte
	dropped int64
}

// Write implements io.Writer; it never fails.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if len(b) > t.limit {
		t.dropped += int64(len(b) - t.limit)
		b = b[len(b)-t.limit:]
	}
	if over := len(t.buf) + len(b) - t.limit; over > 0 {
		t.dropped += int64(over)
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, b...)
	return n, nil
}

// String returns what is kept as valid UTF-8 (a byte that is not is
// replaced by U+FFFD), prefixed by a marker when bytes were dropped; a
// tail that starts inside a UTF-8 sequence starts after it.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, dropped := t.buf, t.dropped
	if dropped > 0 {
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
			b, dropped = b[1:], dropped+1
		}
		return fmt.Sprintf("[%d earlier bytes dropped]\n%s", dropped, strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// sessionMarkerVar names the environment entry that marks every process of
// one exec OUT and its descendants, so that the harness can stop the ones
// that left the OUT's process group (setsid, double forks). Each started
// process gets a value of its own.
const sessionMarkerVar = "A2A_CONFORM_SESSION"

// startupGraceVar tells a process the startup grace it has (in
// milliseconds, set only when there is one), so that it can finish its
// imports before it answers hello and keep them out of its first deadline.
const startupGraceVar = "A2A_CONFORM_STARTUP_GRACE_MS"

// sessionMarker returns a fresh marker entry ("A2A_CONFORM_SESSION=...").
func sessionMarker() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return sessionMarkerVar + "=" + hex.EncodeToString(b)
}

// markerIn returns the marker entry of env ("" when none).
func markerIn(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], sessionMarkerVar+"=") {
			return env[i]
		}
	}
	return ""
}
