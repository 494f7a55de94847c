package suite

import (
	"os"
	"slices"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// TestHandOutClientCerts: the request names the vendor's files under the
// origins that ask, the run counts those hosts as the vendor's, and a
// vendor without a certificate is a harness error.
func TestHandOutClientCerts(t *testing.T) {
	d := mockvendor.VendorD()
	d.MTLS = &mockvendor.MTLSConfig{}
	f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{d, mockvendor.VendorC()}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var req contract.DelegationRequest
	run := &scenarios.Run{}
	if err := handOutClientCerts(&req, []string{"d"}, f, run); err != nil {
		t.Fatal(err)
	}
	cc, ok := req.Trust.ClientCertificates["https://"+mockvendor.HostRPCD]
	if !ok || len(req.Trust.ClientCertificates) != 1 {
		t.Fatalf("handed out %v", req.Trust.ClientCertificates)
	}
	for _, p := range []string{cc.CertFile, cc.KeyFile} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if !slices.Equal(run.CredentialHosts["d"], []string{mockvendor.HostRPCD}) {
		t.Errorf("credential hosts %v", run.CredentialHosts)
	}
	if err := handOutClientCerts(&req, []string{"c"}, f, run); err == nil {
		t.Error("C issued no certificate, and handing it out did not fail")
	}
}
