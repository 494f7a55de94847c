package credentials

import (
	"bytes"
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

// OwnerOf returns the id of the vendor that issued value, or Unknown.
func (s *Issued) OwnerOf(value string) string {
	for _, is := range s.issuers {
		if value == is.value {
			return is.vendor
		}
	}
	return Unknown
}

// OwnerIn returns the id of the vendor whose credential text holds (a
// cookie or a header value may wrap it), or Unknown. Issued values are
// long and random, so holding one is no accident.
func (s *Issued) OwnerIn(text string) string {
	for _, is := range s.issuers {
		if strings.Contains(text, is.value) {
			return is.vendor
		}
	}
	return Unknown
}

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
		if bytes.Contains(b, []byte(is.value)) {
			return true
		}
	}
	return false
}

// Redact cuts every issued credential out of text, each replaced by a mark
// naming whose it was ("(credential of d, redacted)"), and returns the ids
// of the vendors whose credential text held (none: text is returned as it
// was).
func (s *Issued) Redact(text string) (string, []string) {
	var owners []string
	for _, is := range s.issuers {
		if !strings.Contains(text, is.value) {
			continue
		}
		text = strings.ReplaceAll(text, is.value, "(credential of "+is.vendor+", redacted)")
		owners = append(owners, is.vendor)
	}
	return text, owners
}

// Scan finds the credentials r presents and tells found of each, by
// owner (a vendor id, or Unknown) and how it came (via):
//   - the Authorization header, whatever it holds: "bearer" for the Bearer
//     scheme (owned by whoever issued the token exactly), else
//     "authorization" (owned by whoever's credential it holds anywhere);
//
// and, once the fleet issued any credential:
//   - "header:<Name>": any other header holding an issued credential, and
//     any header a vendor takes an API key in, whatever it holds;
//   - "query:<name>": any URL query parameter holding an issued
//     credential.
//
// found may hear the same presentation twice, and hears the headers and
// query parameters in no set order.
func (s *Issued) Scan(r *http.Request, found func(owner, via string)) {
	if auth := strings.TrimSpace(first(r.Header["Authorization"])); auth != "" {
		scheme, rest, _ := strings.Cut(auth, " ")
		switch owner := s.OwnerOf(strings.TrimSpace(rest)); {
		case strings.EqualFold(scheme, "bearer"):
			found(owner, "bearer")
		default:
			if whole := s.OwnerIn(auth); whole != Unknown {
				owner = whole
			}
			found(owner, "authorization")
		}
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
			if owner := s.OwnerIn(val); owner != Unknown || s.APIKeyHeader(k) {
				found(owner, "header:"+k)
			}
		}
	}
	if r.URL.RawQuery != "" {
		for k, vals := range r.URL.Query() {
			for _, val := range vals {
				if owner := s.OwnerIn(val); owner != Unknown {
					found(owner, "query:"+k)
				}
			}
		}
	}
}

// first returns the first of vals, or "".
func first(vals []string) string {
	if len(vals) > 0 {
		return vals[0]
	}
	return ""
}
