package credentials

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// OAuth 2.0 client credentials [RFC 6749 §4.4; A2A 1.0 §4.5.4, §4.5.9].
// A vendor with the OAuth2 scheme declares an oauth2SecurityScheme whose
// clientCredentials flow names its token endpoint; the caller holds the
// client id and secret (the issuer's value), trades them there for an
// access token and presents the token as a bearer token. The tokens are
// made up at random, numbered from 1 in the order issued, and accepted
// at the vendor's endpoints until the fleet stops (the first one not at
// all when ExpireFirstToken is set: it "expired").

// maxTokens bounds the access tokens one issuer hands out between two
// resets, and maxIssued in all; past either the token endpoint refuses (a
// client that loops on the token endpoint meets a wall, and the issued
// list stays small).
const (
	maxTokens = 16
	maxIssued = 64
)

// oauthState is an OAuth2 issuer's client and the tokens it issued.
type oauthState struct {
	clientID, tokenURL string
	// declared is the tokenUrl the card declares.
	declared    string
	expireFirst bool

	mu     sync.Mutex
	tokens []string // serial n is tokens[n-1]
	// first is the serial of the first token issued since the last reset
	// (ResetTokens): the one that expires with expireFirst. Zero means 1.
	first int
	// expiredOnes are the serials of the expired first tokens.
	expiredOnes []int
}

// ResetTokens starts the issuer afresh, as a fleet reset does: the next
// token issued is the first one (the one ExpireFirstToken expires). The
// tokens issued before stay known, so that they are still recognised and
// redacted, and stay accepted unless one was the expired first.
func (is *Issuer) ResetTokens() {
	if is.oauth == nil {
		return
	}
	is.oauth.mu.Lock()
	defer is.oauth.mu.Unlock()
	is.oauth.first = len(is.oauth.tokens) + 1
}

// expired reports whether the token with serial n is an expired first
// one (of the current window or an earlier one).
func (o *oauthState) expired(n int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Contains(o.expiredOnes, n)
}

// initOAuth checks and keeps the OAuth 2.0 part of c.
func (is *Issuer) initOAuth(c Config) error {
	u, err := url.Parse(c.TokenURL)
	if c.TokenURL == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		return &ConfigError{Field: "auth.tokenUrl", Msg: fmt.Sprintf("%q is not an https URL (RFC 6749 §3.2 requires TLS at the token endpoint)", c.TokenURL)}
	}
	id := or(c.ClientID, "a2ac-"+c.Vendor)
	if strings.ContainsAny(id, ": \t\r\n\"\\") {
		return &ConfigError{Field: "auth.clientId", Msg: "must not hold a colon, white space, quotes or backslashes"}
	}
	is.oauth = &oauthState{clientID: id, tokenURL: c.TokenURL, declared: or(c.DeclaredTokenURL, c.TokenURL), expireFirst: c.ExpireFirstToken}
	return nil
}

// TokenURL returns the token endpoint of an OAuth2 issuer, or "".
func (is *Issuer) TokenURL() string {
	if is.oauth == nil {
		return ""
	}
	return is.oauth.tokenURL
}

// Grant answers a client credentials grant that authenticated with id and
// secret: a fresh access token and its serial number, or an OAuth error
// code (RFC 6749 §5.2: "invalid_client" for a wrong client,
// "unauthorized_client" once maxTokens are out, "invalid_request" should
// the random source fail).
func (is *Issuer) Grant(id, secret string) (token string, serial int, errCode string) {
	o := is.oauth
	if o == nil || id != o.clientID || secret != is.value {
		return "", 0, "invalid_client"
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	first := max(o.first, 1)
	if len(o.tokens) >= maxIssued || len(o.tokens)+1-first >= maxTokens {
		return "", 0, "unauthorized_client"
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", 0, "invalid_request"
	}
	token = fmt.Sprintf("a2ac-%s-at%d-%s", is.vendor, len(o.tokens)+1, hex.EncodeToString(b))
	o.tokens = append(o.tokens, token)
	if o.expireFirst && len(o.tokens) == first {
		o.expiredOnes = append(o.expiredOnes, first)
	}
	return token, len(o.tokens), ""
}

// tokenSerial returns the serial number of an access token the issuer
// issued, or 0.
func (is *Issuer) tokenSerial(value string) int {
	if is.oauth == nil || value == "" {
		return 0
	}
	is.oauth.mu.Lock()
	defer is.oauth.mu.Unlock()
	for i, t := range is.oauth.tokens {
		if t == value {
			return i + 1
		}
	}
	return 0
}

// issuedTokens returns a copy of the access tokens issued so far.
func (is *Issuer) issuedTokens() []string {
	if is.oauth == nil {
		return nil
	}
	is.oauth.mu.Lock()
	defer is.oauth.mu.Unlock()
	return append([]string(nil), is.oauth.tokens...)
}

// CheckToken judges a call to an OAuth2 vendor by the access token it
// presented as a bearer token (serial, 0 for none): it passes with a token
// the issuer issued, unless that is the expired first one.
func (is *Issuer) CheckToken(serial int, bearer bool) (r Refusal, ok bool) {
	expired := is.oauth.expired(serial)
	if serial > 0 && !expired && !is.revoked {
		return Refusal{}, true
	}
	r = Refusal{Scheme: is.name, Challenge: fmt.Sprintf(`Bearer realm=%q`, is.realm), Message: "unauthenticated: an access token from " + is.oauth.tokenURL + " is required"}
	switch {
	case expired:
		r.Challenge += `, error="invalid_token", error_description="the access token expired"`
		r.Message = "unauthenticated: the access token expired"
	case bearer:
		r.Challenge += `, error="invalid_token", error_description="the token is not valid here"`
		r.Message = "unauthenticated: the bearer token is not valid"
	}
	return r, false
}

// declareOAuth is the oauth2 scheme in the card's shape.
func (is *Issuer) declareOAuth(shape, desc string) map[string]any {
	flow := map[string]any{"tokenUrl": is.oauth.declared, "scopes": map[string]any{"a2a.invoke": "send tasks to the agent"}}
	if shape == "0.3" {
		return map[string]any{"type": "oauth2", "description": desc, "flows": map[string]any{"clientCredentials": flow}}
	}
	return map[string]any{"oauth2SecurityScheme": map[string]any{"description": desc, "flows": map[string]any{"clientCredentials": flow}}}
}
