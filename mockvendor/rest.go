package mockvendor

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
)

// The 1.0 HTTP+JSON binding (A2A 1.0 §11): the same operations, tasks,
// faults and trace as the JSON-RPC endpoint, reached by route instead of
// by method name. serveREST is serveRPC's counterpart: it reads the route
// (restRoute: the operation's 1.0 method name and the task id), the body
// (POST) or the query (GET) into the params the JSON-RPC method would
// take, then runs the shared stages (answerMethod: version, tenant,
// params, fault hooks, operation); restBinding renders the result bare (a
// Task, a SendMessageResponse, a ListTasksResponse; a stream as
// server-sent events of bare StreamResponses) and an error as a
// google.rpc.Status with the HTTP status of RPCError.rest. The binding
// serves 1.0 only.
//
// Routes, under HostConfig.RESTPath and optionally a /{tenant} segment:
//
//	POST /message:send            SendMessage
//	POST /message:stream          SendStreamingMessage
//	GET  /tasks                   ListTasks (query: contextId, status, pageSize,
//	                              pageToken, historyLength, statusTimestampAfter,
//	                              includeArtifacts)
//	GET  /tasks/{id}              GetTask (query: historyLength)
//	POST /tasks/{id}:cancel       CancelTask
//	POST /tasks/{id}:subscribe    SubscribeToTask (GET too: the proto says get)
//	POST /tasks/{id}/pushNotificationConfigs             CreateTaskPushNotificationConfig
//	GET  /tasks/{id}/pushNotificationConfigs             ListTaskPushNotificationConfigs
//	GET  /tasks/{id}/pushNotificationConfigs/{configId}  GetTaskPushNotificationConfig
//	DELETE /tasks/{id}/pushNotificationConfigs/{configId} DeleteTaskPushNotificationConfig
//	                              (all -32003 unless CardConfig.PushNotifications)
//	GET  /extendedAgentCard       GetExtendedAgentCard
type restBinding struct{}

func (restBinding) name() string        { return BindingREST }
func (restBinding) path(h *host) string { return h.cfg.RESTPath }

// offers: the binding serves 1.0 only (the 0.3 REST binding, under
// /v1/, is not served).
func (restBinding) offers(version string) bool { return version == "1.0" }

// tenant is the /{tenant} path segment before the route.
func (restBinding) tenant(q *request) string { return q.envelope.tenant }

// answers: every HTTP+JSON request gets an answer.
func (restBinding) answers(*request) bool { return true }

// answer is the bare result (§11.6).
func (restBinding) answer(q *request, res ops.Result) []byte {
	return encodeAnswer(res.ResultValue(), false)
}

// frame is one stream event as the bare StreamResponse (§11.7).
func (restBinding) frame(_ *request, item any) []byte { return encodeAnswer(item, false) }

// errorAnswer is an HTTP+JSON error: the HTTP status of the error (status
// when the JSON-RPC binding would not answer 200: an over-limit body) and
// a google.rpc.Status body in the vendor's ErrorInfo domain.
func (restBinding) errorAnswer(q *request, rpcErr *RPCError, status int) (int, []byte, bool) {
	name := "INVALID_ARGUMENT"
	if status == http.StatusUnauthorized {
		name = "UNAUTHENTICATED"
	}
	if status == http.StatusOK {
		status, name = restStatus(rpcErr.Code)
	}
	return status, encodeAnswer(restErrorBody(rpcErr, status, name, q.host.vendor.errorDomain()), false), false
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

// restRoute is a route of the binding: the operation's 1.0 method name,
// the task id its path names, and whether it takes a body. A push-config
// route (push) names the task as taskId and its config (configID) as id,
// as the 1.0 push-config messages do. tenant is the path's /{tenant}
// segment ("" for none).
type restRoute struct {
	tenant   string
	method   string
	taskID   string
	configID string
	push     bool
	body     bool
}

// routeError is a path or HTTP method the binding has no route for.
type routeError struct{ method, path string }

func (e *routeError) Error() string { return "no route " + e.method + " " + e.path }

// findRoute maps an HTTP method and a path below RESTPath to a route.
func findRoute(httpMethod, p string) (restRoute, error) {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	tenant := ""
	if len(segs) > 1 && !restTop(segs[0]) {
		tenant, segs = segs[0], segs[1:]
	}
	rt, err := routeOf(httpMethod, p, segs)
	rt.tenant = tenant
	return rt, err
}

// routeOf maps an HTTP method and the segments of path p after the
// tenant to a route.
func routeOf(httpMethod, p string, segs []string) (restRoute, error) {
	post, get := httpMethod == http.MethodPost, httpMethod == http.MethodGet
	bad := &routeError{httpMethod, p}
	switch {
	case len(segs) == 1 && segs[0] == "message:send" && post:
		return restRoute{method: "SendMessage", body: true}, nil
	case len(segs) == 1 && segs[0] == "message:stream" && post:
		return restRoute{method: "SendStreamingMessage", body: true}, nil
	case len(segs) == 1 && segs[0] == "tasks" && get:
		return restRoute{method: "ListTasks"}, nil
	case len(segs) == 1 && segs[0] == "extendedAgentCard" && get:
		return restRoute{method: "GetExtendedAgentCard"}, nil
	case len(segs) >= 2 && segs[0] == "tasks" && segs[1] != "":
		if len(segs) >= 3 && segs[2] == "pushNotificationConfigs" {
			del := httpMethod == http.MethodDelete
			switch {
			case len(segs) == 3 && post:
				return restRoute{method: "CreateTaskPushNotificationConfig", taskID: segs[1], push: true, body: true}, nil
			case len(segs) == 3 && get:
				return restRoute{method: "ListTaskPushNotificationConfigs", taskID: segs[1], push: true}, nil
			case len(segs) == 4 && segs[3] != "" && get:
				return restRoute{method: "GetTaskPushNotificationConfig", taskID: segs[1], configID: segs[3], push: true}, nil
			case len(segs) == 4 && segs[3] != "" && del:
				return restRoute{method: "DeleteTaskPushNotificationConfig", taskID: segs[1], configID: segs[3], push: true}, nil
			}
			return restRoute{}, bad
		}
		if len(segs) != 2 {
			return restRoute{}, bad
		}
		id, verb, _ := strings.Cut(segs[1], ":")
		switch {
		case id == "":
		case verb == "" && get:
			return restRoute{method: "GetTask", taskID: id}, nil
		case verb == "cancel" && post:
			return restRoute{method: "CancelTask", taskID: id, body: true}, nil
		case verb == "subscribe" && (post || get):
			return restRoute{method: "SubscribeToTask", taskID: id, body: post}, nil
		}
	}
	return restRoute{}, bad
}

// restTop reports whether a path segment is one the routes start with
// (else it is a tenant).
func restTop(seg string) bool {
	switch seg {
	case "message:send", "message:stream", "tasks", "extendedAgentCard":
		return true
	}
	return false
}

// contentTypeError is a request body that is not JSON by its Content-Type.
// Both bindings refuse it alike, with HTTP 415 (RFC 9110 §15.5.16) and the
// A2A ContentTypeNotSupportedError (-32005), as the official TCK expects
// of either binding, before the body is parsed: the JSON-RPC binding's
// requests are application/json (A2A 1.0 §9.1), the HTTP+JSON binding's
// SHOULD be application/a2a+json (§11.1), and each takes the other's JSON
// type too, any parameters (charset).
type contentTypeError struct{ got string }

// jsonMediaTypes are the Content-Types a request body may have.
var jsonMediaTypes = []string{"application/json", "application/a2a+json"}

func (e *contentTypeError) Error() string {
	if e.got == "" {
		return "no Content-Type: the body must be application/json or application/a2a+json"
	}
	return "Content-Type " + strconv.Quote(e.got) + " is not application/json or application/a2a+json"
}

// rpc is the JSON-RPC error of the body: -32005 with the Content-Type
// received and those accepted as data.
func (e *contentTypeError) rpc() *RPCError {
	r := a2a.ContentTypeNotSupported(e.Error())
	r.Data = map[string]any{"contentType": e.got, "accepted": jsonMediaTypes}
	return r
}

// serveREST answers one request to the HTTP+JSON binding on host h.
func (h *host) serveREST(w http.ResponseWriter, r *http.Request, ev *Event) {
	q := &request{host: h, binding: restBinding{}}
	q.Version, q.Dialect = requestVersion(r), Dialect10
	ev.Binding, ev.Dialect = BindingREST, string(Dialect10)
	res, err := h.readREST(w, r, q, ev)
	h.respond(w, r, q, res, err, ev)
}

// readREST runs the stages of an HTTP+JSON request: route, body or query,
// then the stages the bindings share (answerMethod).
func (h *host) readREST(w http.ResponseWriter, r *http.Request, q *request, ev *Event) (ops.Result, error) {
	rt, err := findRoute(r.Method, strings.TrimPrefix(r.URL.Path, h.cfg.RESTPath))
	if err != nil {
		return ops.Result{}, err
	}
	q.envelope.tenant, q.Method = rt.tenant, rt.method
	q.info, q.known = methods[rt.method]
	ev.Method, ev.Op = rt.method, q.info.op
	var params map[string]json.RawMessage
	if rt.body {
		if params, err = h.restBody(w, r, ev); err != nil {
			return ops.Result{}, err
		}
	} else if params, err = restQuery(r, rt.method); err != nil {
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
	if q.info.op != OpSend && q.info.op != OpStream {
		q.Params = a2a.ProtoNamesToJSON(q.Params) // a send's decoder renames them itself
	}
	if q.info.op == OpGet || q.info.op == OpCancel || q.info.op == OpSubscribe {
		q.Task, q.TaskErr = ops.DecodeTaskParams(q.Params)
	}
	return h.answerMethod(q, ev)
}

// restBody reads a POST body: JSON by its Content-Type (an empty body is
// an empty object), one JSON object, within the body limit.
func (h *host) restBody(w http.ResponseWriter, r *http.Request, ev *Event) (map[string]json.RawMessage, error) {
	body, err := h.readBody(w, r, ev)
	if err != nil {
		return nil, err
	}
	params := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(body)) == 0 {
		return params, nil
	}
	if ct := r.Header.Get("Content-Type"); !jsonContentType(ct) {
		return nil, &contentTypeError{ct}
	}
	if len(body) <= MaxTracedBody && json.Valid(body) {
		ev.Request = body
	}
	if !json.Valid(body) {
		return nil, notJSON(body)
	}
	if err := json.Unmarshal(body, &params); err != nil || params == nil {
		return nil, a2a.InvalidParams("the body must be a JSON object")
	}
	return params, nil
}

// jsonContentType reports whether a Content-Type is JSON: one of
// jsonMediaTypes, any parameters, in any case (RFC 9110 §8.3.1).
func jsonContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == jsonMediaTypes[0] || mt == jsonMediaTypes[1])
}

// restQuery turns a GET's query into the params of its method: strings as
// they are, the integer and boolean members of ListTasks and GetTask
// parsed (-32602 when they do not parse).
func restQuery(r *http.Request, method string) (map[string]json.RawMessage, error) {
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

// restStatus maps a JSON-RPC error code to the HTTP status and
// google.rpc.Status code name of the HTTP+JSON binding (A2A 1.0 §5.4;
// 1.0.0's 409, 415 and 502 where 1.0.1 moved to 400/400/500, which is what
// the official TCK checks); limit is the status of an over-limit body.
func restStatus(code int) (int, string) {
	switch code {
	case -32001, -32601:
		return http.StatusNotFound, "NOT_FOUND"
	case -32002:
		return http.StatusConflict, "FAILED_PRECONDITION"
	case -32003, -32004, -32007, -32008, -32009:
		return http.StatusBadRequest, "FAILED_PRECONDITION"
	case -32005:
		return http.StatusUnsupportedMediaType, "INVALID_ARGUMENT"
	case -32006:
		return http.StatusBadGateway, "INTERNAL"
	case -32700, -32600, -32602:
		return http.StatusBadRequest, "INVALID_ARGUMENT"
	}
	return http.StatusInternalServerError, "INTERNAL"
}

// restErrorBody renders e as the HTTP+JSON binding's error body (a google.rpc.Status
// whose code is the HTTP status, with the ErrorInfo and the vendor data as
// details) for HTTP status status; domain is the vendor's ErrorInfo domain
// (see rpcErrorObject). Over this binding the status alone does not tell the A2A
// errors apart, so an A2A-specific error MUST carry the spec's ErrorInfo
// (A2A 1.0.1 §11.6), and AIP-193 (which §11.6 adopts) allows one ErrorInfo
// per Status: an A2A-specific error with a vendor reason (the region gate's
// SKILL_NOT_AVAILABLE) carries the spec's reason of its code under
// a2a-protocol.org, and the vendor's reason and domain travel in the
// vendor data object.
func restErrorBody(e *RPCError, status int, statusName, domain string) map[string]any {
	var details []any
	if spec, ok := a2a.CodeReason(e.Code); ok && !e.HasSpecReason() {
		details = e.Details(spec, a2a.SpecDomain)
		vd := map[string]any{"@type": VendorDataType, "reason": e.Reason, "domain": domain}
		for k, v := range e.Data {
			vd[k] = v
		}
		if len(details) > 1 {
			details[1] = vd
		} else {
			details = append(details, vd)
		}
	} else {
		details = e.Details(e.Reason, e.Domain(domain))
	}
	return map[string]any{"error": map[string]any{"code": status, "status": statusName, "message": e.Message, "details": details}}
}
