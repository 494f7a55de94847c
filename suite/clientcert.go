package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// handOutClientCerts puts the client certificates of the named vendors in
// the request (trust.clientCertificates: files the fleet writes, removed
// when it closes), keyed by the origins of the vendor's hosts that ask
// for them, and records those hosts among the vendor's credential hosts
// (Run.CredentialHosts), where G-CREDENTIAL-SCOPE holds it.
func handOutClientCerts(req *contract.DelegationRequest, vendors []string, f *mockvendor.Fleet, run *scenarios.Run) error {
	for _, id := range vendors {
		c, ok := f.ClientCertificate(id)
		if !ok {
			return fmt.Errorf("the scenario hands out vendor %s's client certificate, which the fleet did not issue", id)
		}
		certFile, keyFile, err := f.WriteClientCertFiles(id)
		if err != nil {
			return fmt.Errorf("writing vendor %s's client certificate: %w", id, err)
		}
		if req.Trust.ClientCertificates == nil {
			req.Trust.ClientCertificates = map[string]contract.ClientCertificate{}
		}
		if run.CredentialHosts == nil {
			run.CredentialHosts = map[string][]string{}
		}
		for _, o := range c.Origins {
			origin := contract.OriginOf(o)
			req.Trust.ClientCertificates[origin] = contract.ClientCertificate{CertFile: certFile, KeyFile: keyFile}
			host := strings.TrimPrefix(origin, "https://")
			if !slices.Contains(run.CredentialHosts[id], host) {
				run.CredentialHosts[id] = append(run.CredentialHosts[id], host)
			}
		}
	}
	return req.Trust.Validate()
}
