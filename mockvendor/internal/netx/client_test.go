package netx

import (
	"crypto/x509"
	"testing"
	"time"
)

func TestClientCA(t *testing.T) {
	if _, err := NewClientCAValidFor(0); err == nil {
		t.Error("a client CA valid for no time was made")
	}
	ca, err := NewClientCAValidFor(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ca.IssueClient("Vendor D", "caller", 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Leaf.NotAfter.Equal(ca.Cert.NotAfter) {
		t.Errorf("the certificate outlives its CA: %s > %s", c.Leaf.NotAfter, ca.Cert.NotAfter)
	}
	if len(c.Leaf.DNSNames)+len(c.Leaf.IPAddresses) != 0 || c.Leaf.Subject.CommonName != "caller" {
		t.Errorf("subject %v, SANs %v %v", c.Leaf.Subject, c.Leaf.DNSNames, c.Leaf.IPAddresses)
	}
	roots := ca.Pool()
	if _, err := c.Leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("not a client certificate of the CA: %v", err)
	}
	if _, err := c.Leaf.Verify(x509.VerifyOptions{Roots: roots}); err == nil {
		t.Error("the client certificate verifies as a server certificate")
	}
}
