package mockvendor

import "github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"

// The A2A error model lives in internal/a2a (errors.go): the error value,
// its codes and constructors and the ErrorInfo both bindings share. Each
// binding renders it in its own form (internal/binding/jsonrpc: the
// JSON-RPC error object of a dialect; internal/binding/rest: the
// HTTP+JSON google.rpc.Status).

// RPCError is an A2A error the fleet answers (a2a.Error). It is a value
// until a binding renders it in its wire form.
type RPCError = a2a.Error

// VendorDataType is the @type of the vendor data object in 1.0 error data.
const VendorDataType = a2a.VendorDataType

// errorDomain is the ErrorInfo domain of the vendor's own error reasons:
// the name of its first card host ("agent-b.example"), else of its first
// named host, else "vendor-<id>.invalid" for a vendor with bare-IP hosts
// only. It is never the spec's a2a-protocol.org.
func (v *Vendor) errorDomain() string {
	name := ""
	for _, h := range v.hosts {
		if h.cfg.Name == "" {
			continue
		}
		if h.cfg.Card {
			return h.cfg.Name
		}
		if name == "" {
			name = h.cfg.Name
		}
	}
	if name == "" {
		return "vendor-" + v.cfg.ID + ".invalid"
	}
	return name
}
