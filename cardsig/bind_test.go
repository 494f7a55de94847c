package cardsig

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

func TestBind(t *testing.T) {
	ctx := context.Background()
	a := mustSigner(t, jose.ES256, vendorAKID, vendorAJKU)
	twin := mustSigner(t, jose.ES256, vendorAKID, vendorAJKU)
	policy := TrustPolicy{vendorAOrigin: {Operators: []string{"agent.vendor-a.example"}}}
	keysA := StaticKeys{vendorAJKU: {a.PublicJWK()}}

	gatewayURL := "https://gateway.vendor-b.example/a2a"
	ownURL := "https://agent.vendor-a.example/a2a"
	ipURL := "https://127.0.0.1:8443/a2a"
	gatewayCert := makeCert(t, []string{"gateway.vendor-b.example"}, nil)
	ownCert := makeCert(t, []string{"agent.vendor-a.example"}, nil)
	ipCert := makeCert(t, nil, []net.IP{net.ParseIP("127.0.0.1")})

	type result struct {
		v   *Verified
		err error
	}
	run := func(card []byte, src KeySource) result {
		v, err := Verify(ctx, card, src)
		return result{v, err}
	}

	tests := []struct {
		name     string
		res      result
		policy   TrustPolicy
		endpoint string
		cert     *x509.Certificate
		mode     Mode
		reason   string
	}{
		{
			name:   "BIND-001 reseller gateway: signed by A, served by B",
			res:    run(mustSign(t, a, fleetCard(t, gatewayURL)), keysA),
			policy: policy, endpoint: gatewayURL, cert: gatewayCert,
			mode: ModeReduced, reason: "signer-endpoint-mismatch",
		},
		{
			name:   "BIND-002 same operator",
			res:    run(mustSign(t, a, fleetCard(t, ownURL)), keysA),
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeFull, reason: "ok",
		},
		{
			name:   "BIND-003 unsigned card",
			res:    run(fleetCard(t, ownURL), keysA),
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "unsigned-card",
		},
		{
			name:   "BIND-004 bare ip, self-signed",
			res:    run(mustSign(t, a, fleetCard(t, ipURL)), keysA),
			policy: policy, endpoint: ipURL, cert: ipCert,
			mode: ModeUnpinned, reason: "tls-san-mismatch",
		},
		{
			name:   "BIND-005 ambiguous kid",
			res:    run(mustSign(t, a, fleetCard(t, ownURL)), StaticKeys{vendorAJKU: {a.PublicJWK(), twin.PublicJWK()}}),
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "key-ambiguous",
		},
		{
			name:   "tampered card",
			res:    run(addSkill(t, mustSign(t, a, fleetCard(t, ownURL))), keysA),
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "signature-invalid",
		},
		{
			name:   "alg none reported as signature-invalid",
			res:    result{nil, &Error{Class: ClassAlgRejected, Err: errors.New("alg none")}},
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "signature-invalid",
		},
		{
			name:   "unknown kid",
			res:    run(mustSign(t, a, fleetCard(t, ownURL)), StaticKeys{}),
			policy: policy, endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "key-unknown",
		},
		{
			name:   "certificate does not cover the endpoint host",
			res:    run(mustSign(t, a, fleetCard(t, ownURL)), keysA),
			policy: policy, endpoint: ownURL, cert: gatewayCert,
			mode: ModeUnpinned, reason: "tls-san-mismatch",
		},
		{
			name:   "no peer certificate",
			res:    run(mustSign(t, a, fleetCard(t, ownURL)), keysA),
			policy: policy, endpoint: ownURL, cert: nil,
			mode: ModeUnpinned, reason: "tls-san-mismatch",
		},
		{
			name:     "signer not in trust policy",
			res:      run(mustSign(t, a, fleetCard(t, ownURL)), keysA),
			policy:   TrustPolicy{"https://agent.vendor-c.example": {Operators: []string{"agent.vendor-a.example"}}},
			endpoint: ownURL, cert: ownCert,
			mode: ModeUnpinned, reason: "other",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := Bind(tc.res.v, tc.res.err, tc.policy, tc.endpoint, tc.cert)
			if b.Mode != tc.mode || b.Reason != tc.reason {
				t.Errorf("Bind = %+v, want %s/%s", b, tc.mode, tc.reason)
			}
			if b.Detail == "" {
				t.Error("empty detail")
			}
			if tc.reason == "other" && b.Detail != "signer not in trust policy" {
				t.Errorf("detail %q", b.Detail)
			}
		})
	}
}
