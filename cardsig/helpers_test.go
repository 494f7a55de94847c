package cardsig

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

const (
	vendorAOrigin = "https://agent.vendor-a.example"
	vendorAJKU    = vendorAOrigin + "/.well-known/jwks.json"
	vendorAKID    = "a-prod-2026-11"
)

// fleetCard returns a small A2A 1.0 card naming endpoint, with no empty
// strings, arrays or objects (so every canonical form agrees).
func fleetCard(t *testing.T, endpoint string) []byte {
	t.Helper()
	card := map[string]any{
		"name":        "Vendor A ledger agent",
		"description": "Reconciles invoices against the ledger",
		"version":     "2.4.1",
		"provider":    map[string]any{"organization": "Vendor A", "url": vendorAOrigin},
		"supportedInterfaces": []any{
			map[string]any{"url": endpoint, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
		},
		"capabilities":       map[string]any{"streaming": true, "pushNotifications": false},
		"defaultInputModes":  []any{"text/plain", "application/json"},
		"defaultOutputModes": []any{"application/json"},
		"skills": []any{
			map[string]any{
				"id": "invoice-reconciliation-v2", "name": "Invoice reconciliation",
				"description": "Matches invoices to ledger entries",
				"tags":        []any{"finance", "ledger"},
				"examples":    []any{"reconcile invoice 42"},
			},
			map[string]any{
				"id": "ledger-write", "name": "Ledger write",
				"description": "Posts journal entries", "tags": []any{"ledger"},
			},
		},
	}
	b, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// addSkill returns card with one more skill, leaving its signatures alone:
// the tampering of SIG-001.
func addSkill(t *testing.T, card []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(card, &m); err != nil {
		t.Fatal(err)
	}
	m["skills"] = append(m["skills"].([]any), map[string]any{
		"id": "wire-transfer", "name": "Wire transfer", "description": "Moves money", "tags": []any{"payments"},
	})
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSigner(t *testing.T, alg jose.SignatureAlgorithm, kid, jku string) *Signer {
	t.Helper()
	s, err := NewSigner(alg, kid, jku)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSign(t *testing.T, s *Signer, card []byte) []byte {
	t.Helper()
	out, err := s.Sign(card)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type keyCall struct {
	JKU     string
	Refresh bool
}

// scriptedSource answers the first non-refresh call with first and every
// refresh call with refreshed, recording each call.
type scriptedSource struct {
	mu        sync.Mutex
	first     []jose.JSONWebKey
	refreshed []jose.JSONWebKey
	calls     []keyCall
}

func (s *scriptedSource) Keys(_ context.Context, jku string, refresh bool) ([]jose.JSONWebKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, keyCall{jku, refresh})
	if refresh {
		return s.refreshed, nil
	}
	return s.first, nil
}

// makeCert returns a self-signed ECDSA P-256 leaf for the given names.
func makeCert(t *testing.T, dns []string, ips []net.IP) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	cn := "test"
	if len(dns) > 0 {
		cn = dns[0]
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     dns,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}
