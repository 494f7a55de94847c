package cardsig

import (
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Mode is the trust a client may place in a card when delegating to its
// endpoint (the three modes of seed 003).
type Mode string

// Trust modes.
const (
	// ModeFull: the card's signer operates the endpoint; its declared
	// capabilities and security schemes can be relied on.
	ModeFull Mode = "full"
	// ModeReduced: the card verified, but someone else operates the
	// endpoint; the card is only a capability advertisement.
	ModeReduced Mode = "reduced"
	// ModeUnpinned: the signer could not be tied to anything (unsigned,
	// unverifiable, unknown signer, or unverifiable transport identity).
	ModeUnpinned Mode = "unpinned"
)

// Reason words from the driver contract used by Bind.
const (
	ReasonOK                     = "ok"
	ReasonUnsignedCard           = "unsigned-card"
	ReasonSignatureInvalid       = "signature-invalid"
	ReasonKeyUnknown             = "key-unknown"
	ReasonKeyAmbiguous           = "key-ambiguous"
	ReasonTLSSANMismatch         = "tls-san-mismatch"
	ReasonSignerEndpointMismatch = "signer-endpoint-mismatch"
	ReasonOther                  = "other"
)

// Issuer is what a trust policy knows about one signer.
type Issuer struct {
	// Operators are the host names whose endpoints the signer runs. Matching
	// is exact and case-insensitive; there are no wildcards.
	Operators []string
}

// TrustPolicy maps a signer's origin (as in Verified.Issuer, e.g.
// "https://agent.vendor-a.example") to what is trusted about it.
type TrustPolicy map[string]Issuer

// Binding is Bind's decision.
type Binding struct {
	Mode   Mode
	Reason string // a driver-contract reason word
	Detail string // for humans
}

// Bind decides how far a verified card may be trusted for the endpoint the
// client is about to call, following seed 003: a valid signature says the
// card is authentic, not that its signer runs the endpoint, so the signer
// has to be tied to the endpoint's transport identity. v and verr are
// Verify's results; peer is the leaf certificate the endpoint presented in a
// TLS handshake whose chain the caller has already verified (Bind checks
// only that the certificate names the host). The rules, first match wins:
//
//  1. No usable signature (verr set, or v nil) gives unpinned with the
//     verification reason: seed 003's "Condition of Validity" needs a
//     present signature with a kid that is unique in the signer's key set
//     before any pinning is meaningful. alg-rejected is reported as
//     signature-invalid.
//  2. An endpoint that is not https, whose host is an IP literal, that
//     presented no certificate, or whose certificate does not cover the
//     host gives unpinned, tls-san-mismatch: the same section requires a
//     transport identity (a SAN) that can be compared with the signer, and
//     names a bare IP with a self-signed certificate as the case where it
//     cannot.
//  3. A signer missing from the policy gives unpinned, other ("signer not
//     in trust policy"): the third condition is a policy that maps the
//     signer to execution authority.
//  4. An endpoint host listed among the signer's operators (and covered by
//     the certificate, checked in rule 2) gives full, ok: this is the
//     "signer is the operator" branch of seed 003's "Decision Boundary".
//  5. Otherwise reduced, signer-endpoint-mismatch: the "signer differs from
//     operator" branch, where the card is only a capability advertisement
//     and the endpoint's own rules apply (the reseller gateway of "What Was
//     Observed"). A caller may refuse to delegate instead.
func Bind(v *Verified, verr error, policy TrustPolicy, endpointURL string, peer *x509.Certificate) Binding {
	// Rule 1.
	if verr != nil || v == nil {
		reason := ReasonOther
		switch ClassOf(verr) {
		case ClassUnsigned:
			reason = ReasonUnsignedCard
		case ClassSignatureInvalid, ClassAlgRejected:
			reason = ReasonSignatureInvalid
		case ClassKeyUnknown:
			reason = ReasonKeyUnknown
		case ClassKeyAmbiguous:
			reason = ReasonKeyAmbiguous
		}
		if verr == nil {
			reason = ReasonUnsignedCard
			verr = ErrUnsigned
		}
		return Binding{Mode: ModeUnpinned, Reason: reason, Detail: verr.Error()}
	}

	// Rule 2.
	u, err := url.Parse(endpointURL)
	if err != nil || u.Hostname() == "" {
		return Binding{Mode: ModeUnpinned, Reason: ReasonOther, Detail: fmt.Sprintf("endpoint url %q is not usable", endpointURL)}
	}
	host := normHost(u.Hostname())
	switch {
	case !strings.EqualFold(u.Scheme, "https"):
		return Binding{Mode: ModeUnpinned, Reason: ReasonTLSSANMismatch, Detail: "endpoint is not https, so it has no tls identity"}
	case net.ParseIP(host) != nil:
		return Binding{Mode: ModeUnpinned, Reason: ReasonTLSSANMismatch, Detail: "endpoint host " + host + " is an ip literal"}
	case peer == nil:
		return Binding{Mode: ModeUnpinned, Reason: ReasonTLSSANMismatch, Detail: "no peer certificate for " + host}
	}
	if err := peer.VerifyHostname(host); err != nil {
		return Binding{Mode: ModeUnpinned, Reason: ReasonTLSSANMismatch, Detail: err.Error()}
	}

	// Rule 3.
	iss, ok := lookupIssuer(policy, v.Issuer)
	if !ok {
		return Binding{Mode: ModeUnpinned, Reason: ReasonOther, Detail: "signer not in trust policy"}
	}

	// Rules 4 and 5.
	for _, op := range iss.Operators {
		if normHost(op) == host {
			return Binding{Mode: ModeFull, Reason: ReasonOK,
				Detail: fmt.Sprintf("signer %s (kid %s) operates %s", v.Issuer, v.KID, host)}
		}
	}
	return Binding{Mode: ModeReduced, Reason: ReasonSignerEndpointMismatch,
		Detail: fmt.Sprintf("signer %s (kid %s) does not operate %s", v.Issuer, v.KID, host)}
}

// lookupIssuer finds the policy entry for an issuer origin, comparing
// normalized origins and merging entries that normalize alike.
func lookupIssuer(policy TrustPolicy, issuer string) (Issuer, bool) {
	if issuer == "" {
		return Issuer{}, false
	}
	var merged Issuer
	found := false
	for k, iss := range policy {
		if origin(k) == issuer {
			found = true
			merged.Operators = append(merged.Operators, iss.Operators...)
		}
	}
	return merged, found
}

// normHost lower-cases a host name and drops a trailing dot.
func normHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}
