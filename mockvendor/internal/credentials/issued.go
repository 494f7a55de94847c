package credentials

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
)

// Issued is the credentials a fleet issued, one Issuer per vendor that has
// one, in the fleet's vendor order (which decides whose a value is when two
// vendors share it). The zero value holds none. Fill it before the fleet
// serves: the methods read it without locking.
type Issued struct {
	issuers []*Issuer
}

// Add appends the credential of the next vendor.
func (s *Issued) Add(is *Issuer) { s.issuers = append(s.issuers, is) }

// Any reports whether a vendor issued a credential.
func (s *Issued) Any() bool { return len(s.issuers) > 0 }

// OwnerOf returns the id of the vendor that issued value (its credential,
// or an access token it issued), or Unknown.
func (s *Issued) OwnerOf(value string) string {
	owner, _, _ := s.match(value)
	return owner
}

// match says whose value is exactly: the owner (or Unknown), whether it
// is an OAuth 2.0 client secret, and the serial of the access token it
// is (0: none).
func (s *Issued) match(value string) (owner string, secret bool, token int) {
	for _, is := range s.issuers {
		if value == is.value {
			return is.vendor, is.oauth != nil, 0
		}
		if n := is.tokenSerial(value); n > 0 {
			return is.vendor, false, n
		}
	}
	return Unknown, false, 0
}

// OwnerIn returns the id of the vendor whose credential text holds (a
// cookie or a header value may wrap it), or Unknown. Issued values are
// long and random, so holding one is no accident.
func (s *Issued) OwnerIn(text string) string {
	owner, _ := s.ownerIn(text)
	return owner
}

// ownerIn is OwnerIn that also says whether text holds an OAuth 2.0
// client secret.
func (s *Issued) ownerIn(text string) (owner string, secret bool) {
	for _, is := range s.issuers {
		if strings.Contains(text, is.value) {
			return is.vendor, is.oauth != nil
		}
		for _, t := range is.issuedTokens() {
			if strings.Contains(text, t) {
				return is.vendor, false
			}
		}
	}
	return Unknown, false
}

// values returns every value the issuer's holder must keep secret: its
// credential and the access tokens issued so far.
func (is *Issuer) values() []string { return append([]string{is.value}, is.issuedTokens()...) }

// APIKeyHeader reports whether a vendor takes an API key in the header k
// (canonical form).
func (s *Issued) APIKeyHeader(k string) bool {
	for _, is := range s.issuers {
		if is.scheme == APIKey && is.header == k {
			return true
		}
	}
	return false
}

// Holds reports whether b contains an issued credential (without copying
// b).
func (s *Issued) Holds(b []byte) bool {
	for _, is := range s.issuers {
		for _, v := range is.values() {
			if bytes.Contains(b, []byte(v)) {
				return true
			}
		}
	}
	return false
}

// SecretIn returns the id of the vendor whose OAuth 2.0 client secret b
// holds, or Unknown.
func (s *Issued) SecretIn(b []byte) string {
	for _, is := range s.issuers {
		if is.oauth != nil && bytes.Contains(b, []byte(is.value)) {
			return is.vendor
		}
	}
	return Unknown
}

// Redact cuts every issued credential out of text, each replaced by a mark
// naming whose it was ("(credential of d, redacted)"), and returns the ids
// of the vendors whose credential text held (none: text is returned as it
// was).
func (s *Issued) Redact(text string) (string, []string) {
	var owners []string
	for _, is := range s.issuers {
		held := false
		for _, v := range is.values() {
			if strings.Contains(text, v) {
				text, held = strings.ReplaceAll(text, v, "(credential of "+is.vendor+", redacted)"), true
			}
		}
		if held {
			owners = append(owners, is.vendor)
		}
	}
	return text, owners
}

// Scan finds the credentials r presents and tells found of each, by
// owner (a vendor id, or Unknown), how it came (via) and, for an OAuth 2.0
// access token, its serial number (0 otherwise):
//   - the Authorization header, whatever it holds: "bearer" for the Bearer
//     scheme (owned by whoever issued the token exactly), else
//     "authorization" (owned by whoever's credential it holds anywhere,
//     an Authorization: Basic header decoded first);
//
// and, once the fleet issued any credential:
//   - "header:<Name>": any other header holding an issued credential, and
//     any header a vendor takes an API key in, whatever it holds;
//   - "query:<name>": any URL query parameter holding an issued
//     credential.
//
// An OAuth 2.0 client secret found any of these ways is reported with
// "secret:" before the way ("secret:bearer", "secret:basic" for one
// inside Basic credentials, "secret:header:X-Key"). found may hear the
// same presentation twice, and hears the headers and query parameters in
// no set order.
func (s *Issued) Scan(r *http.Request, found func(owner, via string, token int)) {
	if auth := strings.TrimSpace(first(r.Header["Authorization"])); auth != "" {
		s.scanAuthorization(auth, found)
	}
	if !s.Any() {
		return
	}
	for k, vals := range r.Header {
		if k == "Authorization" {
			continue
		}
		for _, val := range vals {
			if val = strings.TrimSpace(val); val == "" {
				continue
			}
			if owner, secret := s.ownerIn(val); owner != Unknown || s.APIKeyHeader(k) {
				found(owner, secretVia(secret, "header:"+k), 0)
			}
		}
	}
	if r.URL.RawQuery != "" {
		for k, vals := range r.URL.Query() {
			for _, val := range vals {
				if owner, secret := s.ownerIn(val); owner != Unknown {
					found(owner, secretVia(secret, "query:"+k), 0)
				}
			}
		}
	}
}

// scanAuthorization is Scan's reading of the Authorization header.
func (s *Issued) scanAuthorization(auth string, found func(owner, via string, token int)) {
	scheme, rest, _ := strings.Cut(auth, " ")
	rest = strings.TrimSpace(rest)
	if strings.EqualFold(scheme, "bearer") {
		owner, secret, token := s.match(rest)
		found(owner, secretVia(secret, "bearer"), token)
		return
	}
	if strings.EqualFold(scheme, "basic") {
		if dec, err := base64.StdEncoding.DecodeString(rest); err == nil {
			if owner, secret := s.ownerIn(string(dec)); owner != Unknown {
				via := "authorization"
				if secret {
					via = "secret:basic"
				}
				found(owner, via, 0)
				return
			}
		}
	}
	owner, secret := s.ownerIn(auth)
	found(owner, secretVia(secret, "authorization"), 0)
}

// secretVia is via marked as a client secret's when secret holds.
func secretVia(secret bool, via string) string {
	if secret {
		return "secret:" + via
	}
	return via
}

// first returns the first of vals, or "".
func first(vals []string) string {
	if len(vals) > 0 {
		return vals[0]
	}
	return ""
}
