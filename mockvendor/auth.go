package mockvendor

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Authentication [A2A 1.0 §7.3-7.4; §3.3.2 "Authentication Errors"]. A
// vendor with an AuthConfig declares one security scheme on its card, in
// the shape of the card's generation, and accepts one credential on its
// JSON-RPC and HTTP+JSON endpoints; its card and key set stay public.
// Every request to every host is searched for the credentials the fleet
// issued: the trace records whether one was presented, how, and whose it
// was (a vendor id, or CredentialUnknown), never its value, and the value
// is cut out of whatever the trace keeps (the body, the headers it
// records).

// The schemes a vendor may declare (AuthConfig.Scheme).
const (
	// AuthBearer is an HTTP bearer token: "Authorization: Bearer <token>".
	AuthBearer = "bearer"
	// AuthAPIKey is an API key in a request header (AuthConfig.Header).
	AuthAPIKey = "apiKey"
)

// DefaultAPIKeyHeader is the API key header when AuthConfig.Header is empty.
const DefaultAPIKeyHeader = "X-API-Key"

// CredentialUnknown is the owner of a credential the fleet did not issue
// (or one presented where the fleet looks for credentials but does not
// know it).
const CredentialUnknown = "unknown"

// maxPresented bounds the credentials one event lists.
const maxPresented = 8

// Credential is the credential a vendor issued, as the fleet hands it out.
type Credential struct {
	// Vendor is the issuing vendor's id.
	Vendor string `json:"vendor"`
	// Scheme is AuthBearer or AuthAPIKey.
	Scheme string `json:"scheme"`
	// Header is the API key's header name (AuthAPIKey only).
	Header string `json:"header,omitempty"`
	// Value is the token or key.
	Value string `json:"value"`
	// Origins are the https origins of the vendor's hosts that demand it
	// (those with a JSON-RPC or HTTP+JSON endpoint).
	Origins []string `json:"origins"`
}

// vendorAuth is a vendor's resolved AuthConfig.
type vendorAuth struct {
	scheme, header, name, shape, value string
	revoked                            bool
}

// initAuth resolves the vendor's AuthConfig, making up its credential when
// none is configured.
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
	a := &vendorAuth{scheme: or(ac.Scheme, AuthBearer), header: ac.Header, name: ac.Name, shape: ac.CardShape, value: ac.Credential, revoked: ac.Revoked}
	switch a.scheme {
	case AuthBearer:
		a.name = or(a.name, "bearerAuth")
	case AuthAPIKey:
		a.name = or(a.name, "apiKeyAuth")
		a.header = http.CanonicalHeaderKey(or(a.header, DefaultAPIKeyHeader))
	default:
		return &ConfigError{Field: "auth.scheme", Msg: fmt.Sprintf("unknown scheme %q (%s or %s)", a.scheme, AuthBearer, AuthAPIKey)}
	}
	if a.shape != "" && a.shape != "1.0" && a.shape != "0.3" {
		return &ConfigError{Field: "auth.cardShape", Msg: fmt.Sprintf("unknown card shape %q (1.0 or 0.3)", a.shape)}
	}
	if a.value == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		a.value = "a2ac-" + v.cfg.ID + "-" + hex.EncodeToString(b)
	}
	if strings.ContainsAny(a.value, " \t\r\n\",\\") {
		return &ConfigError{Field: "auth.credential", Msg: "must not hold white space, quotes, commas or backslashes"}
	}
	v.auth = a
	return nil
}

// Credential returns the credential the vendor with that id issued, and
// false when the vendor has none (or does not exist).
func (f *Fleet) Credential(vendorID string) (Credential, bool) {
	v := f.byVendor[vendorID]
	if v == nil || v.auth == nil {
		return Credential{}, false
	}
	c := Credential{Vendor: v.cfg.ID, Scheme: v.auth.scheme, Value: v.auth.value}
	if v.auth.scheme == AuthAPIKey {
		c.Header = v.auth.header
	}
	for _, h := range v.hosts {
		if h.cfg.RPCPath != "" || h.cfg.RESTPath != "" {
			c.Origins = append(c.Origins, h.url())
		}
	}
	return c, true
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

// ownerOf returns the id of the vendor that issued value, or
// CredentialUnknown.
func (f *Fleet) ownerOf(value string) string {
	for _, v := range f.vendors {
		if v.auth != nil && value == v.auth.value {
			return v.cfg.ID
		}
	}
	return CredentialUnknown
}

// ownerIn returns the id of the vendor whose credential s holds (a cookie
// or a header value may wrap it), or CredentialUnknown. Issued values are
// long and random, so holding one is no accident.
func (f *Fleet) ownerIn(s string) string {
	for _, v := range f.vendors {
		if v.auth != nil && strings.Contains(s, v.auth.value) {
			return v.cfg.ID
		}
	}
	return CredentialUnknown
}

// apiKeyHeader reports whether a vendor of the fleet takes an API key in
// the header k (canonical form).
func (f *Fleet) apiKeyHeader(k string) bool {
	for _, v := range f.vendors {
		if v.auth != nil && v.auth.scheme == AuthAPIKey && v.auth.header == k {
			return true
		}
	}
	return false
}

// anyIssued reports whether a vendor of the fleet issued a credential.
func (f *Fleet) anyIssued() bool {
	for _, v := range f.vendors {
		if v.auth != nil {
			return true
		}
	}
	return false
}

// presented finds the credentials r presents: the Authorization header,
// any header or query parameter holding a credential the fleet issued, and
// any API key header a vendor of the fleet declares. The list is sorted
// (owner, then how).
func (f *Fleet) presented(r *http.Request) []Presented {
	var out []Presented
	add := func(p Presented) {
		if len(out) < maxPresented && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if auth := strings.TrimSpace(headerGet(r.Header, "Authorization")); auth != "" {
		scheme, rest, _ := strings.Cut(auth, " ")
		switch owner := f.ownerOf(strings.TrimSpace(rest)); {
		case strings.EqualFold(scheme, "bearer"):
			add(Presented{Owner: owner, Via: "bearer"})
		default:
			if whole := f.ownerIn(auth); whole != CredentialUnknown {
				owner = whole
			}
			add(Presented{Owner: owner, Via: "authorization"})
		}
	}
	if !f.anyIssued() {
		return out
	}
	for k, vals := range r.Header {
		if k == "Authorization" {
			continue
		}
		for _, val := range vals {
			if val = strings.TrimSpace(val); val == "" {
				continue
			}
			if owner := f.ownerIn(val); owner != CredentialUnknown || f.apiKeyHeader(k) {
				add(Presented{Owner: owner, Via: "header:" + k})
			}
		}
	}
	if r.URL.RawQuery != "" {
		for k, vals := range r.URL.Query() {
			for _, val := range vals {
				if owner := f.ownerIn(val); owner != CredentialUnknown {
					add(Presented{Owner: owner, Via: "query:" + k})
				}
			}
		}
	}
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
	if !f.anyIssued() {
		return
	}
	for _, b := range []*json.RawMessage{&e.Request, &e.RPCID} {
		if f.holdsCredential(*b) {
			s, _ := f.RedactText(string(*b))
			*b = []byte(s)
		}
	}
	for _, s := range []*string{&e.Path, &e.A2AVersion, &e.A2AVersionQuery, &e.CacheControl, &e.Pragma, &e.IfNoneMatch,
		&e.Skill, &e.TaskID, &e.ErrorMessage, &e.Note, &e.Method, &e.ServerName,
		&e.Host, &e.URL, &e.DeliveryError} { // the last three: a push delivery's receiver (its URL may carry one)
		*s, _ = f.RedactText(*s)
	}
}

// holdsCredential reports whether b contains a credential the fleet
// issued (without copying b).
func (f *Fleet) holdsCredential(b []byte) bool {
	for _, v := range f.vendors {
		if v.auth != nil && bytes.Contains(b, []byte(v.auth.value)) {
			return true
		}
	}
	return false
}

// RedactText cuts every credential the fleet issued out of s, each
// replaced by a mark naming whose it was ("(credential of d, redacted)"),
// and returns the ids of the vendors whose credential s held (none: s is
// returned as it was). The trace, the report's copy of each request and
// what the orchestrator wrote (its stderr, its outcomes' details) are all
// redacted with it.
func (f *Fleet) RedactText(s string) (string, []string) {
	var owners []string
	for _, v := range f.vendors {
		if v.auth == nil || !strings.Contains(s, v.auth.value) {
			continue
		}
		s = strings.ReplaceAll(s, v.auth.value, "(credential of "+v.cfg.ID+", redacted)")
		owners = append(owners, v.cfg.ID)
	}
	return s, owners
}

// via is how the vendor's scheme presents its credential.
func (a *vendorAuth) via() string {
	if a.scheme == AuthAPIKey {
		return "header:" + a.header
	}
	return "bearer"
}

// authError is a call without an accepted credential: HTTP 401 with a
// challenge (RFC 9110 §11.6.1; RFC 6750 §3 for bearer).
type authError struct {
	rpc       *RPCError
	challenge string
}

func (e *authError) Error() string { return e.rpc.Message }

// authenticate checks a call against the vendor's scheme: it passes when
// the trace event shows the vendor's own credential presented the way its
// card declares, and the credential is not revoked.
func (v *Vendor) authenticate(ev *Event) error {
	a := v.auth
	if a == nil {
		return nil
	}
	want := Presented{Owner: v.cfg.ID, Via: a.via()}
	ok := slices.Contains(ev.Credentials, want) && !a.revoked
	if ok {
		return nil
	}
	realm := or(v.cfg.Organization, "Vendor "+strings.ToUpper(v.cfg.ID))
	presentedAny := slices.ContainsFunc(ev.Credentials, func(p Presented) bool { return p.Via == a.via() })
	var challenge, msg string
	switch a.scheme {
	case AuthAPIKey:
		// API keys have no registered HTTP challenge; RFC 9110 still wants
		// one on a 401, so the challenge names the header to use.
		challenge = fmt.Sprintf(`ApiKey realm=%q, header=%q`, realm, a.header)
		msg = "unauthenticated: an API key in the " + a.header + " header is required"
		if presentedAny {
			msg = "unauthenticated: the API key in " + a.header + " is not valid"
		}
	default:
		challenge = fmt.Sprintf(`Bearer realm=%q`, realm)
		msg = "unauthenticated: a bearer token is required"
		if presentedAny {
			challenge += `, error="invalid_token", error_description="the token is not valid here"`
			msg = "unauthenticated: the bearer token is not valid"
		}
	}
	return &authError{challenge: challenge, rpc: &RPCError{Code: -32000, Message: msg,
		Data: map[string]any{"scheme": a.name}, Reason: "UNAUTHENTICATED"}}
}

// challengeHeader sets WWW-Authenticate for an authentication error.
func challengeHeader(hdr http.Header, err error) {
	var ae *authError
	if errors.As(err, &ae) {
		hdr.Set("WWW-Authenticate", ae.challenge)
	}
}

// securityDocs adds the vendor's security scheme and requirement to its
// card, in the card's shape: 1.0 (A2A 1.0 a2a.proto SecurityScheme,
// SecurityRequirement: {"httpAuthSecurityScheme": {"scheme": "Bearer"}} and
// securityRequirements [{"schemes": {name: {"list": []}}}]) or 0.3 (the
// OpenAPI 3.0 form of the 0.3 schema: {"type": "http", "scheme":
// "bearer"} and security [{name: []}]).
func (v *Vendor) securityDocs(card map[string]any) {
	a := v.auth
	if a == nil {
		return
	}
	shape := a.shape
	if shape == "" {
		shape = "1.0"
		if _, legacy := card["url"]; legacy {
			shape = "0.3"
		}
	}
	desc := "the credential " + or(v.cfg.Organization, "the vendor") + " issued to you"
	if shape == "0.3" {
		s := map[string]any{"type": "http", "scheme": "bearer", "description": desc}
		if a.scheme == AuthAPIKey {
			s = map[string]any{"type": "apiKey", "in": "header", "name": a.header, "description": desc}
		}
		card["securitySchemes"] = map[string]any{a.name: s}
		card["security"] = []any{map[string]any{a.name: []string{}}}
		return
	}
	s := map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer", "description": desc}}
	if a.scheme == AuthAPIKey {
		s = map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": a.header, "description": desc}}
	}
	card["securitySchemes"] = map[string]any{a.name: s}
	card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{a.name: map[string]any{"list": []string{}}}}}
}
