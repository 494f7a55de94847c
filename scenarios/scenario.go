// Package scenarios is the catalog as data: each scenario is a fleet set-up,
// the delegations an orchestrator is asked to make, and checks that judge
// the wire trace and the outcomes. Each check carries the requirement it
// comes from, stated in this project's words with the source cited, which
// the suite prints when the check fails.
//
// The package knows nothing of Ginkgo: the suite turns scenarios into specs,
// and the same checks can be evaluated over a saved run.
package scenarios

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Profile groups checks by what asks for them.
type Profile string

// The two profiles of the catalog.
const (
	// Core is what the A2A specification asks of a client.
	Core Profile = "a2a-core"
	// Safety is the posture the two source documents ask for.
	Safety Profile = "delegation-safety"
)

// Profiles lists every profile in report order.
var Profiles = []Profile{Core, Safety}

// ParseProfile reads a profile name as a user types it: the full name
// (a2a-core, delegation-safety) or the short one (core, safety), in any
// case.
func ParseProfile(name string) (Profile, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case string(Core), "core":
		return Core, nil
	case string(Safety), "safety":
		return Safety, nil
	}
	return "", fmt.Errorf("unknown profile %q (a2a-core or delegation-safety; core and safety for short)", name)
}

// Level is a requirement level.
type Level string

// Requirement levels. A MAY check never fails; it informs.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
	May    Level = "MAY"
)

// Grade places a check in a profile at a level. Most checks have one; a
// few (SIG-001.REJECT) count in both profiles at different levels.
type Grade struct {
	Profile Profile `json:"profile"`
	Level   Level   `json:"level"`
	// When limits the grade to runs that meet it (SIG-004.REJECT is an
	// a2a-core MUST only for a client that claims to verify signatures);
	// elsewhere the check is NOT_APPLICABLE in that profile. Nil means the
	// grade always applies.
	When *Precondition `json:"-"`
}

// Precondition is a situation a run may or may not have reached: what a
// check needs the orchestrator to have met before its PASS means anything,
// or what makes a grade apply.
type Precondition struct {
	// Needs says in words what must have happened ("fetched C's card").
	Needs string
	// Met reports whether the run shows it.
	Met func(r *Run) bool
}

// Outcome is the result state of a check.
type Outcome string

// Result states (catalog, "Profiles and levels").
const (
	Pass          Outcome = "PASS"
	Fail          Outcome = "FAIL"
	NotApplicable Outcome = "NOT_APPLICABLE"
	// NotExercised: the scenario holds the situation, but the orchestrator
	// never reached it (never fetched the card, never called, never got to
	// the vendor the check is about). Never a pass: it counts as not passed
	// and a MUST that is NOT_EXERCISED blocks "conformant".
	NotExercised  Outcome = "NOT_EXERCISED"
	Waived        Outcome = "WAIVED"
	Error         Outcome = "ERROR"
	Unimplemented Outcome = "UNIMPLEMENTED"
	// ContractError: the orchestrator answered, but its answer broke the
	// driver contract (a line that is not JSON or is too long, another
	// request's id, an invalid outcome), so the check had nothing usable
	// to judge. The orchestrator's fault, not the harness's: it counts as
	// not passed and a MUST with it denies conformance; its message gives
	// the contract's rule, the offending answer and the contract's fix.
	ContractError Outcome = "CONTRACT_ERROR"
)

// Verdict is what a check concluded, with the evidence.
type Verdict struct {
	Outcome Outcome `json:"result"`
	// Detail says what was seen (expected and actual for a failure, the
	// reason for NOT_APPLICABLE).
	Detail string `json:"detail"`
	// Seq is the trace event that decided the verdict (0 when none).
	Seq int64 `json:"seq,omitempty"`
	// Expected and Actual, when set, say apart what the requirement wanted
	// and what the run showed (Detail stays the one-line summary). Empty
	// means the detail says it all.
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Needs, on a NOT_APPLICABLE, is the A2A version the check needs and
	// the client does not speak ("1.0": the scenario offers only 1.0
	// interfaces to a 0.3-only client): no profile counts the check, and
	// the scorecard says "needs 1.0" (NeedsVersionf). Empty otherwise.
	Needs string `json:"needs,omitempty"`
	// evident is true for a FAIL that something seen proves: a request on
	// the wire (Seq) or an outcome the wire contradicts. Such a FAIL stands
	// even where the check's situation was not reached.
	evident bool
}

// Passf, Failf and NotApplicablef build verdicts.
func Passf(format string, args ...any) Verdict {
	return Verdict{Outcome: Pass, Detail: fmt.Sprintf(format, args...)}
}

// Failf builds a FAIL verdict.
func Failf(format string, args ...any) Verdict {
	return Verdict{Outcome: Fail, Detail: fmt.Sprintf(format, args...)}
}

// NotApplicablef builds a NOT_APPLICABLE verdict; the detail is the reason.
func NotApplicablef(format string, args ...any) Verdict {
	return Verdict{Outcome: NotApplicable, Detail: fmt.Sprintf(format, args...)}
}

// NotExercisedf builds a NOT_EXERCISED verdict; the detail says what the
// orchestrator did not reach.
func NotExercisedf(format string, args ...any) Verdict {
	return Verdict{Outcome: NotExercised, Detail: fmt.Sprintf(format, args...)}
}

// Want records the expected and the actual apart.
func (v Verdict) Want(expected, actual string) Verdict {
	v.Expected, v.Actual = expected, actual
	return v
}

// At records the trace event that decided the verdict.
func (v Verdict) At(seq int64) Verdict {
	v.Seq = seq
	return v
}

// evidenced marks a FAIL proven by something seen that is not one request:
// an outcome the wire contradicts, a credential value in what the
// orchestrator wrote.
func (v Verdict) evidenced() Verdict {
	v.evident = true
	return v
}

// Proven reports whether v is a FAIL that something seen proves: a request
// on the wire (Seq) or an outcome the wire contradicts, a credential value
// in what the orchestrator wrote. An absence (no outcome, no completion)
// proves nothing by itself.
func (v Verdict) Proven() bool { return v.Outcome == Fail && (v.Seq != 0 || v.evident) }

// Check is one judged requirement.
type Check struct {
	// ID is stable: "CARD-001.REFETCH", or for a global check "G-JSONRPC"
	// (reported as "<scenario>.G-JSONRPC").
	ID string
	// Title says in a few words what must hold.
	Title string
	// Grades are the profiles and levels the check counts in.
	Grades []Grade
	// Requirement states the clause in this project's words.
	Requirement string
	// Sources are the places the requirement comes from, as data (see
	// Source); the profile rule reads them (ProfileProblems).
	Sources []Source
	// Fix tells an orchestrator author what to change when the check fails.
	Fix string
	// ReadsOutcome is true when the check judges the reported outcomes (an
	// orchestrator that reported none fails it).
	ReadsOutcome bool
	// Local is true when a proven FAIL rests on the failing request (or
	// the text the orchestrator wrote) alone: no request before or after
	// it could make it right. Such a FAIL stands when the trace lost its
	// oldest events (Limits.MaxTraceEvents); any other check's FAIL then
	// cannot be told from what the lost events held.
	Local bool
	// Reached is the check's engagement precondition: the part of the
	// situation the orchestrator must have met for a PASS to count. A PASS
	// from a run that does not meet it is NOT_EXERCISED. Required: every
	// check states one (Validate).
	Reached Precondition
	// Judge evaluates the check over a finished run.
	Judge func(r *Run) Verdict
}

// Evaluate judges the check over a run. Where the run did not reach the
// check's situation (Reached not met), a PASS is not earned and a FAIL that
// nothing seen proves (only an absence: no outcome, no completion) says
// nothing about the requirement: both become NOT_EXERCISED. A FAIL proven by
// a request on the wire or by an outcome the wire contradicts stands, so
// NOT_EXERCISED never hides an observed failure. exempt lists the profiles
// whose grade does not apply to this run (Grade.When), with the reason.
//
// A check the client cannot reach because its scenario offers only A2A
// versions the client does not speak (Run.Offers, against what the run
// shows it speaking) is NOT_APPLICABLE with Needs set, unless it passed or
// a request on the wire proves it failed; such a check is exempt in every
// profile ("needs 1.0"), as is one whose judge said so itself.
//
// An a2a-core grade judges a client by what its own A2A version asks of
// it: for a client the whole run shows speaking A2A 0.3 and not 1.0, the
// grade is exempt where no A2A 0.3 clause binds the client as high as the
// grade (core03), whatever the verdict. A client that speaks 1.0 too, or
// of which nothing is known, is judged as before.
func (c Check) Evaluate(r *Run) (v Verdict, exempt map[Profile]string) {
	v = c.Judge(r)
	if (v.Outcome == Pass || v.Outcome == Fail && !v.Proven()) && !c.Reached.Met(r) {
		judged := v.Detail
		v = NotExercisedf("not reached: the orchestrator did not %s", c.Reached.Needs).Want("the orchestrator to "+c.Reached.Needs, "it did not; the check alone would have said: "+judged)
	}
	if nv, ok := needsOffered(r, v); ok {
		v = nv
	}
	for _, g := range c.Grades {
		why, core03 := "", ""
		if g.Profile == Core {
			core03 = c.core03(g)
		}
		switch {
		case v.Needs != "":
			why = "needs A2A " + v.Needs + ", which the client does not speak"
		case g.When != nil && !g.When.Met(r):
			why = "applies only to an orchestrator that did " + g.When.Needs
		case core03 != "" && r.speaks().only03():
			why = core03
		default:
			continue
		}
		if exempt == nil {
			exempt = map[Profile]string{}
		}
		exempt[g.Profile] = why
	}
	return v, exempt
}

// Global reports whether the check is a global requirement (G-*), judged
// on every scenario and scored once per run.
func (c Check) Global() bool { return strings.HasPrefix(c.ID, "G-") }

// Request is one delegation a scenario asks for.
type Request struct {
	// Skill is the wanted skill id.
	Skill string
	// Text is the user's text. Empty means "reconcile INV-1042".
	Text string
	// Candidates are the card hosts to offer, in preference order; each
	// becomes https://HOST/.well-known/agent-card.json, except a full
	// https:// card URL, which is offered as it is.
	Candidates []string
	// PreferStreaming asks for a stream method when the card offers one.
	PreferStreaming bool
	// Wait is a pause before this delegation (CARD-007's authority window).
	Wait time.Duration
	// Before runs on the fleet just before the delegation (to switch faults).
	Before func(f *mockvendor.Fleet) error
	// Replies are the caller's answers, in order, for an agent that asks
	// (contract task.replies): each the text of a user message. Nil means
	// the caller has none, and a task that asks is to be reported
	// interrupted.
	Replies []string
	// Extensions are the A2A extension URIs the caller implements
	// (contract task.extensions). Nil means none.
	Extensions []string
	// Credentials names the vendors whose credentials the delegation hands
	// out in trust.credentials, each keyed by the origins of the vendor's
	// hosts that demand it (mockvendor.Fleet.Credential). A vendor that
	// issued none is a harness error. Nil means the caller holds none.
	Credentials []string
	// Push asks the orchestrator to follow the task through push
	// notifications (contract task.push): to run a webhook receiver and
	// register it. False means no push.
	Push bool
	// ClientCerts names the vendors whose client certificates (mutual TLS)
	// the delegation hands out in trust.clientCertificates, each keyed by
	// the origins of the vendor's hosts that ask for it
	// (mockvendor.Fleet.ClientCertificate); their hosts join the vendor's
	// Run.CredentialHosts. A vendor that issued none is a harness error.
	// Nil means the caller holds none.
	ClientCerts []string
}

// Scenario is one situation of the catalog.
type Scenario struct {
	// ID is stable ("CARD-001").
	ID string
	// Title names the situation.
	Title string
	// Area is the catalog area in lowercase ("card", "probe", ...).
	Area string
	// Source cites the clause the scenario reproduces.
	Source string
	// Setup describes, for people, what the fleet does.
	Setup string
	// Labels are extra Ginkgo labels; "slow" keeps a scenario out of a
	// default run.
	Labels []string
	// Fleet builds the fleet configuration (a fresh one per run).
	Fleet func() mockvendor.Config
	// Issuers is the trust policy handed to the orchestrator. Nil means the
	// default (vendor A's signer may vouch for agent.vendor-a.example).
	Issuers map[string]contract.Issuer
	// Requests are the delegations, run in order in one driver session.
	Requests []Request
	// Checks are the scenario's own checks; the global checks are added by
	// WithGlobals.
	Checks []Check
	// Successors names, for a requested skill, the skills the scenario's
	// vendors offer in its place (the -v2 of a renamed skill). A task may go
	// out under the requested skill or one of these, never another
	// (G-SKILL-SUCCESSOR). Nil means none.
	Successors map[string][]string
	// DeadlineMs is the time the orchestrator has per delegation. Zero means
	// 20,000.
	DeadlineMs int
	// Offers are the A2A versions (V03, V10) the scenario's cards offer
	// the client, where they are not both: a client that speaks none of
	// them cannot reach the scenario's checks, which then say "needs X"
	// (Check.Evaluate). Nil means both.
	Offers []string
	// TimeScale is the scale the scenario's durations were staged at
	// (Catalog). Zero means RealTime.
	TimeScale TimeScale
}

// DefaultIssuers is the trust policy of most scenarios: vendor A's signer
// vouches for its own host only.
func DefaultIssuers() map[string]contract.Issuer {
	return map[string]contract.Issuer{
		"https://" + mockvendor.HostVendorA: {Operators: []string{mockvendor.HostVendorA}},
	}
}

// CardURL is the discovery URL of a card host.
// A candidate that is already a URL ("https://host/agents/x/card", a card
// hosted under a path or given directly, DISC) is offered as it is.
func CardURL(host string) string {
	if strings.HasPrefix(host, "https://") {
		return host
	}
	return "https://" + host + mockvendor.CardPath
}

// WithGlobals returns the scenario's checks followed by the global checks.
func (s *Scenario) WithGlobals() []Check {
	return append(append([]Check(nil), s.Checks...), GlobalChecks()...)
}

// CheckID is the id a check is reported under in this scenario.
func (s *Scenario) CheckID(c Check) string {
	if strings.HasPrefix(c.ID, "G-") {
		return s.ID + "." + c.ID
	}
	return c.ID
}

// HasLabel reports whether the scenario carries a label.
func (s *Scenario) HasLabel(l string) bool {
	for _, x := range s.Labels {
		if x == l {
			return true
		}
	}
	return false
}

// All returns the catalog at real time (Catalog(RealTime)), in catalog
// order. Each call builds fresh values.
func All() []*Scenario { return Catalog(RealTime) }

// Catalog returns the catalog with its durations staged at scale ts (see
// TimeScale), in catalog order. Each call builds fresh values.
func Catalog(ts TimeScale) []*Scenario {
	var out []*Scenario
	for _, area := range [][]*Scenario{cardScenarios(), cardSeedScenarios(ts), probeScenarios(), probeSeedScenarios(), streamScenarios(ts), streamEndScenarios(ts), streamErrScenarios(ts), modeScenarios(), bindScenarios(), sigScenarios(), keyScenarios(), lifeScenarios(ts), resultScenarios(), ifaceScenarios(), grpcIfaceScenarios(), authScenarios(), authStreamScenarios(ts), oauthScenarios(), authOneofScenarios(), mtlsScenarios(), oauthForeignScenarios(), grpcAuthScenarios(), convScenarios(), slowScenarios(ts), readScenarios(), pushScenarios(), capScenarios(), extScenarios(), xcardScenarios(), discScenarios()} {
		out = append(out, area...)
	}
	for _, s := range out {
		s.TimeScale = ts
	}
	return out
}

// Find returns the scenario or check with that id (a check id finds its
// scenario and the check; a global id, "G-JSONRPC", finds the check and no
// scenario, since it belongs to all of them), at real time.
func Find(id string) (*Scenario, *Check) { return FindAt(RealTime, id) }

// FindAt is Find in the catalog staged at scale ts.
func FindAt(ts TimeScale, id string) (*Scenario, *Check) {
	id = strings.TrimSpace(id)
	for _, c := range GlobalChecks() {
		if strings.EqualFold(c.ID, id) {
			return nil, &c
		}
	}
	for _, s := range Catalog(ts) {
		if strings.EqualFold(s.ID, id) {
			return s, nil
		}
		for _, c := range s.WithGlobals() {
			if strings.EqualFold(s.CheckID(c), id) {
				c := c
				return s, &c
			}
		}
	}
	return nil, nil
}

var (
	scenarioIDPattern = regexp.MustCompile(`^[A-Z]+-[0-9]{3}$`)
	checkIDPattern    = regexp.MustCompile(`^([A-Z]+-[0-9]{3}\.[A-Z][A-Z0-9-]*|G-[A-Z][A-Z0-9-]*)$`)
	// Ginkgo labels may not contain these characters.
	labelForbidden = "&|!,()/"
)

// Validate checks the catalog: unique scenario and check ids of the right
// form, check ids that belong to their scenario, a requirement, a source and
// a grade for every check, at least one request per scenario, and labels
// Ginkgo accepts.
func Validate(all []*Scenario) error {
	var errs []string
	seen := map[string]bool{}
	for _, s := range all {
		if !scenarioIDPattern.MatchString(s.ID) {
			errs = append(errs, fmt.Sprintf("scenario id %q is not AREA-NNN", s.ID))
		}
		if seen[s.ID] {
			errs = append(errs, fmt.Sprintf("duplicate id %s", s.ID))
		}
		seen[s.ID] = true
		if s.Fleet == nil || len(s.Requests) == 0 || len(s.Checks) == 0 {
			errs = append(errs, fmt.Sprintf("%s needs a fleet, requests and checks", s.ID))
		}
		for _, l := range append([]string{s.ID, s.Area}, s.Labels...) {
			if l == "" || strings.ContainsAny(l, labelForbidden) || strings.TrimSpace(l) != l {
				errs = append(errs, fmt.Sprintf("%s: label %q is not a legal Ginkgo label", s.ID, l))
			}
		}
		for _, c := range s.WithGlobals() {
			id := s.CheckID(c)
			if !checkIDPattern.MatchString(c.ID) {
				errs = append(errs, fmt.Sprintf("check id %q is malformed", c.ID))
			}
			if !strings.HasPrefix(c.ID, "G-") && !strings.HasPrefix(c.ID, s.ID+".") {
				errs = append(errs, fmt.Sprintf("check %s is not under scenario %s", c.ID, s.ID))
			}
			if seen[id] {
				errs = append(errs, fmt.Sprintf("duplicate id %s", id))
			}
			seen[id] = true
			if c.Requirement == "" || c.Cite() == "" {
				errs = append(errs, fmt.Sprintf("%s has no clause (requirement and source)", id))
			}
			if len(c.Grades) == 0 || c.Judge == nil || c.Title == "" {
				errs = append(errs, fmt.Sprintf("%s needs a title, a grade and a judge", id))
			}
			if c.Reached.Met == nil || c.Reached.Needs == "" {
				errs = append(errs, fmt.Sprintf("%s states no engagement precondition (Reached)", id))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("catalog is invalid:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func must(p Profile) []Grade   { return []Grade{{Profile: p, Level: Must}} }
func should(p Profile) []Grade { return []Grade{{Profile: p, Level: Should}} }
