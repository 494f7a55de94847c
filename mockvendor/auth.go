package mockvendor

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/credentials"
)

// Authentication [A2A 1.0 §7.3-7.4; §3.3.2 "Authentication Errors"]. A
// vendor with an AuthConfig declares one security scheme on its card, in
// the shape of the card's generation, and accepts one credential on its
// JSON-RPC and HTTP+JSON endpoints; its card and key set stay public.
// Every request to every host is searched for the credentials the fleet
// issued: the trace records whether one was presented, how, and whose it
// was (a vendor id, or CredentialUnknown), never its value, and the value
// is cut out of whatever the trace keeps (the body, the headers it
// records). The schemes, the credentials and their recognition are in
// internal/credentials; this file keeps the public names, builds each
// vendor's credentials.Config from its AuthConfig and writes what the
// credentials package finds into the trace and the wire errors.

// The schemes a vendor may declare (AuthConfig.Scheme).
const (
	// AuthBearer is an HTTP bearer token: "Authorization: Bearer <token>".
	AuthBearer = credentials.Bearer
	// AuthAPIKey is an API key in a request header (AuthConfig.Header).
	AuthAPIKey = credentials.APIKey
	// AuthOAuth2 is OAuth 2.0 client credentials (RFC 6749 §4.4): an
	// access token from the vendor's token endpoint, presented as a
	// bearer token (oauth.go).
	AuthOAuth2 = credentials.OAuth2
)

// DefaultAPIKeyHeader is the API key header when AuthConfig.Header is empty.
const DefaultAPIKeyHeader = credentials.DefaultAPIKeyHeader

// CredentialUnknown is the owner of a credential the fleet did not issue
// (or one presented where the fleet looks for credentials but does not
// know it).
const CredentialUnknown = credentials.Unknown

// maxPresented bounds the credentials one event lists.
const maxPresented = 8

// Credential is the credential a vendor issued, as the fleet hands it out:
// its Vendor (id), Scheme (AuthBearer or AuthAPIKey), Header (the API
// key's header name, AuthAPIKey only), Value (the token or key) and
// Origins (the https origins of the vendor's hosts that demand it, those
// with a JSON-RPC or HTTP+JSON endpoint).
type Credential = credentials.Credential

// vendorAuth is a vendor's resolved AuthConfig: its scheme and the
// credential it issued (Vendor.auth; nil for an open vendor).
type vendorAuth = credentials.Issuer

// initAuth resolves the vendor's AuthConfig, making up its credential when
// none is configured, and adds it to the fleet's issued credentials.
func (v *Vendor) initAuth() error {
	ac := v.cfg.Auth
	if ec := v.cfg.Card.ExtendedCard; ec != nil && ac == nil && !ec.Public {
		// A2A 1.0 §13.3: the extended card operation MUST require
		// authentication with a scheme the public card declares; 0.3
		// §7.10 answers its absence with 401 and WWW-Authenticate. A
		// vendor without Auth declares no scheme and can ask for none.
		return &ConfigError{Field: fmt.Sprintf("vendors[%d].card.extendedCard", slices.Index(v.fleet.vendors, v)),
			Msg: fmt.Sprintf("vendor %s: an extended card requires authentication (A2A 1.0 §13.3): give the vendor an auth, or set public: true to serve it to anyone", v.cfg.ID)}
	}
	if ac == nil {
		return nil
	}
	a, err := credentials.New(credentials.Config{Vendor: v.cfg.ID, Organization: v.cfg.Organization,
		Scheme: ac.Scheme, Header: ac.Header, Name: ac.Name, CardShape: ac.CardShape, Credential: ac.Credential, Revoked: ac.Revoked,
		ClientID: ac.ClientID, TokenURL: v.tokenURL(), ExpireFirstToken: ac.ExpireFirstToken, EveryKind: ac.EveryKind,
		DeclaredTokenURL: ac.DeclaredTokenURL})
	var ce *credentials.ConfigError
	if errors.As(err, &ce) {
		return &ConfigError{Field: ce.Field, Msg: ce.Msg}
	}
	if err != nil {
		return err
	}
	v.auth = a
	v.fleet.issued.Add(a)
	return nil
}

// Credential returns the credential the vendor with that id issued, and
// false when the vendor has none (or does not exist).
func (f *Fleet) Credential(vendorID string) (Credential, bool) {
	v := f.byVendor[vendorID]
	if v == nil || v.auth == nil {
		return Credential{}, false
	}
	var origins []string
	for _, h := range v.hosts {
		if h.cfg.RPCPath != "" || h.cfg.RESTPath != "" {
			origins = append(origins, h.url())
		}
	}
	return v.auth.Credential(origins), true
}

// Credentials returns every credential the fleet issued, by vendor order.
func (f *Fleet) Credentials() []Credential {
	var out []Credential
	for _, v := range f.vendors {
		if c, ok := f.Credential(v.cfg.ID); ok {
			out = append(out, c)
		}
	}
	return out
}

// presented lists the credentials r presents, as the trace records them
// (credentials.Issued.Scan says where it looks): each at most once, at
// most maxPresented, sorted (owner, then how).
func (f *Fleet) presented(r *http.Request) []Presented {
	var out []Presented
	f.issued.Scan(r, func(owner, via string, token int) {
		p := Presented{Owner: owner, Via: via, Token: token}
		if len(out) < maxPresented && !slices.Contains(out, p) {
			out = append(out, p)
		}
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Owner != out[j].Owner {
			return out[i].Owner < out[j].Owner
		}
		return out[i].Via < out[j].Via
	})
	return out
}

// redact cuts every issued credential out of what the event keeps: the
// request body and every text field (a credential in a body, a path or a
// cache header stays out of the trace too).
func (f *Fleet) redact(e *Event) {
	if !f.issued.Any() {
		return
	}
	if owner := f.issued.SecretIn(e.Request); owner != CredentialUnknown && e.Op != OpToken && len(e.Credentials) < maxPresented {
		e.Credentials = append(e.Credentials, Presented{Owner: owner, Via: "secret:body"})
	}
	for _, b := range []*json.RawMessage{&e.Request, &e.RPCID} {
		if f.issued.Holds(*b) {
			s, _ := f.issued.Redact(string(*b))
			*b = []byte(s)
		}
	}
	for _, s := range []*string{&e.Path, &e.A2AVersion, &e.A2AVersionQuery, &e.CacheControl, &e.Pragma, &e.IfNoneMatch, &e.A2AExtensions, &e.XA2AExtensions,
		&e.Skill, &e.TaskID, &e.ErrorMessage, &e.Note, &e.Method, &e.ServerName,
		&e.Host, &e.URL, &e.DeliveryError} { // the last three: a push delivery's receiver (its URL may carry one)
		*s, _ = f.issued.Redact(*s)
	}
}

// RedactText cuts every credential the fleet issued out of s, each
// replaced by a mark naming whose it was ("(credential of d, redacted)"),
// and returns the ids of the vendors whose credential s held (none: s is
// returned as it was). The trace, the report's copy of each request and
// what the orchestrator wrote (its stderr, its outcomes' details) are all
// redacted with it.
func (f *Fleet) RedactText(s string) (string, []string) {
	s, owners := f.issued.Redact(s)
	return f.redactClientKeys(s, owners) // mtls.go
}

// authenticate checks a call against the vendor's scheme: it passes when
// the credentials the call presented (as the trace event lists them)
// hold the vendor's own, presented the way its card declares, and the
// credential is not revoked; else a *binding.AuthError (401).
func (v *Vendor) authenticate(presented []Presented) error {
	a := v.auth
	if a == nil {
		return nil
	}
	via := a.Via()
	if a.TokenURL() != "" {
		return v.authenticateToken(presented)
	}
	own := slices.Contains(presented, Presented{Owner: a.Vendor(), Via: via})
	sameWay := slices.ContainsFunc(presented, func(p Presented) bool { return p.Via == via })
	refusal, ok := a.Check(own, sameWay)
	if ok {
		return nil
	}
	return &binding.AuthError{Challenge: refusal.Challenge, Err: &RPCError{Code: -32000, Message: refusal.Message,
		Data: map[string]any{"scheme": refusal.Scheme}, Reason: "UNAUTHENTICATED"}}
}

// authenticateToken checks a call to an OAuth2 vendor: it passes with an
// access token the vendor issued, presented as a bearer token, that has
// not expired; else a *binding.AuthError (401, invalid_token when a
// bearer token was presented).
func (v *Vendor) authenticateToken(presented []Presented) error {
	a, serial, bearer := v.auth, 0, false
	for _, p := range presented {
		if p.Via == "bearer" {
			bearer = true
			if p.Owner == a.Vendor() && p.Token > serial {
				serial = p.Token
			}
		}
	}
	refusal, ok := a.CheckToken(serial, bearer)
	if ok {
		return nil
	}
	return &binding.AuthError{Challenge: refusal.Challenge, Err: &RPCError{Code: -32000, Message: refusal.Message,
		Data: map[string]any{"scheme": refusal.Scheme}, Reason: "UNAUTHENTICATED"}}
}

// securityDocs adds the vendor's security scheme and requirement to its
// card, in the card's shape (credentials.Issuer.DeclareOn).
func (v *Vendor) securityDocs(card map[string]any) {
	if v.auth != nil {
		v.auth.DeclareOn(card)
	}
}
