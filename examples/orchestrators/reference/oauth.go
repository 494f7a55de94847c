package reference

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
)

// OAuth 2.0 client credentials [RFC 6749 §4.4; A2A 1.0 §4.5.4, §4.5.9,
// §7.3]. For an endpoint whose card declares an oauth2 scheme with a
// clientCredentials flow, the reference uses the client the caller holds
// for the endpoint's origin (trust.oauth2) only when the card's tokenUrl
// is the client's own: the secret goes to that token endpoint alone, by
// HTTP Basic (RFC 6749 §2.3.1). The access token is kept per origin for
// the delegation and presented as a bearer token; a 401 whose challenge
// says error="invalid_token" (RFC 6750 §3.1) drops it, and the request is
// made once more with a new one; a second refusal is final.

// oauthKeepTokenTries is how many times the OAuthKeepToken break sends a
// refused token again.
const oauthKeepTokenTries = 3

// maxTokenAnswer bounds a token endpoint's answer.
const maxTokenAnswer = 16 << 10

// oauthFor is the presentation for an OAuth 2.0 alternative of the card
// the caller holds a client for; ok false when there is none.
func (r *run) oauthFor(origin string, alts [][]string, schemes map[string]scheme) (presentation, bool) {
	client, held := r.req.Trust.OAuth2[origin]
	if !held {
		return presentation{}, false
	}
	for _, alt := range alts {
		if len(alt) != 1 {
			continue
		}
		s := schemes[alt[0]]
		if s.kind == kindOAuth2 && (s.tokenURL == client.TokenURL || r.br.OAuthAnyTokenURL || r.alt.OAuthCallerTokenURL) {
			c := client
			if r.br.OAuthAnyTokenURL {
				c.TokenURL = s.tokenURL
			}
			if r.br.OAuthSecretAsBearer {
				return presentation{header: "Authorization", value: "Bearer " + c.ClientSecret}, true
			}
			return presentation{header: "Authorization", oauth: &c}, true
		}
	}
	return presentation{}, false
}

// accessToken returns the delegation's access token for origin, getting
// one from the client's token endpoint when it has none.
func (r *run) accessToken(origin string, c contract.OAuth2Client) (string, error) {
	if tok := r.auth.tokens[origin]; tok != "" {
		return tok, nil
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(c.Scopes) > 0 {
		form.Set("scope", strings.Join(c.Scopes, " "))
	}
	if r.alt.OAuthSecretInBody {
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.ClientSecret)
	}
	req, err := http.NewRequestWithContext(r.ctx, http.MethodPost, c.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	r.fence.Allow(c.TokenURL) // the caller named it, and the card declares it
	if !r.alt.OAuthSecretInBody {
		req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer))
	if err != nil {
		return "", err
	}
	var ans struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		Error       string `json:"error"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return "", fmt.Errorf("token endpoint answered %d, not JSON", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK || ans.AccessToken == "" || !strings.EqualFold(ans.TokenType, "bearer") {
		return "", fmt.Errorf("token endpoint answered %d (error %q, token type %q)", resp.StatusCode, ans.Error, ans.TokenType)
	}
	if strings.ContainsFunc(ans.AccessToken, func(r rune) bool { return r <= 0x20 || r == 0x7f }) {
		return "", errors.New("the access token holds white space or control characters")
	}
	if r.auth.tokens == nil {
		r.auth.tokens = map[string]string{}
	}
	r.auth.tokens[origin] = ans.AccessToken
	return ans.AccessToken, nil
}

// renewToken reports whether a 401 answer of the attempt's endpoint
// refused an expired or revoked access token the reference can renew
// (error="invalid_token", an OAuth 2.0 presentation, not renewed yet in
// this delegation); the token is then dropped, so the next request gets a
// new one.
func (r *run) renewToken(a *attempt, resp *http.Response) bool {
	if !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) || r.br.OAuthNoRefresh {
		return false
	}
	p, ok := r.credentialFor(a)
	origin := contract.OriginOf(a.ep.URL)
	limit := 1
	if r.br.OAuthKeepToken {
		limit = oauthKeepTokenTries
	}
	if !ok || p.oauth == nil || r.auth.refreshed[origin] >= limit {
		return false
	}
	if r.auth.refreshed == nil {
		r.auth.refreshed = map[string]int{}
	}
	r.auth.refreshed[origin]++
	r.notef("%s refused the access token (invalid_token): getting a new one from %s", a.ep.URL, p.oauth.TokenURL)
	if !r.br.OAuthKeepToken {
		delete(r.auth.tokens, origin)
	}
	return true
}
