package contract

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// OAuth2Client is one OAuth 2.0 client the caller holds for an agent: the
// client credentials of RFC 6749 §4.4 and the one token endpoint they may
// be sent to.
type OAuth2Client struct {
	// TokenURL is the token endpoint, an absolute https URL. The client
	// secret goes there and nowhere else: use the client only for a card
	// whose clientCredentials flow declares exactly this tokenUrl. Empty
	// is invalid.
	TokenURL string `json:"tokenUrl"`
	// ClientID is the client identifier. Empty is invalid.
	ClientID string `json:"clientId"`
	// ClientSecret is the client secret: send it to TokenURL only (HTTP
	// Basic, RFC 6749 §2.3.1, or client_secret in the form body); log it
	// never. Empty is invalid.
	ClientSecret string `json:"clientSecret"`
	// Scopes are the scopes to ask for (the form's scope parameter). Nil
	// or empty means none: ask for none, or for the scopes the card's
	// security requirement lists.
	Scopes []string `json:"scopes,omitempty"`
}

// ValidateOAuth2 checks the trust block's OAuth2 clients: every key is an
// https origin (as for Credentials), every TokenURL an absolute https URL
// with a host and without user info or fragment, and every ClientID and
// ClientSecret non-empty without control characters (ClientID without a
// colon either, which HTTP Basic could not carry, RFC 7617 §2). A nil
// error means the clients are usable. [Trust.Validate] calls it.
func (t Trust) ValidateOAuth2() error {
	var errs []error
	for _, origin := range slices.Sorted(maps.Keys(t.OAuth2)) {
		c := t.OAuth2[origin]
		if err := checkOrigin(origin); err != nil {
			errs = append(errs, fmt.Errorf("oauth2[%q]: %w", origin, err))
		}
		if err := checkTokenURL(c.TokenURL); err != nil {
			errs = append(errs, fmt.Errorf("oauth2[%q].tokenUrl: %w", origin, err))
		}
		for _, f := range []struct{ name, v string }{{"clientId", c.ClientID}, {"clientSecret", c.ClientSecret}} {
			switch {
			case f.v == "":
				errs = append(errs, fmt.Errorf("oauth2[%q].%s is empty", origin, f.name))
			case strings.ContainsFunc(f.v, isControl):
				errs = append(errs, fmt.Errorf("oauth2[%q].%s holds a control character", origin, f.name))
			}
		}
		if strings.Contains(c.ClientID, ":") {
			errs = append(errs, fmt.Errorf("oauth2[%q].clientId holds a colon", origin))
		}
		for i, s := range c.Scopes {
			if s == "" || strings.ContainsAny(s, " \"\\") || strings.ContainsFunc(s, isControl) {
				errs = append(errs, fmt.Errorf("oauth2[%q].scopes[%d] %q is not a scope token (RFC 6749 §3.3)", origin, i, s))
			}
		}
	}
	return errors.Join(errs...)
}

// checkTokenURL checks that s is an absolute https URL with a host.
func checkTokenURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return errors.New("empty")
	case err != nil:
		return fmt.Errorf("not a URL: %w", err)
	case u.Scheme != "https":
		return errors.New("not https (RFC 6749 §3.2: the token endpoint requires TLS)")
	case u.Hostname() == "":
		return errors.New("no host")
	case u.User != nil || u.Fragment != "":
		return errors.New("a token URL has no user info or fragment")
	}
	return nil
}

// isControl reports whether r is an ASCII control character.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
