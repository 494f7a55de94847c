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
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/mockvendor/admin"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// addrFile is what `fleet up --addr-file` writes for scripts and tests.
type addrFile struct {
	Proxy  string            `json:"proxy"`
	CAFile string            `json:"caFile"`
	Hosts  map[string]string `json:"hosts"`
	// Admin is the admin API's base URL, AdminToken its bearer token.
	Admin      string `json:"admin"`
	AdminToken string `json:"adminToken"`
	// Credentials are the credentials the fleet's vendors issued (fresh
	// each start): what a client must present to their endpoints.
	Credentials []mockvendor.Credential `json:"credentials,omitempty"`
	// ClientCertificates are the client certificates (mutual TLS) the
	// fleet's vendors issued, as files (fleet_mtls.go).
	ClientCertificates []clientCertFiles `json:"clientCertificates,omitempty"`
}

func fleetUp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fleet up", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addrPath := fs.String("addr-file", "", "write the proxy, CA file, host routes and admin API as JSON to this file")
	caDir := fs.String("ca", "", "use the CA in this directory (ca.pem and ca-key.pem, e.g. fixtures/certs) instead of a fresh one")
	configPath := fs.String("config", "", "start the fleet described in this YAML or JSON file (docs/fleet-config.md)")
	scenarioID := fs.String("scenario", "", "start the fleet in this scenario's state (e.g. CARD-001)")
	timeScale := fs.String("time-scale", "1", "with --scenario: stage the scenario's waits at `F` times their length, 0 < F <= 1, as run --time-scale does")
	adminToken := fs.String("admin-token", "", "bearer token of the admin API (default: a random one)")
	adminAddr := fs.String("admin-addr", "127.0.0.1:0", "loopback address of the admin API")
	printConfig := fs.Bool("print-config", false, "print the fleet's configuration as a fleet file and exit without starting it")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("fleet up takes no arguments, got %q", fs.Args())}
	}
	ts, err := scenarios.ParseTimeScale(*timeScale)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("--time-scale: %w", err)}
	}
	if !ts.IsReal() && *scenarioID == "" {
		return &usageError{"fleet up --time-scale applies to a --scenario fleet only"}
	}
	cfg, err := fleetConfig(*configPath, *scenarioID, ts)
	if err != nil {
		return err
	}
	if *printConfig {
		return mockvendor.WriteConfig(stdout, cfg)
	}
	return serveFleet(ctx, cfg, serveOptions{caDir: *caDir, adminToken: *adminToken, adminAddr: *adminAddr, addrPath: *addrPath, banner: "fleet up"}, stdout)
}

// serveOptions are how `fleet up` and `proxy` serve a fleet: the CA
// directory ("" for a fresh CA), the admin API's token ("" for a random
// one) and address, the address file to write ("" for none), the banner's
// command name, and what runs once the fleet is up and before it waits
// (nil: nothing).
type serveOptions struct {
	caDir, adminToken, adminAddr, addrPath, banner string
	up                                             func(f *mockvendor.Fleet) error
}

// serveFleet starts the fleet of cfg with its admin API, prints how to
// reach it and serves until ctx ends or the admin API shuts it down.
func serveFleet(ctx context.Context, cfg mockvendor.Config, o serveOptions, stdout io.Writer) error {
	caFile := ""
	if o.caDir != "" {
		ca, path, err := loadCADir(o.caDir)
		if err != nil {
			return err
		}
		cfg.CA, caFile = ca, path
		if cfg.ClientCA, err = loadClientCADir(o.caDir); err != nil {
			return err
		}
	}
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer f.Close()
	adm, err := admin.StartAt(f, o.adminToken, o.adminAddr)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("admin API: %w", err)}
	}
	defer adm.Close()
	if caFile == "" {
		if caFile, err = f.WriteCAFile(); err != nil {
			return err
		}
	}
	routes := f.Resolve()
	fmt.Fprintf(stdout, "a2a-conform %s: %d vendors, %d hosts\n", o.banner, len(f.Vendors()), len(routes))
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(stdout, "  https://%-32s -> %s\n", k, routes[k])
	}
	fmt.Fprintf(stdout, "proxy:  %s\nCA:     %s\n", f.ProxyURL(), caFile)
	fmt.Fprintf(stdout, "admin:  %s (Authorization: Bearer %s)\n", adm.URL, adm.Token)
	fmt.Fprintf(stdout, "live:   %s/?token=%s\n", adm.URL, adm.Token)
	for _, c := range f.Credentials() {
		how := "Authorization: Bearer " + c.Value
		switch c.Scheme {
		case mockvendor.AuthAPIKey:
			how = c.Header + ": " + c.Value
		case mockvendor.AuthOAuth2:
			how = fmt.Sprintf("an access token from %s (client_credentials; client id %s, secret %s) as Authorization: Bearer", c.TokenURL, c.ClientID, c.Value)
		}
		fmt.Fprintf(stdout, "credential: vendor %s, at %s: %s\n", c.Vendor, strings.Join(c.Origins, ", "), how)
	}
	certs, err := writeClientCerts(f, stdout)
	if err != nil {
		return err
	}
	if card := firstCardHost(f); card != "" {
		fmt.Fprintf(stdout, "try:    curl --proxy %s --cacert %s https://%s%s\n", f.ProxyURL(), caFile, card, mockvendor.CardPath)
	}
	if o.addrPath != "" {
		b, _ := json.MarshalIndent(addrFile{Proxy: f.ProxyURL(), CAFile: caFile, Hosts: routes, Admin: adm.URL, AdminToken: adm.Token, Credentials: f.Credentials(), ClientCertificates: certs}, "", "  ")
		if err := os.WriteFile(o.addrPath, append(b, '\n'), 0o600); err != nil {
			return err
		}
	}
	if o.up != nil {
		if err := o.up(f); err != nil {
			return err
		}
	}
	select {
	case <-ctx.Done():
	case <-f.Done():
	}
	fmt.Fprintln(stdout, "a2a-conform fleet: shutting down")
	return nil
}

// fleetConfig is the fleet `fleet up` starts: a fleet file's, a scenario's,
// or the default fleet. A file that the fleet would refuse fails here, with
// its line and field, before anything listens.
func fleetConfig(path, scenarioID string, ts scenarios.TimeScale) (mockvendor.Config, error) {
	switch {
	case path != "" && scenarioID != "":
		return mockvendor.Config{}, &usageError{"fleet up takes --config or --scenario, not both"}
	case path != "":
		cfg, err := mockvendor.LoadConfig(path)
		if err != nil {
			return cfg, &exitError{code: 2, err: err}
		}
		return cfg, nil
	case scenarioID != "":
		s, _ := scenarios.FindAt(ts, scenarioID)
		if s == nil {
			return mockvendor.Config{}, &exitError{code: 2, err: fmt.Errorf("no scenario %q (a2a-conform list shows them)", scenarioID)}
		}
		return s.Fleet(), nil
	}
	return mockvendor.DefaultConfig(), nil
}

// firstCardHost names a host that serves a card, preferring the catalog's
// agent-b.example.
func firstCardHost(f *mockvendor.Fleet) string {
	first := ""
	for _, v := range f.Vendors() {
		for _, h := range v.Config().Hosts {
			if h.Card && h.Name != "" {
				if h.Name == mockvendor.HostCardB {
					return h.Name
				}
				if first == "" {
					first = h.Name
				}
			}
		}
	}
	return first
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
