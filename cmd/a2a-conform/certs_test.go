package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// committedCerts is fixtures/certs seen from this package's directory.
var committedCerts = filepath.Join("..", "..", "fixtures", "certs")

// fleetHostSANs maps each host of the default fleet to its certificate SANs.
func fleetHostSANs() map[string][]string {
	out := map[string][]string{}
	for _, v := range mockvendor.DefaultConfig().Vendors {
		for _, h := range v.Hosts {
			sans := mockvendor.HostSANs(h)
			out[sans[0]] = sans
		}
	}
	return out
}

func runCerts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"certs", "--out", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("certs: %v\nstderr: %s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "wrote CA") {
		t.Errorf("certs stdout = %q", stdout.String())
	}
	return dir
}

func TestCertsCommandNeedsOut(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"certs"}, &stdout, &stderr)
	if _, ok := err.(*usageError); !ok {
		t.Fatalf("certs without --out: err = %v, want a usage error", err)
	}
}

func TestCertsCommand(t *testing.T) {
	dir := runCerts(t)
	ca := checkCertDir(t, dir)
	// A fresh CA lasts about ten years, not a run's 24 hours.
	if life := time.Until(ca.Cert.NotAfter); life < 9*365*24*time.Hour {
		t.Errorf("CA valid for %v, want about 10 years", life)
	}
	if ca.Cert.PublicKeyAlgorithm != x509.ECDSA {
		t.Errorf("CA key algorithm %v, want ECDSA", ca.Cert.PublicKeyAlgorithm)
	}
	// LoadCA reads the form CA.TestKeyPEM writes (notice line before BEGIN).
	keyPEM, err := ca.TestKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mockvendor.LoadCA(ca.CertPEM(), keyPEM); err != nil {
		t.Errorf("LoadCA of the test-key form: %v", err)
	}
}

func TestCertsCommittedFixtures(t *testing.T) {
	ca := checkCertDir(t, committedCerts)
	if left := time.Until(ca.Cert.NotAfter); left < 90*24*time.Hour {
		t.Errorf("fixtures/certs CA expires %s; regenerate: go run ./cmd/a2a-conform certs --out fixtures/certs", ca.Cert.NotAfter)
	}
	leaves, _ := filepath.Glob(filepath.Join(committedCerts, "*.pem"))
	for _, f := range leaves {
		if strings.HasSuffix(f, "-key.pem") || filepath.Base(f) == "ca.pem" || filepath.Base(f) == clientCAFile+".pem" {
			continue
		}
		b, _ := os.ReadFile(f)
		blk, _ := pem.Decode(b)
		if blk == nil {
			t.Errorf("%s holds no PEM block", f)
			continue
		}
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if life := c.NotAfter.Sub(c.NotBefore); life > 825*24*time.Hour {
			t.Errorf("%s is valid for %v, over the 825 days Apple's TLS accepts", f, life)
		}
		if left := time.Until(c.NotAfter); left < 90*24*time.Hour {
			t.Errorf("%s expires %s; regenerate: go run ./cmd/a2a-conform certs --out fixtures/certs", f, c.NotAfter)
		}
	}
}

// checkCertDir checks what the certs command writes: a CA LoadCA reads, a
// leaf per default-fleet host valid for exactly its names, a CA-signed
// wrong-SAN leaf and a self-signed one the CA does not vouch for.
func checkCertDir(t *testing.T, dir string) *mockvendor.CA {
	t.Helper()
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ca, caPath, err := loadCADir(dir)
	if err != nil {
		t.Fatalf("loadCADir(%s): %v", dir, err)
	}
	if _, err := mockvendor.LoadCA(read("ca.pem"), read("ca-key.pem")); err != nil {
		t.Fatalf("LoadCA: %v", err)
	}
	if filepath.Base(caPath) != "ca.pem" {
		t.Errorf("CA path %s", caPath)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(read("ca.pem")) {
		t.Fatal("ca.pem holds no certificate")
	}

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "-key.pem") {
			checkTestKey(t, e.Name(), read(e.Name()))
		}
	}

	leaf := func(base string) *x509.Certificate {
		t.Helper()
		pair, err := tls.X509KeyPair(read(base+".pem"), read(base+"-key.pem"))
		if err != nil {
			t.Fatalf("%s: certificate and key do not pair: %v", base, err)
		}
		return pair.Leaf
	}
	verify := func(c *x509.Certificate, name string) error {
		_, err := c.Verify(x509.VerifyOptions{Roots: pool, DNSName: name, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		return err
	}
	hosts := fleetHostSANs()
	if len(hosts) != 7 {
		t.Errorf("default fleet has %d hosts, want 7", len(hosts))
	}
	others := append(slices.Sorted(maps.Keys(hosts)), "wrong-host.example", "127.0.0.1")
	for host, sans := range hosts {
		c := leaf(host)
		got := append(append([]string(nil), c.DNSNames...), ipStrings(c.IPAddresses)...)
		if !slices.Equal(got, sans) {
			t.Errorf("%s: SANs %v, want exactly %v", host, got, sans)
		}
		if err := verify(c, host); err != nil {
			t.Errorf("%s: does not verify against the CA for its own name: %v", host, err)
		}
		for _, o := range others {
			if o != host && verify(c, o) == nil {
				t.Errorf("%s: verifies for %s too", host, o)
			}
		}
	}
	ws := leaf("wrong-san")
	if err := verify(ws, "wrong-host.example"); err != nil {
		t.Errorf("wrong-san: not a CA-signed certificate for wrong-host.example: %v", err)
	}
	for host := range hosts {
		if verify(ws, host) == nil {
			t.Errorf("wrong-san: verifies for fleet host %s", host)
		}
	}
	ss := leaf("self-signed")
	if !slices.Equal(ipStrings(ss.IPAddresses), []string{"127.0.0.1"}) || len(ss.DNSNames) != 0 {
		t.Errorf("self-signed: SANs %v %v, want exactly 127.0.0.1", ss.DNSNames, ss.IPAddresses)
	}
	if _, err := ss.Verify(x509.VerifyOptions{Roots: pool}); err == nil {
		t.Error("self-signed: verifies against the CA")
	}
	if err := verify(ss, "127.0.0.1"); err == nil {
		t.Error("self-signed: verifies against the CA for 127.0.0.1")
	}

	readme := string(read("README.md"))
	for _, want := range []string{"go run ./cmd/a2a-conform certs --out fixtures/certs", "a2a-conform fleet up --ca fixtures/certs", "wrong-san.pem", "self-signed-key.pem", mockvendor.TestKeyNotice} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not mention %q", want)
		}
	}
	return ca
}

// checkTestKey checks a key file starts with the test-key notice and still
// decodes as one PEM private key block.
func checkTestKey(t *testing.T, name string, b []byte) {
	t.Helper()
	first, _, _ := strings.Cut(string(b), "\n")
	if first != mockvendor.TestKeyNotice {
		t.Errorf("%s: first line %q, want the test-key notice %q", name, first, mockvendor.TestKeyNotice)
	}
	blk, rest := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		t.Fatalf("%s: pem.Decode finds no PRIVATE KEY block", name)
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		t.Errorf("%s: trailing data after the key block", name)
	}
	if _, err := x509.ParsePKCS8PrivateKey(blk.Bytes); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func ipStrings(ips []net.IP) []string {
	var out []string
	for _, ip := range ips {
		out = append(out, ip.String())
	}
	return out
}

// TestCertsFleetServesCA starts the default fleet with the CA of a fresh
// certs run and with the committed fixtures/certs CA; a client that trusts
// only that ca.pem file must accept every host.
func TestCertsFleetServesCA(t *testing.T) {
	for _, tc := range []struct{ name, dir string }{
		{"fresh", runCerts(t)},
		{"committed", committedCerts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ca, caPath, err := loadCADir(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			f, err := mockvendor.NewFleet(mockvendor.Config{CA: ca, Vendors: mockvendor.DefaultConfig().Vendors})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			caPEM, err := os.ReadFile(caPath)
			if err != nil {
				t.Fatal(err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(caPEM) {
				t.Fatal("no certificate in ca.pem")
			}
			client := proxiedClient(t, f.ProxyURL(), pool)
			defer client.CloseIdleConnections()
			for host := range fleetHostSANs() {
				resp, err := client.Get("https://" + host + mockvendor.CardPath)
				if err != nil {
					t.Errorf("%s: a client trusting only %s refused the fleet: %v", host, caPath, err)
					continue
				}
				resp.Body.Close()
				chains := resp.TLS.VerifiedChains
				if len(chains) == 0 || !chains[0][len(chains[0])-1].Equal(ca.Cert) {
					t.Errorf("%s: chain does not end at the CA", host)
				}
				if got := chains[0][0].DNSNames; !slices.Equal(got, []string{host}) {
					t.Errorf("%s: served certificate names %v", host, got)
				}
			}
			// Control: the same request trusting another CA fails.
			other, err := mockvendor.NewCA()
			if err != nil {
				t.Fatal(err)
			}
			oc := proxiedClient(t, f.ProxyURL(), other.Pool())
			defer oc.CloseIdleConnections()
			if resp, err := oc.Get("https://" + mockvendor.HostCardD + mockvendor.CardPath); err == nil {
				resp.Body.Close()
				t.Error("a client trusting another CA accepted the fleet")
			}
		})
	}
}

// proxiedClient reaches the fleet's hosts through its CONNECT proxy at
// proxyURL, trusting roots.
func proxiedClient(t *testing.T, proxyURL string, roots *x509.CertPool) *http.Client {
	t.Helper()
	pu, err := url.Parse(proxyURL)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			Proxy:           http.ProxyURL(pu),
			TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		},
	}
}

// TestCertsClientFixtures: the certs command and the committed fixtures
// hold a client CA, apart from the host CA, and a client certificate it
// signed for client authentication only.
func TestCertsClientFixtures(t *testing.T) {
	for _, dir := range []string{runCerts(t), committedCerts} {
		ca, err := loadClientCADir(dir)
		if err != nil || ca == nil {
			t.Fatalf("%s: client CA %v %v", dir, ca, err)
		}
		pair, err := tls.LoadX509KeyPair(filepath.Join(dir, clientCertBase+".pem"), filepath.Join(dir, clientCertBase+"-key.pem"))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		leaf, err := x509.ParseCertificate(pair.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
			t.Errorf("%s: the client certificate does not verify for client auth: %v", dir, err)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err == nil {
			t.Errorf("%s: the client certificate verifies as a server certificate", dir)
		}
		host, _, err := loadCADir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: host.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err == nil {
			t.Errorf("%s: the client certificate verifies against the host CA", dir)
		}
	}
}
