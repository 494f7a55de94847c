package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// proxyCmd is `a2a-conform proxy`: the fleet in front of real agents. Each
// --upstream becomes a vendor whose host agent.NAME.example serves the
// agent's card and forwards every call to it, under the faults the
// --config file, the admin API or the live page attach (docs/proxy.md).
func proxyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ups, headers multiFlag
	fs.Var(&ups, "upstream", "a real agent to stand in front of, `NAME=URL` (the agent's base URL, or its card's URL); repeatable")
	upCA := fs.String("upstream-ca", "", "PEM `file` of the CA certificates that verify the agents (default: the system's)")
	fs.Var(&headers, "upstream-header", "a header sent to every agent, `'Name: value'` (its credentials; ${VAR} is read from the environment); repeatable")
	configPath := fs.String("config", "", "a fleet file whose vendors (upstream ones among them) and faults join the --upstream ones (docs/fleet-config.md)")
	caDir := fs.String("ca", "", "use the CA in this directory (ca.pem and ca-key.pem) instead of a fresh one")
	adminToken := fs.String("admin-token", "", "bearer token of the admin API (default: a random one)")
	adminAddr := fs.String("admin-addr", "127.0.0.1:0", "loopback address of the admin API")
	listen := fs.String("listen", "", "address of the CONNECT proxy orchestrators use (default: a free loopback port); beyond loopback it needs --allow-remote and --admin-token")
	allowRemote := fs.Bool("allow-remote", false, "let --listen be a non-loopback address")
	addrPath := fs.String("addr-file", "", "write the proxy, CA file, host routes and admin API as JSON to this file")
	printConfig := fs.Bool("print-config", false, "print the proxy's fleet configuration as a fleet file and exit")
	recordDir := fs.String("record", "", "record each agent's card and answers into `DIR`/NAME.recording.json (secrets left out) and write DIR/fleet.yaml, which 'fleet up --config' replays")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("proxy takes no arguments, got %q", fs.Args())}
	}
	if err := checkListen(*listen, *allowRemote, *adminToken); err != nil {
		return err
	}
	cfg, err := proxyConfig(*configPath, ups, upstreamOptions{caFile: *upCA, headers: headers})
	if err != nil {
		return err
	}
	cfg.ProxyAddr = *listen
	if *printConfig {
		return mockvendor.WriteConfig(stdout, cfg)
	}
	if *recordDir != "" {
		if err := recordInto(*recordDir, &cfg, stdout); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--record: %w", err)}
		}
	}
	return serveFleet(ctx, cfg, serveOptions{caDir: *caDir, adminToken: *adminToken, adminAddr: *adminAddr, addrPath: *addrPath, banner: "proxy"}, stdout)
}

// checkListen refuses a non-loopback --listen without --allow-remote and
// an admin token of the user's choosing: a proxy reachable from elsewhere
// must not be steered by a token only this machine's output shows.
func checkListen(addr string, allow bool, token string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &usageError{fmt.Sprintf("--listen %q: %v", addr, err)}
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() || host == "localhost" {
		return nil
	}
	if !allow || token == "" {
		return &usageError{fmt.Sprintf("--listen %s is not a loopback address: add --allow-remote and an --admin-token of your own", addr)}
	}
	return nil
}

// upstreamOptions apply to every --upstream agent.
type upstreamOptions struct {
	caFile  string
	headers []string
}

// proxyConfig is the fleet of `proxy`: the --config file's vendors, then
// one vendor per --upstream.
func proxyConfig(path string, ups []string, o upstreamOptions) (mockvendor.Config, error) {
	var cfg mockvendor.Config
	if path != "" {
		var err error
		if cfg, err = mockvendor.LoadConfig(path); err != nil {
			return cfg, &exitError{code: 2, err: err}
		}
	}
	for _, spec := range ups {
		vc, err := upstreamVendor(spec, o)
		if err != nil {
			return cfg, err
		}
		cfg.Vendors = append(cfg.Vendors, vc)
	}
	if len(cfg.Vendors) == 0 {
		return cfg, &usageError{"proxy needs at least one --upstream NAME=URL (or a --config with upstream vendors)"}
	}
	return cfg, nil
}

var upstreamName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$`)

// upstreamVendor is the vendor of one --upstream NAME=URL: the host
// agent.NAME.example serving the agent's card, JSON-RPC at /a2a/v1,
// HTTP+JSON at /a2a/rest and gRPC, every call forwarded to the agent.
func upstreamVendor(spec string, o upstreamOptions) (mockvendor.VendorConfig, error) {
	name, raw, ok := strings.Cut(spec, "=")
	if !ok || !upstreamName.MatchString(name) {
		return mockvendor.VendorConfig{}, &usageError{fmt.Sprintf("--upstream %q: want NAME=URL, NAME in lowercase letters, digits and dashes", spec)}
	}
	base, cardPath, err := splitCardURL(raw)
	if err != nil {
		return mockvendor.VendorConfig{}, &usageError{fmt.Sprintf("--upstream %s: %v", name, err)}
	}
	uc := &mockvendor.UpstreamConfig{URL: base, CardPath: cardPath, CAFile: o.caFile}
	for _, h := range o.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return mockvendor.VendorConfig{}, &usageError{fmt.Sprintf("--upstream-header %q: want 'Name: value'", h)}
		}
		if uc.Header == nil {
			uc.Header = map[string]string{}
		}
		uc.Header[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return mockvendor.VendorConfig{
		ID:           name,
		Organization: name,
		Hosts:        []mockvendor.HostConfig{{Name: "agent." + name + ".example", Card: true, RPCPath: mockvendor.DefaultRPCPath, RESTPath: mockvendor.DefaultRESTPath, GRPC: true}},
		Upstream:     uc,
	}, nil
}

// splitCardURL reads an agent's URL: a card's URL (its path ends in .json)
// gives the base and the card path, any other URL is the base.
func splitCardURL(raw string) (base, cardPath string, err error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", "", fmt.Errorf("%q is not an http(s) URL", raw)
	}
	if strings.HasSuffix(u.Path, ".json") {
		cardPath, u.Path = u.Path, ""
	}
	return strings.TrimRight(u.String(), "/"), cardPath, nil
}

// recordInto has every upstream vendor of cfg record into
// dir/ID.recording.json, and writes dir/fleet.yaml: the same vendors
// replaying those recordings (their faults kept, no URL, header or CA).
func recordInto(dir string, cfg *mockvendor.Config, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	replay := mockvendor.Config{}
	for i := range cfg.Vendors {
		v := &cfg.Vendors[i]
		rv := *v
		if u := v.Upstream; u != nil && u.URL != "" {
			name := v.ID + ".recording.json"
			u.Record = filepath.Join(dir, name)
			rv.Upstream = &mockvendor.UpstreamConfig{Replay: name, CardPath: u.CardPath, OwnCard: u.OwnCard}
			fmt.Fprintf(stdout, "record: vendor %s into %s\n", v.ID, u.Record)
		}
		replay.Vendors = append(replay.Vendors, rv)
	}
	var b bytes.Buffer
	b.WriteString("# The agents a2a-conform proxy --record recorded, replayed as fleet vendors:\n# a2a-conform fleet up --config " + filepath.Join(dir, "fleet.yaml") + "\n")
	if err := mockvendor.WriteConfig(&b, replay); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "record: replay with a2a-conform fleet up --config %s\n", filepath.Join(dir, "fleet.yaml"))
	return os.WriteFile(filepath.Join(dir, "fleet.yaml"), b.Bytes(), 0o644)
}
