package rest

import (
	"errors"
	"net/http"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TestFindRoute: each route of A2A 1.0 §11 maps to its operation, with
// the task, config and tenant its path names; a path or method no route
// has is a RouteError.
func TestFindRoute(t *testing.T) {
	cases := []struct {
		httpMethod, path string
		want             route
	}{
		{"POST", "/message:send", route{method: "SendMessage", op: trace.OpSend, body: true}},
		{"POST", "/message:stream", route{method: "SendStreamingMessage", op: trace.OpStream, body: true}},
		{"GET", "/tasks", route{method: "ListTasks", op: trace.OpList}},
		{"GET", "/extendedAgentCard", route{method: "GetExtendedAgentCard", op: trace.OpExtendedCard}},
		{"GET", "/tasks/t-1", route{method: "GetTask", op: trace.OpGet, taskID: "t-1"}},
		{"POST", "/tasks/t-1:cancel", route{method: "CancelTask", op: trace.OpCancel, taskID: "t-1", body: true}},
		{"POST", "/tasks/t-1:subscribe", route{method: "SubscribeToTask", op: trace.OpSubscribe, taskID: "t-1", body: true}},
		{"GET", "/tasks/t-1:subscribe", route{method: "SubscribeToTask", op: trace.OpSubscribe, taskID: "t-1"}},
		{"POST", "/tasks/t-1/pushNotificationConfigs", route{method: "CreateTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: "t-1", push: true, body: true}},
		{"GET", "/tasks/t-1/pushNotificationConfigs", route{method: "ListTaskPushNotificationConfigs", op: trace.OpPushConfig, taskID: "t-1", push: true}},
		{"GET", "/tasks/t-1/pushNotificationConfigs/c-1", route{method: "GetTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: "t-1", configID: "c-1", push: true}},
		{"DELETE", "/tasks/t-1/pushNotificationConfigs/c-1", route{method: "DeleteTaskPushNotificationConfig", op: trace.OpPushConfig, taskID: "t-1", configID: "c-1", push: true}},
		{"POST", "/acme/message:send", route{tenant: "acme", method: "SendMessage", op: trace.OpSend, body: true}},
		{"GET", "/acme/tasks/t-1", route{tenant: "acme", method: "GetTask", op: trace.OpGet, taskID: "t-1"}},
	}
	for _, c := range cases {
		got, err := findRoute(c.httpMethod, c.path)
		if err != nil || got != c.want {
			t.Errorf("%s %s: %+v, %v; want %+v", c.httpMethod, c.path, got, err, c.want)
		}
	}
	for _, bad := range []struct{ httpMethod, path string }{
		{"GET", "/message:send"},
		{"DELETE", "/tasks/t-1"},
		{"POST", "/tasks/:cancel"},
		{"POST", "/tasks/t-1:archive"},
		{"GET", "/tasks/t-1/history"},
		{"PUT", "/tasks/t-1/pushNotificationConfigs/c-1"},
		{"GET", "/tasks/t-1/pushNotificationConfigs/"},
		{"GET", "/agent"},
	} {
		_, err := findRoute(bad.httpMethod, bad.path)
		var re *binding.RouteError
		if !errors.As(err, &re) || re.Method != bad.httpMethod || re.Path != bad.path {
			t.Errorf("%s %s: %v, want a RouteError naming the method and path", bad.httpMethod, bad.path, err)
		}
	}
}

// TestHTTPStatus: the HTTP status and google.rpc.Status code of each A2A
// error code on this binding.
func TestHTTPStatus(t *testing.T) {
	cases := []struct {
		code   int
		status int
		name   string
	}{
		{-32001, http.StatusNotFound, "NOT_FOUND"},
		{-32601, http.StatusNotFound, "NOT_FOUND"},
		{-32002, http.StatusConflict, "FAILED_PRECONDITION"},
		{-32004, http.StatusBadRequest, "FAILED_PRECONDITION"},
		{-32009, http.StatusBadRequest, "FAILED_PRECONDITION"},
		{-32005, http.StatusUnsupportedMediaType, "INVALID_ARGUMENT"},
		{-32006, http.StatusBadGateway, "INTERNAL"},
		{-32602, http.StatusBadRequest, "INVALID_ARGUMENT"},
		{-32603, http.StatusInternalServerError, "INTERNAL"},
		{-32050, http.StatusInternalServerError, "INTERNAL"},
	}
	for _, c := range cases {
		if status, name := httpStatus(c.code); status != c.status || name != c.name {
			t.Errorf("%d: %d %s, want %d %s", c.code, status, name, c.status, c.name)
		}
	}
}
