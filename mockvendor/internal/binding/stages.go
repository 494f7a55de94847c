package binding

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// A request's path through an endpoint, in stages. A binding reads what
// is its own (the JSON-RPC binding the body, the envelope and the method;
// the HTTP+JSON binding the route and the body or query), then runs
// Handle, the stages every binding shares: the version, the tenant, the
// params, authentication, the faults' call hooks and the operation
// (ops.Run). A stage or operation that fails returns an error value;
// WireError maps it to the A2A error and HTTP status, and Respond has the
// request's binding render either outcome and completes the trace event.

// Handle runs the stages after the method is known, which the bindings
// share: the version, the tenant, the params, authentication, the
// extensions the request activates (extensions.go), the fault hooks and
// the operation.
func Handle(q *Request, ev *trace.Event) (ops.Result, error) {
	if err := negotiate(q); err != nil {
		return ops.Result{}, err
	}
	if err := checkTenant(q, ev); err != nil {
		return ops.Result{}, err
	}
	if err := decodeParams(q, ev); err != nil {
		return ops.Result{}, err
	}
	if err := q.Host.Authenticate(ev.Credentials); err != nil {
		return ops.Result{}, err
	}
	if err := activateExtensions(q); err != nil {
		return ops.Result{}, err
	}
	if e := q.Host.RunCallHooks(q.Call); e != nil {
		if ch := q.Call.Challenge; ch != "" {
			return ops.Result{}, &AuthError{Err: e, Challenge: ch} // a fault's 401
		}
		return ops.Result{}, e
	}
	if !q.Known {
		return ops.Result{}, a2a.MethodNotFound(q.Method)
	}
	q.Op, q.Now = q.Info.Op, time.Now()
	return ops.Run(q.Host.Vendor(), &q.Request)
}

// negotiate is the version stage (A2A 1.0 §3.6): it settles the version
// the request is served in and refuses what that version or the
// request's binding does not offer. Under a lenient-version fault the
// method's own dialect wins and nothing is refused.
func negotiate(q *Request) error {
	q.Lenient = q.Host.Lenient()
	if q.Lenient {
		return nil
	}
	asked := a2a.MajorMinor(q.Version)
	served := q.Host.Versions(q.Binding)
	if !slices.Contains(served, asked) {
		return a2a.VersionNotSupported(asked, served)
	}
	if q.Known && !generationServes(q.Info.Dialect, asked) {
		return a2a.MethodNotInVersion(q.Method, asked)
	}
	return nil
}

// generationServes reports whether a method of dialect d ("" for the
// names 0.1 and 0.3 share) belongs to version (Major.Minor): the 0.1
// names, which predate the header, belong to the 0.x generation.
func generationServes(d a2a.Dialect, version string) bool {
	if strings.HasPrefix(version, "0.") {
		return d != a2a.Dialect10
	}
	return d == a2a.Dialect10
}

// checkTenant records the request's tenant and, where the card declares
// tenants for the endpoint, refuses a request that names none of them
// (-32602): a multi-tenant endpoint cannot route it (A2A 1.0 §8.3.2).
func checkTenant(q *Request, ev *trace.Event) error {
	got := q.Binding.Tenant()
	ev.Tenant = got
	want := q.Host.Tenants(q.Binding)
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

// decodeParams checks that the params are an object, makes the Call the
// faults see, and decodes the params of a send or stream (the message,
// through the binding) or of a get or cancel (the task id, which the
// trace records, probes marked).
func decodeParams(q *Request, ev *trace.Event) error {
	if len(q.Params) > 0 && (bytes.TrimSpace(q.Params)[0] != '{') {
		return a2a.InvalidParams("params must be an object")
	}
	c := q.Host.NewCall()
	c.Method, c.Op, c.Dialect, c.A2AVersion = q.Method, ev.Op, q.Dialect, q.Version
	q.Call = c
	switch q.Info.Op {
	case trace.OpSend, trace.OpStream:
		msg, err := q.Binding.DecodeSend()
		if err != nil {
			return err
		}
		if q.Dialect == a2a.Dialect01 && q.Send.ID == "" {
			return a2a.InvalidParams("params.id is required: a 0.1 client names its task")
		}
		c.Message = msg
		c.Skill = ops.SkillOf(q.Send.Metadata.SkillID, msg.Metadata)
		c.Probe = ops.IsProbe(q.Send.Metadata, msg)
		ev.Skill, ev.Probe = c.Skill, c.Probe
	case trace.OpGet, trace.OpCancel, trace.OpSubscribe:
		// A get for a synthetic id marked as a probe checks that the
		// endpoint implements the task lifecycle (-32001 expected) [card
		// as claim, not contract: Condition of Validity]; it is recorded as
		// a probe, whatever a fault answers.
		if id := q.Task.TaskID(); q.TaskErr == nil && id != "" {
			ev.TaskID = id
			ev.Probe = q.Task.Metadata["a2a_probe"] == true || strings.HasPrefix(id, ops.ProbeText)
		}
	}
	return nil
}

// DecodeSend decodes the params of a send or stream of dialect d into sp
// with encoding/json and returns their message: the way every binding
// decodes them (the JSON-RPC fast path declines to it).
func DecodeSend(params json.RawMessage, d a2a.Dialect, sp *ops.SendParams) (*a2a.Message, error) {
	if d == a2a.Dialect10 {
		params = a2a.ProtoNamesToJSON(params)
	}
	*sp = ops.SendParams{}
	if err := json.Unmarshal(ops.NonNull(params), sp); err != nil {
		return nil, a2a.InvalidParams(err.Error())
	}
	msg, err := a2a.DecodeMessage(sp.Message, d)
	if err != nil {
		return nil, a2a.InvalidParams(err.Error())
	}
	return msg, nil
}

// RequestVersion is the A2A-Version the request names: the header, else
// the query parameter (A2A 1.0 §3.6.1).
func RequestVersion(r *http.Request) string {
	version := HeaderGet(r.Header, A2AVersionKey)
	if version == "" && r.URL.RawQuery != "" {
		version = r.URL.Query().Get("A2A-Version")
	}
	return version
}

// A2AVersionKey is "A2A-Version" in canonical form, so that reading and
// setting it does not canonicalize (and allocate) on every request.
var A2AVersionKey = http.CanonicalHeaderKey("A2A-Version")

// HeaderGet is h.Get(key) for a key already in canonical form.
func HeaderGet(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
