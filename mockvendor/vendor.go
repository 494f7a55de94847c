package mockvendor

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// Vendor is one mock vendor of a running fleet: its hosts, its card behind a
// CDN, its JSON-RPC gateway and the faults attached to it.
type Vendor struct {
	cfg   VendorConfig
	fleet *Fleet
	hosts []*host

	mu        sync.RWMutex
	faults    []*attachedFault
	nextFault int
	spec      *card.Spec // the card's (card.go); set by init
	cards     *card.Set  // built lazily; nil after a fault change
	signer    *card.Signer
	jwksCount int

	push pushStore   // push-notification configs (internal/push; the push-config methods in internal/ops)
	auth *vendorAuth // nil: an open vendor (auth.go)
	// clientCert is the client certificate the vendor issued the caller
	// (mtls.go); nil: it asks for none.
	clientCert *tls.Certificate
	// upstream is the client of the agent the vendor stands in front of
	// (upstream.go); nil: the vendor answers itself.
	upstream *upstream.Client
}

// ID returns the vendor's id.
func (v *Vendor) ID() string { return v.cfg.ID }

// Config returns the vendor's start-up configuration.
func (v *Vendor) Config() VendorConfig { return v.cfg }

// Hosts returns the vendor's host names (bare-IP hosts as 127.0.0.1:PORT).
func (v *Vendor) Hosts() []string {
	var out []string
	for _, h := range v.hosts {
		out = append(out, h.name)
	}
	return out
}

// JWKSFetches counts the JWKS fetches the vendor has answered.
func (v *Vendor) JWKSFetches() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.jwksCount
}

func (v *Vendor) init() error {
	if v.cfg.Signing != nil {
		s, err := v.newSigner()
		if err != nil {
			return fmt.Errorf("vendor %s: %w", v.cfg.ID, err)
		}
		v.signer = s
	}
	if err := v.initAuth(); err != nil {
		return err
	}
	if err := v.checkExtendedSkills(); err != nil {
		return err
	}
	if err := v.initMTLS(); err != nil {
		return err
	}
	if err := v.initUpstream(); err != nil {
		return err
	}
	v.spec = v.newCardSpec()
	return nil
}

// attachedFault is a fault attached to a vendor: impl is what fault.New
// built, which runCallHooks and runHeaderHooks here (and card.go,
// negotiate.go, fleet.go) ask for the hook interfaces of internal/fault.
type attachedFault struct {
	id    string
	spec  FaultSpec
	hosts map[string]bool // empty: every host
	impl  any
}

func (a *attachedFault) appliesTo(host string) bool {
	return len(a.hosts) == 0 || a.hosts[host]
}

// AttachedFault is a fault as the admin API lists it.
type AttachedFault struct {
	ID string `json:"id"`
	FaultSpec
}

// attach adds a fault; live says the fleet may be running, so certificates
// and cards are refreshed.
func (v *Vendor) attach(spec FaultSpec, live bool) (string, error) {
	if err := v.upstreamAdmits(spec.Type); err != nil {
		return "", err
	}
	impl, err := fault.New(spec.Type, spec.Config)
	if err != nil {
		return "", err
	}
	af := &attachedFault{spec: spec, impl: impl, hosts: map[string]bool{}}
	for _, hn := range spec.Hosts {
		if !slices.ContainsFunc(v.hosts, func(h *host) bool { return h.sanName() == hn }) {
			return "", &ConfigError{Field: "hosts", Msg: fmt.Sprintf("vendor %s has no host %q", v.cfg.ID, hn)}
		}
		af.hosts[hn] = true
	}
	v.mu.Lock()
	v.nextFault++
	af.id = spec.Type + "-" + strconv.Itoa(v.nextFault)
	v.faults = append(slices.Clip(v.faults), af) // a new array: snapshots share the old one
	v.cards = nil
	v.mu.Unlock()
	if live {
		return af.id, v.refreshCerts()
	}
	return af.id, nil
}

func (v *Vendor) detach(id string) error {
	v.mu.Lock()
	i := slices.IndexFunc(v.faults, func(af *attachedFault) bool { return af.id == id })
	if i < 0 {
		v.mu.Unlock()
		return &NotFoundError{What: "fault", Name: id}
	}
	v.faults = append(slices.Clip(v.faults[:i]), v.faults[i+1:]...) // a new array, as in attach
	v.cards = nil
	v.mu.Unlock()
	return v.refreshCerts()
}

func (v *Vendor) resetFaults() error {
	v.mu.Lock()
	v.faults, v.cards, v.nextFault, v.jwksCount = nil, nil, 0, 0
	v.mu.Unlock()
	for _, spec := range v.cfg.Faults {
		if _, err := v.attach(spec, false); err != nil {
			return err
		}
	}
	return v.refreshCerts()
}

func (v *Vendor) refreshCerts() error {
	for _, h := range v.hosts {
		if err := h.refreshCert(); err != nil {
			return err
		}
	}
	return nil
}

// faultsSnapshot returns the attached faults. attach and detach never
// write into the slice they replace, so the snapshot needs no copy: it
// stays as it was while faults change.
func (v *Vendor) faultsSnapshot() []*attachedFault {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.faults
}

// runCallHooks runs the call faults that apply to the host (hostKey is its
// configured name, "127.0.0.1" for a bare-IP host); the first error a
// fault answers with answers the call.
func (v *Vendor) runCallHooks(hostKey string, c *Call) *RPCError {
	for _, af := range v.faultsSnapshot() {
		h, ok := af.impl.(fault.CallHook)
		if !ok || !af.appliesTo(hostKey) {
			continue
		}
		if e := h.OnCall(c); e != nil {
			c.Faults = append(c.Faults, af.spec.Type)
			return e
		}
	}
	return nil
}

// runHeaderHooks applies header faults; hostKey is the host's configured
// name ("127.0.0.1" for a bare-IP host).
func (v *Vendor) runHeaderHooks(hostKey string, hdr http.Header) {
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.HeaderHook); ok && af.appliesTo(hostKey) {
			h.OnResponseHeader(hdr)
		}
	}
}

// answerHooks are the answer faults that apply to the host (hostKey is
// its configured name), in the order they were attached.
func (v *Vendor) answerHooks(hostKey string) []fault.AnswerHook {
	var out []fault.AnswerHook
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.AnswerHook); ok && af.appliesTo(hostKey) {
			out = append(out, h)
		}
	}
	return out
}

// responseVersion is the A2A-Version an honest vendor answers with: the
// version the request asked for when the vendor serves it, else the
// version of the request's dialect (none for the 0.1 dialect).
func (v *Vendor) responseVersion(asked string, d Dialect) string {
	if asked != "" && v.serves(a2a.MajorMinor(asked)) {
		return a2a.MajorMinor(asked)
	}
	switch d {
	case Dialect10:
		return "1.0"
	case Dialect03:
		return "0.3"
	}
	return ""
}

func (v *Vendor) defaultSkill() string {
	if v.cfg.DefaultSkill != "" {
		return v.cfg.DefaultSkill
	}
	if len(v.cfg.Skills) > 0 {
		return v.cfg.Skills[0].ID
	}
	return ""
}

// servesSkill reports whether the gateway serves the skill in the region.
func (v *Vendor) servesSkill(id, region string) bool {
	for _, s := range v.cfg.Skills {
		if s.ID == id {
			return len(s.Regions) == 0 || slices.Contains(s.Regions, region)
		}
	}
	return false
}

// skillsIn lists the skills the gateway serves in the region.
func (v *Vendor) skillsIn(region string) []string {
	out := []string{}
	for _, s := range v.cfg.Skills {
		if len(s.Regions) == 0 || slices.Contains(s.Regions, region) {
			out = append(out, s.ID)
		}
	}
	return out
}

// skill returns the configured skill with that id.
func (v *Vendor) skill(id string) (SkillConfig, bool) {
	for _, s := range v.cfg.Skills {
		if s.ID == id {
			return s, true
		}
	}
	return SkillConfig{}, false
}

// inputModes returns the input modes the card declares for a skill.
func (v *Vendor) inputModes(id string) []string {
	if s, ok := v.skill(id); ok && len(s.InputModes) > 0 {
		return s.InputModes
	}
	if len(v.cfg.Card.DefaultInputModes) > 0 {
		return v.cfg.Card.DefaultInputModes
	}
	return []string{"text/plain"}
}

func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// vendorView is the vendor as its faults see it (VendorView).
type vendorView Vendor

// view returns the vendor's VendorView.
func (v *Vendor) view() VendorView { return (*vendorView)(v) }

func (w *vendorView) vendor() *Vendor                 { return (*Vendor)(w) }
func (w *vendorView) ID() string                      { return w.cfg.ID }
func (w *vendorView) DefaultSkill() string            { return w.vendor().defaultSkill() }
func (w *vendorView) SkillsIn(region string) []string { return w.vendor().skillsIn(region) }
func (w *vendorView) InputModes(skill string) []string {
	return w.vendor().inputModes(skill)
}
func (w *vendorView) SkillEntry(id string) map[string]any { return card.SkillDoc(card.Skill{ID: id}) }
