package credentials

import "fmt"

// Refusal is the answer to a call without an accepted credential: HTTP 401
// with a challenge (RFC 9110 §11.6.1; RFC 6750 §3 for bearer). The root
// package turns it into the binding's error.
type Refusal struct {
	// Challenge is the WWW-Authenticate value.
	Challenge string
	// Message is the error message: what was missing or not valid.
	Message string
	// Scheme is the scheme's name on the card (its securitySchemes key).
	Scheme string
}

// Check judges a call by what it presented: own is true when the call
// presented the issuer's own credential the way its scheme says (Via), and
// sameWay when it presented any credential that way. The call passes (ok)
// with its own credential, unless that is revoked; otherwise Refusal says
// how to answer it.
func (is *Issuer) Check(own, sameWay bool) (r Refusal, ok bool) {
	if own && !is.revoked {
		return Refusal{}, true
	}
	r.Scheme = is.name
	switch is.scheme {
	case APIKey:
		// API keys have no registered HTTP challenge; RFC 9110 still wants
		// one on a 401, so the challenge names the header to use.
		r.Challenge = fmt.Sprintf(`ApiKey realm=%q, header=%q`, is.realm, is.header)
		r.Message = "unauthenticated: an API key in the " + is.header + " header is required"
		if sameWay {
			r.Message = "unauthenticated: the API key in " + is.header + " is not valid"
		}
	default:
		r.Challenge = fmt.Sprintf(`Bearer realm=%q`, is.realm)
		r.Message = "unauthenticated: a bearer token is required"
		if sameWay {
			r.Challenge += `, error="invalid_token", error_description="the token is not valid here"`
			r.Message = "unauthenticated: the bearer token is not valid"
		}
	}
	return r, false
}
