// Package reference is a2a-conform's reference orchestrator: an A2A 1.0
// client (JSON-RPC, HTTP+JSON and gRPC; 0.3 over JSON-RPC) that delegates
// a task the way the two source documents ask, and that passes every check
// of the catalog.
//
// Its posture, per delegation:
//
//   - Discovery. Each candidate's Agent Card is fetched (A2A-Version: 1.0,
//     ETag revalidation, never reused past the 300 s authority window) and
//     read as a claim: it names the endpoint and the input modes, never
//     whether the wanted skill exists [seed 000, Condition of Validity].
//   - Signature. A signed card is verified with cardsig (the JWKS is
//     fetched again once for an unknown kid); a card that does not verify
//     is rejected before its endpoint is contacted. The signer is then bound
//     to the endpoint's TLS identity with cardsig.Bind: full, reduced (the
//     reference delegates, reporting "reduced") or unpinned [seed 003].
//   - Probe. Exactly one side-effect-free probe per endpoint between
//     discovery and commitment [seed 000, Decision Boundary]: an accepted
//     probe task is cancelled at once; -32601/-32602 mean the endpoint is
//     not A2A (no task is sent there); a server-range error means the card
//     is stale: it is fetched again bypassing caches and the route is
//     chosen again.
//   - Commitment. The real task goes out; -32004 is a routing signal: the
//     availability cache entry is invalidated, the card re-fetched from the
//     origin, and the task sent to the skill's successor (or the next
//     candidate). No error is ever escalated, and no vendor is marked
//     degraded.
//   - Following (life.go). A task the send left running is followed to its
//     end: subscribed to again when its stream ended first, else polled
//     with backoff until the deadline, when it is cancelled; input-required
//     and auth-required are reported interrupted, a Message reply
//     completed.
//   - Report. cardTrust is "authoritative" only when every condition of
//     validity of seed 000 held; trustMode is what Bind said.
//
// Breaks (Options.Break) switch single behaviours off, for tests that show
// a particular check failing.
package reference

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Identity and protocol constants.
const (
	// Name and Version identify the reference in hello answers.
	Name    = "a2a-conform-reference"
	Version = "0.1.0"
	// ProtocolVersion is the A2A version the reference speaks, sent as the
	// A2A-Version header on every request.
	ProtocolVersion = "1.0"
	// AuthorityWindow is how long a card and a probe may be relied on
	// [seed 000, Decision Boundary: "the next 300 seconds only"].
	AuthorityWindow = 300 * time.Second
	// AvailabilityTTL is the lifetime of an availability cache entry [seed
	// 000, Operational Effect].
	AvailabilityTTL = 60 * time.Second
	// DefaultFirstFrameTimeout is the stream first-frame timeout when the
	// card declares none [seed 000, Condition of Validity].
	DefaultFirstFrameTimeout = 30 * time.Second
	// StreamTimeoutExtension is the capabilities.extensions URI through
	// which a card overrides the first-frame timeout (params
	// firstFrameTimeoutMs).
	StreamTimeoutExtension = "https://a2a-conform.dev/ext/stream-timeout/v1"
	// ProbeText is the probe's only text part.
	ProbeText = "__probe__"
)

// Bounds on one delegation's work.
const (
	maxRPCCalls    = 24 // whatever the number of candidates
	maxCardFetches = 12
	maxBody        = 4 << 20
	maxPolls       = 10
)

// Options configure an Orchestrator. The zero value is the compliant
// reference.
type Options struct {
	// Break switches single behaviours off (see Breaks).
	Break Breaks
	// Alt switches on legitimate alternatives to the reference's own
	// choices (see Alternatives). The zero value is the reference.
	Alt Alternatives
	// Now is the clock. Nil means time.Now. Tests move it to cross the
	// authority window without waiting.
	Now func() time.Time
	// AuthorityWindow overrides the 300 s window. Zero means
	// AuthorityWindow.
	AuthorityWindow time.Duration
	// AvailabilityTTL overrides the 60 s availability TTL. Zero means
	// AvailabilityTTL.
	AvailabilityTTL time.Duration
	// Logf, when set, receives a line per notable step.
	Logf func(format string, args ...any)
}

// Orchestrator is the reference orchestrator. It implements the suite's
// GoOrchestrator (Delegate) and Reset. Its caches (cards, availability,
// key sets, clients) live across delegations until Reset.
type Orchestrator struct {
	opts Options

	mu       sync.Mutex
	cards    map[string]*cardEntry // by card URL
	avail    *availCache
	probed   map[string]time.Time // endpoint -> last probe (ReprobeNever)
	degraded map[string]bool      // card URL -> degraded (MarkDegraded)
	jwks     map[string]jwksEntry // jku -> keys
	clients  map[string]*http.Client

	// Only the breaks that take a skill id for a global name use these.
	ranAt     map[string]iface     // skill id -> endpoint it last completed at (BorrowSkillID)
	skillDown map[string]time.Time // skill id -> end of its refusal everywhere (GlobalSkillAvailability)
	// sharedPush is the one webhook credential of the SharedPushToken
	// break ("" until drawn).
	sharedPush string
}

// New returns a reference orchestrator.
func New(opts Options) *Orchestrator {
	o := &Orchestrator{opts: opts}
	o.Reset()
	return o
}

// Speaks declares what the reference speaks as an A2A client, for its
// hello answer (driver contract, Control messages): A2A 1.0 (preferred)
// and 0.3, over JSON-RPC, HTTP+JSON and gRPC (0.3 over JSON-RPC only).
// The Only10 and Only03 alternatives declare their one version, NoGRPC
// no gRPC. The GRPCSkip break declares gRPC all the same.
func (o *Orchestrator) Speaks() (protocolVersions, bindings []string) {
	switch {
	case o.opts.Alt.Only10:
		return []string{ProtocolVersion}, []string{contract.BindingJSONRPC, contract.BindingHTTPJSON, contract.BindingGRPC}
	case o.opts.Alt.Only03:
		return []string{legacyVersion}, []string{contract.BindingJSONRPC}
	case o.opts.Alt.NoGRPC:
		return []string{legacyVersion, ProtocolVersion}, []string{contract.BindingJSONRPC, contract.BindingHTTPJSON}
	}
	return []string{legacyVersion, ProtocolVersion}, []string{contract.BindingJSONRPC, contract.BindingHTTPJSON, contract.BindingGRPC}
}

// Reset drops every cache: cards, availability, probes, degraded marks,
// key sets and the HTTP clients built from requests.
func (o *Orchestrator) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range o.clients {
		c.CloseIdleConnections()
	}
	o.cards = map[string]*cardEntry{}
	o.avail = newAvailCache()
	o.probed = map[string]time.Time{}
	o.degraded = map[string]bool{}
	o.jwks = map[string]jwksEntry{}
	o.clients = map[string]*http.Client{}
	o.ranAt = map[string]iface{}
	o.skillDown = map[string]time.Time{}
}

func (o *Orchestrator) now() time.Time {
	if o.opts.Now != nil {
		return o.opts.Now()
	}
	return time.Now()
}

func (o *Orchestrator) authorityWindow() time.Duration {
	if o.opts.AuthorityWindow > 0 {
		return o.opts.AuthorityWindow
	}
	return AuthorityWindow
}

func (o *Orchestrator) availTTL() time.Duration {
	if o.opts.AvailabilityTTL > 0 {
		return o.opts.AvailabilityTTL
	}
	return AvailabilityTTL
}

func (o *Orchestrator) logf(format string, args ...any) {
	if o.opts.Logf != nil {
		o.opts.Logf(format, args...)
	}
}

// baseClient is the client a delegation builds on: the one given, or one
// built (and kept) from the request's CA file, proxy and resolve map.
func (o *Orchestrator) baseClient(req contract.DelegationRequest, given *http.Client) (*http.Client, error) {
	if given != nil {
		return given, nil
	}
	co := wire.ClientOptionsFor(req)
	key := co.Key()
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.clients[key]; ok {
		return c, nil
	}
	t, err := wire.NewTransport(co)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Transport: t, Timeout: 60 * time.Second}
	o.clients[key] = c
	return c, nil
}

// Delegate runs one delegation request. client is used when non-nil (the
// in-process driver's fleet client); otherwise one is built from the
// request. It always returns an outcome with cardTrust and trustMode set.
func (o *Orchestrator) Delegate(ctx context.Context, req contract.DelegationRequest, client *http.Client) contract.DelegationOutcome {
	if req.DeadlineMs > 0 {
		// Keep a little of the deadline to report in.
		d := time.Duration(req.DeadlineMs)*time.Millisecond - 250*time.Millisecond
		if d < 500*time.Millisecond {
			d = 500 * time.Millisecond
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	base, err := o.baseClient(req, client)
	if err != nil {
		return contract.DelegationOutcome{Contract: contract.Version, ID: req.ID, Outcome: contract.OutcomeFailed,
			CardTrust: contract.CardTrustHint, TrustMode: contract.TrustModeUnpinned, Reason: contract.ReasonOther,
			Detail: "cannot build an http client: " + err.Error()}
	}
	r := newRun(o, ctx, req, base)
	defer r.close()
	return r.delegate()
}

// run is one delegation.
type run struct {
	o      *Orchestrator
	ctx    context.Context
	req    contract.DelegationRequest
	br     Breaks
	alt    Alternatives
	client *http.Client
	fence  *wire.Fence
	idle   *http.Transport // an insecure clone to close after the run
	certs  *certRouter     // client certificates by origin (mtls.go); nil: none held
	// httpBase is the transport under the delegation's HTTP requests
	// (nil when the client's is no *http.Transport): gRPC connections
	// follow its routes and roots (grpc.go).
	httpBase *http.Transport
	grpc     grpcConns // the delegation's gRPC connections (grpc.go)
	msg      *wire.Message
	msgErr   error

	rpcCalls    int
	cardFetches int
	rpcSeq      int
	results     results // the task's results as the answers brought them (results.go)
	sentTask    bool
	notes       []string
	auth        authState // credentials (auth.go)
	// remoteErr is the A2A error that last answered the real task
	// (streamerr.go), reported when the delegation does not succeed.
	remoteErr *contract.RemoteError
	// push is the delegation's webhook receiver (push.go), nil until the
	// task is followed by push.
	push *pushHook
}

func newRun(o *Orchestrator, ctx context.Context, req contract.DelegationRequest, base *http.Client) *run {
	r := &run{o: o, ctx: ctx, req: req, br: o.opts.Break, alt: o.opts.Alt}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	if r.br.SkipTLSVerify {
		if ins := wire.InsecureClone(rt); ins != nil {
			rt, r.idle = ins, ins
		}
	}
	r.httpBase, _ = rt.(*http.Transport)
	rt, r.certs = newCertRouter(r, rt)
	r.fence = &wire.Fence{Base: versionHeader{base: rt}}
	if !r.br.NoVersionHeader && !r.alt.VersionQuery {
		r.fence.Headers = map[string]string{"A2A-Version": ProtocolVersion}
	}
	r.client = &http.Client{Transport: r.fence, Timeout: base.Timeout, Jar: base.Jar}
	if _, ok := ctx.Deadline(); ok {
		// Every call is bounded by the delegation's deadline: a blocking
		// send may be held as long as its task works (A2A 1.0 §3.2.2),
		// past a fixed client timeout (retry.go).
		r.client.Timeout = 0
	}
	r.msg, r.msgErr = wire.ParseMessage(req.Task.Message)
	return r
}

func (r *run) close() {
	r.grpc.close()
	r.push.close()
	r.certs.close()
	if r.idle != nil {
		r.idle.CloseIdleConnections()
	}
}

func (r *run) notef(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	r.notes = append(r.notes, s)
	r.o.logf("%s: %s", r.req.ID, s)
}

// attempt is the work on one candidate.
type attempt struct {
	cardURL string
	card    *agentCard
	ep      iface
	eps     []iface // the card's interfaces the reference speaks, in order (iface.go)
	epIndex int     // ep is eps[epIndex]
	wanted  string
	skill   string
	tried   map[string]bool

	verified   *cardsig.Verified
	sigChecked bool
	peer       *x509.Certificate
	tlsSeen    bool

	probed        bool // the current endpoint was probed in this delegation
	probeOK       bool
	versionOK     bool
	sawResponse   bool
	stale         bool
	refetched     bool
	resentStale   bool
	streamOK      bool
	streamTrouble bool

	final          bool
	refusedUnbound bool // RefuseUnbound: no trustMode is reported
	toolRefused    bool // the endpoint refused a call as not A2A (-32601/-32602): TrustUntilRefused
	retried        bool // RetrySameVendor: the same vendor was retried once
	outcome        string
	reason         string
	taskID         string
	taskState      string
	committed      bool

	// The task after the send (life.go): viaStream is set when a stream
	// answered the real send, streamBroke when that stream failed midway
	// (rather than ending), and params are the real send's params.
	viaStream   bool
	streamBroke bool
	// workingAsEnd is set when the StreamWorkingAsEnd break closed the
	// stream at its first working status.
	workingAsEnd bool
	params       map[string]any

	// The conversation (conversation.go): the task's contextId, how many
	// of the caller's replies were used, and whether the InventReply
	// break made one up.
	contextID string
	replies   int
	invented  bool
	// lostRetried is set once the real send was sent again after its
	// answer was lost (retry.go).
	lostRetried bool
	// streamErrEvent is set when the real send's stream ended with an
	// error event (streamerr.go).
	streamErrEvent bool
	// push is the receiver the task is followed by (push.go), nil when
	// it is not.
	push *pushHook
}

// delegate tries the candidates in order until one completes the task.
func (r *run) delegate() contract.DelegationOutcome {
	if r.msgErr != nil {
		return r.finish(nil, contract.OutcomeRejected, contract.ReasonOther, "bad request: "+r.msgErr.Error())
	}
	cands := r.order(r.req.Candidates)
	for _, c := range cands {
		r.fence.Allow(c)
	}
	if r.br.Escape {
		r.escape()
	}
	var last *attempt
	for _, c := range cands {
		if r.ctx.Err() != nil {
			break
		}
		a := r.try(c)
		if a.final {
			return r.report(a)
		}
		last = a
	}
	outcome := contract.OutcomeRejected
	if r.sentTask {
		outcome = contract.OutcomeFailed
	}
	reason := contract.ReasonOther
	if last != nil && last.reason != "" {
		reason = last.reason
	}
	if r.ctx.Err() != nil {
		reason = contract.ReasonDeadline
	}
	if len(cands) == 0 {
		r.notef("no candidates")
	}
	return r.finish(last, outcome, reason, "")
}

// order returns the candidates; only the MarkDegraded break reorders them.
func (r *run) order(cands []string) []string {
	if !r.br.MarkDegraded {
		return cands
	}
	r.o.mu.Lock()
	defer r.o.mu.Unlock()
	var good, bad []string
	for _, c := range cands {
		if r.o.degraded[c] {
			bad = append(bad, c)
		} else {
			good = append(good, c)
		}
	}
	return append(good, bad...)
}

// try runs discovery, probe and commitment on one candidate.
func (r *run) try(cardURL string) *attempt {
	a := &attempt{cardURL: cardURL, wanted: r.req.Task.Skill, tried: map[string]bool{}, versionOK: true}
	card, err := r.card(cardURL, fetchNormal)
	if err != nil {
		r.notef("%s: %v", cardURL, err)
		a.reason = contract.ReasonOther
		return a
	}
	if !r.validCard(a, card) { // discovery.go
		return a
	}
	if !r.useCard(a, card) {
		return a
	}
	if r.alt.RefuseUnbound && a.verified != nil && !r.signerOperates(a) {
		r.notef("%s: signer %s does not operate %s: refused before contacting it", cardURL, a.verified.Issuer, a.ep.URL)
		a.outcome, a.reason, a.refusedUnbound = contract.OutcomeRejected, contract.ReasonSignerEndpointMismatch, true
		a.final = true
		return a
	}
	if !r.credentialStep(a) {
		return a
	}
	if !r.extensionStep(a) { // extensions.go
		return a
	}
	if !r.extendedCardStep(a) { // extcard.go
		return a
	}
	if r.br.PrevalidateSkill && a.wanted != "" && !card.hasSkill(a.wanted) {
		r.notef("%s: card does not list %q (pre-validated)", cardURL, a.wanted)
		a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonSkillUnavailable
		return a
	}
	if r.skillDownEverywhere(a.wanted) {
		r.notef("%s: %q was refused by some host; taken as unavailable everywhere", cardURL, a.wanted)
		a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonSkillUnavailable
		return a
	}
	a.skill = r.o.avail.route(hostOf(a.ep.URL), a.wanted, r.o.now())
	if a.skill != a.wanted {
		r.notef("%s: %q is known unavailable at %s; going to %q", cardURL, a.wanted, hostOf(a.ep.URL), a.skill)
	}
	if !r.probeStep(a) {
		return a
	}
	r.commit(a)
	return a
}

// useCard takes a (new) card for the attempt: endpoint, host fence and the
// signature check. False means the candidate is rejected.
func (r *run) useCard(a *attempt, card *agentCard) bool {
	prev := a.ep.URL
	a.card = card
	a.eps, a.epIndex, a.ep = r.withoutBasePath(r.lastOfEqual(r.interfaces(card))), 0, iface{}
	if len(a.eps) == 0 {
		a.eps = r.guessedInterfaces(a) // discovery.go
	}
	if len(a.eps) > 0 {
		a.ep = a.eps[0]
	}
	if a.ep.URL == "" {
		r.notef("%s: card names no interface the reference speaks", a.cardURL)
		a.reason = r.noInterfaceReason(card)
		return false
	}
	if r.br.SendToCardHost {
		if u, err := url.Parse(a.ep.URL); err == nil {
			u.Host = hostOf(a.cardURL)
			a.ep.URL = u.String()
		}
	}
	if r.br.RejectCrossHostURL && hostOf(a.ep.URL) != hostOf(a.cardURL) {
		r.notef("%s: endpoint %s is on another host (rejected)", a.cardURL, a.ep.URL)
		a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonOther
		return false
	}
	r.fence.Allow(a.ep.URL)
	if prev != "" && prev != a.ep.URL {
		a.probed, a.probeOK, a.peer, a.tlsSeen = false, false, nil, false
		a.versionOK, a.sawResponse = true, false
	}
	a.verified, a.sigChecked = nil, true
	if !card.signed() {
		if prev == "" {
			r.notef("%s: unsigned-card (delegating unpinned)", a.cardURL)
		}
		return true
	}
	v, err := cardsig.Verify(r.ctx, r.brokenCard(card.raw), r.keySource(), cardsig.WithCardURL(a.cardURL))
	if err != nil && r.br.TrustHeaderJWK {
		if hv := r.headerKey(card, a.cardURL); hv != nil {
			v, err = hv, nil
		}
	}
	if err == nil && r.br.PlainHTTPKeys && strings.HasPrefix(v.Issuer, "http://") {
		v.Issuer = "https://" + strings.TrimPrefix(v.Issuer, "http://")
	}
	if err == nil && r.br.TrustJKUAsCardIssuer {
		v.Issuer = "https://" + hostOf(a.cardURL)
	}
	if err == nil {
		a.verified = v
		r.notef("%s: signature verified (kid %s, signer %s)", a.cardURL, v.KID, v.Issuer)
		return true
	}
	if r.alt.UnsignedOnPlainKeys && plainKeysOnly(card.raw) {
		r.notef("%s: every signature's key set is on plain http: taken as unsigned (delegating unpinned)", a.cardURL)
		return true
	}
	class := cardsig.ClassOf(err)
	reason := signatureReason(class)
	if class == cardsig.ClassKeyAmbiguous && r.br.AcceptAmbiguousKID {
		if v := r.anyKey(card, a.cardURL, err); v != nil {
			a.verified = v
			r.notef("%s: kid %s is ambiguous; took the key that verified", a.cardURL, v.KID)
			return true
		}
	}
	if r.br.IgnoreSignatureErrors && class != cardsig.ClassKeyAmbiguous {
		r.notef("%s: %v (ignored)", a.cardURL, err)
		return true
	}
	r.notef("%s: %v; endpoint not contacted", a.cardURL, err)
	a.outcome, a.reason = contract.OutcomeRejected, reason
	return false
}

func signatureReason(c cardsig.Class) string {
	switch c {
	case cardsig.ClassKeyUnknown:
		return contract.ReasonKeyUnknown
	case cardsig.ClassKeyAmbiguous:
		return contract.ReasonKeyAmbiguous
	case cardsig.ClassKeyExpired:
		return contract.ReasonKeyExpired
	case cardsig.ClassUnsigned:
		return contract.ReasonUnsignedCard
	}
	return contract.ReasonSignatureInvalid
}

// binding is Bind's decision for the attempt's endpoint (or the breaks'
// shortcut).
func (r *run) binding(a *attempt) cardsig.Binding {
	if a.verified == nil {
		if a.card != nil && !a.card.signed() && r.br.UnsignedAsFull {
			return cardsig.Binding{Mode: cardsig.ModeFull, Reason: contract.ReasonOK, Detail: "unsigned card taken as full"}
		}
		if a.card != nil && !a.card.signed() {
			return cardsig.Binding{Mode: cardsig.ModeUnpinned, Reason: contract.ReasonUnsignedCard, Detail: "card carries no signature"}
		}
		return cardsig.Binding{Mode: cardsig.ModeUnpinned, Reason: contract.ReasonOther, Detail: "no verified signature"}
	}
	if r.br.TrustAnySignature || r.br.TrustUntilRefused && !a.toolRefused {
		return cardsig.Binding{Mode: cardsig.ModeFull, Reason: contract.ReasonOK, Detail: "signature valid (binding skipped)"}
	}
	if r.br.SubstringBinding && a.peer != nil && substringBound(a.verified.Issuer, a.peer) {
		return cardsig.Binding{Mode: cardsig.ModeFull, Reason: contract.ReasonOK, Detail: "signer's host found in the endpoint's certificate names"}
	}
	policy := cardsig.TrustPolicy{}
	for k, v := range r.req.Trust.Issuers {
		policy[k] = cardsig.Issuer{Operators: v.Operators}
	}
	b := cardsig.Bind(a.verified, nil, policy, a.ep.URL, a.peer)
	if r.br.SkipTLSVerify && b.Reason == cardsig.ReasonTLSSANMismatch {
		return cardsig.Binding{Mode: cardsig.ModeFull, Reason: contract.ReasonOK, Detail: "tls identity not checked"}
	}
	return b
}

// authoritative applies seed 000's conditions of validity.
func (r *run) authoritative(a *attempt, b cardsig.Binding) (bool, string) {
	if r.br.AlwaysAuthoritative {
		return true, ""
	}
	switch {
	case b.Mode != cardsig.ModeFull:
		return false, "signer not bound to the endpoint (" + string(b.Mode) + ")"
	case a.ep.Version != ProtocolVersion:
		return false, "interface is not A2A " + ProtocolVersion
	case !a.sawResponse || !a.versionOK:
		return false, "endpoint's A2A-Version does not match the card's " + a.ep.Version
	case !a.probeOK:
		return false, "no passing probe"
	case a.stale:
		return false, "card was stale"
	case a.streamTrouble:
		return false, "streaming claim failed"
	case a.card.Capabilities.Streaming && !a.streamOK:
		return false, "streaming claim not verified"
	}
	return true, ""
}

// report turns a final attempt into the outcome.
func (r *run) report(a *attempt) contract.DelegationOutcome {
	return r.finish(a, a.outcome, a.reason, "")
}

// finish builds the outcome with trust fields from the attempt (if any).
func (r *run) finish(a *attempt, outcome, reason, detail string) contract.DelegationOutcome {
	out := contract.DelegationOutcome{Contract: contract.Version, ID: r.req.ID, Outcome: outcome, Reason: reason,
		CardTrust: contract.CardTrustHint, TrustMode: contract.TrustModeUnpinned}
	if r.br.AlwaysAuthoritative {
		out.CardTrust = contract.CardTrustAuthoritative
	}
	if a != nil && a.card != nil && a.sigChecked {
		b := cardsig.Binding{Mode: cardsig.ModeUnpinned}
		if a.verified != nil || a.card != nil && !a.card.signed() {
			b = r.binding(a)
		}
		if a.verified != nil && !a.tlsSeen && !r.br.TrustAnySignature {
			// Nothing was learned of the endpoint's identity.
			b = cardsig.Binding{Mode: cardsig.ModeUnpinned, Reason: b.Reason, Detail: b.Detail}
		}
		if r.br.NeverFull && b.Mode == cardsig.ModeFull {
			b.Mode = cardsig.ModeReduced
		}
		out.TrustMode = string(b.Mode)
		if ok, why := r.authoritative(a, b); ok {
			out.CardTrust = contract.CardTrustAuthoritative
		} else {
			r.notef("card is a hint: %s", why)
		}
		if b.Mode == cardsig.ModeReduced {
			r.notef("reduced trust: %s", b.Detail)
			if reason == contract.ReasonOK || outcome != contract.OutcomeCompleted {
				reason = contract.ReasonSignerEndpointMismatch
			}
		}
		if outcome == contract.OutcomeCompleted || outcome == contract.OutcomeInterrupted {
			out.Agent, out.Skill, out.TaskID, out.TaskState = a.ep.URL, a.skill, a.taskID, a.taskState
			if a.taskID != "" {
				out.ContextID = a.contextID
			}
			r.results.report(&out, r.br) // results.go
		}
	}
	if a != nil && a.refusedUnbound {
		out.TrustMode = ""
	}
	out.Reason = reason
	if outcome != contract.OutcomeCompleted && outcome != contract.OutcomeInterrupted {
		out.Error = r.remoteErr // streamerr.go
	}
	if detail != "" {
		r.notes = append(r.notes, detail)
	}
	out.Detail = strings.Join(r.notes, "; ")
	return out
}

// escape is the Escape break: a fetch of a host no card named.
func (r *run) escape() {
	c := &http.Client{Transport: r.fence.Base, Timeout: 5 * time.Second}
	req, err := http.NewRequestWithContext(r.ctx, http.MethodGet, "https://example.com/.well-known/agent-card.json", nil)
	if err != nil {
		return
	}
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
	}
}

// signerOperates reports whether the verified signer's operators (in the
// request's trust policy) include the endpoint's host; the host alone
// decides, before any connection (RefuseUnbound).
func (r *run) signerOperates(a *attempt) bool {
	iss, ok := r.req.Trust.Issuers[a.verified.Issuer]
	if !ok {
		return false
	}
	h := hostOf(a.ep.URL)
	for _, op := range iss.Operators {
		if strings.EqualFold(op, h) {
			return true
		}
	}
	return false
}

// substringBound is seed 003's reference-code test (the SubstringBinding
// break): the issuer's host appears somewhere in the certificate's names.
func substringBound(issuer string, peer *x509.Certificate) bool {
	h := strings.ToLower(hostOf(issuer))
	return h != "" && strings.Contains(strings.ToLower(strings.Join(peer.DNSNames, " ")), h)
}

// skillDownEverywhere reports, for the GlobalSkillAvailability break,
// whether some host refused the skill id within the availability TTL.
func (r *run) skillDownEverywhere(skill string) bool {
	if !r.br.GlobalSkillAvailability {
		return false
	}
	r.o.mu.Lock()
	defer r.o.mu.Unlock()
	until, ok := r.o.skillDown[skill]
	return ok && r.o.now().Before(until)
}
