package rest

import (
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The 1.0 HTTP+JSON binding (A2A 1.0 §11): the same operations, tasks,
// faults and trace as the JSON-RPC endpoint, reached by route instead of
// by method name. Serve is the JSON-RPC binding's counterpart: it reads
// the route (route: the operation's 1.0 method name and the task id), the body
// (POST) or the query (GET) into the params the JSON-RPC method would
// take, then runs the shared stages (binding.Handle: version, tenant,
// params, fault hooks, operation); render.go renders the result bare (a
// Task, a SendMessageResponse, a ListTasksResponse; a stream as
// server-sent events of bare StreamResponses) and an error as a
// google.rpc.Status with the HTTP status of its code (httpStatus). The binding
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

// route is a route of the binding: the operation's 1.0 method name,
// the task id its path names, and whether it takes a body. A push-config
// route (push) names the task as taskId and its config (configID) as id,
// as the 1.0 push-config messages do. tenant is the path's /{tenant}
// segment ("" for none).
type route struct {
	tenant   string
	method   string
	op       trace.Op
	taskID   string
	configID string
	push     bool
	body     bool
}

// findRoute maps an HTTP method and a path below RESTPath to a route.
func findRoute(httpMethod, p string) (route, error) {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	tenant := ""
	if len(segs) > 1 && !top(segs[0]) {
		tenant, segs = segs[0], segs[1:]
	}
	rt, err := routeOf(httpMethod, p, segs)
	rt.tenant = tenant
	return rt, err
}

// routeOf maps an HTTP method and the segments of path p after the
// tenant to a route.
func routeOf(httpMethod, p string, segs []string) (route, error) {
	post, get := httpMethod == http.MethodPost, httpMethod == http.MethodGet
	bad := &binding.RouteError{Method: httpMethod, Path: p}
	switch {
	case len(segs) == 1 && segs[0] == "message:send" && post:
		return route{method: "SendMessage", op: trace.OpSend, body: true}, nil
	case len(segs) == 1 && segs[0] == "message:stream" && post:
		return route{method: "SendStreamingMessage", op: trace.OpStream, body: true}, nil
	case len(segs) == 1 && segs[0] == "tasks" && get:
		return route{method: "ListTasks", op: trace.OpList}, nil
	case len(segs) == 1 && segs[0] == "extendedAgentCard" && get:
		return route{method: "GetExtendedAgentCard", op: trace.OpExtendedCard}, nil
	case len(segs) >= 2 && segs[0] == "tasks" && segs[1] != "":
		if len(segs) >= 3 && segs[2] == "pushNotificationConfigs" {
			del := httpMethod == http.MethodDelete
			switch {
			case len(segs) == 3 && post:
				return route{method: "CreateTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: segs[1], push: true, body: true}, nil
			case len(segs) == 3 && get:
				return route{method: "ListTaskPushNotificationConfigs", op: trace.OpPushConfig, taskID: segs[1], push: true}, nil
			case len(segs) == 4 && segs[3] != "" && get:
				return route{method: "GetTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: segs[1], configID: segs[3], push: true}, nil
			case len(segs) == 4 && segs[3] != "" && del:
				return route{method: "DeleteTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: segs[1], configID: segs[3], push: true}, nil
			}
			return route{}, bad
		}
		if len(segs) != 2 {
			return route{}, bad
		}
		id, verb, _ := strings.Cut(segs[1], ":")
		switch {
		case id == "":
		case verb == "" && get:
			return route{method: "GetTask", op: trace.OpGet, taskID: id}, nil
		case verb == "cancel" && post:
			return route{method: "CancelTask", op: trace.OpCancel, taskID: id, body: true}, nil
		case verb == "subscribe" && (post || get):
			return route{method: "SubscribeToTask", op: trace.OpSubscribe, taskID: id, body: post}, nil
		}
	}
	return route{}, bad
}

// top reports whether a path segment is one the routes start with
// (else it is a tenant).
func top(seg string) bool {
	switch seg {
	case "message:send", "message:stream", "tasks", "extendedAgentCard":
		return true
	}
	return false
}
