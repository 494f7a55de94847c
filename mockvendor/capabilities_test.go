package mockvendor

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestStreamingCapability: a vendor whose card says capabilities.streaming
// false refuses every stream method with UnsupportedOperationError
// (-32004; A2A 1.0.1 §3.3.4 MUST): SendStreamingMessage and
// SubscribeToTask (1.0), message/stream and tasks/resubscribe (0.3),
// tasks/sendSubscribe (0.1), and over HTTP+JSON POST /message:stream and
// POST /tasks/{id}:subscribe (HTTP 400, UNSUPPORTED_OPERATION, §5.4). Its
// card says false in so many words, and plain sends still work.
func TestStreamingCapability(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	off := VendorD()
	off.Card.Streaming = false
	f := tStart(t, Config{Vendors: []VendorConfig{off}})
	c := tClient(t, f, tViaProxy)
	card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
	if v, ok := tPath(card.JSON, "capabilities").(map[string]any)["streaming"]; !ok || v != false {
		t.Errorf("card capabilities %v: want streaming false, stated", tPath(card.JSON, "capabilities"))
	}
	subscribe := map[Dialect]string{Dialect03: "tasks/resubscribe", Dialect10: "SubscribeToTask"}
	for _, dc := range tDialects {
		send := tSend(t, c, rpc, dc.D, "x", "")
		task, _ := tTask(send)["id"].(string)
		if task == "" {
			t.Fatalf("%s: a plain send failed: %s", dc.Send, send.Body)
		}
		for _, call := range []struct {
			method string
			params any
		}{{dc.Stream, tSendParams(dc.D, "x", "")}, {subscribe[dc.D], map[string]any{"id": task}}} {
			if call.method == "" {
				continue
			}
			r := tRPC(t, c, rpc, dc.Version, call.method, call.params)
			tWantCode(t, call.method, r, -32004)
			// No stream is opened: the refusal is plain JSON (CORE-CAP-002
			// of the official TCK reads it so).
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: refused as %q, want plain application/json", call.method, ct)
			}
		}
	}
	send := tREST(t, c, "POST", "/message:send", tRESTMsg, nil)
	id, _ := tPath(send.JSON, "task", "id").(string)
	if send.Status != http.StatusOK || id == "" {
		t.Fatalf("REST send: %d %s", send.Status, send.Body)
	}
	tRESTError(t, "POST /message:stream", tREST(t, c, "POST", "/message:stream", tRESTMsg, nil), http.StatusBadRequest, "UNSUPPORTED_OPERATION")
	tRESTError(t, "POST /tasks/{id}:subscribe", tREST(t, c, "POST", "/tasks/"+id+":subscribe", "", nil), http.StatusBadRequest, "UNSUPPORTED_OPERATION")
	for _, e := range tEvents(f, 0) {
		if (e.Op == OpStream || e.Op == OpSubscribe) && e.ErrorCode != -32004 {
			t.Errorf("trace: %s %s answered %d, want -32004", e.Method, e.Path, e.ErrorCode)
		}
	}
}

// tExtRequired and tExtOptional are the extensions of TestExtensions.
const (
	tExtRequired = "https://ext.example/signed-messages/v1"
	tExtOptional = "https://ext.example/citations/v1"
)

// TestExtensions: a card that declares an extension required: true is
// enforced (A2A 1.0.1 §3.3.4): a request that does not name it in the
// header its dialect names (A2A-Extensions in 1.0, X-A2A-Extensions in
// 0.3) gets ExtensionSupportRequiredError (-32008; HTTP 400
// EXTENSION_SUPPORT_REQUIRED over HTTP+JSON), whatever its method; one
// that names it is served, and the answer names the activated extensions
// (those the card declares) in the same header. The trace keeps both
// request headers.
func TestExtensions(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	d := VendorD()
	d.Card.Extensions = []CardExtension{
		{URI: tExtRequired, Description: "every message is signed by its author", Required: true},
		{URI: tExtOptional, Description: "citations"},
	}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	c := tClient(t, f, tViaProxy)
	card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
	exts, _ := tPath(card.JSON, "capabilities", "extensions").([]any)
	if len(exts) != 2 || tPath(exts[0], "uri") != tExtRequired || tPath(exts[0], "required") != true || tPath(exts[1], "required") != nil {
		t.Fatalf("card extensions %v", exts)
	}
	post := func(version, method string, hdr map[string]string) *tResp {
		if version != "" {
			hdr["A2A-Version"] = version
		}
		d := Dialect10
		if version != "1.0" {
			d = Dialect03
		}
		return tPost(t, c, rpc, tEnvelope(method, tSendParams(d, "x", "")), hdr)
	}
	cases := []struct {
		name, version, method string
		hdr                   map[string]string
		code                  int
		echo, echoName        string
	}{
		{"1.0 without", "1.0", "SendMessage", map[string]string{}, -32008, "", ""},
		{"1.0 with the 0.3 name", "1.0", "SendMessage", map[string]string{"X-A2A-Extensions": tExtRequired}, -32008, "", ""},
		{"1.0 optional only", "1.0", "SendMessage", map[string]string{"A2A-Extensions": tExtOptional}, -32008, tExtOptional, "A2A-Extensions"},
		{"1.0 declared", "1.0", "SendMessage", map[string]string{"A2A-Extensions": tExtRequired}, 0, tExtRequired, "A2A-Extensions"},
		{"1.0 declared among others", "1.0", "SendMessage", map[string]string{"A2A-Extensions": "urn:other, " + tExtOptional + " ," + tExtRequired}, 0, tExtRequired + "," + tExtOptional, "A2A-Extensions"},
		{"0.3 without", "0.3", "message/send", map[string]string{}, -32008, "", ""},
		{"0.3 with the 1.0 name", "0.3", "message/send", map[string]string{"A2A-Extensions": tExtRequired}, -32008, "", ""},
		{"0.3 declared", "0.3", "message/send", map[string]string{"X-A2A-Extensions": tExtRequired}, 0, tExtRequired, "X-A2A-Extensions"},
		{"no A2A-Version (0.3) declared", "", "message/send", map[string]string{"X-A2A-Extensions": tExtRequired}, 0, tExtRequired, "X-A2A-Extensions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := post(tc.version, tc.method, tc.hdr)
			if r.Code() != tc.code {
				t.Fatalf("code %d, want %d: %s", r.Code(), tc.code, r.Body)
			}
			if tc.code == -32008 {
				e := r.Err()
				want := "A2A-Extensions"
				if tc.version != "1.0" {
					want = "X-A2A-Extensions"
				}
				if b, _ := json.Marshal(e["data"]); !json.Valid(b) || !jsonHas(e["data"], tExtRequired) || !jsonHas(e["data"], want) {
					t.Errorf("error data %v: want the missing extension and the header %s", e["data"], want)
				}
			}
			other := "X-A2A-Extensions"
			if tc.echoName == other {
				other = "A2A-Extensions"
			}
			if tc.echoName != "" && r.Header.Get(tc.echoName) != tc.echo || r.Header.Get(other) != "" {
				t.Errorf("answer headers %v: want %s: %s", r.Header, tc.echoName, tc.echo)
			}
		})
	}
	t.Run("every method", func(t *testing.T) {
		tWantCode(t, "GetTask", tRPC(t, c, rpc, "1.0", "GetTask", map[string]any{"id": "t-none"}), -32008)
		r := tPost(t, c, rpc, tEnvelope("GetTask", map[string]any{"id": "t-none"}), map[string]string{"A2A-Version": "1.0", "A2A-Extensions": tExtRequired})
		tWantCode(t, "GetTask declared", r, -32001)
	})
	t.Run("HTTP+JSON", func(t *testing.T) {
		tRESTError(t, "POST /message:send", tREST(t, c, "POST", "/message:send", tRESTMsg, nil), http.StatusBadRequest, "EXTENSION_SUPPORT_REQUIRED")
		r := tREST(t, c, "POST", "/message:send", tRESTMsg, map[string]string{"A2A-Extensions": tExtRequired})
		if r.Status != http.StatusOK || r.Header.Get("A2A-Extensions") != tExtRequired {
			t.Errorf("declared: HTTP %d, A2A-Extensions %q: %s", r.Status, r.Header.Get("A2A-Extensions"), r.Body)
		}
	})
	var seen1, seen03 bool
	for _, e := range tEvents(f, 0) {
		seen1 = seen1 || e.A2AExtensions == tExtRequired && e.Method == "SendMessage" && e.ErrorCode == 0
		seen03 = seen03 || e.XA2AExtensions == tExtRequired && e.Method == "message/send" && e.ErrorCode == 0
	}
	if !seen1 || !seen03 {
		t.Errorf("the trace keeps A2A-Extensions (%v) and X-A2A-Extensions (%v)", seen1, seen03)
	}
}

// TestExtensionsOptionalOnly: a card whose extensions are all optional
// refuses nothing, and echoes what a request activates.
func TestExtensionsOptionalOnly(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	d := VendorD()
	d.Card.Extensions = []CardExtension{{URI: tExtOptional}}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	c := tClient(t, f, tViaProxy)
	if r := tSend(t, c, rpc, Dialect10, "x", ""); r.Code() != 0 || r.Header.Get("A2A-Extensions") != "" {
		t.Errorf("no extension asked: %d, header %q", r.Code(), r.Header.Get("A2A-Extensions"))
	}
	r := tPost(t, c, rpc, tEnvelope("SendMessage", tSendParams(Dialect10, "x", "")), map[string]string{"A2A-Version": "1.0", "A2A-Extensions": tExtOptional + ",urn:unknown"})
	if r.Code() != 0 || r.Header.Get("A2A-Extensions") != tExtOptional {
		t.Errorf("optional asked: %d, header %q", r.Code(), r.Header.Get("A2A-Extensions"))
	}
}

// jsonHas reports whether the JSON form of v contains s as a string
// value (at any depth).
func jsonHas(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case []any:
		for _, e := range x {
			if jsonHas(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if jsonHas(e, s) {
				return true
			}
		}
	}
	return false
}

// TestExtensions03Card: a 0.3 vendor's card (the 0.3 members only)
// declares a required extension in the same AgentExtension shape
// (capabilities.extensions: uri, description, required), and the vendor
// reads X-A2A-Extensions, the header 0.3 names.
func TestExtensions03Card(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	d := VendorD()
	d.Versions, d.Card.Form = []string{"0.3"}, "0.3"
	d.Card.Extensions = []CardExtension{{URI: tExtRequired, Description: "signed", Required: true}}
	f := tStart(t, Config{Vendors: []VendorConfig{d}})
	c := tClient(t, f, tViaProxy)
	card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
	if card.JSON["supportedInterfaces"] != nil || tPath(card.JSON, "capabilities", "extensions", 0, "uri") != tExtRequired || tPath(card.JSON, "capabilities", "extensions", 0, "required") != true {
		t.Fatalf("0.3 card: %s", card.Body)
	}
	tWantCode(t, "without", tSend(t, c, rpc, Dialect03, "x", ""), -32008)
	r := tPost(t, c, rpc, tEnvelope("message/send", tSendParams(Dialect03, "x", "")), map[string]string{"A2A-Version": "0.3", "X-A2A-Extensions": tExtRequired})
	if r.Code() != 0 || r.Header.Get("X-A2A-Extensions") != tExtRequired {
		t.Errorf("declared: %d, X-A2A-Extensions %q: %s", r.Code(), r.Header.Get("X-A2A-Extensions"), r.Body)
	}
}
