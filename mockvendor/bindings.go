package mockvendor

import (
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/jsonrpc"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/rest"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The protocol bindings live in internal/binding: what they share (the
// stages from version negotiation to the operation, the writer of every
// answer, body limits, the mapping of errors to the wire) in the package
// itself, each binding in a subpackage (binding/jsonrpc, binding/rest).
// The root dispatches a request to its binding (host.serveBinding) and
// implements binding.Host, the host as the bindings see it.

// serveBinding answers r when it is for one of the host's HTTP
// bindings, reporting whether it was: POST to RPCPath is JSON-RPC,
// anything below RESTPath is HTTP+JSON. A gRPC host's calls never come
// here: its h2 connections are served on grpc-go's transport (serveH2).
func (h *host) serveBinding(w *statusWriter, r *http.Request, ev *Event) bool {
	switch {
	case h.cfg.RPCPath != "" && r.URL.Path == h.cfg.RPCPath && r.Method == http.MethodPost:
		jsonrpc.Serve(w, r, (*bindingHost)(h), !h.vendor.fleet.cfg.PlainJSON, ev)
	case h.isREST(r):
		rest.Serve(w, r, (*bindingHost)(h), h.cfg.RESTPath, ev)
	default:
		return false
	}
	return true
}

// bindingPath is the host's endpoint path for the binding named name
// ("" for none).
func (h *host) bindingPath(name string) string {
	switch name {
	case BindingJSONRPC:
		return h.cfg.RPCPath
	case BindingREST:
		return h.cfg.RESTPath
	case BindingGRPC:
		if h.cfg.GRPC {
			return "/" // the service's methods are below the root
		}
	}
	return ""
}

// isREST reports whether r is for the host's HTTP+JSON binding.
func (h *host) isREST(r *http.Request) bool {
	return h.cfg.RESTPath != "" && strings.HasPrefix(r.URL.Path, h.cfg.RESTPath+"/")
}

// restURL is the HTTP+JSON interface URL the card names ("" when none).
func (v *Vendor) restURL() string {
	for _, h := range v.hosts {
		if h.cfg.RESTPath != "" {
			return h.url() + h.cfg.RESTPath
		}
	}
	return ""
}

// grpcURL is the gRPC interface URL the card names: the first gRPC
// host's host:port ("rpc.agent-d.example:443"; "127.0.0.1:PORT" for a
// bare-IP host), "" when none.
func (v *Vendor) grpcURL() string {
	for _, h := range v.hosts {
		if h.cfg.GRPC {
			return h.authority()
		}
	}
	return ""
}

// bindingHost is a host as its bindings see it (binding.Host). A pointer
// conversion of *host, so passing it as the interface allocates nothing.
type bindingHost host

var _ binding.Host = (*bindingHost)(nil)

func (b *bindingHost) h() *host                 { return (*host)(b) }
func (b *bindingHost) Vendor() ops.Vendor       { return (*opsVendor)(b.vendor) }
func (b *bindingHost) Lenient() bool            { return b.vendor.lenient(b.h().sanName()) }
func (b *bindingHost) ErrorDomain() string      { return b.vendor.errorDomain() }
func (b *bindingHost) MaxBody() int64           { return b.vendor.fleet.limits.MaxBody }
func (b *bindingHost) Closing() <-chan struct{} { return b.vendor.fleet.closing }

// Versions are the versions the host's endpoint of bd serves
// (Vendor.endpointVersions).
func (b *bindingHost) Versions(bd binding.Binding) []string {
	return b.vendor.endpointVersions(b.h(), bd)
}

// Tenants are the tenants the card declares for the host's endpoint of bd.
func (b *bindingHost) Tenants(bd binding.Binding) []string { return b.h().declaredTenants(bd) }

// Authenticate checks the call against the vendor's scheme.
func (b *bindingHost) Authenticate(presented []trace.Presented) error {
	if err := b.vendor.authenticateMTLS(presented); err != nil {
		return err
	}
	return b.vendor.authenticate(presented)
}

// NewCall is the Call the faults see, naming the vendor, host and region.
func (b *bindingHost) NewCall() *fault.Call {
	return &fault.Call{Vendor: b.vendor.view(), Host: b.name, Region: b.cfg.Region}
}

// RunCallHooks runs the vendor's call faults that apply to the host.
func (b *bindingHost) RunCallHooks(c *fault.Call) *a2a.Error {
	return b.vendor.runCallHooks(b.h().sanName(), c)
}

// ResponseVersion is the A2A-Version an honest vendor answers with.
func (b *bindingHost) ResponseVersion(asked string, d a2a.Dialect) string {
	return b.vendor.responseVersion(asked, d)
}

// AnswerHook applies the vendor's answer faults that apply to the host
// to an answer object of call c (nil when none applies).
func (b *bindingHost) AnswerHook(c *fault.Call) func(v map[string]any) {
	hooks := b.vendor.answerHooks(b.h().sanName())
	if len(hooks) == 0 || c == nil {
		return nil
	}
	return func(v map[string]any) {
		for _, h := range hooks {
			h.OnAnswer(c, v)
		}
	}
}

// RunHeaderHooks applies the vendor's header faults that apply to the host.
func (b *bindingHost) RunHeaderHooks(hdr http.Header) {
	b.vendor.runHeaderHooks(b.h().sanName(), hdr)
}

// Extensions are the extension URIs the vendor's card declares, and
// those it marks required (binding/extensions.go enforces them).
func (b *bindingHost) Extensions() (declared, required []string) {
	for _, e := range b.vendor.cfg.Card.Extensions {
		declared = append(declared, e.URI)
		if e.Required {
			required = append(required, e.URI)
		}
	}
	return declared, required
}
