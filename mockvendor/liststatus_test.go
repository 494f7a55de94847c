package mockvendor

import (
	"net/http"
	"testing"
)

// TestListTasksUnknownStatus: a ListTasks status filter that is no task
// state (@a2a-js/sdk 1.3.0 sends "UNRECOGNIZED" when its caller leaves
// status out) is -32602 over JSON-RPC and 400 over HTTP+JSON, not a
// silently empty list; both spellings of a real state still filter.
func TestListTasksUnknownStatus(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}})
	c := tClient(t, f, tViaProxy)
	rpc := "https://" + HostRPCD + DefaultRPCPath
	tSend(t, c, rpc, Dialect10, "x", "")
	tWantCode(t, "UNRECOGNIZED", tRPC(t, c, rpc, "1.0", "ListTasks", map[string]any{"status": "UNRECOGNIZED"}), -32602)
	tRESTError(t, "REST UNRECOGNIZED", tREST(t, c, http.MethodGet, "/tasks?status=UNRECOGNIZED", "", nil), http.StatusBadRequest, "INVALID_PARAMS")
	for _, s := range []string{"TASK_STATE_COMPLETED", "completed"} {
		r := tRPC(t, c, rpc, "1.0", "ListTasks", map[string]any{"status": s})
		if r.Code() != 0 || len(tAsList(r.Result()["tasks"])) != 1 {
			t.Errorf("status %s: %s", s, r.Body)
		}
	}
}
