package binding

import (
	"errors"
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// WireError maps the error of a stage or operation to the A2A error and
// the HTTP status that answer it (200: the binding's own for the error).
// It is the one place where errors become wire errors; each binding
// renders the pair in its form (Binding.ErrorAnswer).
func WireError(err error) (*a2a.Error, int) {
	var tooBig *BodyTooLargeError
	var unread *BodyReadError
	var noRoute *RouteError
	var badType *ContentTypeError
	var a2aErr *a2a.Error
	var unauth *AuthError
	var gateway *upstream.Error
	switch {
	case errors.As(err, &gateway):
		return gateway.A2A(), gateway.HTTPStatus()
	case errors.As(err, &unauth):
		return unauth.Err, http.StatusUnauthorized
	case errors.As(err, &tooBig):
		return tooBig.a2aError(), http.StatusRequestEntityTooLarge
	case errors.As(err, &unread):
		return unread.a2aError(), http.StatusOK
	case errors.As(err, &noRoute):
		return a2a.MethodNotFound(noRoute.Method + " " + noRoute.Path), http.StatusOK
	case errors.As(err, &badType):
		return badType.a2aError(), http.StatusUnsupportedMediaType
	case errors.As(err, &a2aErr):
		return a2aErr, http.StatusOK
	}
	return a2a.Internal(err.Error()), http.StatusOK
}

// RouteError is a path or HTTP method a binding has no route for
// (-32601 naming both).
type RouteError struct{ Method, Path string }

func (e *RouteError) Error() string { return "no route " + e.Method + " " + e.Path }

// AuthError is a call without an accepted credential: HTTP 401 with a
// challenge (RFC 9110 §11.6.1; RFC 6750 §3 for bearer) for
// WWW-Authenticate.
type AuthError struct {
	Err       *a2a.Error
	Challenge string
}

func (e *AuthError) Error() string { return e.Err.Message }

// ChallengeHeader sets WWW-Authenticate for an authentication error (any
// other error, or nil, sets nothing).
func ChallengeHeader(hdr http.Header, err error) {
	var ae *AuthError
	if errors.As(err, &ae) {
		hdr.Set("WWW-Authenticate", ae.Challenge)
	}
}
