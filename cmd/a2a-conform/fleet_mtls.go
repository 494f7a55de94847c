package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

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

// Names of the client CA and the client certificate the certs command
// writes.
const (
	clientCAFile   = "client-ca"
	clientCertBase = "client"
)

// loadClientCADir reads the client CA of a certs directory
// (client-ca.pem, client-ca-key.pem), nil when the directory has none.
func loadClientCADir(dir string) (*mockvendor.CA, error) {
	cert, err := os.ReadFile(filepath.Join(dir, clientCAFile+".pem"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key, err := os.ReadFile(filepath.Join(dir, clientCAFile+"-key.pem"))
	if err != nil {
		return nil, err
	}
	return mockvendor.LoadCA(cert, key)
}

// writeClientFixtures writes the certs command's client CA (valid for
// validity) and a client certificate from it (valid for leafValidity) to
// out, and returns the README rows that describe them.
func writeClientFixtures(out string, validity, leafValidity time.Duration) (string, error) {
	ca, err := mockvendor.NewClientCAValidFor(validity)
	if err != nil {
		return "", err
	}
	caKey, err := ca.TestKeyPEM()
	if err != nil {
		return "", err
	}
	c, err := ca.IssueClient("a2a-conform test fleet", "a2a-conform test client", leafValidity)
	if err != nil {
		return "", err
	}
	key, err := mockvendor.TestKeyPEM(c.PrivateKey)
	if err != nil {
		return "", err
	}
	for _, f := range []struct {
		name string
		data []byte
		perm os.FileMode
	}{
		{clientCAFile + ".pem", ca.CertPEM(), 0o644}, {clientCAFile + "-key.pem", caKey, 0o600},
		{clientCertBase + ".pem", pemCert(c.Certificate[0]), 0o644}, {clientCertBase + "-key.pem", key, 0o600},
	} {
		if err := writeFile(out, f.name, f.data, f.perm); err != nil {
			return "", err
		}
	}
	return "| `client-ca.pem`, `client-ca-key.pem` | the client CA (mutual TLS), apart from the host CA: `fleet up --ca` loads it too, and the fleet's mutual TLS vendors issue their client certificates from it; its key, TEST KEY |\n" +
		"| `client.pem`, `client-key.pem` | a client certificate (clientAuth only, no SAN) signed by the client CA, for tools that need one without a fleet; and its key |\n", nil
}
