package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// clientCertFiles is a client certificate a vendor of the fleet issued,
// as fleet up writes it: the files and the origins that ask for it.
type clientCertFiles struct {
	Vendor   string   `json:"vendor"`
	CertFile string   `json:"certFile"`
	KeyFile  string   `json:"keyFile"`
	Origins  []string `json:"origins"`
}

// writeClientCerts writes the client certificates the fleet's vendors
// issued (mutual TLS) to files, prints where, and returns them.
func writeClientCerts(f *mockvendor.Fleet, stdout io.Writer) ([]clientCertFiles, error) {
	var out []clientCertFiles
	for _, v := range f.Vendors() {
		c, ok := f.ClientCertificate(v.ID())
		if !ok {
			continue
		}
		certFile, keyFile, err := f.WriteClientCertFiles(v.ID())
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, "client certificate: vendor %s, at %s: --cert %s --key %s\n", v.ID(), strings.Join(c.Origins, ", "), certFile, keyFile)
		out = append(out, clientCertFiles{Vendor: v.ID(), CertFile: certFile, KeyFile: keyFile, Origins: c.Origins})
	}
	return out, nil
}
