package mockvendor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// TestGRPCPlainJSONSameAnswers: the gRPC binding's fast path for the
// common send (internal/binding/grpc/fast.go) answers every send and
// stream of a table of requests as the bridge alone (Config.PlainJSON)
// does: the same messages, header metadata, status and trace events,
// task and context ids and timestamps aside.
func TestGRPCPlainJSONSameAnswers(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	send := func(id string, change func(*a2apb.SendMessageRequest), parts ...*a2apb.Part) *a2apb.SendMessageRequest {
		if len(parts) == 0 {
			parts = []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "reconcile invoice 42"}}}
		}
		q := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: id, Role: a2apb.Role_ROLE_USER, Parts: parts},
			Metadata: tStruct(map[string]any{"skillId": SkillInvoice})}
		if change != nil {
			change(q)
		}
		return q
	}
	text := func(s string) *a2apb.Part { return &a2apb.Part{Content: &a2apb.Part_Text{Text: s}} }
	requests := []*a2apb.SendMessageRequest{
		send("m-plain", nil),
		send("m-plain", nil), // a resend: the same task
		send("m-no-skill", func(q *a2apb.SendMessageRequest) { q.Metadata = nil }),
		send("m-gated", func(q *a2apb.SendMessageRequest) { q.Metadata = tStruct(map[string]any{"skillId": SkillFXHedging}) }),
		send("m-unknown-skill", func(q *a2apb.SendMessageRequest) { q.Metadata = tStruct(map[string]any{"skillId": "no-such-skill"}) }),
		send("m-probe", func(q *a2apb.SendMessageRequest) {
			q.Metadata = tStruct(map[string]any{"skillId": SkillInvoice, "a2a_probe": true})
		}),
		send("m-probe-text", nil, text(ProbeText)),
		send("m-escapes", nil, text("q\" \\ \n\t\x01 <b>&</b> \u2028 é 🙂"), text("")),
		send("m-agent", func(q *a2apb.SendMessageRequest) { q.Message.Role = a2apb.Role_ROLE_AGENT }),
		send("m-later", func(q *a2apb.SendMessageRequest) {
			q.Configuration = &a2apb.SendMessageConfiguration{ReturnImmediately: true, AcceptedOutputModes: []string{"text/plain"}}
		}),
		send("m-history-0", func(q *a2apb.SendMessageRequest) {
			q.Configuration = &a2apb.SendMessageConfiguration{HistoryLength: i32(0)}
		}),
		send("m-context", func(q *a2apb.SendMessageRequest) { q.Message.ContextId = "ctx-given" }),
		send("m-continue", func(q *a2apb.SendMessageRequest) { q.Message.TaskId = "t-unknown" }),
		send("m-tenant", func(q *a2apb.SendMessageRequest) { q.Tenant = "acme" }),
		send("m-no-role", func(q *a2apb.SendMessageRequest) { q.Message.Role = a2apb.Role_ROLE_UNSPECIFIED }),
		send("", nil),
		send("m-no-parts", func(q *a2apb.SendMessageRequest) { q.Message.Parts = nil }),
		send("m-data", nil, &a2apb.Part{Content: &a2apb.Part_Url{Url: "https://files.example/invoice.pdf"}, MediaType: "application/pdf"}),
		send("m-number", func(q *a2apb.SendMessageRequest) {
			q.Metadata = tStruct(map[string]any{"skillId": SkillInvoice, "n": 1.5})
		}),
		send("m-message-metadata", func(q *a2apb.SendMessageRequest) { q.Message.Metadata = tStruct(map[string]any{"k": "v"}) }),
	}
	norm := regexp.MustCompile(`(t|ctx|a-t)-[0-9a-f]{16}|\d{4}-\d\d-\d\dT[0-9:.]+Z`)
	answers := func(plain bool) []string {
		cfg := tGRPCConfig(nil)
		cfg.PlainJSON = plain
		cfg.Limits.WorkTime = time.Hour
		f := tStart(t, cfg)
		if _, err := f.AddFault("g", Spec("version-header-lie", VersionHeaderLie{Version: "1.0"})); err != nil {
			t.Fatal(err)
		}
		if _, err := f.AddFault("g", Spec("region-gate", RegionGate{GatedSkills: []string{SkillFXHedging}})); err != nil {
			t.Fatal(err)
		}
		c := tGRPCDial(t, f, tViaResolve, tGRPCHost)
		var out []string
		for i, q := range requests {
			for _, stream := range []bool{false, true} {
				since := f.Trace().Seq()
				var hdr metadata.MD
				var msgs []proto.Message
				var err error
				if stream {
					var st grpc.ServerStreamingClient[a2apb.StreamResponse]
					if st, err = c.SendStreamingMessage(tGRPCCtx(t), q, grpc.Header(&hdr)); err == nil {
						var evs []*a2apb.StreamResponse
						evs, err = tRecv(t, st)
						for _, e := range evs {
							msgs = append(msgs, e)
						}
					}
				} else {
					var resp *a2apb.SendMessageResponse
					if resp, err = c.SendMessage(tGRPCCtx(t), q, grpc.Header(&hdr)); err == nil {
						msgs = append(msgs, resp)
					}
				}
				ev := tWaitEvent(t, f, since, func(e Event) bool { return e.Binding == "GRPC" && !e.Pending })
				ev.Seq, ev.Time, ev.DurationMs = 0, time.Time{}, 0
				ej, _ := json.Marshal(ev)
				var b strings.Builder
				fmt.Fprintf(&b, "request %d stream %v\nheader %v\n", i, stream, tMDLines(hdr))
				for _, m := range msgs {
					j, _ := protojson.Marshal(m)
					var cj bytes.Buffer
					_ = json.Compact(&cj, j)
					fmt.Fprintf(&b, "message %s\n", cj.Bytes())
				}
				st, _ := status.FromError(err)
				sj, _ := protojson.Marshal(st.Proto())
				fmt.Fprintf(&b, "status %s\ntrace %s", sj, ej)
				out = append(out, norm.ReplaceAllString(b.String(), "X"))
			}
		}
		return out
	}
	fast, plain := answers(false), answers(true)
	if len(fast) != len(plain) {
		t.Fatalf("%d answers with the fast path, %d without", len(fast), len(plain))
	}
	for i := range fast {
		if fast[i] != plain[i] {
			t.Errorf("fast path:\n%s\nbridge:\n%s", fast[i], plain[i])
		}
	}
	if !strings.Contains(strings.Join(fast, "\n"), `"state":"TASK_STATE_COMPLETED"`) {
		t.Error("no send was answered with a completed task")
	}
}

// tMDLines is md as sorted key=value lines, without what the transport
// sets (content-type).
func tMDLines(md metadata.MD) string {
	var lines []string
	for k, vs := range md {
		if k != "content-type" {
			lines = append(lines, k+"="+strings.Join(vs, ","))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, " ")
}
