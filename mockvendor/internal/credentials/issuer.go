package credentials

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// The schemes a vendor may declare (Config.Scheme).
const (
	// Bearer is an HTTP bearer token: "Authorization: Bearer <token>".
	Bearer = "bearer"
	// APIKey is an API key in a request header (Config.Header).
	APIKey = "apiKey"
	// OAuth2 is OAuth 2.0's client credentials grant (RFC 6749 §4.4): the
	// caller holds a client id and secret, gets an access token from the
	// vendor's token endpoint (Config.TokenURL) and presents it as a
	// bearer token (oauth.go).
	OAuth2 = "oauth2"
)

// DefaultAPIKeyHeader is the API key header when Config.Header is empty.
const DefaultAPIKeyHeader = "X-API-Key"

// Unknown is the owner of a credential the fleet did not issue (or one
// presented where the fleet looks for credentials but does not know it).
const Unknown = "unknown"

// Credential is the credential a vendor issued, as the fleet hands it out.
type Credential struct {
	// Vendor is the issuing vendor's id.
	Vendor string `json:"vendor"`
	// Scheme is Bearer or APIKey.
	Scheme string `json:"scheme"`
	// Header is the API key's header name (APIKey only).
	Header string `json:"header,omitempty"`
	// Value is the token or key.
	Value string `json:"value"`
	// Origins are the https origins of the vendor's hosts that demand it
	// (those with a JSON-RPC or HTTP+JSON endpoint).
	Origins []string `json:"origins"`
	// ClientID is the OAuth 2.0 client id (OAuth2 only; Value is then the
	// client secret).
	ClientID string `json:"clientId,omitempty"`
	// TokenURL is the token endpoint the client secret goes to (OAuth2
	// only).
	TokenURL string `json:"tokenUrl,omitempty"`
}

// Config is what a vendor declares of its authentication: the root
// package builds it from the vendor's configuration (its id, its
// organization and its AuthConfig, whose fields keep their meaning here).
type Config struct {
	// Vendor is the vendor's id.
	Vendor string
	// Organization is the vendor's provider name ("Vendor D"); empty means
	// none (the realm is then "Vendor " and the id in upper case).
	Organization string
	// Scheme is Bearer or APIKey; empty means Bearer.
	Scheme string
	// Header is the API key's header name; empty means
	// DefaultAPIKeyHeader. Only read for APIKey.
	Header string
	// Name is the scheme's key in the card's securitySchemes; empty means
	// "bearerAuth" or "apiKeyAuth".
	Name string
	// CardShape is "1.0", "0.3" or empty (the card's own generation).
	CardShape string
	// Credential is the value the vendor accepts; empty means a fresh
	// random one.
	Credential string
	// Revoked makes the vendor refuse its own credential.
	Revoked bool
	// ClientID is the OAuth 2.0 client id; empty means "a2ac-<vendor>".
	// Only read for OAuth2 (Credential is then the client secret).
	ClientID string
	// TokenURL is the vendor's token endpoint, which its card declares.
	// Required for OAuth2, else not read.
	TokenURL string
	// DeclaredTokenURL is the tokenUrl the card declares when it is not
	// TokenURL (a card that sends the client's secret elsewhere); empty
	// means TokenURL. Only read for OAuth2.
	DeclaredTokenURL string
	// EveryKind makes a 1.0-shaped card declare, beside the vendor's own
	// scheme, one scheme of each other kind the 1.0 SecurityScheme oneof
	// has (card.go: everyKind); its requirement still names the vendor's
	// own scheme alone. False means the own scheme only.
	EveryKind bool
	// ExpireFirstToken makes the first access token the vendor issues
	// expire before its first use: every call presenting it gets 401 with
	// error="invalid_token" (RFC 6750 §3.1). Only read for OAuth2.
	ExpireFirstToken bool
}

// ConfigError is a Config that New refuses. Field names the field at fault
// as the vendor's configuration spells it ("auth.scheme").
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// Issuer is a vendor that issued a credential: its resolved scheme and the
// credential it accepts. It does not change once made.
type Issuer struct {
	vendor, scheme, header, name, shape, value string
	// via is how the scheme presents the credential (Via).
	via string
	// realm names the vendor in its challenges; org names it on its card.
	realm, org string
	revoked    bool
	everyKind  bool
	// oauth is the OAuth 2.0 state (OAuth2 only; nil otherwise).
	oauth *oauthState
}

// New resolves a vendor's Config, making up its credential when none is
// configured ("a2ac-<vendor>-" and 32 random hex digits). A Config it
// refuses gets a *ConfigError.
func New(c Config) (*Issuer, error) {
	is := &Issuer{vendor: c.Vendor, scheme: or(c.Scheme, Bearer), header: c.Header, name: c.Name, shape: c.CardShape,
		value: c.Credential, revoked: c.Revoked, everyKind: c.EveryKind,
		realm: or(c.Organization, "Vendor "+strings.ToUpper(c.Vendor)), org: or(c.Organization, "the vendor")}
	switch is.scheme {
	case Bearer:
		is.name = or(is.name, "bearerAuth")
	case APIKey:
		is.name = or(is.name, "apiKeyAuth")
		is.header = http.CanonicalHeaderKey(or(is.header, DefaultAPIKeyHeader))
	case OAuth2:
		is.name = or(is.name, "oauth2ClientCredentials")
		if err := is.initOAuth(c); err != nil {
			return nil, err
		}
	default:
		return nil, &ConfigError{Field: "auth.scheme", Msg: fmt.Sprintf("unknown scheme %q (%s, %s or %s)", is.scheme, Bearer, APIKey, OAuth2)}
	}
	if is.shape != "" && is.shape != "1.0" && is.shape != "0.3" {
		return nil, &ConfigError{Field: "auth.cardShape", Msg: fmt.Sprintf("unknown card shape %q (1.0 or 0.3)", is.shape)}
	}
	if is.value == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		is.value = "a2ac-" + c.Vendor + "-" + hex.EncodeToString(b)
	}
	if strings.ContainsAny(is.value, " \t\r\n\",\\") {
		return nil, &ConfigError{Field: "auth.credential", Msg: "must not hold white space, quotes, commas or backslashes"}
	}
	is.via = "bearer"
	if is.scheme == APIKey {
		is.via = "header:" + is.header
	}
	return is, nil
}

// Vendor returns the id of the vendor that issued the credential.
func (is *Issuer) Vendor() string { return is.vendor }

// Via is how the scheme presents the credential, in the words of
// Issued.Scan: "bearer", or "header:" and the API key header.
func (is *Issuer) Via() string { return is.via }

// Credential returns the credential as the fleet hands it out, demanded
// at origins.
func (is *Issuer) Credential(origins []string) Credential {
	c := Credential{Vendor: is.vendor, Scheme: is.scheme, Value: is.value, Origins: origins}
	if is.scheme == APIKey {
		c.Header = is.header
	}
	if is.oauth != nil {
		c.ClientID, c.TokenURL = is.oauth.clientID, is.oauth.tokenURL
	}
	return c
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
