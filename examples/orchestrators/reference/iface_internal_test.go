package reference

import (
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// TestGRPCSelection: among supportedInterfaces, in card order, the first
// whose binding and version the reference speaks; a gRPC interface's url
// is host:port or an https URL and is kept as the https origin it names.
func TestGRPCSelection(t *testing.T) {
	card := func(entries ...string) string {
		return `{"name":"d","supportedInterfaces":[` + strings.Join(entries, ",") + `]}`
	}
	entry := func(url, binding, version string) string {
		return `{"url":"` + url + `","protocolBinding":"` + binding + `","protocolVersion":"` + version + `"}`
	}
	rpc := entry("https://rpc.agent-d.example/a2a/v1", "JSONRPC", "1.0")
	cases := []struct {
		name  string
		card  string
		br    Breaks
		alt   Alternatives
		first iface // the interface tried first
		n     int   // how many are tried
	}{
		{"host:port first", card(entry("rpc.agent-d.example:443", "GRPC", "1.0"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example", Version: "1.0", Binding: bindingGRPC}, 2},
		{"host:port, another port", card(entry("RPC.agent-d.example:8443", "grpc", "1.0"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example:8443", Version: "1.0", Binding: bindingGRPC}, 2},
		{"https URL first", card(entry("https://grpc.agent-d.example", "GRPC", "1.0"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://grpc.agent-d.example", Version: "1.0", Binding: bindingGRPC}, 2},
		{"https URL with port and path", card(entry("https://grpc.agent-d.example:443/a2a", "GRPC", "1.0"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://grpc.agent-d.example", Version: "1.0", Binding: bindingGRPC}, 2},
		{"gRPC last: JSON-RPC first", card(rpc, entry("rpc.agent-d.example:443", "GRPC", "1.0")), Breaks{}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example/a2a/v1", Version: "1.0", Binding: bindingJSONRPC}, 2},
		{"gRPC 0.3 is not spoken", card(entry("rpc.agent-d.example:443", "GRPC", "0.3"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example/a2a/v1", Version: "1.0", Binding: bindingJSONRPC}, 1},
		{"a plain-http gRPC url is skipped", card(entry("http://rpc.agent-d.example:80", "GRPC", "1.0"), rpc), Breaks{}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example/a2a/v1", Version: "1.0", Binding: bindingJSONRPC}, 1},
		{"only 1.0 speaks gRPC", card(entry("rpc.agent-d.example:443", "GRPC", "1.0"), rpc), Breaks{}, Alternatives{Only10: true},
			iface{URL: "https://rpc.agent-d.example", Version: "1.0", Binding: bindingGRPC}, 2},
		{"only 0.3 does not", card(entry("rpc.agent-d.example:443", "GRPC", "1.0"), entry("https://rpc.agent-d.example/v03", "JSONRPC", "0.3")), Breaks{}, Alternatives{Only03: true},
			iface{URL: "https://rpc.agent-d.example/v03", Version: "0.3", Binding: bindingJSONRPC}, 1},
		{"grpc-skip (break)", card(entry("rpc.agent-d.example:443", "GRPC", "1.0"), rpc), Breaks{GRPCSkip: true}, Alternatives{},
			iface{URL: "https://rpc.agent-d.example/a2a/v1", Version: "1.0", Binding: bindingJSONRPC}, 1},
		{"ignore-binding (break) sends JSON-RPC to the gRPC url as written", card(entry("https://grpc.agent-d.example", "GRPC", "1.0"), rpc), Breaks{IgnoreBinding: true}, Alternatives{},
			iface{URL: "https://grpc.agent-d.example", Version: "1.0", Binding: bindingJSONRPC}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ac, err := parseCard([]byte(c.card))
			if err != nil {
				t.Fatal(err)
			}
			r := &run{br: c.br, alt: c.alt}
			got := r.interfaces(ac)
			if len(got) != c.n || len(got) > 0 && got[0] != c.first {
				t.Fatalf("interfaces = %+v; want %d, first %+v", got, c.n, c.first)
			}
		})
	}
}

// TestGRPCTarget reads the url forms a gRPC interface may have.
func TestGRPCTarget(t *testing.T) {
	for in, want := range map[string]string{
		"rpc.agent-d.example:443":          "rpc.agent-d.example:443",
		"rpc.agent-d.example":              "rpc.agent-d.example:443",
		"https://rpc.agent-d.example":      "rpc.agent-d.example:443",
		"https://rpc.agent-d.example:8443": "rpc.agent-d.example:8443",
		"https://rpc.agent-d.example/a2a":  "rpc.agent-d.example:443",
		"127.0.0.1:9443":                   "127.0.0.1:9443",
		"[::1]:9443":                       "[::1]:9443",
		"http://rpc.agent-d.example":       "",
		"rpc.agent-d.example:https-ish":    "",
		"":                                 "",
		"a/b:443":                          "",
	} {
		got, err := grpcTarget(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("grpcTarget(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestSpeaksGRPC: the hello declares gRPC, under the GRPCSkip break too
// (it declares gRPC and ignores it); only 0.3 does not.
func TestSpeaksGRPC(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want bool
	}{
		{Options{}, true},
		{Options{Break: Breaks{GRPCSkip: true}}, true},
		{Options{Alt: Alternatives{Only10: true}}, true},
		{Options{Alt: Alternatives{Only03: true}}, false},
	} {
		_, bindings := New(c.opts).Speaks()
		if got := slices.Contains(bindings, contract.BindingGRPC); got != c.want {
			t.Errorf("%+v: bindings %v, gRPC declared %v, want %v", c.opts, bindings, got, c.want)
		}
	}
}
