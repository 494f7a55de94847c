package mockvendor

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

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
// JSON-RPC, the /{tenant}/ path segment for HTTP+JSON.

// Protocol bindings a card may name (A2A 1.0 §4.4.6 AgentInterface).
const (
	BindingJSONRPC = "JSONRPC"
	BindingREST    = restBinding
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

// endpointVersions are the versions host h serves on its JSON-RPC (rest
// false) or HTTP+JSON endpoint: those the card declares for that URL and
// binding; the vendor's (servedVersions) when the card is not explicit or
// declares none there.
func (v *Vendor) endpointVersions(h *host, rest bool) []string {
	served := v.servedVersions()
	if rest {
		served = restVersions(served)
	}
	if !v.explicitCard() {
		return served
	}
	var out []string
	for _, i := range v.declaredAt(h, rest) {
		if ver := i.version(v.cfg.Card.Form); !slices.Contains(out, ver) {
			out = append(out, ver)
		}
	}
	if !rest && v.legacyMembers() && sameURL(v.legacyURL(), h.url()+h.cfg.RPCPath) && !slices.Contains(out, "0.3") {
		out = append(out, "0.3")
	}
	if len(out) == 0 {
		return served
	}
	return out
}

// legacyMembers reports whether the card carries the 0.3 members.
func (v *Vendor) legacyMembers() bool {
	c := v.cfg.Card
	return c.Form == FormLegacy || c.Form == FormHybrid || c.LegacyURL != "" || v.serves("0.3") && (v.cfg.Signing == nil || v.cfg.Signing.LegacyFields)
}

// declaredAt are the card's interfaces at host h's JSON-RPC or HTTP+JSON
// endpoint.
func (v *Vendor) declaredAt(h *host, rest bool) []CardInterface {
	path, binding := h.cfg.RPCPath, BindingJSONRPC
	if rest {
		path, binding = h.cfg.RESTPath, BindingREST
	}
	if path == "" {
		return nil
	}
	var out []CardInterface
	for _, i := range v.cfg.Card.Interfaces {
		if strings.EqualFold(i.binding(), binding) && sameURL(i.URL, h.url()+path) {
			out = append(out, i)
		}
	}
	return out
}

func sameURL(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/"))
}

// requestTenant is the tenant a request names: the path segment before
// the route (HTTP+JSON), else params.tenant.
func (q *rpcRequest) requestTenant(path string) string {
	if q.rest {
		segs := strings.Split(strings.TrimPrefix(strings.TrimPrefix(path, q.host.cfg.RESTPath), "/"), "/")
		if len(segs) > 1 && !restTop(segs[0]) {
			return segs[0]
		}
		return ""
	}
	// Most requests name no tenant: a byte search rules that out before a
	// decode (an escaped member name could spell "tenant", hence \u).
	if !bytes.Contains(q.params, []byte("tenant")) && !bytes.Contains(q.params, []byte(`\u`)) {
		return ""
	}
	var p struct {
		Tenant string `json:"tenant"`
	}
	if len(q.params) > 0 && json.Unmarshal(q.params, &p) == nil {
		return p.Tenant
	}
	return ""
}

// checkTenant records the request's tenant and, where the card declares
// tenants for the endpoint, refuses a request that names none of them
// (-32602): a multi-tenant endpoint cannot route it.
func (h *host) checkTenant(q *rpcRequest, ev *Event) error {
	got := q.requestTenant(ev.Path)
	ev.Tenant = got
	var want []string
	for _, i := range h.vendor.declaredAt(h, q.rest) {
		if i.Tenant != "" {
			want = append(want, i.Tenant)
		}
	}
	if len(want) == 0 || slices.Contains(want, got) {
		return nil
	}
	if got == "" {
		return errInvalidParams("this interface serves several tenants: the request names none (want one of " + strings.Join(want, ", ") + ")")
	}
	return errInvalidParams("tenant " + clipField(got) + " is not a tenant of this interface")
}

func clipField(s string) string {
	if len(s) > 64 {
		return trace.CutUTF8(s, 64) + "..."
	}
	return s
}
