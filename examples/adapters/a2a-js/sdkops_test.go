package a2ajs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// opResult is one operation's result as sdkops.mjs prints it.
type opResult struct {
	Op    string          `json:"op"`
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value"`
	Error *struct {
		Name     string          `json:"name"`
		Code     *int            `json:"code"`
		Status   *int            `json:"status"`
		Message  string          `json:"message"`
		Data     json.RawMessage `json:"data"`
		Metadata map[string]any  `json:"metadata"`
	} `json:"error"`
}

// opRun is one run of sdkops.mjs.
type opRun struct {
	Mode            string          `json:"mode"`
	ProtocolVersion string          `json:"protocolVersion"`
	Results         []opResult      `json:"results"`
	Fatal           json.RawMessage `json:"fatal"`
}

func (r *opRun) get(op string) (opResult, bool) {
	for _, x := range r.Results {
		if x.Op == op {
			return x, true
		}
	}
	return opResult{}, false
}

// sdkModes are the @a2a-js/sdk clients the table covers.
var sdkModes = []string{"jsonrpc", "rest", "compat03"}

// sdkFleets are the two vendor D set-ups: as the default fleet has it
// (push notifications, no extended card), and with both flags on and a
// region gate on fx-hedging.
func sdkFleets() map[string]mockvendor.Config {
	flags := mockvendor.VendorD()
	flags.Card.PushNotifications = true
	// Public: the clients call D without credentials (an extended card
	// needs an auth otherwise, A2A 1.0 §13.3).
	flags.Card.ExtendedCard = &mockvendor.ExtendedCardConfig{Public: true}
	flags.Faults = []mockvendor.FaultSpec{mockvendor.Spec("region-gate", mockvendor.RegionGate{GatedSkills: []string{mockvendor.SkillFXHedging}, AvailableSkills: []string{mockvendor.SkillInvoice}})}
	return map[string]mockvendor.Config{
		"default": {Vendors: []mockvendor.VendorConfig{mockvendor.VendorD()}},
		"flags":   {Vendors: []mockvendor.VendorConfig{flags}},
	}
}

// runSDKOps starts the fleet and runs sdkops.mjs in every mode.
func runSDKOps(t *testing.T, node string, cfg mockvendor.Config) map[string]*opRun {
	t.Helper()
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	caFile, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(caFile) })
	out := map[string]*opRun{}
	for _, mode := range sdkModes {
		arg, _ := json.Marshal(map[string]string{"base": "https://" + mockvendor.HostCardD, "proxy": f.ProxyURL(), "caFile": caFile, "mode": mode, "gatedSkill": mockvendor.SkillFXHedging})
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, node, "sdkops.mjs", string(arg))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("%s: node sdkops.mjs: %v\n%s", mode, err, stderr.String())
		}
		var r opRun
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Fatal != nil {
			t.Fatalf("%s: %v %s\nstdout: %s\nstderr: %s", mode, err, r.Fatal, stdout.String(), stderr.String())
		}
		out[mode] = &r
	}
	if os.Getenv("SDKOPS_TRACE") == "1" {
		for _, e := range f.Trace().Events() {
			t.Logf("trace: %s %s %s %d %s", e.Binding, e.Method, e.Path, e.Status, e.Request)
		}
	}
	return out
}

// sdkExpect is what an operation must give: ok with a check of its value,
// or an error of the SDK's error class errName.
type sdkExpect struct {
	errName string
	check   func(v map[string]any, e *opResult) error
}

func okIf(f func(v map[string]any) error) sdkExpect {
	return sdkExpect{check: func(v map[string]any, _ *opResult) error { return f(v) }}
}
func errIs(name string) sdkExpect { return sdkExpect{errName: name} }
func errWith(name string, f func(e *opResult) error) sdkExpect {
	return sdkExpect{errName: name, check: func(_ map[string]any, e *opResult) error { return f(e) }}
}

func wantState(s string) func(v map[string]any) error {
	return func(v map[string]any) error {
		if v["state"] != s {
			return fmt.Errorf("state %v, want %s", v["state"], s)
		}
		return nil
	}
}

func events(r opResult) ([]map[string]any, error) {
	var evs []map[string]any
	if err := json.Unmarshal(r.Value, &evs); err != nil {
		return nil, err
	}
	return evs, nil
}

// gateData checks the region gate's error as the SDK hands it over: over
// JSON-RPC 1.0 error.data (kept by JsonRpc*Error.data) is the array of an
// ErrorInfo under D's own domain and the vendor data; over HTTP+JSON the
// SDK keeps only the ErrorInfo metadata of a2a-protocol.org ErrorInfos;
// in 0.3 error.data is the vendor's object.
func gateData(mode string) func(e *opResult) error {
	return func(e *opResult) error {
		switch mode {
		case "jsonrpc":
			var d []map[string]any
			if err := json.Unmarshal(e.Error.Data, &d); err != nil || len(d) != 2 {
				return fmt.Errorf("data %s", e.Error.Data)
			}
			if d[0]["reason"] != "SKILL_NOT_AVAILABLE" || d[0]["domain"] != mockvendor.HostCardD {
				return fmt.Errorf("ErrorInfo %v: want SKILL_NOT_AVAILABLE under %s", d[0], mockvendor.HostCardD)
			}
			if s, _ := d[1]["availableSkills"].([]any); len(s) != 1 || s[0] != mockvendor.SkillInvoice {
				return fmt.Errorf("vendor data %v", d[1])
			}
		case "rest":
			if e.Error.Metadata["availableSkills"] != mockvendor.SkillInvoice {
				return fmt.Errorf("metadata %v", e.Error.Metadata)
			}
		case "compat03":
			var d map[string]any
			if err := json.Unmarshal(e.Error.Data, &d); err != nil {
				return fmt.Errorf("data %s", e.Error.Data)
			}
			if s, _ := d["availableSkills"].([]any); len(s) != 1 || s[0] != mockvendor.SkillInvoice {
				return fmt.Errorf("data %v", d)
			}
		}
		return nil
	}
}

// sdkExpected is the expected result of each operation per fleet set-up
// and mode: the table of docs/tck.md.
func sdkExpected(fleet, mode string) map[string]sdkExpect {
	flags := fleet == "flags"
	// The default D claims push notifications too (the fleet delivers
	// them); the flags add the extended card and the region gate.
	push := flags || mockvendor.VendorD().Card.PushNotifications
	card := okIf(func(v map[string]any) error {
		ext := strings.HasSuffix(fmt.Sprint(v["description"]), "(extended card)")
		if ext != flags || v["extendedAgentCard"] != flags || v["pushNotifications"] != push {
			return fmt.Errorf("card %v (extended %v)", v, ext)
		}
		return nil
	})
	e := map[string]sdkExpect{
		"getAgentCard":         card,
		"sendMessage":          okIf(wantState("TASK_STATE_COMPLETED")),
		"sendMessageStream":    {},
		"getTask":              okIf(func(v map[string]any) error { return first(wantState("TASK_STATE_COMPLETED")(v), zero(v, "history")) }),
		"getTask unknown":      errIs("TaskNotFoundError"),
		"cancelTask completed": errIs("TaskNotCancelableError"),
		"sendMessage returnImmediately": okIf(func(v map[string]any) error {
			if s := v["state"]; s != "TASK_STATE_SUBMITTED" && s != "TASK_STATE_WORKING" {
				return fmt.Errorf("state %v", s)
			}
			return nil
		}),
		"cancelTask working":              okIf(wantState("TASK_STATE_CANCELED")),
		"sendMessage returnImmediately 2": okIf(func(map[string]any) error { return nil }),
		"resubscribeTask working":         {},
		"resubscribeTask completed":       errIs("UnsupportedOperationError"),
		"listTasks": okIf(func(v map[string]any) error {
			if v["hasSent"] != true {
				return fmt.Errorf("the sent task is not listed: %v", v)
			}
			return nil
		}),
	}
	// A ListTasksRequest without status: the SDK sends "UNRECOGNIZED", D
	// answers -32602 (RequestMalformedError in the SDK).
	e["listTasks without status"] = errIs("RequestMalformedError")
	if mode == "rest" {
		// The REST query leaves the unrecognized status out: all tasks.
		e["listTasks without status"] = okIf(func(map[string]any) error { return nil })
	}
	if mode == "compat03" {
		// 0.3 has no tasks/list on JSON-RPC: the SDK refuses it itself.
		e["listTasks"] = errIs("JsonRpcTransportError")
		e["listTasks without status"] = errIs("JsonRpcTransportError")
		// D sends the 0.3 tasks/resubscribe error as the stream's one
		// event; the SDK's 0.3 transport throws a plain Error for it,
		// with the code in the message.
		e["resubscribeTask completed"] = errWith("Error", func(e *opResult) error {
			if !strings.Contains(e.Error.Message, "(Code: -32004)") {
				return fmt.Errorf("message %q lacks the -32004", e.Error.Message)
			}
			return nil
		})
	}
	for _, op := range []string{"createTaskPushNotificationConfig", "getTaskPushNotificationConfig", "listTaskPushNotificationConfig", "deleteTaskPushNotificationConfig"} {
		e[op] = errIs("PushNotificationNotSupportedError")
	}
	if push {
		e["createTaskPushNotificationConfig"] = okIf(func(v map[string]any) error {
			if v["id"] != "c1" || v["url"] != "https://hook.example/a2a" {
				return fmt.Errorf("config %v", v)
			}
			return nil
		})
		e["getTaskPushNotificationConfig"] = e["createTaskPushNotificationConfig"]
		e["listTaskPushNotificationConfig"] = okIf(func(v map[string]any) error {
			if fmt.Sprint(v["ids"]) != "[c1]" {
				return fmt.Errorf("list %v", v)
			}
			return nil
		})
		e["deleteTaskPushNotificationConfig"] = okIf(func(map[string]any) error { return nil })
	}
	if flags {
		e["sendMessage gated skill"] = errWith("UnsupportedOperationError", gateData(mode))
	} else {
		e["sendMessage gated skill"] = okIf(wantState("TASK_STATE_COMPLETED"))
	}
	return e
}

func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func zero(v map[string]any, k string) error {
	if n, _ := v[k].(float64); n != 0 {
		return fmt.Errorf("%s %v, want 0", k, v[k])
	}
	return nil
}

// TestSDKOperations runs every operation of @a2a-js/sdk 1.3.0's Client
// against vendor D on a real TLS fleet, with the 1.0 client over JSON-RPC
// and over HTTP+JSON and with its 0.3 compatibility mode, for D as the
// default fleet has it and for D with push notifications, an extended
// card and a region gate, and checks each result. It skips without node
// or the npm packages unless A2A_CONFORM_REQUIRE_NODE=1.
func TestSDKOperations(t *testing.T) {
	const fix = "run npm ci --prefix examples/adapters/a2a-js (or make deps)"
	node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed: install it, then "+fix, "node")
	testenv.File(t, "A2A_CONFORM_REQUIRE_NODE", filepath.Join("node_modules", "@a2a-js", "sdk"), fix)
	fleets := sdkFleets()
	names := make([]string, 0, len(fleets))
	for n := range fleets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, fleet := range names {
		t.Run(fleet, func(t *testing.T) {
			runs := runSDKOps(t, node, fleets[fleet])
			for _, mode := range sdkModes {
				run := runs[mode]
				t.Run(mode, func(t *testing.T) {
					wantV := "1.0"
					if mode == "compat03" {
						wantV = "0.3"
					}
					if run.ProtocolVersion != wantV {
						t.Errorf("the client speaks %q, want %s", run.ProtocolVersion, wantV)
					}
					exp := sdkExpected(fleet, mode)
					for op, want := range exp {
						got, ok := run.get(op)
						if !ok {
							t.Errorf("%s: not run", op)
							continue
						}
						t.Logf("%s: %s", op, summarize(got))
						if err := checkOp(op, want, got); err != nil {
							t.Errorf("%s: %v", op, err)
						}
					}
					for _, r := range run.Results {
						if _, ok := exp[r.Op]; !ok {
							t.Errorf("%s: no expectation", r.Op)
						}
					}
				})
			}
		})
	}
}

func checkOp(op string, want sdkExpect, got opResult) error {
	if want.errName != "" {
		if got.OK || got.Error == nil || got.Error.Name != want.errName {
			return fmt.Errorf("got %s, want %s", summarize(got), want.errName)
		}
		if want.check != nil {
			return want.check(nil, &got)
		}
		return nil
	}
	if !got.OK {
		return fmt.Errorf("failed: %s", summarize(got))
	}
	if strings.HasPrefix(op, "sendMessageStream") || strings.HasPrefix(op, "resubscribeTask") {
		evs, err := events(got)
		if err != nil || len(evs) < 2 || evs[0]["kind"] != "task" || evs[len(evs)-1]["state"] != "TASK_STATE_COMPLETED" {
			return fmt.Errorf("stream %s: want the task first and completed last", got.Value)
		}
		return nil
	}
	var v map[string]any
	_ = json.Unmarshal(got.Value, &v)
	if want.check != nil {
		return want.check(v, &got)
	}
	return nil
}

// summarize is one result in a line, for the test log (and the table).
func summarize(r opResult) string {
	if r.OK {
		return "ok " + string(r.Value)
	}
	if r.Error == nil {
		return "error"
	}
	s := r.Error.Name
	if r.Error.Code != nil {
		s += fmt.Sprintf(" code %d", *r.Error.Code)
	}
	if r.Error.Status != nil {
		s += fmt.Sprintf(" HTTP %d", *r.Error.Status)
	}
	return s + ": " + r.Error.Message
}
