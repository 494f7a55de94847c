package admin

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
)

// auth is how a request proved it holds the token.
type auth int

const (
	authNone       auth = iota
	authBearer          // Authorization: Bearer TOKEN
	authCookie          // the admin cookie alone
	authFirstVisit      // GET /?token=TOKEN: answered with the cookie and a redirect
)

// authenticate says how r carries the token, if it does. A wrong bearer
// token is not made good by a cookie.
func (a *api) authenticate(r *http.Request) auth {
	if a.token == "" {
		return authNone
	}
	if h := r.Header.Get("Authorization"); h != "" {
		if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") && equal(strings.TrimSpace(h[7:]), a.token) {
			return authBearer
		}
		return authNone
	}
	if r.Method == http.MethodGet && r.URL.Path == "/" && r.URL.Query().Has("token") {
		if equal(r.URL.Query().Get("token"), a.token) {
			return authFirstVisit
		}
		return authNone
	}
	if c, err := r.Cookie(cookieName(r)); err == nil && equal(c.Value, a.cookieValue()) {
		return authCookie
	}
	return authNone
}

func equal(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// cookieValue is what the admin cookie holds: a digest of the token, not
// the token itself (which a user may also have put in scripts).
func (a *api) cookieValue() string {
	sum := sha256.Sum256([]byte("a2a-conform admin cookie\x00" + a.token))
	return hex.EncodeToString(sum[:])
}

// cookieName names the admin cookie after the listener's port (from the
// Host header): cookies do not tell ports apart, and two fleets on one
// machine must not overwrite each other's.
func cookieName(r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return "a2a_conform_admin_" + port
	}
	return "a2a_conform_admin"
}

// setCookie sets the admin cookie for the page's origin.
func (a *api) setCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName(r),
		Value:    a.cookieValue(),
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
}

// sameOrigin reports whether a cookie-authenticated request comes from the
// admin page itself: SameSite=Strict keeps other sites' requests from
// carrying the cookie, but another server on localhost is the same site,
// so the origin is checked too. Sec-Fetch-Site, when sent, must be
// same-origin or none (a typed address); Origin, when sent, must be this
// Host's; a method other than GET must send Origin.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return r.Method == http.MethodGet
	}
	return o == "http://"+r.Host
}
