package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// request is one HTTP+JSON request: the shared binding.Request and the
// tenant its route names. It is the request's binding.Binding
// (render.go).
type request struct {
	binding.Request
	// tenant is the /{tenant} segment of the route ("" for none).
	tenant string
}

// Serve answers one request to the HTTP+JSON binding of host h, whose
// routes are below the path prefix (HostConfig.RESTPath).
func Serve(w http.ResponseWriter, r *http.Request, h binding.Host, prefix string, ev *trace.Event) {
	q := &request{}
	q.Host, q.Binding, q.Header, q.Context = h, q, r.Header, r.Context()
	q.Version, q.Dialect = binding.RequestVersion(r), a2a.Dialect10
	ev.Binding, ev.Dialect = Name, string(a2a.Dialect10)
	res, err := q.read(w, r, prefix, ev)
	binding.Respond(w, r, &q.Request, res, err, ev)
}

// read runs the stages of an HTTP+JSON request: route, body or query,
// then the stages the bindings share (binding.Handle).
func (q *request) read(w http.ResponseWriter, r *http.Request, prefix string, ev *trace.Event) (ops.Result, error) {
	rt, err := findRoute(r.Method, strings.TrimPrefix(r.URL.Path, prefix))
	if err != nil {
		return ops.Result{}, err
	}
	q.tenant, q.Method = rt.tenant, rt.method
	q.Info, q.Known = binding.MethodInfo{Op: rt.op, Dialect: a2a.Dialect10}, true
	ev.Method, ev.Op = rt.method, rt.op
	var params map[string]json.RawMessage
	if rt.body {
		if params, err = readBody(w, r, q.Host.MaxBody(), ev); err != nil {
			return ops.Result{}, err
		}
	} else if params, err = readQuery(r, rt.method); err != nil {
		return ops.Result{}, err
	}
	switch {
	case rt.push:
		params["taskId"], _ = json.Marshal(rt.taskID)
		if rt.configID != "" {
			params["id"], _ = json.Marshal(rt.configID)
		}
	case rt.taskID != "":
		params["id"], _ = json.Marshal(rt.taskID)
	}
	q.Params, _ = json.Marshal(params)
	if rt.op != trace.OpSend && rt.op != trace.OpStream {
		q.Params = a2a.ProtoNamesToJSON(q.Params) // a send's decoder renames them itself
	}
	if rt.op == trace.OpGet || rt.op == trace.OpCancel || rt.op == trace.OpSubscribe {
		q.Task, q.TaskErr = ops.DecodeTaskParams(q.Params)
	}
	return binding.Handle(&q.Request, ev)
}

// readBody reads a POST body: JSON by its Content-Type (an empty body is
// an empty object), one JSON object, within the body limit.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, ev *trace.Event) (map[string]json.RawMessage, error) {
	body, err := binding.ReadBody(w, r, limit, ev)
	if err != nil {
		return nil, err
	}
	params := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(body)) == 0 {
		return params, nil
	}
	if err := binding.CheckContentType(r); err != nil {
		return nil, err
	}
	if len(body) <= trace.MaxTracedBody && json.Valid(body) {
		ev.Request = body
	}
	if !json.Valid(body) {
		return nil, binding.NotJSON(body)
	}
	if err := json.Unmarshal(body, &params); err != nil || params == nil {
		return nil, a2a.InvalidParams("the body must be a JSON object")
	}
	return params, nil
}

// readQuery turns a GET's query into the params of its method: strings as
// they are, the integer and boolean members of ListTasks and GetTask
// parsed (-32602 when they do not parse).
func readQuery(r *http.Request, method string) (map[string]json.RawMessage, error) {
	params := map[string]json.RawMessage{}
	query := r.URL.Query()
	for k, vs := range query {
		if k == "A2A-Version" || len(vs) == 0 {
			continue
		}
		v := vs[0]
		if name := a2a.JSONName(k); name != k { // a proto field name (internal/a2a/protonames.go)
			if _, both := query[name]; both {
				continue
			}
			k = name
		}
		switch k {
		case "historyLength", "pageSize":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, a2a.InvalidParams(k + " must be an integer")
			}
			params[k], _ = json.Marshal(n)
		case "includeArtifacts":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, a2a.InvalidParams(k + " must be true or false")
			}
			params[k], _ = json.Marshal(b)
		default:
			params[k], _ = json.Marshal(v)
		}
	}
	return params, nil
}
