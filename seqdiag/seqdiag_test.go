package seqdiag

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func sample() []mockvendor.Event {
	return []mockvendor.Event{
		{Seq: 1, Host: "agent-b.example", Vendor: "b", HTTPMethod: "GET", Path: mockvendor.CardPath, Op: mockvendor.OpCardFetch, Status: 200, Served: "cdn"},
		{Seq: 2, Host: "agent-b.example", Vendor: "b", HTTPMethod: "GET", Path: mockvendor.CardPath, Op: mockvendor.OpCardFetch, CacheControl: "no-cache", IfNoneMatch: `"abc"`, Status: 304, Served: "not-modified"},
		{Seq: 3, Host: "agent.vendor-a.example", Vendor: "a", HTTPMethod: "GET", Path: mockvendor.JWKSPath, Op: mockvendor.OpJWKSFetch, Status: 200, Served: "fetch 1"},
		{Seq: 4, Host: "rpc.agent-b.example", Vendor: "b", HTTPMethod: "POST", Path: "/a2a/v1", Op: mockvendor.OpSend, Method: "message/send", Dialect: "0.3", Probe: true, Status: 200, State: "completed"},
		{Seq: 5, Host: "rpc.agent-b.example", Vendor: "b", HTTPMethod: "POST", Path: "/a2a/v1", Op: mockvendor.OpSend, Method: "message/send", Dialect: "0.3", Skill: "invoice-reconciliation", Status: 200, ErrorCode: -32004, ErrorMessage: "skill not available in region", Faults: []string{"region-gate"}},
		{Seq: 6, Host: "rpc.agent-b.example", Vendor: "b", HTTPMethod: "POST", Path: "/a2a/v1", Op: mockvendor.OpCancel, Method: "tasks/cancel", TaskID: "t-1", Status: 200, State: "canceled"},
		{Seq: 7, Host: "evil.example:443", Op: mockvendor.OpRefused, Note: "outside the fleet"},
		{Seq: 8, Host: "agent-d.example", Vendor: "d", HTTPMethod: "GET", Path: "/<script>alert(1)</script>&\x01", Op: mockvendor.OpOther, Status: 404},
	}
}

// wellFormed parses the SVG with encoding/xml and returns the text of every
// element and the ids.
func wellFormed(t *testing.T, svg []byte) (texts []string, ids map[string]string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	ids = map[string]string{}
	var stack []string
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = x.Name.Local
				if x.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root namespace = %q", x.Name.Space)
				}
			}
			stack = append(stack, x.Name.Local)
			for _, a := range x.Attr {
				if a.Name.Local == "id" {
					cls := ""
					for _, a2 := range x.Attr {
						if a2.Name.Local == "class" {
							cls = a2.Value
						}
					}
					ids[a.Value] = cls
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && (stack[len(stack)-1] == "text" || stack[len(stack)-1] == "title") {
				texts = append(texts, string(x))
			}
		}
	}
	if root != "svg" {
		t.Errorf("root element = %q, want svg", root)
	}
	return texts, ids
}

func TestRenderLabelsAndAnchors(t *testing.T) {
	svg := Render(sample(), Options{Highlight: 5, Title: "CARD-001 <run>"})
	texts, ids := wellFormed(t, svg)
	all := strings.Join(texts, "\n")
	for _, want := range []string{
		"CARD-001 <run>",
		"orchestrator", "agent-b.example", "agent.vendor-a.example", "rpc.agent-b.example", Outside,
		"GET card", "200 cdn",
		"GET card CC:no-cache INM", "304",
		"GET jwks", "probe message/send (0.3)", "200 completed",
		"message/send skill=invoice-reconciliation (0.3) [region-gate]", "-32004",
		"tasks/cancel task=t-1", "200 canceled",
		"CONNECT evil.example:443 refused",
		"GET /<script>alert(1)</script>&\uFFFD",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("diagram lacks %q; texts:\n%s", want, all)
		}
	}
	for seq := 1; seq <= 8; seq++ {
		if _, ok := ids["ev-"+string(rune('0'+seq))]; !ok {
			t.Errorf("no anchor ev-%d", seq)
		}
	}
	if cls := ids[Anchor(5)]; !strings.Contains(cls, "sq-hl") || !strings.Contains(cls, "sq-err") {
		t.Errorf("event 5 class = %q, want highlighted error", cls)
	}
	if cls := ids[Anchor(7)]; !strings.Contains(cls, "sq-refused") {
		t.Errorf("event 7 class = %q, want refused", cls)
	}
	if cls := ids[Anchor(4)]; strings.Contains(cls, "sq-hl") {
		t.Errorf("event 4 highlighted: %q", cls)
	}
	// Lifelines in order of first appearance.
	order := []string{"orchestrator", "agent-b.example", "agent.vendor-a.example", "rpc.agent-b.example", "agent-d.example", Outside}
	last := -1
	for _, name := range order {
		i := strings.Index(string(svg), ">"+name+"</text>")
		if i <= last {
			t.Errorf("lifeline %q out of order", name)
		}
		last = i
	}
}

func TestRenderEscapes(t *testing.T) {
	evil := `"><script>alert(1)</script><x a='`
	svg := Render([]mockvendor.Event{
		{Seq: 1, Host: evil, Op: mockvendor.OpSend, Method: evil, Skill: evil + "&amp;", ErrorCode: -32601, ErrorMessage: evil},
		{Seq: 2, Host: "h", Op: mockvendor.OpRefused, Note: evil},
	}, Options{Title: evil, Orchestrator: evil})
	if bytes.Contains(svg, []byte("<script")) || bytes.Contains(svg, []byte("<x ")) {
		t.Fatalf("unescaped markup in SVG:\n%s", svg)
	}
	texts, _ := wellFormed(t, svg)
	if !strings.Contains(strings.Join(texts, "\n"), evil) {
		t.Errorf("escaped text does not read back as the original")
	}
}

func TestRenderEmpty(t *testing.T) {
	texts, ids := wellFormed(t, Render(nil, Options{}))
	if len(ids) != 3 || !strings.Contains(strings.Join(texts, ""), "orchestrator") {
		t.Errorf("empty diagram: texts %q, ids %v (want the orchestrator and the three arrow tips)", texts, ids)
	}
}

func TestClipLongLabels(t *testing.T) {
	long := strings.Repeat("ü", 200)
	svg := Render([]mockvendor.Event{{Seq: 1, Host: "h", Op: mockvendor.OpSend, Method: "message/send", Skill: long, Status: 200}}, Options{MaxLabel: 40})
	texts, _ := wellFormed(t, svg)
	found := false
	for _, s := range texts {
		if strings.HasPrefix(s, "message/send skill=") {
			found = true
			if n := len([]rune(s)); n != 40 || !strings.HasSuffix(s, "…") {
				t.Errorf("label of %d runes %q, want 40 ending in …", n, s)
			}
		}
	}
	if !found {
		t.Error("no send label")
	}
}

func TestLabelsShowCredentialOwners(t *testing.T) {
	cases := []struct {
		ev       mockvendor.Event
		req, res string
	}{
		{mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", Status: 200, State: "completed",
			Credentials: []mockvendor.Presented{{Owner: "d", Via: "bearer"}}}, "SendMessage cred:d", "200 completed"},
		{mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", Status: 401, ErrorCode: -32000,
			Credentials: []mockvendor.Presented{{Owner: "a", Via: "bearer"}, {Owner: mockvendor.CredentialUnknown, Via: "header:X-Api-Key"}}}, "SendMessage cred:a cred:unknown", "401"},
	}
	for _, c := range cases {
		if req, res := Labels(c.ev); req != c.req || res != c.res {
			t.Errorf("Labels = %q, %q; want %q, %q", req, res, c.req, c.res)
		}
	}
}

// TestLabelsNameGRPC: a gRPC call is labelled with its operation's 1.0
// name, "(1.0 gRPC)", whatever its op; JSON-RPC and HTTP+JSON keep the
// dialect alone.
func TestLabelsNameGRPC(t *testing.T) {
	cases := []struct {
		ev       mockvendor.Event
		req, res string
	}{
		{mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", Binding: mockvendor.BindingGRPC, Dialect: "1.0", Skill: "s", Status: 200, State: "completed"}, "SendMessage skill=s (1.0 gRPC)", "200 completed"},
		{mockvendor.Event{Op: mockvendor.OpSubscribe, Method: "SubscribeToTask", Binding: mockvendor.BindingGRPC, Dialect: "1.0", Status: 200, ErrorCode: -32001}, "SubscribeToTask (1.0 gRPC)", "-32001"},
		{mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", Binding: mockvendor.BindingREST, Dialect: "1.0", Status: 200, State: "completed"}, "SendMessage (1.0)", "200 completed"},
		{mockvendor.Event{Op: mockvendor.OpSend, Method: "SendMessage", Dialect: "1.0", Status: 200, State: "completed"}, "SendMessage (1.0)", "200 completed"},
	}
	for _, c := range cases {
		if req, res := Labels(c.ev); req != c.req || res != c.res {
			t.Errorf("Labels = %q, %q; want %q, %q", req, res, c.req, c.res)
		}
	}
}

// TestPushDeliveryArrows: a push notification is drawn from the lane of
// the vendor that sent it to the receiver's, labelled with its attempt and
// state, and an undelivered one as an error, in both renderers.
func TestPushDeliveryArrows(t *testing.T) {
	evs := []mockvendor.Event{
		{Seq: 1, Host: "rpc.agent-d.example", Vendor: "d", HTTPMethod: "POST", Path: "/a2a/v1", Op: mockvendor.OpSend, Method: "SendMessage", Status: 200, State: "submitted"},
		{Seq: 2, Host: "127.0.0.1:18765", Vendor: "d", Op: mockvendor.OpPushDelivery, Attempt: 1, State: "completed", Status: 200},
		{Seq: 3, Host: "example.com", Vendor: "d", Op: mockvendor.OpPushDelivery, State: "completed", DeliveryError: "not delivered: loopback only"},
	}
	d := Rows(evs, Options{})
	cases := []struct {
		row          int
		label, res   string
		err          bool
		from, toLane int
	}{
		{1, "push #1 completed", "200", false, 1, 2},
		{2, "push completed", "not delivered", true, 1, 3},
	}
	col := colW
	for _, name := range []string{"orchestrator", "rpc.agent-d.example", "127.0.0.1:18765", "example.com"} {
		col = max(col, textW(name)+40)
	}
	for _, tc := range cases {
		r := d.Rows[tc.row]
		if r.Label != tc.label || r.Result != tc.res || strings.Contains(r.Class, "sq-err") != tc.err {
			t.Errorf("row %d: label %q result %q class %q; want %q %q err %v", tc.row, r.Label, r.Result, r.Class, tc.label, tc.res, tc.err)
		}
		if want := `x1="` + strconv.Itoa(left+tc.from*col) + `"`; !strings.Contains(string(r.SVG), want) {
			t.Errorf("row %d: arrow does not start at the vendor's lane (%s): %s", tc.row, want, r.SVG)
		}
	}
	svg := string(Render(evs, Options{}))
	if !strings.Contains(svg, `x1="`+strconv.Itoa(laneX(1))+`" y1=`) || !strings.Contains(svg, "push #1 completed") {
		t.Errorf("Render draws the push from elsewhere or without its label:\n%s", svg)
	}
}

// TestDescribeNamesTheAgent: the tooltip of a step a real agent answered
// (a vendor in front of it) says what the agent answered; a step the fleet
// answered alone says nothing of an agent.
func TestDescribeNamesTheAgent(t *testing.T) {
	fleet := mockvendor.Event{Seq: 1, Host: "agent.partner.example", Op: mockvendor.OpSend, Method: "message/send", Status: 200, ErrorCode: -32004, ErrorMessage: "skill not available in region"}
	forwarded := mockvendor.Event{Seq: 2, Host: "agent.partner.example", Op: mockvendor.OpSend, Method: "message/send", Status: 200, State: "completed",
		Upstream: &mockvendor.UpstreamExchange{URL: "http://127.0.0.1:35273/", Method: "message/send", Status: 200, DurationMs: 2.7}}
	if d := Describe(fleet); strings.Contains(d, "agent:") {
		t.Errorf("Describe(a step the fleet answered) = %q, names an agent", d)
	}
	want := "\nagent: message/send → HTTP 200, 2.7 ms (http://127.0.0.1:35273/)"
	if d := Describe(forwarded); !strings.HasSuffix(d, want) {
		t.Errorf("Describe(a forwarded step) = %q, want it to end %q", d, want)
	}
}
