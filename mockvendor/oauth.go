package mockvendor

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
)

// OAuth 2.0 client credentials [RFC 6749 §4.4, §3.2, §2.3.1, §5.1-5.2;
// A2A 1.0 §4.5.4, §4.5.9]. A vendor whose AuthConfig.Scheme is AuthOAuth2
// declares an oauth2SecurityScheme with a clientCredentials flow whose
// tokenUrl is its first host with a TokenPath, and serves the token
// endpoint there, over the fleet's TLS like every host. The endpoint takes
// POST application/x-www-form-urlencoded with grant_type=client_credentials
// and the client authenticated either by HTTP Basic (client_secret_basic)
// or by client_id and client_secret in the body (client_secret_post), not
// both (RFC 6749 §2.3: one method per request). It answers a bearer
// access token with expires_in (TokenLifetime) and Cache-Control:
// no-store, or an OAuth error (400, or 401 invalid_client). The event
// (OpToken) notes the client authentication and the token's serial.

// DefaultTokenPath is the token endpoint's path in the fleet's own
// configurations (HostConfig.TokenPath).
const DefaultTokenPath = "/oauth2/token"

// VendorDOAuth2 is vendor D serving A2A 1.0 only and demanding an access
// token from the client credentials grant (AuthOAuth2): its token
// endpoint is https://auth.agent-d.example/oauth2/token; expireFirst sets
// AuthConfig.ExpireFirstToken.
func VendorDOAuth2(expireFirst bool) VendorConfig {
	d := VendorD()
	d.Versions = []string{"1.0"}
	d.Hosts = append(d.Hosts, HostConfig{Name: HostAuthD, TokenPath: DefaultTokenPath})
	d.Auth = &AuthConfig{Scheme: AuthOAuth2, ExpireFirstToken: expireFirst}
	return d
}

// HostSSOX is the host of VendorSSOX, a token endpoint that is no
// vendor's own.
const HostSSOX = "login.agent-d-sso.example"

// VendorSSOX is a host that answers at DefaultTokenPath and issues no
// tokens (400 unauthorized_client): a token endpoint a card may name that
// the caller's client was never registered with. It serves no card and no
// A2A endpoint.
func VendorSSOX() VendorConfig {
	return VendorConfig{ID: "x", Organization: "SSO X", Hosts: []HostConfig{{Name: HostSSOX, TokenPath: DefaultTokenPath}},
		Skills: []SkillConfig{{ID: SkillInvoice, Name: "Invoice reconciliation"}}}
}

// maxTokenBody bounds a token request's body.
const maxTokenBody = 8 << 10

// tokenURL is the vendor's token endpoint: its first host with a
// TokenPath, or "".
func (v *Vendor) tokenURL() string {
	for _, h := range v.cfg.Hosts {
		if h.TokenPath != "" && h.Name != "" {
			return "https://" + h.Name + h.TokenPath
		}
	}
	return ""
}

// serveToken answers a token request at the vendor's token endpoint.
func (v *Vendor) serveToken(w http.ResponseWriter, r *http.Request, ev *Event) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	fail := func(status int, code, why string) {
		ev.Note = "token request refused: " + code + " (" + why + ")"
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="token endpoint"`)
		}
		writeJSON(w, status, map[string]any{"error": code, "error_description": why})
	}
	if v.auth == nil || v.auth.TokenURL() == "" {
		fail(http.StatusBadRequest, "unauthorized_client", "the vendor issues no OAuth 2.0 tokens")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		fail(http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded (RFC 6749 §4.4.2)")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxTokenBody+1))
	if err != nil || len(body) > maxTokenBody {
		fail(http.StatusBadRequest, "invalid_request", "the body could not be read or is too large")
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		fail(http.StatusBadRequest, "invalid_request", "the body is not a form")
		return
	}
	if gt := form.Get("grant_type"); gt != "client_credentials" {
		fail(http.StatusBadRequest, "unsupported_grant_type", fmt.Sprintf("grant_type %q; the endpoint issues client_credentials only", gt))
		return
	}
	id, secret, how, problem := clientAuth(r, form)
	if problem != "" {
		fail(http.StatusBadRequest, "invalid_request", problem)
		return
	}
	token, serial, code := v.auth.Grant(id, secret)
	if code != "" {
		status := http.StatusBadRequest
		if code == "invalid_client" {
			status = http.StatusUnauthorized
		}
		fail(status, code, "client authenticated by "+how)
		return
	}
	ev.Note = "client_credentials grant, client authenticated by " + how + ": access token #" + strconv.Itoa(serial) + " issued"
	writeJSON(w, http.StatusOK, map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": TokenLifetime, "scope": "a2a.invoke"})
}

// TokenLifetime is the expires_in, in seconds, of the fleet's access
// tokens.
const TokenLifetime = 300

// clientAuth reads how a token request authenticated its client: HTTP
// Basic (RFC 6749 §2.3.1, form-urlencoded id and secret) or the body's
// client_id and client_secret. problem says why it is malformed (both
// methods, or none).
func clientAuth(r *http.Request, form url.Values) (id, secret, how, problem string) {
	bid, bsecret, basic := r.BasicAuth()
	_, inBody := form["client_secret"]
	switch {
	case basic && inBody:
		return "", "", "", "the client authenticated twice, by Basic and in the body (RFC 6749 §2.3: one method per request)"
	case basic:
		id, _ = url.QueryUnescape(bid)
		secret, _ = url.QueryUnescape(bsecret)
		return id, secret, "client_secret_basic", ""
	case inBody:
		return form.Get("client_id"), form.Get("client_secret"), "client_secret_post", ""
	}
	return "", "", "", "no client authentication"
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
