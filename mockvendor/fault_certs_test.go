package mockvendor

import (
	"crypto/x509"
	"errors"
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("wrong-san", tFaultWrongSAN)
	tAddFaultCase("self-signed", tFaultSelfSigned)
}

// tFaultWrongSAN is the wrong-san case of TestFaults.
func tFaultWrongSAN(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("wrong-san", nil))
	tCheckBadCert(t, e, []string{"wrong-host.example"}, true)
	e.remove(t, id)
	e.add(t, "x", Spec("wrong-san", WrongSAN{SANs: []string{"a.example", "b.example"}}))
	tCheckBadCert(t, e, []string{"a.example", "b.example"}, true)
}

// tFaultSelfSigned is the self-signed case of TestFaults.
func tFaultSelfSigned(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("self-signed", nil))
	tCheckBadCert(t, e, []string{tHostX}, false)
}

// tCheckBadCert checks that vendor x's host presents a certificate with
// the given DNS names that does not verify for its name, that a request
// on a new connection fails, and that vendor s is unaffected.
func tCheckBadCert(t *testing.T, e *tFaultEnv, dns []string, caSigned bool) {
	t.Helper()
	leaf, err := tPresented(t, e.f, e.route, tHostX+":443", tHostX)
	if err == nil {
		t.Errorf("%s certificate verifies", tHostX)
	}
	if !slices.Equal(leaf.DNSNames, dns) {
		t.Errorf("DNSNames %v, want %v", leaf.DNSNames, dns)
	}
	if signed := leaf.CheckSignatureFrom(e.f.CA().Cert) == nil; signed != caSigned {
		t.Errorf("signed by the fleet CA: %v, want %v", signed, caSigned)
	}
	var uae x509.UnknownAuthorityError
	var hne x509.HostnameError
	if caSigned && !errors.As(err, &hne) || !caSigned && !errors.As(err, &uae) {
		t.Errorf("verification error %T %v", err, err)
	}
	if _, err := e.fresh(t).Get("https://" + tHostX + CardPath); err == nil {
		t.Error("a new client reached the host")
	}
	if _, err := tPresented(t, e.f, e.route, tHostS+":443", tHostS); err != nil {
		t.Errorf("other vendor's certificate: %v", err)
	}
}
