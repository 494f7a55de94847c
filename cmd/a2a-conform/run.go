package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// builtins are the orchestrators builtin:NAME names, a fresh one for
// every session (so scenarios can run in parallel).
func builtins() map[string]func() driver.GoOrchestrator {
	return map[string]func() driver.GoOrchestrator{
		"reference": func() driver.GoOrchestrator { return reference.New(reference.Options{}) },
		"naive":     func() driver.GoOrchestrator { return naive.New() },
	}
}

// cliT is the GinkgoTestingT the CLI hands to the suite.
type cliT struct{ failed bool }

func (t *cliT) Fail() { t.failed = true }

type profileFlag []scenarios.Profile

func (p *profileFlag) String() string { return fmt.Sprint(*p) }
func (p *profileFlag) Set(v string) error {
	prof, err := scenarios.ParseProfile(v)
	if err == nil {
		*p = append(*p, prof)
	}
	return err
}

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseRun(args, stderr)
	if o == nil {
		return err // nil after -h: the usage was printed
	}
	if o.rerun != "" {
		again, err := rerunFilter(o.rerun)
		if err != nil {
			return err
		}
		o.labels = joinFilters(o.labels, again)
	}
	catalog, uses, err := upstreamCatalog(ctx, o.timeScale, o.upstreams)
	if err != nil {
		return err
	}
	filter := withProfiles(o.labels, o.profiles)
	if o.dryRun {
		all := scenarios.All()
		if catalog != nil {
			all = catalog
		}
		if o.shard != nil {
			all = o.shard.Select(all)
		}
		return printSelection(stdout, all, filter, o.slow)
	}
	var events io.Writer
	if o.eventsFile != "" {
		f, err := os.Create(o.eventsFile)
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--events: %w", err)}
		}
		defer f.Close()
		events = f
	}
	// Last of the checks, as it may wait (--startup-grace): is the
	// orchestrator there at all? If not, a run would only score that.
	if err := driver.Preflight(ctx, o.driver); err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.seed != 0 {
		fmt.Fprintf(stdout, "a2a-conform: scenarios in shuffled order, --seed %d (repeat the order with the same --seed)\n", int64(o.seed))
	}
	cfg := o.suiteConfig(ctx, stdout, stderr)
	cfg.Scenarios, cfg.Upstreams, cfg.LabelFilter, cfg.Events = catalog, uses, filter, events
	// The reports are written here rather than by suite.Run, so that run and
	// report merge write them the same way. An interrupt (SIGINT, SIGTERM)
	// makes Run return early with the report of what finished, Complete
	// false: ctx stops the scenario under way; Ginkgo, which handles the same
	// signals during RunSpecs, skips the rest and still reports.
	report, err := suite.Run(&cliT{}, cfg)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if report == nil {
		return &exitError{code: 2, err: fmt.Errorf("the suite produced no report")}
	}
	werr := o.out.write(report)
	writeUpstreams(stdout, report.Upstreams)
	suite.WriteScorecard(stdout, report)
	writeFailures(stdout, report)
	writeNotRun(stdout, filter, o.slow, o.shard)
	if werr != nil {
		return &exitError{code: 2, err: werr}
	}
	return verdictExit(report, o.profiles)
}

// runOptions are run's command line, parsed and checked.
type runOptions struct {
	orch, labels, rerun, eventsFile string
	profiles                        profileFlag
	out                             reportFiles
	shard                           *suite.ShardSpec
	baseline                        suite.Baseline
	slow, verbose, failFast, dryRun bool
	parallel                        int
	timeScale                       scenarios.TimeScale
	seed                            seedFlag
	upstreams                       upstreamFlags
	driver                          driver.Driver
}

// parseRun reads run's flags: nil and a usage error, an exit 2 naming the
// flag whose value is wrong, or no error after -h (the usage printed).
func parseRun(args []string, stderr io.Writer) (*runOptions, error) {
	o := &runOptions{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.orch, "orchestrator", "builtin:reference", "orchestrator under test: builtin:reference, builtin:naive, exec:COMMAND, http://URL")
	fs.Var(&o.profiles, "profile", "profile to judge conformance by (repeatable; default: all)")
	fs.StringVar(&o.labels, "label-filter", "", "Ginkgo label filter over check ids, scenarios, areas, profiles and levels")
	o.out.flags(fs)
	shard := fs.String("shard", "", "run only shard `K/N` of the scenarios (catalog index mod N == K-1); merge the reports with 'a2a-conform report merge'")
	baseline := fs.String("baseline", "", "baseline file of expected failures {\"ID-or-glob\": \"reason\"}")
	fs.BoolVar(&o.slow, "slow", false, "also run scenarios labelled slow (CARD-007 waits 301 s, CARD-009 61 s)")
	fs.BoolVar(&o.verbose, "verbose", false, "show Ginkgo's own progress report on stderr")
	fs.StringVar(&o.rerun, "rerun-failed", "", "run again only the scenarios of this JSON report with a check that failed, was not exercised or met a harness error (with --label-filter: both must select)")
	fs.IntVar(&o.parallel, "parallel", 0, "run this many scenarios at once (0: max(4, the number of CPUs); an http orchestrator gets at most the sessions its hello declares, one without a declaration); the results do not depend on it")
	fs.BoolVar(&o.failFast, "fail-fast", false, "stop at the first scenario in which the orchestrator gave no usable answer (it crashed, hung or broke the contract), exit 2; without it the run stops after 3 in a row")
	fs.StringVar(&o.eventsFile, "events", "", "write one JSON line per event to this `file` as it happens: scenario-start, check (with its result), scenario-end, run-end")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the scenarios and checks the filters (--label-filter, --profile, --shard, --slow) select, and exit without running them")
	timeScale := fs.String("time-scale", "1", "stage the scenarios' own waits (a task's work, a late first frame and the card's timeout, a delegation's deadline, pauses between delegations) at `F` times their length, 0 < F <= 1; the report records F, and a run at another F than 1 is not a real-time measurement")
	fs.Var(&o.seed, "seed", "run the scenarios in an order shuffled with this `N` (printed, so a run can be repeated), or with a new seed for 'random'; default: catalog order")
	fs.Var(&o.upstreams.specs, "upstream", "put a real agent in the place of a fleet vendor, `VENDOR=URL` (e.g. d=https://agent.example.com); runs only the scenarios it can play (docs/proxy.md); repeatable")
	fs.StringVar(&o.upstreams.caFile, "upstream-ca", "", "PEM `file` of the CA certificates that verify the --upstream agents (default: the system's)")
	fs.Var(&o.upstreams.headers, "upstream-header", "a header sent to every --upstream agent, `'Name: value'` (${VAR} is read from the environment); repeatable")
	var dopts driver.Options
	fs.DurationVar(&dopts.HelloTimeout, "hello-timeout", driver.DefaultHelloTimeout,
		"how long to wait for the orchestrator's hello answer (exec), or for its reset and hello answers (http); a silent one is unnamed")
	fs.DurationVar(&dopts.StartupGrace, "startup-grace", 0,
		"time the orchestrator may take to start: the first delegation's deadline starts when it has answered hello or this has run out (0: no grace; exec and http)")
	fs.DurationVar(&dopts.Deadline, "deadline", 0,
		"replace every delegation's deadlineMs with this (0: the scenario's, 20s by default)")
	if err := fs.Parse(args); err != nil {
		return nil, flagError(err)
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("run takes no arguments, got %q", fs.Args())}
	}
	if err := o.check(dopts, *shard, *baseline, *timeScale); err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	return o, nil
}

// check checks the flags' values and reads what they name: the driver of
// the orchestrator, the shard, the baseline file and the time scale.
func (o *runOptions) check(dopts driver.Options, shard, baseline, timeScale string) error {
	for name, v := range map[string]time.Duration{"--hello-timeout": dopts.HelloTimeout, "--startup-grace": dopts.StartupGrace, "--deadline": dopts.Deadline} {
		if v < 0 {
			return fmt.Errorf("%s %v: must not be negative", name, v)
		}
	}
	if o.parallel < 0 {
		return fmt.Errorf("--parallel %d: must not be negative", o.parallel)
	}
	var err error
	if o.timeScale, err = scenarios.ParseTimeScale(timeScale); err != nil {
		return fmt.Errorf("--time-scale: %w", err)
	}
	if dopts.Deadline > 0 && dopts.Deadline < time.Millisecond {
		return fmt.Errorf("--deadline %v: less than a millisecond", dopts.Deadline)
	}
	if o.driver, err = driver.ParseWith(o.orch, builtins(), dopts); err != nil {
		return err
	}
	if err := checkLabelFilter(o.labels); err != nil {
		return err
	}
	if err := o.out.check(); err != nil {
		return err
	}
	if shard != "" {
		if o.shard, err = suite.ParseShard(shard); err != nil {
			return err
		}
	}
	if baseline != "" {
		if o.baseline, err = suite.LoadBaseline(baseline); err != nil {
			return err
		}
	}
	return nil
}

// suiteConfig is the suite's configuration of the run, but for what the
// run resolves after the flags (the catalog, the filter, the events).
func (o *runOptions) suiteConfig(ctx context.Context, stdout, stderr io.Writer) suite.Config {
	ginkgoOut := io.Discard
	if o.verbose {
		ginkgoOut = stderr
	}
	return suite.Config{
		Context:         ctx,
		Shard:           o.shard,
		Seed:            int64(o.seed),
		TimeScale:       o.timeScale,
		GinkgoOutput:    ginkgoOut,
		NoColor:         !isTerminal(stderr),
		Progress:        map[bool]io.Writer{true: stderr}[isTerminal(stderr)],
		Driver:          o.driver,
		Orchestrator:    o.orch,
		Parallel:        o.parallel,
		StopAfterBroken: map[bool]int{true: 1}[o.failFast],
		IncludeSlow:     o.slow,
		Baseline:        o.baseline,
		Out:             stdout,
		Version:         toolVersion(),
		// After each scenario the reports of what finished are written,
		// so a harness that dies (out of memory, killed) leaves them; the
		// full reports replace them at the end.
		Partial: func(r *suite.Report) { _ = o.out.write(r) },
	}
}

// writeNotRun prints what the run left out and why: the slow scenarios
// without --slow, the checks outside the filters and the other shards.
func writeNotRun(w io.Writer, filter string, slow bool, shard *suite.ShardSpec) {
	all := scenarios.All()
	everything, err := suite.Select(all, "", true)
	if err != nil {
		return
	}
	inShard := all
	if shard != nil {
		inShard = shard.Select(all)
	}
	ids := func(slow bool) map[string]bool {
		sel, _ := suite.Select(inShard, filter, slow)
		out := map[string]bool{}
		for _, s := range sel {
			out[s.Scenario.ID] = true
		}
		return out
	}
	ran, withSlow := ids(slow), ids(true)
	var slowOut []string
	left := 0
	for _, s := range everything {
		switch {
		case ran[s.Scenario.ID]:
		case withSlow[s.Scenario.ID]:
			slowOut = append(slowOut, s.Scenario.ID)
		default:
			left++
		}
	}
	if len(slowOut) > 0 {
		fmt.Fprintf(w, "not run: %s (slow: --slow runs them)\n", strings.Join(slowOut, ", "))
	}
	if left > 0 {
		fmt.Fprintf(w, "not run: %d scenario(s) outside --label-filter, --profile or --shard (run --dry-run lists what a filter selects)\n", left)
	}
}

// rerunFilter is the label filter that selects the scenarios a saved
// report says need another run; nothing to re-run is an exit 0 with a
// line saying so.
func rerunFilter(report string) (string, error) {
	r, err := suite.ReadReport(report)
	if err != nil {
		return "", &exitError{code: 2, err: fmt.Errorf("--rerun-failed: %w", err)}
	}
	ids := r.FailedScenarios()
	if len(ids) == 0 {
		return "", &exitError{code: 0, err: fmt.Errorf("--rerun-failed: nothing to run again: every check in %s passed or does not apply", report)}
	}
	return strings.Join(ids, " || "), nil
}

// joinFilters is the label filter both a and b select (either may be
// empty).
func joinFilters(a, b string) string {
	switch {
	case strings.TrimSpace(a) == "":
		return b
	case strings.TrimSpace(b) == "":
		return a
	}
	return "(" + a + ") && (" + b + ")"
}

// withProfiles narrows a label filter to the --profile flags' profiles.
func withProfiles(filter string, profiles profileFlag) string {
	if len(profiles) == 0 {
		return filter
	}
	var ps []string
	for _, p := range profiles {
		ps = append(ps, string(p))
	}
	return joinFilters(filter, strings.Join(ps, " || "))
}

// seedFlag is --seed: an integer other than 0, or "random" for a seed from
// the clock (never 0). Zero, the default, keeps catalog order.
type seedFlag int64

func (s *seedFlag) String() string { return strconv.FormatInt(int64(*s), 10) }
func (s *seedFlag) Set(v string) error {
	if v == "random" {
		*s = seedFlag(time.Now().UnixNano()%1_000_000_000 + 1)
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return fmt.Errorf("want an integer or random")
	}
	*s = seedFlag(n)
	return nil
}

// ginkgoMarkup matches the {{red}}-style markup of Ginkgo's messages.
var ginkgoMarkup = regexp.MustCompile(`\{\{[a-z/-]*\}\}`)

// checkLabelFilter parses f as Ginkgo does and turns a syntax error into
// one plain line (Ginkgo's own message is coloured and several lines).
func checkLabelFilter(f string) error {
	if strings.TrimSpace(f) == "" {
		return nil
	}
	_, err := types.ParseLabelFilter(f)
	if err == nil {
		return nil
	}
	msg := err.Error()
	var ge types.GinkgoError
	if errors.As(err, &ge) {
		// Message is the filter (with markup around the bad spot), a
		// newline, and the parser's complaint.
		msg = ge.Message
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:]
		}
		msg = ginkgoMarkup.ReplaceAllString(msg, "")
	}
	return fmt.Errorf("--label-filter %q: syntax error: %s", f, strings.TrimSpace(msg))
}

// writeFailures prints each failed check's requirement, observation and
// fix, as h2spec does under its summary.
// MUSTs that were never reached follow as one line each: there is nothing
// on the wire to show for them, only what the orchestrator did not do.
func writeFailures(w io.Writer, r *suite.Report) {
	var unreached []string
	for _, c := range r.Checks {
		if !c.NeedsAttention() {
			continue
		}
		if c.Result == scenarios.NotExercised || c.Result == scenarios.Unimplemented {
			unreached = append(unreached, fmt.Sprintf("  %s %s: %s", suite.Mark(c.Result), c.ID, c.Detail))
			continue
		}
		c.Trace = nil
		fmt.Fprintln(w)
		fmt.Fprint(w, suite.FailureMessage(c))
		fmt.Fprintf(w, "  explain:     a2a-conform explain %s\n", c.ID)
	}
	if len(unreached) > 0 {
		fmt.Fprintf(w, "\n%d MUST requirements were not exercised (each denies conformance; a2a-conform explain ID says what reaches it):\n", len(unreached))
		for _, l := range unreached {
			fmt.Fprintln(w, l)
		}
	}
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// verdictExit maps a report to the exit code: 2 when the harness failed
// (an ERROR result or an interrupted run), 1 when a selected profile is not
// conformant, the baseline is stale or no check ran, 0 otherwise. A MUST
// that FAILed makes it 1 even beside an ERROR (a flood that reached the
// fleet's limits, for one): no harness error could make that run
// conformant, so the verdict stands and the harness error is named.
func verdictExit(r *suite.Report, profiles []scenarios.Profile) error {
	for _, c := range r.Checks {
		if c.Result != scenarios.Error {
			continue
		}
		if r.MustFailed(profiles) {
			return &exitError{code: 1, err: fmt.Errorf("not conformant: a MUST failed on the evidence the run kept; besides, harness error in %s: %s", c.ID, c.Detail)}
		}
		return &exitError{code: 2, err: fmt.Errorf("harness error in %s: %s", c.ID, c.Detail)}
	}
	if r.StoppedEarly != "" {
		return &exitError{code: 2, err: fmt.Errorf("stopped early, a broken set-up rather than a verdict: %s", r.StoppedEarly)}
	}
	if !r.Complete {
		return &exitError{code: 2, err: fmt.Errorf("the run was interrupted; the report covers what finished")}
	}
	if len(r.Checks) == 0 {
		return &exitError{code: 1, err: fmt.Errorf("no check ran (check --label-filter and --profile)")}
	}
	if !r.Conformant(profiles) {
		return &exitError{code: 1}
	}
	return nil
}
