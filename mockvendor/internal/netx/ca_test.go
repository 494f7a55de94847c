package netx

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"
)

// TestCAIssue: a leaf verifies against the CA's pool for exactly its SANs
// (DNS names and IP literals); a self-signed one verifies for none; a
// validity past the CA's own is cut to it.
func TestCAIssue(t *testing.T) {
	ca, err := NewCAValidFor(2 * time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Issue("agent-b.example", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	self, err := SelfSigned("agent-b.example")
	if err != nil {
		t.Fatal(err)
	}
	long, err := ca.IssueValidFor(48*time.Hour, "agent-b.example")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cert *x509.Certificate
		host string
		ok   bool
	}{
		{"leaf, DNS SAN", leaf.Leaf, "agent-b.example", true},
		{"leaf, IP SAN", leaf.Leaf, "127.0.0.1", true},
		{"leaf, other name", leaf.Leaf, "agent-c.example", false},
		{"self-signed", self.Leaf, "agent-b.example", false},
		{"long leaf", long.Leaf, "agent-b.example", true},
	}
	for _, tc := range cases {
		_, err := tc.cert.Verify(x509.VerifyOptions{DNSName: tc.host, Roots: ca.Pool()})
		if (err == nil) != tc.ok {
			t.Errorf("%s for %s: verify error %v, want ok=%v", tc.name, tc.host, err, tc.ok)
		}
	}
	if !long.Leaf.NotAfter.Equal(ca.Cert.NotAfter) {
		t.Errorf("a leaf for 48 h from a 2 h CA ends %v, want the CA's end %v", long.Leaf.NotAfter, ca.Cert.NotAfter)
	}
	if _, err := NewCAValidFor(0); err == nil {
		t.Error("NewCAValidFor(0) made a CA")
	}
}

// TestLoadCA: LoadCA reads what CertPEM and TestKeyPEM write (the notice
// line before BEGIN), and a SEC 1 key; it refuses a leaf, a missing
// certificate and a missing key.
func TestLoadCA(t *testing.T) {
	ca, err := NewCA()
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err := ca.TestKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(keyPEM), TestKeyNotice+"\n-----BEGIN PRIVATE KEY-----") {
		t.Errorf("TestKeyPEM starts %.60q, want the notice line then the key", keyPEM)
	}
	der, err := x509.MarshalECPrivateKey(ca.key.(*ecdsa.PrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	sec1 := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	leaf, _ := ca.Issue("x.example")
	leafPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Certificate[0]})
	cases := []struct {
		name      string
		cert, key []byte
		ok        bool
	}{
		{"test-key form", ca.CertPEM(), keyPEM, true},
		{"SEC 1 key after another block", ca.CertPEM(), append(leafPEM, sec1...), true},
		{"leaf certificate", leafPEM, keyPEM, false},
		{"no certificate", []byte("nothing"), keyPEM, false},
		{"no key", ca.CertPEM(), leafPEM, false},
	}
	for _, tc := range cases {
		got, err := LoadCA(tc.cert, tc.key)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok=%v", tc.name, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		if c, err := got.Issue("y.example"); err != nil {
			t.Errorf("%s: the loaded CA does not issue: %v", tc.name, err)
		} else if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: "y.example", Roots: ca.Pool()}); err != nil {
			t.Errorf("%s: a leaf of the loaded CA does not verify: %v", tc.name, err)
		}
	}
}
