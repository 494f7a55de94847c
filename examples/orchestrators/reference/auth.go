package reference

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
)

// Credentials [A2A 1.0 §7.3; seed 003, Operational Effect]. The caller's
// credentials (trust.credentials) are keyed by the origin they were
// issued for, and the reference presents one only in a JSON-RPC call to
// exactly that origin, the way the endpoint's card declares its scheme
// (an HTTP bearer token in Authorization, an API key in the header the
// scheme names). So a card of A that names B's gateway gets, at the
// gateway, the gateway's own credential or none, never A's. A card that
// demands a credential the caller holds none of for the endpoint's origin
// is skipped (reason no-credential) before anything is sent there. A 401
// is final for that credential and origin in the delegation (reason
// auth-rejected). Card and key set fetches carry no credential, and a
// credential never travels over a connection whose certificate did not
// verify (the TLS handshake fails before any header is sent).

// authState is a delegation's credential bookkeeping.
type authState struct {
	// retried is set once the RetryOn401 break has resent a request.
	retried bool
	// tokens are the OAuth 2.0 access tokens got, by endpoint origin.
	tokens map[string]string
	// refreshed counts, per origin, the tokens renewed after an
	// invalid_token refusal (at most once per origin and delegation; the
	// OAuthKeepToken break goes on to oauthKeepTokenTries).
	refreshed map[string]int
}

// errAuthRejected is a call the endpoint answered with 401.
var errAuthRejected = errors.New("the endpoint refused the credential (HTTP 401)")

// scheme is one security scheme a card declares, in either card shape.
type scheme struct {
	// kind is contract.CredentialSchemeBearer, CredentialSchemeAPIKey or
	// schemeMTLS ("" for a scheme the reference cannot present: OAuth,
	// ...).
	kind string
	// header is where an API key goes.
	header string
	// tokenURL is an OAuth 2.0 client credentials flow's token endpoint
	// (kind oauth2).
	tokenURL string
	// httpName is an HTTP scheme's name as the card spells it.
	httpName string
	// unknown is set for an entry that holds none of the scheme kinds
	// the reference reads (the oneof members it does not use included).
	unknown bool
}

// kindOAuth2 is a card's OAuth 2.0 scheme with a client credentials flow.
const kindOAuth2 = "oauth2"

// cardSecurity is what a card says about authentication: the 1.0 members
// (securitySchemes entries with one member per kind, securityRequirements)
// or the 0.3 ones (entries with a type, security).
type cardSecurity struct {
	SecuritySchemes      map[string]json.RawMessage `json:"securitySchemes"`
	Security             []map[string][]string      `json:"security"`
	SecurityRequirements []struct {
		Schemes map[string]json.RawMessage `json:"schemes"`
	} `json:"securityRequirements"`
}

// parseScheme reads one securitySchemes entry of either shape.
func parseScheme(raw json.RawMessage) scheme {
	var s struct {
		// 0.3 (OpenAPI 3.0)
		Type   string `json:"type"`
		Scheme string `json:"scheme"`
		In     string `json:"in"`
		Name   string `json:"name"`
		// 1.0 (a2a.proto SecurityScheme oneof)
		HTTP *struct {
			Scheme string `json:"scheme"`
		} `json:"httpAuthSecurityScheme"`
		APIKey *struct {
			Location string `json:"location"`
			Name     string `json:"name"`
		} `json:"apiKeySecurityScheme"`
		OAuth2 *struct {
			Flows oauthFlows `json:"flows"`
		} `json:"oauth2SecurityScheme"`
		Flows oauthFlows `json:"flows"` // 0.3 type oauth2
	}
	if json.Unmarshal(raw, &s) != nil {
		return scheme{}
	}
	if isMTLS(raw) {
		return scheme{kind: schemeMTLS}
	}
	switch {
	case s.HTTP != nil && strings.EqualFold(s.HTTP.Scheme, "bearer"):
		return scheme{kind: contract.CredentialSchemeBearer, httpName: s.HTTP.Scheme}
	case s.APIKey != nil && strings.EqualFold(s.APIKey.Location, "header") && s.APIKey.Name != "":
		return scheme{kind: contract.CredentialSchemeAPIKey, header: s.APIKey.Name}
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return scheme{kind: contract.CredentialSchemeBearer, httpName: "Bearer"}
	case s.Type == "apiKey" && s.In == "header" && s.Name != "":
		return scheme{kind: contract.CredentialSchemeAPIKey, header: s.Name}
	case s.OAuth2 != nil && s.OAuth2.Flows.ClientCredentials != nil:
		return scheme{kind: kindOAuth2, tokenURL: s.OAuth2.Flows.ClientCredentials.TokenURL}
	case s.Type == "oauth2" && s.Flows.ClientCredentials != nil:
		return scheme{kind: kindOAuth2, tokenURL: s.Flows.ClientCredentials.TokenURL}
	}
	return scheme{unknown: s.HTTP == nil && s.APIKey == nil && s.Type == ""}
}

// oauthFlows is the flows member of an OAuth 2.0 scheme (1.0 and 0.3
// spell the client credentials flow alike).
type oauthFlows struct {
	ClientCredentials *struct {
		TokenURL string `json:"tokenUrl"`
	} `json:"clientCredentials"`
}

// demands returns the card's security requirements as alternatives, each
// the scheme names it needs together; none means the card asks for no
// credential. A card that declares schemes but no requirement is read as
// asking for one of them.
func (c *agentCard) demands() (alts [][]string, schemes map[string]scheme) {
	var cs cardSecurity
	if json.Unmarshal(c.raw, &cs) != nil || len(cs.SecuritySchemes) == 0 {
		return nil, nil
	}
	schemes = map[string]scheme{}
	for name, raw := range cs.SecuritySchemes {
		schemes[name] = parseScheme(raw)
	}
	for _, req := range cs.SecurityRequirements {
		var alt []string
		for name := range req.Schemes {
			alt = append(alt, name)
		}
		alts = append(alts, alt)
	}
	for _, req := range cs.Security {
		var alt []string
		for name := range req {
			alt = append(alt, name)
		}
		alts = append(alts, alt)
	}
	if len(alts) == 0 {
		for name := range schemes {
			alts = append(alts, []string{name})
		}
	}
	return alts, schemes
}

// presentation is how one credential goes on a request.
type presentation struct {
	header, value string
	// oauth is the OAuth 2.0 client whose access token goes as a bearer
	// token (value is then filled when the request is made).
	oauth *contract.OAuth2Client
}

// credentialFor decides what the attempt's endpoint gets: ok false when
// the card demands a credential the caller holds none of that fits; none
// (zero presentation) when it demands nothing (or an alternative needs no
// credential).
func (r *run) credentialFor(a *attempt) (p presentation, ok bool) {
	alts, schemes := a.card.demands()
	if len(alts) == 0 {
		return presentation{}, true
	}
	origin := contract.OriginOf(a.ep.URL)
	if p, ok := r.oauthFor(origin, alts, schemes); ok {
		return p, true
	}
	cred, held := r.req.Trust.Credentials[origin]
	if r.br.CredentialByCard {
		if c, byCard := r.req.Trust.Credentials[contract.OriginOf(a.cardURL)]; byCard {
			cred, held = c, true
		}
	}
	if !held && r.br.AnyCredential {
		for _, c := range r.req.Trust.Credentials {
			cred, held = c, true
			break
		}
	}
	for _, alt := range alts {
		if len(alt) == 0 {
			return presentation{}, true // this alternative needs no credential
		}
		if len(alt) == 1 && schemes[alt[0]].kind == schemeMTLS {
			if r.holdsClientCert(origin) {
				return presentation{}, true // presented in the handshake (mtls.go)
			}
			continue
		}
		if !held || len(alt) != 1 {
			continue // the reference holds one credential per origin
		}
		s := schemes[alt[0]]
		if s.kind == "" || s.kind != cred.Scheme && !r.br.AnyCredential {
			continue
		}
		if r.br.BearerCaseSensitive && s.kind == contract.CredentialSchemeBearer && s.httpName != "Bearer" {
			continue
		}
		if s.kind == contract.CredentialSchemeAPIKey && !r.br.APIKeyAsBearer {
			return presentation{header: s.header, value: cred.Value}, true
		}
		return presentation{header: "Authorization", value: "Bearer " + cred.Value}, true
	}
	return presentation{}, false
}

// credentialStep checks, before the endpoint is contacted, that the caller
// holds what its card demands. False means the candidate is done.
func (r *run) credentialStep(a *attempt) bool {
	if r.br.StrictSecuritySchemes {
		if _, schemes := a.card.demands(); slices.ContainsFunc(slices.Collect(maps.Values(schemes)), func(s scheme) bool { return s.unknown }) {
			r.notef("%s: card parsing failed: a security scheme of a kind this client does not know", a.cardURL)
			a.reason = contract.ReasonOther
			return false
		}
	}
	if _, ok := r.credentialFor(a); ok || r.br.NoCredentials {
		return true
	}
	r.notef("%s: the card demands a credential the caller holds none of for %s: no-credential", a.cardURL, contract.OriginOf(a.ep.URL))
	a.reason = contract.ReasonNoCredential
	if r.alt.RefuseWithoutCredential {
		a.outcome, a.final = contract.OutcomeRejected, true
	}
	return false
}

// authorize puts the endpoint's credential on a JSON-RPC request to it.
func (r *run) authorize(a *attempt, req *http.Request) {
	if r.br.NoCredentials || a.card == nil {
		return
	}
	if p, ok := r.credentialFor(a); ok && p.header != "" {
		if p.oauth != nil {
			tok, err := r.accessToken(contract.OriginOf(a.ep.URL), *p.oauth)
			if err != nil {
				r.notef("%s: no access token: %v", p.oauth.TokenURL, err)
				return
			}
			p.value = "Bearer " + tok
		}
		req.Header.Set(p.header, p.value)
		if r.br.LogCredential {
			r.notef("%s: %s", p.header, p.value)
		}
	}
}

// withholdCredential reports whether a break keeps the credential off a
// request of that method (StreamNoCredential, FollowNoCredential).
func (r *run) withholdCredential(method string) bool {
	switch method {
	case "SendStreamingMessage", "message/stream":
		return r.br.StreamNoCredential
	case "SubscribeToTask", "tasks/resubscribe":
		return r.br.StreamNoCredential || r.br.FollowNoCredential
	case "GetTask", "tasks/get":
		return r.br.FollowNoCredential
	}
	return false
}

// unauthorized handles a 401: the credential (or its absence) was refused
// at that origin. The RetryOn401 break sends the same request three more
// times first.
func (r *run) unauthorized(a *attempt, resp *http.Response, method string, params map[string]any) callResult {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
	if r.br.RetryOn401 && !r.auth.retried {
		r.auth.retried = true
		for i := 0; i < 3; i++ {
			if again, err := r.post(r.ctx, a, method, params, "application/json"); err == nil {
				again.Body.Close()
			}
		}
	}
	return callResult{err: fmt.Errorf("%s %s: %w (WWW-Authenticate: %s)", method, a.ep.URL, errAuthRejected, resp.Header.Get("WWW-Authenticate"))}
}

// authFailure reports an auth refusal for a call's result. True means it
// was one (reason set).
func (r *run) authFailure(a *attempt, what string, res callResult) bool {
	if !errors.Is(res.err, errAuthRejected) {
		return false
	}
	r.notef("%s of %s: %v", what, a.ep.URL, res.err)
	a.reason = contract.ReasonAuthRejected
	if r.br.AuthRejectedAsOther {
		a.reason = contract.ReasonOther
	}
	return true
}
