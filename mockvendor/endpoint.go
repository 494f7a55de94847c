package mockvendor

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
)

// What the card's interfaces demand of a request at an endpoint
// (internal/card, iface.go): the versions the endpoint serves, and, where
// the card declares tenants for it, a tenant the request names (A2A 1.0
// §8.3.2 rule 4; the proto's AgentInterface.tenant). Every request's
// tenant is traced (Event.Tenant): params.tenant for JSON-RPC, the
// /{tenant}/ path segment for HTTP+JSON (binding.Binding.Tenant).
// The check itself is a stage every binding shares (internal/binding:
// Handle); the root gives it the tenants (bindingHost.Tenants).

// cardEndpoint is host h's endpoint of binding b as the card names it.
func (h *host) cardEndpoint(b binding.Binding) card.Endpoint {
	host := h.cfg.Name
	if host == "" {
		host = h.addr
	}
	return card.Endpoint{Host: host, Path: h.bindingPath(b.Name()), Binding: b.Name()}
}

// endpointVersions are the versions host h serves on its endpoint of
// binding b: those the card declares for that URL and binding (and the
// card's 0.3 members for the JSON-RPC URL they name); the vendor's
// (servedVersions) as the binding offers them when the card is not
// explicit or declares none there.
func (v *Vendor) endpointVersions(h *host, b binding.Binding) []string {
	spec := v.cardSpec()
	served := card.Offered(spec.Versions, b.Offers)
	if !spec.Explicit() {
		return served
	}
	return spec.EndpointVersions(h.cardEndpoint(b), served)
}

// declaredTenants are the tenants the card declares for host h's
// endpoint of binding b (none: any request, with or without a tenant).
func (h *host) declaredTenants(b binding.Binding) []string {
	var want []string
	for _, i := range h.vendor.cardSpec().DeclaredAt(h.cardEndpoint(b)) {
		if i.Tenant != "" {
			want = append(want, i.Tenant)
		}
	}
	return want
}
