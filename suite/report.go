package suite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Schema names the JSON report's format; it changes when the format stops
// being a superset of what it was. v2 (NOT_EXERCISED, one result per global
// requirement, outcomes held against the wire) replaced v1, which
// ReadReport still reads.
const Schema = "a2a-conform/report/v2"

// SchemaV1 is the first edition's report format: global checks reported
// once per scenario as "<scenario>.G-X", no NOT_EXERCISED.
const SchemaV1 = "a2a-conform/report/v1"

// Report is the result of a run: what the JSON report holds, and what the
// console, JUnit and HTML outputs are made from.
type Report struct {
	Schema       string       `json:"schema"`
	Tool         Tool         `json:"tool"`
	Orchestrator Orchestrator `json:"orchestrator"`
	StartedAt    time.Time    `json:"startedAt"`
	DurationMs   int64        `json:"durationMs"`
	// Complete is false when the run was interrupted before every selected
	// scenario finished.
	Complete bool `json:"complete"`
	// StoppedEarly says why the harness itself stopped the run before
	// every selected scenario ran (the orchestrator gave no usable answer
	// in several scenarios in a row); Complete is false then. Empty means
	// it did not (an interrupt leaves it empty).
	StoppedEarly string                             `json:"stoppedEarly,omitempty"`
	Profiles     map[scenarios.Profile]ProfileScore `json:"profiles"`
	// Speaks is what the orchestrator speaks as the verdicts judged it:
	// what its hello declared plus what the whole run saw it send
	// (RunSpeaks). Nil means nothing is known.
	Speaks *scenarios.Speaks `json:"speaks,omitempty"`
	// Delegations counts the delegations the run asked for and those whose
	// completion the wire bears out.
	Delegations DelegationTally `json:"delegations"`
	// BaselineProblems lists stale baseline entries (a listed check that
	// passed, an entry that matched nothing); any of them fails the run.
	BaselineProblems []string `json:"baselineProblems,omitempty"`
	// Baseline is the baseline the run was judged with, so that a merge or
	// a re-score can recompute its problems. Nil means none.
	Baseline Baseline `json:"baseline,omitempty"`
	// Shard is the part of the catalog this run covered (--shard K/N). Nil
	// means the whole selection (or a merge of every shard).
	Shard *ShardSpec `json:"shard,omitempty"`
	// TimeScale is the scale the scenarios' waits were staged at
	// (scenarios.TimeScale): 1 is real time, what users measure; another
	// scale is another measurement. Absent (zero) in reports written
	// before it was recorded, which ran at 1.
	TimeScale scenarios.TimeScale `json:"timeScale,omitempty"`
	// MergedFrom names the reports a merged report was made from, in the
	// order given. Empty for a report written by a run.
	MergedFrom []string `json:"mergedFrom,omitempty"`
	// Checks are the scenarios' own checks in catalog order, then one
	// result per global requirement (folded from Scenarios[].Globals).
	Checks    []CheckResult    `json:"checks"`
	Scenarios []ScenarioResult `json:"scenarios"`
	// Upstreams are the real agents the run put in the place of fleet
	// vendors (a2a-conform run --upstream), with the scenarios each played
	// and those it could not, and why. Empty: every vendor was the fleet's.
	Upstreams []UpstreamUse `json:"upstreams,omitempty"`
}

// UpstreamUse is a real agent in the place of a fleet vendor in a run.
type UpstreamUse struct {
	// Vendor is the fleet vendor's id the agent stood in for.
	Vendor string `json:"vendor"`
	// URL is the agent's base URL (no credentials: they are never
	// reported).
	URL string `json:"url"`
	// Versions are the A2A versions the agent's card declares, which the
	// vendor's card declared in its place.
	Versions []string `json:"versions,omitempty"`
	// Played are the scenarios run with the agent in the vendor's place.
	Played []string `json:"played"`
	// NotPlayable are the catalog's scenarios the agent could not play,
	// with the reason (they were not run).
	NotPlayable []NotPlayable `json:"notPlayable,omitempty"`
}

// NotPlayable is a scenario a real agent could not play, and why.
type NotPlayable struct {
	Scenario string `json:"scenario"`
	Reason   string `json:"reason"`
}

// DelegationTally counts delegations.
type DelegationTally struct {
	// Attempted is the number of delegations the harness asked for.
	Attempted int `json:"attempted"`
	// Completed is the number whose outcome said completed and whose
	// completion the wire bears out (scenarios.Run.Corroborate).
	Completed int `json:"completed"`
	// Answered is the number that brought back a usable answer: an
	// outcome the contract allows, or "unimplemented". A run with
	// delegations and none answered is conformant in no profile.
	Answered int `json:"answered"`
	// EndedAsWanted is the number of the answered delegations that did
	// not complete in a scenario whose own checks all passed (or do not
	// apply): refusals and interruptions that were the right answer.
	EndedAsWanted int `json:"endedAsWanted"`
}

// tally counts the delegations of the report's scenarios.
func (r *Report) tally() DelegationTally {
	var t DelegationTally
	for _, sc := range r.Scenarios {
		right := r.scenarioPassed(sc.ID)
		for _, d := range sc.Delegations {
			t.Attempted++
			answered := d.Outcome != nil || d.Unimplemented
			switch {
			case d.CompletedOnWire:
				t.Completed++
			case answered && right:
				t.EndedAsWanted++
			}
			if answered {
				t.Answered++
			}
		}
	}
	return t
}

// scenarioPassed reports whether every own check of scenario id passed,
// was waived or does not apply.
func (r *Report) scenarioPassed(id string) bool {
	for _, c := range r.Checks {
		if c.Scenario == id && !strings.HasPrefix(c.ID, "G-") && c.Result != scenarios.Pass && c.Result != scenarios.NotApplicable && c.Result != scenarios.Waived {
			return false
		}
	}
	return true
}

// Tool identifies the harness.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Orchestrator identifies the orchestrator under test.
type Orchestrator struct {
	// Spec is the --orchestrator value ("builtin:reference", "exec:...").
	Spec string `json:"spec"`
	// Name and Version are what the orchestrator said in its hello.
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// ProtocolVersions and Bindings are what its hello declared it speaks
	// (contract.Hello); empty when it declared nothing.
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	Bindings         []string `json:"bindings,omitempty"`
}

// CheckResult is one check's result in one scenario.
type CheckResult struct {
	ID       string            `json:"id"`
	Scenario string            `json:"scenario"`
	Title    string            `json:"title"`
	Profile  scenarios.Profile `json:"profile"`
	Level    scenarios.Level   `json:"level"`
	Grades   []scenarios.Grade `json:"grades"`
	Result   scenarios.Outcome `json:"result"`
	Clause   string            `json:"clause"`
	Source   string            `json:"source"`
	// Sources are the check's sources as data (document, locator, level,
	// whom it binds); Source is the same in one line.
	Sources []scenarios.Source `json:"sources,omitempty"`
	Fix     string             `json:"fix,omitempty"`
	Detail  string             `json:"detail"`
	// Expected and Actual say apart what the requirement wanted and what
	// was seen, when the check gave them (empty otherwise).
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Exempt lists the profiles in which the check does not apply to this
	// run (a grade's When was not met, the check needs a version the
	// orchestrator does not speak, or it is an a2a-core grade that A2A 0.3
	// does not ask of a 0.3-only orchestrator), with the reason; the check
	// is not scored there. Nil means it applies in all its grades.
	Exempt map[scenarios.Profile]string `json:"exempt,omitempty"`
	Seq    int64                        `json:"seq,omitempty"`
	Waiver string                       `json:"waiver,omitempty"`
	Trace  []string                     `json:"trace,omitempty"`
	// Covered, for a global requirement, lists the scenarios whose trace
	// exercised it (PASS or FAIL there).
	Covered []string `json:"covered,omitempty"`
	// Engaged, for a global's observation in one scenario, says the run
	// reached the requirement's situation there (its Reached was met), so
	// a NOT_APPLICABLE there is the orchestrator's own (a 0.3 client needs
	// no A2A-Version) rather than the scenario's lack of the situation.
	Engaged bool `json:"engaged,omitempty"`
	// Needs, on a NOT_APPLICABLE, is the A2A version the check needs and
	// the orchestrator does not speak ("1.0"): the scorecard counts it as
	// "needs 1.0", no profile scores it (scenarios.Verdict.Needs).
	Needs string `json:"needs,omitempty"`
	// Alternatives, for a check whose verdict depends on the A2A versions
	// the orchestrator speaks (its judge read them), are its results for
	// each set of versions the whole run may show; the report takes the
	// one for what the whole run showed (Report.Speaks) when it is
	// finished, merged or re-scored. Nil means the verdict does not
	// depend on it.
	Alternatives []Alternative `json:"alternatives,omitempty"`
}

// Alternative is a check's result for an orchestrator that speaks one of
// For (each a scenarios.Speaks.Key: "0.3,1.0|HTTP+JSON,JSONRPC").
type Alternative struct {
	For      []string                     `json:"for"`
	Result   scenarios.Outcome            `json:"result"`
	Detail   string                       `json:"detail"`
	Expected string                       `json:"expected,omitempty"`
	Actual   string                       `json:"actual,omitempty"`
	Seq      int64                        `json:"seq,omitempty"`
	Needs    string                       `json:"needs,omitempty"`
	Exempt   map[scenarios.Profile]string `json:"exempt,omitempty"`
	Profile  scenarios.Profile            `json:"profile"`
	Level    scenarios.Level              `json:"level"`
	Trace    []string                     `json:"trace,omitempty"`
}

// NeedsAttention reports whether the result is one a person must see: a
// FAIL, a harness ERROR, or a MUST that was not exercised or not
// implemented (both deny conformance).
func (c CheckResult) NeedsAttention() bool {
	if c.Ungraded() {
		return false
	}
	switch c.Result {
	case scenarios.Fail, scenarios.Error, scenarios.ContractError:
		return true
	case scenarios.NotExercised, scenarios.Unimplemented:
		return c.Level == scenarios.Must
	}
	return false
}

// Ungraded reports whether none of the check's grades applies to this run
// (each is in Exempt): its result is reported as the wire shows it, but no
// profile scores it and it asks for no attention.
func (c CheckResult) Ungraded() bool {
	if len(c.Grades) == 0 {
		return false
	}
	for _, g := range c.Grades {
		if _, exempt := c.Exempt[g.Profile]; !exempt {
			return false
		}
	}
	return true
}

// ScenarioResult is what one scenario did on the wire and what the
// orchestrator reported.
type ScenarioResult struct {
	ID          string             `json:"id"`
	Title       string             `json:"title"`
	Area        string             `json:"area"`
	DurationMs  int64              `json:"durationMs"`
	HarnessErr  string             `json:"harnessError,omitempty"`
	Delegations []DelegationResult `json:"delegations"`
	Trace       []mockvendor.Event `json:"trace"`
	// TraceLeftOut counts the events past the report's caps (the first
	// 5,000 are kept, as many as fit in 8 MiB of JSON); BodiesLeftOut the
	// kept events whose request body went past the report's 4 MiB budget.
	// Zero means none: the trace is whole.
	TraceLeftOut  int               `json:"traceLeftOut,omitempty"`
	BodiesLeftOut int               `json:"bodiesLeftOut,omitempty"`
	Untrusted     []string          `json:"untrustedHosts,omitempty"`
	Transcript    driver.Transcript `json:"transcript"`
	Reproduce     string            `json:"reproduce"`
	// Hello is what the orchestrator said it is (empty when it did not
	// answer the hello).
	Hello Orchestrator `json:"hello"`
	// Globals are the global requirements as observed in this scenario
	// ("<scenario>.G-X"); the report scores them once, in Checks.
	Globals []CheckResult `json:"globals,omitempty"`
	// Spoke is what the orchestrator's calls in this scenario show it
	// speaking (scenarios.SpokenIn over the whole trace, before the
	// report's caps). Nil means it made no call.
	Spoke *scenarios.Speaks `json:"spoke,omitempty"`
}

// DelegationResult is scenarios.Delegation as reported.
type DelegationResult = scenarios.Delegation

// ProfileScore is the scorecard of one profile.
type ProfileScore struct {
	// Score is the weighted pass ratio in percent (MUST 3, SHOULD 1) over
	// the requirements that count: every result but NOT_APPLICABLE (and
	// checks exempt in the profile). NOT_EXERCISED, UNIMPLEMENTED, WAIVED
	// and ERROR count as not passed.
	Score float64 `json:"score"`
	// MustPassed and MustApplicable count the MUST requirements that passed
	// and that count.
	MustPassed     int `json:"mustPassed"`
	MustApplicable int `json:"mustApplicable"`
	// NotExercised counts the requirements (any level) the orchestrator
	// never reached.
	NotExercised int                       `json:"notExercised"`
	Conformant   bool                      `json:"conformant"`
	Counts       map[scenarios.Outcome]int `json:"counts"`
	// Versions are the A2A versions the profile's verdict judged the
	// orchestrator for (a2a-core only: what it speaks, Report.Speaks).
	// Empty means none is known (it declared nothing and sent nothing).
	Versions []string `json:"versions,omitempty"`
	// Needs counts, by A2A version, the requirements of the profile the
	// orchestrator could not reach because their scenario offers only a
	// version it does not speak ("1.0": 4); they are not scored.
	Needs map[string]int `json:"needs,omitempty"`
}

// Label names the profile with the versions it judged: "a2a-core (0.3)",
// "a2a-core (0.3, 1.0)", or the bare profile when none is named.
func (ps ProfileScore) Label(p scenarios.Profile) string {
	if len(ps.Versions) == 0 {
		return string(p)
	}
	return string(p) + " (" + strings.Join(ps.Versions, ", ") + ")"
}

// NeedsText is the requirements not reached for want of a version, in
// one line ("needs 1.0: 4"), empty when none.
func (ps ProfileScore) NeedsText() string {
	vs := make([]string, 0, len(ps.Needs))
	for v := range ps.Needs {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("needs %s: %d", v, ps.Needs[v]))
	}
	return strings.Join(out, ", ")
}

// counts reports whether a result is scored (everything but
// NOT_APPLICABLE).
func counts(o scenarios.Outcome) bool { return o != scenarios.NotApplicable }

// blocksMust reports whether a MUST with this result denies the conformant
// verdict: anything but PASS and WAIVED (a waiver is the user's explicit,
// reasoned exception).
func blocksMust(o scenarios.Outcome) bool { return o != scenarios.Pass && o != scenarios.Waived }

// Score computes the scorecard of each profile from check results. It is
// a pure function, so a saved report can be scored again. A profile is
// conformant when it has at least one MUST that counts and every such MUST
// passed (or is waived): a MUST that was not exercised, not implemented, or
// met a harness error blocks it, as a failure does.
func Score(checks []CheckResult) map[scenarios.Profile]ProfileScore {
	out := map[scenarios.Profile]ProfileScore{}
	type acc struct {
		ProfileScore
		got, max int
		mustBad  int
	}
	accs := map[scenarios.Profile]*acc{}
	get := func(p scenarios.Profile) *acc {
		if accs[p] == nil {
			accs[p] = &acc{ProfileScore: ProfileScore{Counts: map[scenarios.Outcome]int{}}}
		}
		return accs[p]
	}
	for _, p := range scenarios.Profiles {
		get(p)
	}
	for _, c := range checks {
		for _, g := range c.Grades {
			if c.Needs != "" {
				a := get(g.Profile)
				if a.Needs == nil {
					a.Needs = map[string]int{}
				}
				a.Needs[c.Needs]++
				continue
			}
			if _, exempt := c.Exempt[g.Profile]; exempt {
				continue
			}
			a := get(g.Profile)
			a.Counts[c.Result]++
			if c.Result == scenarios.NotExercised {
				a.NotExercised++
			}
			weight := map[scenarios.Level]int{scenarios.Must: 3, scenarios.Should: 1}[g.Level]
			if !counts(c.Result) || weight == 0 {
				continue
			}
			a.max += weight
			if c.Result == scenarios.Pass {
				a.got += weight
			}
			if g.Level == scenarios.Must {
				a.MustApplicable++
				if c.Result == scenarios.Pass {
					a.MustPassed++
				}
				if blocksMust(c.Result) {
					a.mustBad++
				}
			}
		}
	}
	for p, a := range accs {
		ps := a.ProfileScore
		if a.max > 0 {
			ps.Score = float64(int(1000*float64(a.got)/float64(a.max)+0.5)) / 10
		}
		ps.Conformant = a.MustApplicable > 0 && a.mustBad == 0
		out[p] = ps
	}
	return out
}

// Baseline lists expected failures: check id or glob -> reason.
type Baseline map[string]string

// LoadBaseline reads a baseline file ({"ID-or-glob": "reason"}).
func LoadBaseline(file string) (Baseline, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var bl Baseline
	if err := json.Unmarshal(b, &bl); err != nil {
		return nil, fmt.Errorf("baseline %s: %w", file, err)
	}
	for pat, reason := range bl {
		if _, err := path.Match(pat, ""); err != nil {
			return nil, fmt.Errorf("baseline %s: bad pattern %q: %w", file, pat, err)
		}
		if reason == "" {
			return nil, fmt.Errorf("baseline %s: entry %q has no reason", file, pat)
		}
	}
	return bl, nil
}

// Match returns the reason of the first entry (in sorted order) matching id.
func (b Baseline) Match(id string) (string, bool) {
	for _, pat := range b.patterns() {
		if ok, _ := path.Match(pat, id); ok {
			return b[pat], true
		}
	}
	return "", false
}

func (b Baseline) patterns() []string {
	ps := make([]string, 0, len(b))
	for p := range b {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// Problems lists the baseline's stale entries against the results: an
// entry that matches no check, and a listed check that passed. Either
// fails the run, so the file cannot rot.
func (b Baseline) Problems(checks []CheckResult) []string {
	return b.problemsIn(checks, nil)
}

// problemsIn is Problems for part of a catalog: an entry that matches no
// check in checks but one of the ids in elsewhere (checks of other shards)
// is not a problem here.
func (b Baseline) problemsIn(checks []CheckResult, elsewhere []string) []string {
	var out []string
	for _, pat := range b.patterns() {
		matched := false
		for _, c := range checks {
			if ok, _ := path.Match(pat, c.ID); !ok {
				continue
			}
			matched = true
			if c.Result == scenarios.Pass {
				out = append(out, fmt.Sprintf("baseline entry %q lists %s, which now passes: remove it", pat, c.ID))
			}
		}
		if !matched && !matchesAny(pat, elsewhere) {
			out = append(out, fmt.Sprintf("baseline entry %q matches no check that ran", pat))
		}
	}
	return out
}

// Finish scores the report and records baseline problems. In a shard's
// report (Shard set), an entry matching no check that ran is a problem only
// when it matches no check of the whole catalog either: it may be another
// shard's, and the merge judges it.
func (r *Report) Finish(b Baseline) {
	r.resolveSpeech(b)
	r.foldGlobals(b)
	r.Delegations = r.tally()
	r.score()
	if r.Delegations.Attempted > 0 && r.Delegations.Answered == 0 {
		// Nothing the orchestrator said could be read: whatever the
		// checks that need no answer show, that is no conformance.
		for p, ps := range r.Profiles {
			ps.Conformant = false
			r.Profiles[p] = ps
		}
	}
	if len(b) > 0 {
		r.Baseline = b
	}
	r.BaselineProblems = b.Problems(r.Checks)
	if r.Shard != nil {
		r.BaselineProblems = b.problemsIn(r.Checks, CatalogCheckIDs(scenarios.All()))
	}
}

func matchesAny(pat string, ids []string) bool {
	for _, id := range ids {
		if ok, _ := path.Match(pat, id); ok {
			return true
		}
	}
	return false
}

// CatalogCheckIDs lists the ids a report's checks carry, in catalog
// order: each scenario's own checks, then the global requirements.
func CatalogCheckIDs(all []*scenarios.Scenario) []string {
	var ids []string
	for _, s := range all {
		for _, c := range s.Checks {
			ids = append(ids, c.ID)
		}
	}
	for _, c := range scenarios.GlobalChecks() {
		ids = append(ids, c.ID)
	}
	return ids
}

// NewReport assembles a report from check and scenario results gathered
// without Ginkgo (suite.Execute and suite.Judge, or a run's collector): the
// checks and scenarios are put in the catalog order of cfg.Scenarios (nil:
// scenarios.All()), then the report is scored with cfg.Baseline.
func NewReport(cfg Config, start time.Time, complete bool, checks []CheckResult, scens []ScenarioResult) *Report {
	r := &Report{
		Schema:       Schema,
		Tool:         Tool{Name: "a2a-conform", Version: cfg.Version},
		Orchestrator: Orchestrator{Spec: cfg.Orchestrator},
		StartedAt:    start.UTC(),
		DurationMs:   time.Since(start).Milliseconds(),
		Complete:     complete,
		Shard:        cfg.Shard,
		TimeScale:    scenarios.TimeScale(cfg.TimeScale.Factor()),
		Scenarios:    append([]ScenarioResult{}, scens...),
		Upstreams:    cfg.Upstreams,
	}
	r.Checks = splitGlobals(checks, r.Scenarios)
	all := cfg.Scenarios
	if all == nil {
		all = scenarios.Catalog(r.TimeScale)
	}
	SortCatalog(r, all)
	for _, sc := range r.Scenarios {
		if sc.Hello.Name != "" || len(sc.Hello.ProtocolVersions) > 0 || len(sc.Hello.Bindings) > 0 {
			r.Orchestrator = Orchestrator{Spec: r.Orchestrator.Spec, Name: sc.Hello.Name, Version: sc.Hello.Version, ProtocolVersions: sc.Hello.ProtocolVersions, Bindings: sc.Hello.Bindings}
			break
		}
	}
	r.Finish(cfg.Baseline)
	return r
}

// SortCatalog puts a report's checks and scenarios in the catalog order of
// all; ids the catalog does not know go last, in their present order.
func SortCatalog(r *Report, all []*scenarios.Scenario) {
	order := map[string]int{}
	for i, id := range CatalogCheckIDs(all) {
		order[id] = i + 1
	}
	scen := map[string]int{}
	for i, s := range all {
		scen[s.ID] = i + 1
	}
	rank := func(m map[string]int, id string) int {
		if n, ok := m[id]; ok {
			return n
		}
		return len(m) + 1
	}
	sort.SliceStable(r.Checks, func(i, j int) bool { return rank(order, r.Checks[i].ID) < rank(order, r.Checks[j].ID) })
	sort.SliceStable(r.Scenarios, func(i, j int) bool { return rank(scen, r.Scenarios[i].ID) < rank(scen, r.Scenarios[j].ID) })
}

// TraceLines renders trace events one line each, as the failure messages
// show them, marking the event mark (0: none) with "=> ".
func TraceLines(events []mockvendor.Event, mark int64) []string {
	return traceLines(&scenarios.Run{Events: events}, mark)
}

// Conformant reports whether the run passes for the given profiles (nil:
// all): at least one check ran, every selected profile is conformant, and
// the baseline holds.
func (r *Report) Conformant(profiles []scenarios.Profile) bool {
	if len(r.Checks) == 0 || len(r.BaselineProblems) > 0 {
		return false
	}
	if len(profiles) == 0 {
		profiles = scenarios.Profiles
	}
	for _, p := range profiles {
		ps, ok := r.Profiles[p]
		if !ok || !ps.Conformant {
			return false
		}
	}
	return true
}

// GradesText is the check's grades in one line ("delegation-safety MUST,
// a2a-core SHOULD"), the ones that apply to this run only: a grade whose
// condition the run did not meet (Exempt) is not printed as if it did.
func (cr CheckResult) GradesText() string {
	var out []string
	for _, g := range cr.Grades {
		if _, exempt := cr.Exempt[g.Profile]; !exempt {
			out = append(out, string(g.Profile)+" "+string(g.Level))
		}
	}
	switch {
	case len(out) > 0:
		return strings.Join(out, ", ")
	case cr.Needs != "":
		return "no grade: needs A2A " + cr.Needs
	case len(cr.Grades) > 0:
		var why []string
		for _, g := range cr.Grades {
			if w := cr.Exempt[g.Profile]; w != "" && !slices.Contains(why, w) {
				why = append(why, w)
			}
		}
		if len(why) == 0 {
			return "no grade applies to this run"
		}
		return "no grade applies to this run: " + strings.Join(why, "; ")
	}
	return ""
}

// MustFailed reports whether a check FAILed at a MUST grade of one of the
// profiles (every profile when none is given) that applies to the run: a
// verdict of "not conformant" that no harness ERROR elsewhere in the run
// could turn round.
func (r *Report) MustFailed(profiles []scenarios.Profile) bool {
	if len(profiles) == 0 {
		profiles = scenarios.Profiles
	}
	for _, c := range r.Checks {
		if c.Result != scenarios.Fail {
			continue
		}
		for _, g := range c.Grades {
			if _, exempt := c.Exempt[g.Profile]; g.Level == scenarios.Must && !exempt && slices.Contains(profiles, g.Profile) {
				return true
			}
		}
	}
	return false
}

// Writer is the one shape of every report writer (JSON, JUnit, HTML).
type Writer func(w io.Writer, r *Report) error

// WriteJSON writes the report as JSON, compact (one line): indenting would
// re-indent the orchestrator's own request bodies kept in the trace, and a
// deeply nested body would grow quadratically. <, > and & are written as
// they are, not as six-byte escapes (the file is no HTML page), so text an
// orchestrator fills with them costs the report its own size.
func WriteJSON(w io.Writer, r *Report) error {
	return reportEncoder(w).Encode(r) // Encode ends the line
}

// reportEncoder is the JSON encoder of report.json: compact, no HTML
// escaping.
func reportEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// WriteFile writes the report to file with write, through a temporary file
// in the same directory renamed into place, so that a reader never sees a
// half-written report.
func WriteFile(file string, r *Report, write Writer) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".a2a-conform-report-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriter(tmp)
	err = write(bw, r)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// WriteJSON writes the report as JSON to file.
func (r *Report) WriteJSON(file string) error { return WriteFile(file, r, WriteJSON) }

// ReadReport loads a JSON report.
func ReadReport(file string) (*Report, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	switch r.Schema {
	case Schema:
	case SchemaV1:
		// v1 kept a global's result per scenario among the checks: move
		// them to their scenarios, where Finish folds them into one each.
		r.Checks = splitGlobals(r.Checks, r.Scenarios)
		for i := range r.Scenarios {
			sc := &r.Scenarios[i]
			(&scenarios.Run{Events: sc.Trace, Delegations: sc.Delegations}).Corroborate()
		}
		r.Schema = Schema
		r.Finish(r.Baseline)
	default:
		return nil, fmt.Errorf("%s: schema %q, want %q (or %q)", file, r.Schema, Schema, SchemaV1)
	}
	return &r, nil
}

// FailedScenarios lists, in report order, the scenarios a re-run of what
// failed should run again: those with a check that failed, met a harness
// error, or was not exercised or not implemented, and those whose trace
// failed a global requirement.
func (r *Report) FailedScenarios() []string {
	again := func(o scenarios.Outcome) bool {
		return o == scenarios.Fail || o == scenarios.Error || o == scenarios.NotExercised || o == scenarios.Unimplemented || o == scenarios.ContractError
	}
	var ids []string
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, c := range r.Checks {
		if !strings.HasPrefix(c.ID, "G-") && again(c.Result) {
			add(c.Scenario)
		}
	}
	for _, s := range r.Scenarios {
		if s.HarnessErr != "" || slices.ContainsFunc(s.Globals, func(g CheckResult) bool { return g.Result == scenarios.Fail || g.Result == scenarios.Error }) {
			add(s.ID)
		}
	}
	return ids
}
