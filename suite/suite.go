// Package suite is the Ginkgo suite of a2a-conform: one ordered Describe per
// scenario of the catalog and one It per check, labelled with the check id,
// scenario, area, profile and level, so Ginkgo's label filters, focus,
// parallelism and reports work as Ginkgo users expect. The CLI and
// suite_test.go call the same Run.
package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Config says what to run against which orchestrator and where to report.
type Config struct {
	// Driver reaches the orchestrator under test. Required.
	Driver driver.Driver
	// Upstreams are the real agents Scenarios put in the place of fleet
	// vendors (scenarios.WithUpstream), for the report. Nil: none.
	Upstreams []UpstreamUse
	// Orchestrator is the --orchestrator spec, for the report. Empty means
	// the driver's name.
	Orchestrator string
	// Scenarios is the catalog to run. Nil means
	// scenarios.Catalog(TimeScale). Given, each must have been staged at
	// TimeScale.
	Scenarios []*scenarios.Scenario
	// TimeScale is the scale the scenarios' waits are staged at
	// (scenarios.TimeScale), recorded in the report. Zero means
	// scenarios.RealTime, what a user's run measures.
	TimeScale scenarios.TimeScale
	// Parallel is how many scenarios run at once. Zero means
	// DefaultParallel(); the driver's session limit caps it (the http
	// driver holds one). Results do not depend on it: each scenario has a
	// fleet and an orchestrator session of its own, and the console and
	// reports keep run order.
	Parallel int
	// LabelFilter is a Ginkgo label filter ("delegation-safety && MUST").
	// Empty means every check.
	LabelFilter string
	// IncludeSlow runs scenarios labelled slow (CARD-007, CARD-009, SLOW-001). False leaves
	// them out unless LabelFilter names "slow".
	IncludeSlow bool
	// Baseline lists expected failures. Nil means none.
	Baseline Baseline
	// Out receives one line per scenario as it finishes. Nil means stdout.
	Out io.Writer
	// JSONReport and JUnitReport are files to write. Empty means none.
	JSONReport  string
	JUnitReport string
	// Version is the harness version recorded in the report.
	Version string
	// GinkgoOutput receives Ginkgo's own progress report. Nil leaves it on
	// stdout (as go test and ginkgo show it); the CLI sends it to stderr
	// with --verbose and discards it otherwise.
	GinkgoOutput io.Writer
	// NoColor turns off Ginkgo's colours.
	NoColor bool
	// Context, once done, stops the run as an interrupt does: the scenario
	// under way is abandoned, the remaining ones are skipped, and the report
	// covers what finished, with Complete false. Nil means
	// context.Background(). (Ginkgo handles SIGINT and SIGTERM itself during
	// RunSpecs the same way; this is for callers that stop a run otherwise.)
	Context context.Context
	// Shard runs only part of the catalog (see ShardSpec). Nil means all of
	// Scenarios.
	Shard *ShardSpec
	// Seed, when not zero, runs the selected scenarios (after Shard) in an
	// order shuffled with this seed: the same seed, catalog and harness give
	// the same order. Zero means catalog order. The report keeps catalog
	// order either way.
	Seed int64
	// Progress, when set, gets a line while the run waits more than
	// ProgressEvery for a scenario ("… LIFE-004 still running (5s)"). Nil
	// means none; the CLI sends it to stderr when stderr is a terminal.
	Progress io.Writer
	// Events, when set, receives one JSON line per event as it happens
	// (a scenario starting, a check's result, a scenario ending, the run
	// ending; see Event), for tools that follow a run. Nil means none.
	Events io.Writer
	// StopAfterBroken stops the run after this many scenarios in a row (in
	// run order) in which the orchestrator gave no usable answer: it
	// crashed, hung, or answered nothing the contract allows. The report
	// covers what finished, with Complete false and StoppedEarly saying
	// why. Zero means DefaultStopAfterBroken; 1 stops at the first (the
	// CLI's --fail-fast); a negative value never stops.
	StopAfterBroken int
	// Partial, when set, is called after each scenario with the report of
	// the scenarios finished so far (Complete false), so that a run that
	// dies (out of memory, killed) leaves the reports of what finished;
	// the CLI writes every requested report with it. Nil means no partial
	// reports. (On parallel processes other than the first, the finished
	// scenarios are only those of that process.)
	Partial func(*Report)
}

// entry names of the report entries the specs add.
const (
	checkEntry    = "a2a-conform.check"
	scenarioEntry = "a2a-conform.scenario"
)

// Run defines the specs and runs them with Ginkgo. t is the testing.T of
// go test, or any GinkgoTestingT (the CLI passes its own). It returns the
// scored report (nil on parallel processes other than the first, which
// report through process 1).
func Run(t ginkgo.GinkgoTestingT, cfg Config) (*Report, error) {
	cfg, err := cfg.complete()
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancelCause(cfg.Context)
	defer stop(nil)
	cfg.Context = ctx
	start := time.Now()
	out := &lineWriter{w: cfg.Out}
	col := &collector{streak: newBrokenStreak(cfg.StopAfterBroken, stop)}
	if cfg.Partial != nil {
		col.partial = func() {
			r := NewReport(cfg, start, false, col.checks(), col.scenarios())
			r.StoppedEarly = stoppedEarly(ctx)
			cfg.Partial(r)
		}
	}
	// One ordered container around the scenarios keeps catalog order (Ginkgo
	// shuffles top-level containers with a time seed otherwise), so two runs
	// print the same lines in the same order; ContinueOnFailure keeps a
	// failed check from skipping the scenarios after it.
	order := RunOrder(cfg.Scenarios, cfg.Seed)
	exec := &executor{driver: cfg.Driver, events: newEventLog(cfg.Events)}
	ginkgo.Describe("a2a-conform catalog", ginkgo.Ordered, ginkgo.ContinueOnFailure, func() {
		for _, s := range order {
			defineScenario(s, cfg, out, col, exec)
		}
	})
	var report *Report
	// On a first (and second) SIGINT or SIGTERM, Ginkgo skips the remaining
	// specs but still runs ReportAfterSuite nodes (interrupt levels
	// CleanupAndReport and ReportOnly in ginkgo's internal/suite.go); only
	// a third signal bails out without them. The collector covers that case.
	ginkgo.ReportAfterSuite("a2a-conform report", func(gr ginkgo.Report) {
		report = BuildReport(gr, cfg, start)
		if late := judgedLate(gr, report); len(late) > 0 {
			ginkgo.Fail("judged with what the whole run shows the orchestrator speaking, these checks need attention although their specs did not fail:\n" + strings.Join(late, "\n"))
		}
	})
	suiteCfg, repCfg := ginkgo.GinkgoConfiguration()
	suiteCfg.LabelFilter = labelFilter(suiteCfg.LabelFilter, cfg)
	if suiteCfg.ParallelTotal <= 1 {
		// Ginkgo runs every spec in this process: execute the selected
		// scenarios ahead, several at once.
		if pool := exec.startPool(cfg, order, suiteCfg.LabelFilter); pool != nil {
			defer pool.stop()
		}
	}
	repCfg.SilenceSkips = true
	repCfg.NoColor = repCfg.NoColor || cfg.NoColor
	if cfg.GinkgoOutput != nil {
		formatter.ColorableStdOut = cfg.GinkgoOutput
	}
	ginkgo.RunSpecs(t, "a2a-conform", suiteCfg, repCfg)
	if report == nil && suiteCfg.ParallelTotal <= 1 {
		// ReportAfterSuite did not run (Ginkgo bailed out): report what the
		// specs collected as they finished.
		report = NewReport(cfg, start, false, col.checks(), col.scenarios())
	}
	if report == nil {
		return nil, nil
	}
	report.StoppedEarly = stoppedEarly(ctx)
	exec.events.runEnd(report)
	writeReports(report, cfg)
	return report, nil
}

// complete checks cfg and fills in its defaults: the catalog at its time
// scale, stdout, the driver's name, a background context; the shard's
// scenarios when it names one.
func (cfg Config) complete() (Config, error) {
	if cfg.Driver == nil {
		return cfg, fmt.Errorf("suite: no orchestrator driver")
	}
	if cfg.TimeScale == 0 {
		cfg.TimeScale = scenarios.RealTime
	}
	if err := cfg.TimeScale.Validate(); err != nil {
		return cfg, fmt.Errorf("suite: %w", err)
	}
	if cfg.Scenarios == nil {
		cfg.Scenarios = scenarios.Catalog(cfg.TimeScale)
	}
	if err := scenarios.Validate(cfg.Scenarios); err != nil {
		return cfg, err
	}
	if err := sameScale(cfg.Scenarios, cfg.TimeScale); err != nil {
		return cfg, err
	}
	if cfg.Out == nil {
		cfg.Out = os.Stdout
	}
	if cfg.Orchestrator == "" {
		cfg.Orchestrator = cfg.Driver.Name()
	}
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Shard != nil {
		cfg.Scenarios = cfg.Shard.Select(cfg.Scenarios)
		if len(cfg.Scenarios) == 0 {
			return cfg, fmt.Errorf("suite: shard %s selects no scenario", cfg.Shard)
		}
	}
	return cfg, nil
}

// startPool starts executing the scenarios of order that filter selects,
// several at once, ahead of the specs that judge them: the pool, nil when
// the filter does not parse (Ginkgo reports it).
func (e *executor) startPool(cfg Config, order []*scenarios.Scenario, filter string) *ahead {
	sel, err := Select(order, filter, true)
	if err != nil {
		return nil
	}
	picked := make([]*scenarios.Scenario, len(sel))
	for i, x := range sel {
		picked[i] = x.Scenario
	}
	e.pool = startAhead(cfg.Context, picked, e.run, parallelism(cfg.Parallel, cfg.Driver))
	e.pool.progress, e.pool.every = cfg.Progress, ProgressEvery
	return e.pool
}

// writeReports writes the report files cfg names; a failure is said on
// cfg.Out (the run's result stands).
func writeReports(report *Report, cfg Config) {
	if cfg.JSONReport != "" {
		if err := report.WriteJSON(cfg.JSONReport); err != nil {
			fmt.Fprintf(cfg.Out, "a2a-conform: writing %s: %v\n", cfg.JSONReport, err)
		}
	}
	if cfg.JUnitReport != "" {
		if err := report.WriteJUnit(cfg.JUnitReport); err != nil {
			fmt.Fprintf(cfg.Out, "a2a-conform: writing %s: %v\n", cfg.JUnitReport, err)
		}
	}
}

// RunOrder is the order Run runs scenarios in: all as given when seed is
// zero, otherwise a copy shuffled with seed (PCG, Fisher-Yates), the same
// for the same seed and scenarios on every machine.
func RunOrder(all []*scenarios.Scenario, seed int64) []*scenarios.Scenario {
	if seed == 0 {
		return all
	}
	out := slices.Clone(all)
	rand.New(rand.NewPCG(uint64(seed), 0)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// collector keeps the results as each spec finishes, for a run that ends
// before Ginkgo reports.
type collector struct {
	mu    sync.Mutex
	cs    []CheckResult
	scens []ScenarioResult
	// partial reports what finished so far (Config.Partial); nil: none.
	partial func()
	// traces is what the run's scenarios keep of their traces together.
	traces traceBudget
	// streak stops the run after too many broken scenarios in a row.
	streak *brokenStreak
	// speech is what the scenarios finished so far showed the
	// orchestrator speaking (a spec judges with it; the report judges
	// again with the whole run's).
	speech scenarios.Speaks
}

// addSpeech adds what a finished scenario showed the orchestrator speaking.
func (c *collector) addSpeech(res ScenarioResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.speech = c.speech.Union(RunSpeaks([]ScenarioResult{res}))
}

// speaks is what the scenarios finished so far showed.
func (c *collector) speaks() scenarios.Speaks {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speech
}

// judgedLate lists the checks whose result, taken for what the whole run
// showed the orchestrator speaking (CheckResult.Alternatives), needs
// attention while their spec passed or was skipped: the spec judged with
// what the run had shown by then.
func judgedLate(gr ginkgo.Report, r *Report) []string {
	if r == nil {
		return nil
	}
	failed := map[string]bool{}
	for _, sr := range gr.SpecReports {
		if sr.State.Is(types.SpecStateFailureStates) {
			failed[strings.SplitN(sr.LeafNodeText, " ", 2)[0]] = true
		}
	}
	var out []string
	for _, c := range r.Checks {
		if len(c.Alternatives) > 0 && c.NeedsAttention() && !failed[c.ID] {
			out = append(out, FailureMessage(c))
		}
	}
	return out
}

func (c *collector) addCheck(cr CheckResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cs = append(c.cs, cr)
}

func (c *collector) addScenario(res ScenarioResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scens = append(c.scens, res)
}

func (c *collector) checks() []CheckResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CheckResult(nil), c.cs...)
}

func (c *collector) scenarios() []ScenarioResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ScenarioResult(nil), c.scens...)
}

// executor runs a scenario for its specs: from the pool that executes
// them ahead when there is one, else there and then.
type executor struct {
	driver driver.Driver
	pool   *ahead
	events *eventLog
}

func (e *executor) execute(ctx context.Context, s *scenarios.Scenario) (*scenarios.Run, ScenarioResult, error) {
	if e.pool == nil {
		return e.run(ctx, s)
	}
	return e.pool.take(ctx, s, e.run)
}

// run executes s now, saying so on the event stream.
func (e *executor) run(ctx context.Context, s *scenarios.Scenario) (*scenarios.Run, ScenarioResult, error) {
	e.events.emit(Event{Kind: "scenario-start", Scenario: s.ID})
	return Execute(ctx, s, e.driver)
}

// labelFilter joins the filters and keeps slow scenarios out unless asked.
func labelFilter(fromFlags string, cfg Config) string {
	var parts []string
	for _, f := range []string{fromFlags, cfg.LabelFilter} {
		if strings.TrimSpace(f) != "" {
			parts = append(parts, "("+f+")")
		}
	}
	joined := strings.Join(parts, " && ")
	if !cfg.IncludeSlow && !strings.Contains(strings.ToLower(joined), "slow") {
		parts = append(parts, "!slow")
	}
	return strings.Join(parts, " && ")
}

// defineScenario declares one ordered container: the scenario runs once
// (BeforeAll), then each check judges the run.
func defineScenario(s *scenarios.Scenario, cfg Config, out *lineWriter, col *collector, exec *executor) {
	labels := append([]string{s.ID, s.Area}, s.Labels...)
	ginkgo.Describe(s.ID+" "+s.Title, ginkgo.Ordered, ginkgo.Label(labels...), func() {
		var (
			run        *scenarios.Run
			res        ScenarioResult
			harnessErr error
			once       sync.Once
			marks      []scenarios.Outcome
			stopped    bool
		)
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			if cfg.Context.Err() != nil {
				stopped = true
				return
			}
			// The scenario stops when Ginkgo is interrupted or times the node
			// out (ctx), or when the caller stops the run (cfg.Context).
			rctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(cfg.Context, cancel)()
			run, res, harnessErr = exec.execute(rctx, s)
			col.addSpeech(res)
			if sp := col.speaks(); run != nil && (sp.Known() || run.Speaks != nil) {
				if run.Speaks != nil {
					sp = sp.Union(*run.Speaks)
				}
				run.Speaks = &sp
			}
			col.traces.fit(&res)
			stopped = cfg.Context.Err() != nil
		}, ginkgo.NodeTimeout(time.Duration(len(s.Requests))*(25*time.Second)+scenarioWaits(s)+30*time.Second))
		ginkgo.AfterAll(func() {
			// Every check has judged the run: drop its whole trace (up to
			// Limits.MaxTraceEvents events and MaxTraceBodyBytes of bodies)
			// before the next scenario starts; res keeps the report's part.
			run = nil
			out.scenarioLine(s, marks, res)
			exec.events.emit(Event{Kind: "scenario-end", Scenario: s.ID, DurationMs: res.DurationMs})
			if !stopped {
				col.streak.record(res)
			}
			if col.partial != nil && !stopped {
				col.partial()
			}
		})
		for _, c := range s.WithGlobals() {
			c := c
			id := s.CheckID(c)
			ginkgo.It(id+" "+c.Title, ginkgo.Label(checkLabels(id, c)...), func() {
				if stopped {
					ginkgo.Skip("the run was stopped before " + s.ID + " finished")
				}
				once.Do(func() {
					addEntry(scenarioEntry, res)
					col.addScenario(res)
				})
				cr := Judge(run, harnessErr, s, c, cfg.Baseline)
				if !c.Global() {
					marks = append(marks, cr.Result)
				}
				addEntry(checkEntry, cr)
				col.addCheck(cr)
				exec.events.check(cr)
				switch cr.Result {
				case scenarios.Fail:
					ginkgo.Fail(FailureMessage(cr))
				case scenarios.Error:
					ginkgo.Fail("harness error, not a verdict on the orchestrator:\n" + FailureMessage(cr))
				case scenarios.ContractError:
					ginkgo.Fail("the orchestrator's answer broke the driver contract:\n" + FailureMessage(cr))
				case scenarios.NotExercised:
					// A MUST the orchestrator never reached denies conformance,
					// so go test fails on it too; a global's observation in one
					// scenario is not the requirement's result.
					if !c.Global() && hasMust(c.Grades) {
						ginkgo.Fail("NOT_EXERCISED, which denies conformance for a MUST:\n" + FailureMessage(cr))
					}
					ginkgo.Skip("NOT_EXERCISED (counts as not passed): " + cr.Detail)
				case scenarios.NotApplicable, scenarios.Unimplemented:
					ginkgo.Skip(string(cr.Result) + ": " + cr.Detail)
				}
			})
		}
	})
}

func scenarioWaits(s *scenarios.Scenario) time.Duration {
	var d time.Duration
	for _, r := range s.Requests {
		d += r.Wait
	}
	return d
}

func checkLabels(id string, c scenarios.Check) []string {
	labels := []string{id}
	for _, g := range c.Grades {
		labels = append(labels, string(g.Profile), string(g.Level))
	}
	if strings.Contains(id, ".G-") {
		labels = append(labels, "global")
	}
	return labels
}

func addEntry(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		ginkgo.Fail("encoding the report entry: " + err.Error())
	}
	ginkgo.AddReportEntry(name, string(b), ginkgo.ReportEntryVisibilityNever)
}

// BuildReport reads the check and scenario entries out of a Ginkgo report
// and scores them. The checks keep catalog order.
func BuildReport(gr ginkgo.Report, cfg Config, start time.Time) *Report {
	var (
		checks []CheckResult
		scens  []ScenarioResult
	)
	for _, sr := range gr.SpecReports {
		for _, e := range sr.ReportEntries {
			raw, _ := e.Value.GetRawValue().(string)
			switch e.Name {
			case checkEntry:
				var cr CheckResult
				if json.Unmarshal([]byte(raw), &cr) == nil {
					checks = append(checks, cr)
				}
			case scenarioEntry:
				var res ScenarioResult
				if json.Unmarshal([]byte(raw), &res) == nil {
					scens = append(scens, res)
				}
			}
		}
	}
	stopped := cfg.Context != nil && cfg.Context.Err() != nil
	return NewReport(cfg, start, !interrupted(gr) && !stopped, checks, scens)
}

func interrupted(gr ginkgo.Report) bool {
	for _, reason := range gr.SpecialSuiteFailureReasons {
		if strings.Contains(strings.ToLower(reason), "interrupt") {
			return true
		}
	}
	return false
}

func hasMust(gs []scenarios.Grade) bool {
	for _, g := range gs {
		if g.Level == scenarios.Must {
			return true
		}
	}
	return false
}

// sameScale fails when a scenario was staged at another scale than ts, so
// that a report never records a scale its scenarios did not run at.
func sameScale(all []*scenarios.Scenario, ts scenarios.TimeScale) error {
	for _, s := range all {
		if s.TimeScale.String() != ts.String() {
			return fmt.Errorf("suite: scenario %s is staged at time scale %s, the run at %s", s.ID, s.TimeScale, ts)
		}
	}
	return nil
}
