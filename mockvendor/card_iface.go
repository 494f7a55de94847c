package mockvendor

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Interface and version selection (the IFACE scenarios). A card may give
// its interfaces explicitly (CardConfig.Interfaces), in any order, binding
// and version, with tenants; it may take the pure 0.3 form (url,
// preferredTransport, additionalInterfaces, no supportedInterfaces) or the
// hybrid form with a 0.3 url of its own (CardConfig.Form, LegacyURL). The
// endpoints then hold the card to what it says of them (A2A 1.0 §3.6.2,
// §8.3): an endpoint serves the versions the card declares for its URL and
// binding, and where the card declares tenants for it, a request must name
// one of them (A2A 1.0 §8.3.2 rule 4; the proto's AgentInterface.tenant).
// Every request's tenant is traced (Event.Tenant): params.tenant for
// JSON-RPC, the /{tenant}/ path segment for HTTP+JSON (binding.tenant).

// Protocol bindings a card may name (A2A 1.0 §4.4.6 AgentInterface).
const (
	BindingJSONRPC = "JSONRPC"
	BindingREST    = "HTTP+JSON"
	BindingGRPC    = "GRPC"
)

// Card forms (CardConfig.Form).
const (
	// FormLegacy is a pure 0.3 card: url, preferredTransport,
	// additionalInterfaces and protocolVersion, no supportedInterfaces.
	FormLegacy = "0.3"
	// FormHybrid carries the 1.0 and the 0.3 members whatever the vendor
	// serves.
	FormHybrid = "hybrid"
)

// CardInterface is one supportedInterfaces entry of a card.
type CardInterface struct {
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

func (i CardInterface) binding() string { return or(i.Binding, BindingJSONRPC) }

// version is the interface's Major.Minor; in a pure 0.3 card every
// interface is 0.3.
func (i CardInterface) version(form string) string {
	if form == FormLegacy {
		return "0.3"
	}
	return majorMinor(or(i.ProtocolVersion, "1.0"))
}

// explicitCard reports whether the card's interfaces or form were given
// (else the honest card of cardDocument, served as today).
func (v *Vendor) explicitCard() bool {
	c := v.cfg.Card
	return len(c.Interfaces) > 0 || c.Form != "" || c.LegacyURL != ""
}

// legacyURL is the url of the card's 0.3 members.
func (v *Vendor) legacyURL() string {
	c := v.cfg.Card
	if c.LegacyURL != "" {
		return c.LegacyURL
	}
	for _, i := range c.Interfaces {
		if i.binding() == BindingJSONRPC {
			return i.URL
		}
	}
	if len(c.Interfaces) > 0 {
		return c.Interfaces[0].URL
	}
	return v.endpointURL()
}

// cardInterfaceDocs renders CardConfig.Interfaces as supportedInterfaces.
func (v *Vendor) cardInterfaceDocs() []any {
	var out []any
	for _, i := range v.cfg.Card.Interfaces {
		d := map[string]any{"url": i.URL, "protocolBinding": i.binding(), "protocolVersion": i.version("")}
		if i.Tenant != "" {
			d["tenant"] = i.Tenant
		}
		out = append(out, d)
	}
	return out
}

// applyCardForm gives an explicit card its form: the 0.3 members' url,
// and for the pure 0.3 form additionalInterfaces in place of
// supportedInterfaces.
func (v *Vendor) applyCardForm(card map[string]any) {
	c := v.cfg.Card
	legacy := map[string]any{"url": v.legacyURL(), "preferredTransport": BindingJSONRPC, "protocolVersion": "0.3.0"}
	switch c.Form {
	case FormLegacy:
		delete(card, "supportedInterfaces")
		var extra []any
		if len(c.Interfaces) == 0 {
			extra = append(extra, map[string]any{"url": legacy["url"], "transport": BindingJSONRPC})
		}
		for _, i := range c.Interfaces {
			extra = append(extra, map[string]any{"url": i.URL, "transport": i.binding()})
		}
		if len(c.Interfaces) > 0 && c.LegacyURL == "" {
			legacy["url"], legacy["preferredTransport"] = c.Interfaces[0].URL, c.Interfaces[0].binding()
		}
		card["additionalInterfaces"] = extra
	case FormHybrid:
	default:
		if _, ok := card["url"]; !ok && c.LegacyURL == "" {
			return // a 1.0 card stays one
		}
	}
	for k, val := range legacy {
		card[k] = val
	}
}

// endpointVersions are the versions host h serves on its endpoint of
// binding b: those the card declares for that URL and binding (and the
// card's 0.3 members for the JSON-RPC URL they name); the vendor's
// (servedVersions) as the binding offers them when the card is not
// explicit or declares none there.
func (v *Vendor) endpointVersions(h *host, b binding) []string {
	served := offered(v.servedVersions(), b)
	if !v.explicitCard() {
		return served
	}
	var out []string
	for _, i := range v.declaredAt(h, b) {
		if ver := i.version(v.cfg.Card.Form); !slices.Contains(out, ver) {
			out = append(out, ver)
		}
	}
	if b.name() == BindingJSONRPC && v.legacyMembers() && sameURL(v.legacyURL(), h.url()+b.path(h)) && !slices.Contains(out, "0.3") {
		out = append(out, "0.3")
	}
	if len(out) == 0 {
		return served
	}
	return out
}

// offered are the versions of served that binding b offers (served
// itself when it offers them all).
func offered(served []string, b binding) []string {
	for i, ver := range served {
		if b.offers(ver) {
			continue
		}
		out := append([]string{}, served[:i]...)
		for _, ver := range served[i+1:] {
			if b.offers(ver) {
				out = append(out, ver)
			}
		}
		return out
	}
	return served
}

// legacyMembers reports whether the card carries the 0.3 members.
func (v *Vendor) legacyMembers() bool {
	c := v.cfg.Card
	return c.Form == FormLegacy || c.Form == FormHybrid || c.LegacyURL != "" || v.serves("0.3") && (v.cfg.Signing == nil || v.cfg.Signing.LegacyFields)
}

// declaredAt are the card's interfaces at host h's endpoint of binding
// b.
func (v *Vendor) declaredAt(h *host, b binding) []CardInterface {
	path := b.path(h)
	if path == "" {
		return nil
	}
	var out []CardInterface
	for _, i := range v.cfg.Card.Interfaces {
		if strings.EqualFold(i.binding(), b.name()) && sameURL(i.URL, h.url()+path) {
			out = append(out, i)
		}
	}
	return out
}

func sameURL(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/"))
}

// checkTenant records the request's tenant and, where the card declares
// tenants for the endpoint, refuses a request that names none of them
// (-32602): a multi-tenant endpoint cannot route it.
func (h *host) checkTenant(q *request, ev *Event) error {
	got := q.binding.tenant(q)
	ev.Tenant = got
	var want []string
	for _, i := range h.vendor.declaredAt(h, q.binding) {
		if i.Tenant != "" {
			want = append(want, i.Tenant)
		}
	}
	if len(want) == 0 || slices.Contains(want, got) {
		return nil
	}
	if got == "" {
		return a2a.InvalidParams("this interface serves several tenants: the request names none (want one of " + strings.Join(want, ", ") + ")")
	}
	return a2a.InvalidParams("tenant " + clipField(got) + " is not a tenant of this interface")
}

func clipField(s string) string {
	if len(s) > 64 {
		return trace.CutUTF8(s, 64) + "..."
	}
	return s
}
