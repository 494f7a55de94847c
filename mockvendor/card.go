package mockvendor

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
)

// The vendor's Agent Card (internal/card) wired to the vendor: the card's
// Spec built from the vendor's configuration and hosts, the card faults
// run between the unsigned document the card package builds and its
// signature, the card set the CDN serves cached per card epoch, and the
// vendor's JWKS with its faults.

// Card paths: 0.1-0.2 use agent.json, 0.3 and 1.0 agent-card.json. Both
// serve the same document.
const (
	CardPath       = card.Path
	LegacyCardPath = card.LegacyPath
)

// CDNCacheControl is what the CDN in front of every card answers.
const CDNCacheControl = card.CacheControl

// JWKSPath is where a signing vendor's issuer host serves its JWKS.
const JWKSPath = card.KeySetPath

// Protocol bindings a card may name (A2A 1.0 §4.4.6 AgentInterface).
const (
	BindingJSONRPC = card.BindingJSONRPC
	BindingREST    = card.BindingREST
	BindingGRPC    = card.BindingGRPC
)

// Card forms (CardConfig.Form).
const (
	// FormLegacy is a pure 0.3 card: url, preferredTransport,
	// additionalInterfaces and protocolVersion, no supportedInterfaces.
	FormLegacy = card.FormLegacy
	// FormHybrid carries the 1.0 and the 0.3 members whatever the vendor
	// serves.
	FormHybrid = card.FormHybrid
)

// CardInterface is one supportedInterfaces entry of a card: URL (required),
// Binding (the protocolBinding; empty means "JSONRPC"), ProtocolVersion
// (Major.Minor; empty means "1.0") and Tenant (empty means none).
type CardInterface = card.Interface

// newCardSpec is what the vendor's card says, from its configuration and
// hosts (their addresses once started) and its security scheme.
func (v *Vendor) newCardSpec() *card.Spec {
	c := v.cfg.Card
	s := &card.Spec{
		ID: v.cfg.ID, Organization: v.cfg.Organization,
		Name: c.Name, Description: c.Description, Version: c.Version,
		URL: v.endpointURL(), RESTURL: v.restURL(), GRPCURL: v.grpcURL(), ProviderURL: v.providerURL(),
		Versions:  v.servedVersions(),
		Streaming: c.Streaming, PushNotifications: c.PushNotifications, ExtendedCard: c.ExtendedCard != nil,
		Extensions:        c.Extensions,
		DefaultInputModes: c.DefaultInputModes, DefaultOutputModes: c.DefaultOutputModes,
		Listed:     c.Skills,
		Interfaces: c.Interfaces, Form: c.Form, LegacyURL: c.LegacyURL,
		Signed:   v.cfg.Signing != nil,
		Security: v.auth,
		MTLS:     v.mtlsScheme(),
	}
	if v.cfg.Signing != nil {
		s.LegacyFields = v.cfg.Signing.LegacyFields
	}
	for _, sk := range v.cfg.Skills {
		s.Skills = append(s.Skills, cardSkill(sk))
	}
	return s
}

// cardSkill is a skill as the card lists it.
func cardSkill(s SkillConfig) card.Skill {
	return card.Skill{ID: s.ID, Name: s.Name, Description: s.Description, InputModes: s.InputModes, OutputModes: s.OutputModes}
}

// cardSpec is the vendor's card Spec: the one made when the fleet started,
// or (before it started) one made now.
func (v *Vendor) cardSpec() *card.Spec {
	if s := v.spec; s != nil {
		return s
	}
	return v.newCardSpec()
}

// endpointURL is the JSON-RPC URL the card names.
func (v *Vendor) endpointURL() string {
	if v.cfg.Card.URL != "" {
		return v.cfg.Card.URL
	}
	for _, h := range v.hosts {
		if h.cfg.RPCPath != "" {
			return h.url() + h.cfg.RPCPath
		}
	}
	return ""
}

// providerURL is the URL of the vendor's first card host (else of its
// first host).
func (v *Vendor) providerURL() string {
	for _, h := range v.hosts {
		if h.cfg.Card {
			return h.url()
		}
	}
	return v.hosts[0].url()
}

// cardEpoch is the sum of the card faults' epochs. An upstream agent's
// card that cannot be had is the error: asking the agent again to render
// the card would double the wait of a fetch (two Timeouts for an agent
// that does not answer).
func (v *Vendor) cardEpoch() (int64, error) {
	var sum int64
	if v.servesUpstreamCard() {
		_, version, err := v.upstreamCard()
		if err != nil {
			return 0, err
		}
		sum += version << 32 // a new card of the agent's is a new epoch
	}
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.EpochHook); ok {
			sum += h.CardEpoch()
		}
	}
	return sum, nil
}

// cardSet is the card set of the current card epoch, built when the
// epoch changed or the faults did.
func (v *Vendor) cardSet() (*card.Set, error) {
	epoch, err := v.cardEpoch()
	if err != nil {
		return nil, err
	}
	v.mu.RLock()
	cs := v.cards
	v.mu.RUnlock()
	if cs != nil && cs.Epoch == epoch {
		return cs, nil
	}
	origin, err := v.renderCard(false)
	if err != nil {
		return nil, err
	}
	cdn, err := v.renderCard(true)
	if err != nil {
		return nil, err
	}
	cs = card.NewSet(origin, cdn, epoch)
	v.mu.Lock()
	v.cards = cs
	v.mu.Unlock()
	return cs, nil
}

// Card returns the card document the origin serves now (cdn false) or the
// CDN's copy (cdn true).
func (v *Vendor) Card(cdn bool) ([]byte, error) {
	cs, err := v.cardSet()
	if err != nil {
		return nil, err
	}
	if cdn {
		return cs.CDN, nil
	}
	return cs.Origin, nil
}

// renderCard builds the card, lets the card faults change it, and signs
// it honestly, or as the first sign fault does instead.
func (v *Vendor) renderCard(cdn bool) ([]byte, error) {
	doc := v.cardSpec().Document()
	if v.servesUpstreamCard() {
		var err error
		if doc, _, err = v.upstreamCard(); err != nil {
			return nil, err
		}
	}
	faults := v.faultsSnapshot()
	for _, af := range faults {
		if h, ok := af.impl.(fault.CardHook); ok {
			h.OnCard(v.view(), doc, cdn)
		}
	}
	if v.signer == nil {
		return json.Marshal(doc)
	}
	for _, af := range faults {
		if h, ok := af.impl.(fault.SignHook); ok {
			b, err := json.Marshal(doc)
			if err != nil {
				return nil, err
			}
			return h.SignCard(v.view(), v.signer, b)
		}
	}
	return v.signer.SignCard(doc)
}

// serveCard answers a card fetch as the CDN in front of the card would
// (card.Set.Serve).
func (v *Vendor) serveCard(w http.ResponseWriter, r *http.Request, ev *Event) {
	cs, err := v.cardSet()
	if err != nil {
		http.Error(w, "card unavailable: "+err.Error(), upstreamStatus(err))
		ev.Note = err.Error()
		ev.Upstream = v.upstreamCardFailure(err)
		return
	}
	ev.Served = cs.Serve(w, r)
}

// The vendor's signer is what its sign and JWKS faults see of its key.
var _ fault.CardSigner = (*card.Signer)(nil)

// newSigner makes the vendor's card signer from its SigningConfig.
func (v *Vendor) newSigner() (*card.Signer, error) {
	s, err := card.NewSigner(signingSpec(v.cfg.Signing, v.cfg.Hosts))
	return s, rootConfigError(err)
}

// resolveSigning checks a signing configuration against the vendor's
// hosts without generating anything (card.SigningSpec.Check): Start and
// LoadConfig both refuse what it refuses.
func resolveSigning(sc *SigningConfig, hosts []HostConfig) error {
	return rootConfigError(signingSpec(sc, hosts).Check())
}

// signingSpec is the card package's form of a SigningConfig.
func signingSpec(sc *SigningConfig, hosts []HostConfig) card.SigningSpec {
	sp := card.SigningSpec{KID: sc.KID, Alg: sc.Alg, Issuer: sc.Issuer, KeyPEM: sc.KeyPEM, LegacyFields: sc.LegacyFields}
	for _, h := range hosts {
		if h.Card {
			sp.CardHosts = append(sp.CardHosts, h.Name)
		}
	}
	return sp
}

// rootConfigError is err with a *card.ConfigError as the root's
// *ConfigError.
func rootConfigError(err error) error {
	var ce *card.ConfigError
	if errors.As(err, &ce) {
		return &ConfigError{Field: ce.Field, Msg: ce.Msg}
	}
	return err
}

func (v *Vendor) servesJWKS(h *host) bool {
	return v.signer != nil && h.cfg.Name == v.signer.Issuer()
}

// serveJWKS answers a JWKS fetch with the vendor's public key, as its jwks
// faults change it.
func (v *Vendor) serveJWKS(w http.ResponseWriter, r *http.Request, ev *Event) {
	v.mu.Lock()
	v.jwksCount++
	n := v.jwksCount
	v.mu.Unlock()
	keys := []jose.JSONWebKey{v.signer.PublicKey()}
	faults := v.faultsSnapshot()
	for _, af := range faults {
		if h, ok := af.impl.(fault.JWKSHook); ok {
			keys = h.OnJWKS(v.signer, keys, n)
			ev.Faults = append(ev.Faults, af.spec.Type)
		}
	}
	ks := &fault.KeySet{Keys: keys, CacheControl: card.KeySetCacheControl, Plain: r.TLS == nil}
	for _, af := range faults {
		if h, ok := af.impl.(fault.KeySetHook); ok {
			h.OnKeySet(v.signer, ks)
			ev.Faults = append(ev.Faults, af.spec.Type)
		}
	}
	ev.Served = "fetch " + strconv.Itoa(n)
	if ks.Plain {
		ev.Served += " over plain http"
	}
	card.ServeKeySetWith(w, ks.Keys, ks.Members, ks.CacheControl)
}
