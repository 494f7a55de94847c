package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// addrFile is what `fleet up --addr-file` writes for scripts and tests.
type addrFile struct {
	Proxy  string            `json:"proxy"`
	CAFile string            `json:"caFile"`
	Hosts  map[string]string `json:"hosts"`
}

func fleetUp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fleet up", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addrPath := fs.String("addr-file", "", "write the proxy, CA file and host routes as JSON to this file")
	caDir := fs.String("ca", "", "use the CA in this directory (ca.pem and ca-key.pem, e.g. fixtures/certs) instead of a fresh one")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	cfg := mockvendor.DefaultConfig()
	caFile := ""
	if *caDir != "" {
		ca, path, err := loadCADir(*caDir)
		if err != nil {
			return err
		}
		cfg.CA, caFile = ca, path
	}
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		return err
	}
	defer f.Close()
	if caFile == "" {
		if caFile, err = f.WriteCAFile(); err != nil {
			return err
		}
	}
	routes := f.Resolve()
	fmt.Fprintf(stdout, "a2a-conform fleet up: %d vendors, %d hosts\n", len(f.Vendors()), len(routes))
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(stdout, "  https://%-32s -> %s\n", k, routes[k])
	}
	fmt.Fprintf(stdout, "proxy:  %s\nCA:     %s\n", f.ProxyURL(), caFile)
	fmt.Fprintf(stdout, "try:    curl --proxy %s --cacert %s https://%s%s\n", f.ProxyURL(), caFile, mockvendor.HostCardB, mockvendor.CardPath)
	if *addrPath != "" {
		b, _ := json.MarshalIndent(addrFile{Proxy: f.ProxyURL(), CAFile: caFile, Hosts: routes}, "", "  ")
		if err := os.WriteFile(*addrPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	<-ctx.Done()
	fmt.Fprintln(stdout, "a2a-conform fleet: shutting down")
	return nil
}

// loadCADir reads ca.pem and ca-key.pem from dir; it returns the CA and the
// absolute path of ca.pem.
func loadCADir(dir string) (*mockvendor.CA, string, error) {
	certPath, err := filepath.Abs(filepath.Join(dir, "ca.pem"))
	if err != nil {
		return nil, "", err
	}
	cert, err := os.ReadFile(certPath)
	if err != nil {
		return nil, "", err
	}
	key, err := os.ReadFile(filepath.Join(dir, "ca-key.pem"))
	if err != nil {
		return nil, "", err
	}
	ca, err := mockvendor.LoadCA(cert, key)
	return ca, certPath, err
}
