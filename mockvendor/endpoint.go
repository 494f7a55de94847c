package mockvendor

import (
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// What the card's interfaces demand of a request at an endpoint
// (internal/card, iface.go): the versions the endpoint serves, and, where
// the card declares tenants for it, a tenant the request names (A2A 1.0
// §8.3.2 rule 4; the proto's AgentInterface.tenant). Every request's
// tenant is traced (Event.Tenant): params.tenant for JSON-RPC, the
// /{tenant}/ path segment for HTTP+JSON (binding.tenant).

// cardEndpoint is host h's endpoint of binding b as the card names it.
func (h *host) cardEndpoint(b binding) card.Endpoint {
	host := h.cfg.Name
	if host == "" {
		host = h.addr
	}
	return card.Endpoint{Host: host, Path: b.path(h), Binding: b.name()}
}

// endpointVersions are the versions host h serves on its endpoint of
// binding b: those the card declares for that URL and binding (and the
// card's 0.3 members for the JSON-RPC URL they name); the vendor's
// (servedVersions) as the binding offers them when the card is not
// explicit or declares none there.
func (v *Vendor) endpointVersions(h *host, b binding) []string {
	spec := v.cardSpec()
	served := card.Offered(spec.Versions, b.offers)
	if !spec.Explicit() {
		return served
	}
	return spec.EndpointVersions(h.cardEndpoint(b), served)
}

// checkTenant records the request's tenant and, where the card declares
// tenants for the endpoint, refuses a request that names none of them
// (-32602): a multi-tenant endpoint cannot route it.
func (h *host) checkTenant(q *request, ev *Event) error {
	got := q.binding.tenant(q)
	ev.Tenant = got
	var want []string
	for _, i := range h.vendor.cardSpec().DeclaredAt(h.cardEndpoint(q.binding)) {
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
