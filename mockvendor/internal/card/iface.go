package card

import (
	"cmp"
	"net"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// Interface and version selection (the IFACE scenarios). A card may give
// its interfaces explicitly (Spec.Interfaces), in any order, binding and
// version, with tenants; it may take the pure 0.3 form (url,
// preferredTransport, additionalInterfaces, no supportedInterfaces) or the
// hybrid form with a 0.3 url of its own (Spec.Form, LegacyURL). The
// endpoints then hold the card to what it says of them (A2A 1.0 §3.6.2,
// §8.3): an endpoint serves the versions the card declares for its URL and
// binding (EndpointVersions), and where the card declares tenants for it, a
// request must name one of them (A2A 1.0 §8.3.2 rule 4; the proto's
// AgentInterface.tenant): DeclaredAt lists them, the request path checks.

// Protocol bindings a card may name (A2A 1.0 §4.4.6 AgentInterface).
const (
	BindingJSONRPC = "JSONRPC"
	BindingREST    = "HTTP+JSON"
	BindingGRPC    = "GRPC"
)

// Card forms (Spec.Form).
const (
	// FormLegacy is a pure 0.3 card: url, preferredTransport,
	// additionalInterfaces and protocolVersion, no supportedInterfaces.
	FormLegacy = "0.3"
	// FormHybrid carries the 1.0 and the 0.3 members whatever the vendor
	// serves.
	FormHybrid = "hybrid"
)

// Interface is one supportedInterfaces entry of a card.
type Interface struct {
	// URL of the interface ("https://rpc.agent-d.example/a2a/v1"). Required.
	URL string `json:"url"`
	// Binding is the protocolBinding: "JSONRPC", "HTTP+JSON", "GRPC" or a
	// custom URI. Empty means "JSONRPC".
	Binding string `json:"binding,omitempty"`
	// ProtocolVersion is the version the interface serves (Major.Minor).
	// Empty means "1.0".
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Tenant is the interface's routing identifier. Empty means none (the
	// entry has no tenant member).
	Tenant string `json:"tenant,omitempty"`
}

// binding is the interface's protocolBinding.
func (i Interface) binding() string { return cmp.Or(i.Binding, BindingJSONRPC) }

// version is the interface's Major.Minor; in a pure 0.3 card every
// interface is 0.3.
func (i Interface) version(form string) string {
	if form == FormLegacy {
		return "0.3"
	}
	return a2a.MajorMinor(cmp.Or(i.ProtocolVersion, "1.0"))
}

// Endpoint is one endpoint of a vendor's host: the host part of the
// host's https URL (its DNS name, or 127.0.0.1:PORT for a bare-IP host),
// the endpoint's path there ("" when the host has no endpoint of the
// binding; "/" for gRPC, whose methods are below the root) and the
// binding's name (BindingJSONRPC, BindingREST, BindingGRPC).
type Endpoint struct {
	Host, Path, Binding string
}

// url is the endpoint's URL as a card would name it.
func (e Endpoint) url() string { return "https://" + e.Host + e.Path }

// Explicit reports whether the card's interfaces or form were given (else
// the honest card, one interface per version served).
func (s *Spec) Explicit() bool {
	return len(s.Interfaces) > 0 || s.Form != "" || s.LegacyURL != ""
}

// legacyURL is the url of the card's 0.3 members.
func (s *Spec) legacyURL() string {
	if s.LegacyURL != "" {
		return s.LegacyURL
	}
	for _, i := range s.Interfaces {
		if i.binding() == BindingJSONRPC {
			return i.URL
		}
	}
	if len(s.Interfaces) > 0 {
		return s.Interfaces[0].URL
	}
	return s.URL
}

// explicitInterfaceDocs renders Interfaces as supportedInterfaces.
func (s *Spec) explicitInterfaceDocs() []any {
	var out []any
	for _, i := range s.Interfaces {
		d := map[string]any{"url": i.URL, "protocolBinding": i.binding(), "protocolVersion": i.version("")}
		if i.Tenant != "" {
			d["tenant"] = i.Tenant
		}
		out = append(out, d)
	}
	return out
}

// applyForm gives an explicit card its form: the 0.3 members' url, and
// for the pure 0.3 form additionalInterfaces in place of
// supportedInterfaces.
func (s *Spec) applyForm(card map[string]any) {
	legacy := map[string]any{"url": s.legacyURL(), "preferredTransport": BindingJSONRPC, "protocolVersion": "0.3.0"}
	switch s.Form {
	case FormLegacy:
		delete(card, "supportedInterfaces")
		var extra []any
		if len(s.Interfaces) == 0 {
			extra = append(extra, map[string]any{"url": legacy["url"], "transport": BindingJSONRPC})
		}
		for _, i := range s.Interfaces {
			extra = append(extra, map[string]any{"url": i.URL, "transport": i.binding()})
		}
		if len(s.Interfaces) > 0 && s.LegacyURL == "" {
			legacy["url"], legacy["preferredTransport"] = s.Interfaces[0].URL, s.Interfaces[0].binding()
		}
		card["additionalInterfaces"] = extra
	case FormHybrid:
	default:
		if _, ok := card["url"]; !ok && s.LegacyURL == "" {
			return // a 1.0 card stays one
		}
	}
	for k, val := range legacy {
		card[k] = val
	}
}

// EndpointVersions are the versions endpoint e serves: those the card
// declares for its URL and binding (and 0.3 for the JSON-RPC URL the
// card's 0.3 members name); served (the vendor's versions as the binding
// offers them, Offered) when the card is not explicit or declares none
// there.
func (s *Spec) EndpointVersions(e Endpoint, served []string) []string {
	if !s.Explicit() {
		return served
	}
	var out []string
	for _, i := range s.DeclaredAt(e) {
		if ver := i.version(s.Form); !slices.Contains(out, ver) {
			out = append(out, ver)
		}
	}
	if e.Binding == BindingJSONRPC && s.legacyMembers() && sameURL(s.legacyURL(), e.url()) && !slices.Contains(out, "0.3") {
		out = append(out, "0.3")
	}
	if len(out) == 0 {
		return served
	}
	return out
}

// Offered are the versions of served that a binding offers (offers
// reports whether it offers one); served itself when it offers them all.
func Offered(served []string, offers func(version string) bool) []string {
	for i, ver := range served {
		if offers(ver) {
			continue
		}
		out := append([]string{}, served[:i]...)
		for _, ver := range served[i+1:] {
			if offers(ver) {
				out = append(out, ver)
			}
		}
		return out
	}
	return served
}

// legacyMembers reports whether the card carries the 0.3 members.
func (s *Spec) legacyMembers() bool {
	return s.Form == FormLegacy || s.Form == FormHybrid || s.LegacyURL != "" || s.serves("0.3") && (!s.Signed || s.LegacyFields)
}

// DeclaredAt are the card's interfaces at endpoint e (none when the host
// has no endpoint of its binding).
func (s *Spec) DeclaredAt(e Endpoint) []Interface {
	if e.Path == "" || len(s.Interfaces) == 0 {
		return nil
	}
	var out []Interface
	for _, i := range s.Interfaces {
		if strings.EqualFold(i.binding(), e.Binding) && e.named(i.URL) {
			out = append(out, i)
		}
	}
	return out
}

// named reports whether a card's interface URL u names endpoint e: the
// same URL, or for gRPC the same authority, u being host:port (the
// proto's AgentInterface.url) or an https URL, port 443 when it has none.
func (e Endpoint) named(u string) bool {
	if !strings.EqualFold(e.Binding, BindingGRPC) {
		return sameURL(u, e.url())
	}
	return strings.EqualFold(grpcAuthority(u), grpcAuthority(e.Host))
}

// grpcAuthority is the host:port a gRPC interface URL names.
func grpcAuthority(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "HTTPS://")
	u, _, _ = strings.Cut(u, "/")
	if _, _, err := net.SplitHostPort(u); err != nil {
		return net.JoinHostPort(strings.Trim(u, "[]"), "443")
	}
	return u
}

func sameURL(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/"))
}
