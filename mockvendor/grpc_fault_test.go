package mockvendor

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// Every fault over gRPC: a row per registered fault type that acts on a
// call or a connection, run against a vendor whose only endpoint host
// serves gRPC, each with a grpc-go client; the fault types that act on
// the card document or its signatures alone have a stated reason
// instead (tGRPCFaultsNA). docs/fleet-config.md "Faults over gRPC" says
// the same in prose.

// tGRPCFaultEnv is what a row works with: the fleet and a client of its
// gRPC host.
type tGRPCFaultEnv struct {
	f *Fleet
	c a2apb.A2AServiceClient
}

// tGRPCFaultRow is one fault type over gRPC: the fault, an optional
// change of the vendor, and the check.
type tGRPCFaultRow struct {
	config any
	change func(*VendorConfig)
	check  func(t *testing.T, e *tGRPCFaultEnv)
}

// tGRPCFaults are the rows, by fault type (one per type).
var tGRPCFaults = map[string]tGRPCFaultRow{
	"region-gate":             {RegionGate{Region: "r1", GatedSkills: []string{SkillFXHedging}}, nil, tGRPCRegionGate},
	"server-error":            {ServerError{Code: -32050, Message: "overloaded"}, nil, tGRPCServerError},
	"stub-endpoint":           {nil, nil, tGRPCStubEndpoint},
	"reseller-gateway":        {ResellerGateway{RefusedTools: []string{SkillFXHedging}}, nil, tGRPCReseller},
	"skill-rollout":           {SkillRollout{Skill: SkillInvoice, WindowMs: 150}, nil, tGRPCRollout},
	"version-reject":          {VersionReject{Accepted: []string{"0.3"}}, nil, tGRPCVersionReject},
	"version-header-lie":      {VersionHeaderLie{Version: "0.3"}, nil, tGRPCVersionLie},
	"lenient-version":         {nil, nil, tGRPCLenient},
	"task-outcome":            {TaskOutcome{State: "failed"}, nil, tGRPCTaskOutcome},
	"artifacts":               {nil, nil, tGRPCArtifacts},
	"input-required-turns":    {InputRequiredTurns{Turns: 1}, nil, tGRPCInputTurns},
	"message-reply":           {nil, nil, tGRPCMessageReply},
	"probe-accept":            {nil, nil, tGRPCProbeAccept},
	"input-mode-coercion":     {nil, nil, tGRPCCoercion},
	"long-task":               {LongTask{WorkMs: 300}, nil, tGRPCLongTask},
	"lost-answer":             {nil, nil, tGRPCLostAnswer},
	"stream-cut":              {nil, nil, tGRPCStreamCut},
	"slow-first-frame":        {SlowFirstFrame{DelayMs: 300}, nil, tGRPCSlowFrame},
	"stream-error-event":      {nil, nil, tGRPCStreamErrorEvent},
	"stream-error-json":       {nil, nil, tGRPCStreamErrorJSON},
	"stream-content-type-lie": {nil, nil, tGRPCStreamLie},
	"stream-unauthorized":     {nil, nil, tGRPCStreamUnauthorized},
	"subscribe-stall":         {nil, nil, tGRPCSubscribeStall},
	"state-unknown":           {StateUnknown{State: "TASK_STATE_PAUSED"}, nil, tGRPCStateUnknown},
	"unknown-role":            {nil, nil, tGRPCUnknownRole},
	"unknown-fields":          {UnknownFields{Marker: "MARKER-42"}, nil, tGRPCUnknownFields},
	"timestamp-form":          {TimestampForm{Form: "nanos"}, nil, tGRPCTimestampForm},
	"refuse-connections":      {nil, nil, tGRPCConnFault(OpConnRefused)},
	"wrong-san":               {nil, nil, tGRPCConnFault(OpTLSFailed)},
	"self-signed":             {nil, nil, tGRPCConnFault(OpTLSFailed)},
	"tampered-extended-card":  {nil, tGRPCSignedExtended, tGRPCTamperedExtended},
}

// tGRPCFaultsNA are the fault types no gRPC call shows, and why.
var tGRPCFaultsNA = map[string]string{
	"card-empty":         "the card fetch (HTTPS GET of the well-known path) answers {}: a card fault, no gRPC call",
	"card-missing":       "the card document lacks members: a card fault, no gRPC call",
	"stale-card":         "the CDN's copy of the card document: a card fault, no gRPC call",
	"canon-traps":        "canonicalisation traps in the signed card document (JCS over its JSON): a card signature fault",
	"alg-none":           "a card signature fault: the card's JWS header",
	"hs256-confusion":    "a card signature fault: the card's JWS",
	"unsigned-card":      "a card signature fault: the card carries no signatures",
	"duplicate-kid":      "a signature key fault: the JWKS fetch (HTTPS GET)",
	"expired-key":        "a signature key fault: the card's signing key",
	"embedded-jwk":       "a card signature fault: the card's JWS header",
	"foreign-jku":        "a card signature fault: the card's JWS header",
	"plain-http-jku":     "a signature key fault: the jku's key set over plain http",
	"revoked-key":        "a signature key fault: the JWKS fetch (HTTPS GET)",
	"key-rotation":       "a signature key fault: the JWKS fetch (HTTPS GET)",
	"several-signatures": "a card signature fault: the card's signatures",
	"tampered-card":      "a card signature fault: the public card (the extended card's own fault, tampered-extended-card, has a row)",
	"unknown-kid":        "a card signature fault: the card's JWS header",
	"push-trials":        "the trial deliveries are HTTPS POSTs to the client's webhook, whatever binding created the task (push_deliver_test.go); no gRPC call carries them",
}

// TestGRPCFaultsCoverFaultTypes: every registered fault type has a row
// of TestGRPCFaults or a reason it does not apply to gRPC, and nothing
// else is listed.
func TestGRPCFaultsCoverFaultTypes(t *testing.T) {
	registered := map[string]bool{}
	for _, ft := range FaultTypes() {
		registered[ft.Name] = true
		_, row := tGRPCFaults[ft.Name]
		_, na := tGRPCFaultsNA[ft.Name]
		switch {
		case !row && !na:
			t.Errorf("fault type %s: no row in tGRPCFaults and no reason in tGRPCFaultsNA", ft.Name)
		case row && na:
			t.Errorf("fault type %s: both a row and a reason it does not apply", ft.Name)
		}
	}
	for _, m := range []map[string]bool{tKeys(tGRPCFaults), tKeys(tGRPCFaultsNA)} {
		for name := range m {
			if !registered[name] {
				t.Errorf("%s is listed but not a registered fault type", name)
			}
		}
	}
}

func tKeys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// TestGRPCFaults runs each row on a fleet of its own.
func TestGRPCFaults(t *testing.T) {
	names := make([]string, 0, len(tGRPCFaults))
	for name := range tGRPCFaults {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		row := tGRPCFaults[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := tStart(t, tGRPCConfig(func(v *VendorConfig) {
				v.Hosts[1].Region = "r1"
				v.Skills = append(v.Skills, SkillConfig{ID: "json-only", InputModes: []string{"application/json"}})
				v.Faults = []FaultSpec{Spec(name, row.config)}
				if row.change != nil {
					row.change(v)
				}
			}))
			row.check(t, &tGRPCFaultEnv{f: f, c: tGRPCDial(t, f, tViaProxy, tGRPCHost)})
		})
	}
}

// tSendOK sends text for skill and returns the task, failing on an error.
func (e *tGRPCFaultEnv) tSendOK(t *testing.T, text, skill string, opts ...grpc.CallOption) *a2apb.SendMessageResponse {
	t.Helper()
	r, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend(text, skill), opts...)
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	return r
}

// tStreamAll streams text and reads the stream to its end.
func (e *tGRPCFaultEnv) tStreamAll(t *testing.T, text string) ([]*a2apb.StreamResponse, error) {
	t.Helper()
	st, err := e.c.SendStreamingMessage(tGRPCCtx(t), tGRPCSend(text, ""))
	if err != nil {
		return nil, err
	}
	return tRecv(t, st)
}

// tFaulted is the newest finished gRPC event of op after since, failing
// unless it names fault.
func (e *tGRPCFaultEnv) tFaulted(t *testing.T, since int64, op Op, fault string) Event {
	t.Helper()
	ev := tGRPCEvent(t, e.f, since, op)
	if !slices.Contains(ev.Faults, fault) {
		t.Errorf("trace: faults %v, want %s", ev.Faults, fault)
	}
	return ev
}

func tGRPCRegionGate(t *testing.T, e *tGRPCFaultEnv) {
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("gated", SkillFXHedging))
	st := tGRPCStatus(t, err, codes.FailedPrecondition, "UNSUPPORTED_OPERATION")
	infos := tErrorInfos(st)
	if len(infos) != 2 || infos[1].GetReason() != "SKILL_NOT_AVAILABLE" || infos[1].GetDomain() == "a2a-protocol.org" || !strings.Contains(infos[1].GetMetadata()["availableSkills"], SkillInvoice) {
		t.Errorf("ErrorInfos %v: want the vendor's SKILL_NOT_AVAILABLE second, naming %s", infos, SkillInvoice)
	}
	e.tSendOK(t, "open", SkillInvoice)
}

func tGRPCServerError(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("x", ""))
	if st := tGRPCStatus(t, err, codes.Internal, ""); st.Message() != "overloaded" {
		t.Errorf("message %q", st.Message())
	}
	if ev := tGRPCEvent(t, e.f, since, OpSend); ev.ErrorCode != -32050 {
		t.Errorf("traced error %d", ev.ErrorCode)
	}
}

func tGRPCStubEndpoint(t *testing.T, e *tGRPCFaultEnv) {
	_, err := e.c.GetTask(tGRPCCtx(t), &a2apb.GetTaskRequest{Id: "t"})
	tGRPCStatus(t, err, codes.Unimplemented, "METHOD_NOT_FOUND")
	_, err = e.c.SendMessage(tGRPCCtx(t), tGRPCSend("x", ""))
	tGRPCStatus(t, err, codes.Unimplemented, "METHOD_NOT_FOUND")
}

func tGRPCReseller(t *testing.T, e *tGRPCFaultEnv) {
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("x", SkillFXHedging))
	if infos := tErrorInfos(tGRPCStatus(t, err, codes.Unimplemented, "")); len(infos) != 1 || infos[0].GetReason() != "TOOL_NOT_ALLOWED" {
		t.Errorf("ErrorInfos %v, want the gateway's TOOL_NOT_ALLOWED", infos)
	}
	e.tSendOK(t, "any skill runs", "no-such-skill")
}

func tGRPCRollout(t *testing.T, e *tGRPCFaultEnv) {
	e.tSendOK(t, "first window", SkillInvoice)
	time.Sleep(200 * time.Millisecond)
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("second window", SkillInvoice))
	tGRPCStatus(t, err, codes.FailedPrecondition, "UNSUPPORTED_OPERATION")
	e.tSendOK(t, "renamed", SkillInvoice+"-v2")
}

func tGRPCVersionReject(t *testing.T, e *tGRPCFaultEnv) {
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("x", ""))
	tGRPCStatus(t, err, codes.FailedPrecondition, "VERSION_NOT_SUPPORTED")
}

func tGRPCVersionLie(t *testing.T, e *tGRPCFaultEnv) {
	var hdr metadata.MD
	e.tSendOK(t, "x", "", grpc.Header(&hdr))
	if v := hdr.Get("a2a-version"); len(v) != 1 || v[0] != "0.3" {
		t.Errorf("a2a-version header metadata %v, want the lie [0.3]", v)
	}
}

func tGRPCLenient(t *testing.T, e *tGRPCFaultEnv) {
	if _, err := e.c.SendMessage(tGRPCCtx(t, "a2a-version", ""), tGRPCSend("no version", "")); err != nil {
		t.Errorf("a call without a2a-version under lenient-version: %v", err)
	}
}

func tGRPCTaskOutcome(t *testing.T, e *tGRPCFaultEnv) {
	if st := e.tSendOK(t, "x", "").GetTask().GetStatus().GetState(); st != a2apb.TaskState_TASK_STATE_FAILED {
		t.Errorf("state %v, want FAILED", st)
	}
}

func tGRPCArtifacts(t *testing.T, e *tGRPCFaultEnv) {
	kinds := map[string]bool{}
	for _, a := range e.tSendOK(t, "x", "").GetTask().GetArtifacts() {
		for _, p := range a.GetParts() {
			switch {
			case p.GetText() != "":
				kinds["text"] = true
			case p.GetUrl() != "":
				kinds["url"] = true
			case p.GetData() != nil:
				kinds["data"] = true
			}
		}
	}
	if len(kinds) != 3 {
		t.Errorf("artifact part kinds %v, want text, url and data", kinds)
	}
	evs, err := e.tStreamAll(t, "chunks")
	n := 0
	for _, ev := range evs {
		if ev.GetArtifactUpdate() != nil {
			n++
		}
	}
	if err != nil || n < 3 {
		t.Errorf("stream: %d artifact updates (%v), want the chunks", n, err)
	}
}

func tGRPCInputTurns(t *testing.T, e *tGRPCFaultEnv) {
	task := e.tSendOK(t, "start", "").GetTask()
	if task.GetStatus().GetState() != a2apb.TaskState_TASK_STATE_INPUT_REQUIRED {
		t.Fatalf("state %v, want INPUT_REQUIRED", task.GetStatus().GetState())
	}
	q := tGRPCSend("answer", "")
	q.Message.TaskId, q.Message.ContextId = task.GetId(), task.GetContextId()
	r, err := e.c.SendMessage(tGRPCCtx(t), q)
	if err != nil || r.GetTask().GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("the answer: %v %v, want the task completed", r, err)
	}
}

func tGRPCMessageReply(t *testing.T, e *tGRPCFaultEnv) {
	r := e.tSendOK(t, "x", "")
	if r.GetMessage() == nil || r.GetTask() != nil || r.GetMessage().GetRole() != a2apb.Role_ROLE_AGENT {
		t.Errorf("answer %v, want a Message from the agent and no task", r)
	}
}

func tGRPCProbeAccept(t *testing.T, e *tGRPCFaultEnv) {
	if st := e.tSendOK(t, "__probe__", "").GetTask().GetStatus().GetState(); st != a2apb.TaskState_TASK_STATE_WORKING {
		t.Errorf("probe task state %v, want WORKING", st)
	}
}

func tGRPCCoercion(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	e.tSendOK(t, "text for a JSON skill", "json-only")
	if ev := e.tFaulted(t, since, OpSend, "input-mode-coercion"); len(ev.Coercions) != 1 || ev.Coercions[0].To != "data" {
		t.Errorf("coercions %v", ev.Coercions)
	}
}

func tGRPCLongTask(t *testing.T, e *tGRPCFaultEnv) {
	start := time.Now()
	if st := e.tSendOK(t, "long", "").GetTask().GetStatus().GetState(); st != a2apb.TaskState_TASK_STATE_COMPLETED || time.Since(start) < 250*time.Millisecond {
		t.Errorf("blocking send answered %v after %v, want COMPLETED after the work", st, time.Since(start))
	}
}

func tGRPCLostAnswer(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("lost", ""))
	tGRPCStatus(t, err, codes.Internal, "") // RST_STREAM(INTERNAL_ERROR), as grpc-go reads it
	if !strings.Contains(err.Error(), "RST_STREAM") {
		t.Errorf("error %v: want the stream reset", err)
	}
	if ev := tGRPCEvent(t, e.f, since, OpSend); !strings.Contains(ev.Note, "answer lost") || ev.TaskID == "" {
		t.Errorf("trace %+v", ev)
	}
	if list, err := e.c.ListTasks(tGRPCCtx(t), &a2apb.ListTasksRequest{}); err != nil || len(list.GetTasks()) != 1 {
		t.Errorf("the lost answer's task: %v %v", list, err)
	}
}

func tGRPCStreamCut(t *testing.T, e *tGRPCFaultEnv) {
	evs, err := e.tStreamAll(t, "cut")
	if err != nil || len(evs) != 2 || tFinalState(evs) == a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("cut stream: %d events, end %v; want the task and its working status, then OK", len(evs), err)
	}
	f := tStart(t, tGRPCConfig(func(v *VendorConfig) { v.Faults = []FaultSpec{Spec("stream-cut", StreamCut{Abort: true})} }))
	e = &tGRPCFaultEnv{f: f, c: tGRPCDial(t, f, tViaResolve, tGRPCHost)}
	evs, err = e.tStreamAll(t, "broken")
	if len(evs) != 2 || status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "RST_STREAM") {
		t.Errorf("broken stream: %d events, end %v; want 2 events, then the stream reset", len(evs), err)
	}
}

func tGRPCSlowFrame(t *testing.T, e *tGRPCFaultEnv) {
	start := time.Now()
	st, err := e.c.SendStreamingMessage(tGRPCCtx(t), tGRPCSend("slow", ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recv(); err != nil || time.Since(start) < 250*time.Millisecond {
		t.Errorf("first event after %v (%v), want the delay", time.Since(start), err)
	}
}

func tGRPCStreamErrorEvent(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	evs, err := e.tStreamAll(t, "fails")
	tGRPCStatus(t, err, codes.NotFound, "TASK_NOT_FOUND")
	if len(evs) != 2 {
		t.Errorf("%d events before the error, want 2", len(evs))
	}
	if ev := e.tFaulted(t, since, OpStream, "stream-error-event"); ev.ErrorCode != -32001 {
		t.Errorf("traced error %d", ev.ErrorCode)
	}
}

func tGRPCStreamErrorJSON(t *testing.T, e *tGRPCFaultEnv) {
	evs, err := e.tStreamAll(t, "x")
	if status.Code(err) == codes.OK || len(evs) != 0 {
		t.Errorf("%d events, end %v; want an error status and no event", len(evs), err)
	}
	e.tSendOK(t, "plain sends pass", "")
}

func tGRPCStreamLie(t *testing.T, e *tGRPCFaultEnv) {
	evs, err := e.tStreamAll(t, "x")
	if err != nil || len(evs) != 1 || evs[0].GetTask().GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("stream: %v, end %v; want the plain answer (the completed task) as its one event", evs, err)
	}
}

func tGRPCStreamUnauthorized(t *testing.T, e *tGRPCFaultEnv) {
	var hdr metadata.MD
	st, err := e.c.SendStreamingMessage(tGRPCCtx(t), tGRPCSend("x", ""), grpc.Header(&hdr))
	if err == nil {
		_, err = tRecv(t, st)
	}
	tGRPCStatus(t, err, codes.Unauthenticated, "")
	if len(hdr.Get("www-authenticate")) != 1 {
		t.Errorf("header metadata %v: want www-authenticate", hdr)
	}
	e.tSendOK(t, "plain sends pass", "")
}

func tGRPCSubscribeStall(t *testing.T, e *tGRPCFaultEnv) {
	q := tGRPCSend("later", "")
	q.Configuration = &a2apb.SendMessageConfiguration{ReturnImmediately: true}
	r, err := e.c.SendMessage(tGRPCCtx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(tGRPCCtx(t), 400*time.Millisecond)
	defer cancel()
	st, err := e.c.SubscribeToTask(ctx, &a2apb.SubscribeToTaskRequest{Id: r.GetTask().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Header(); err != nil {
		t.Errorf("the stalled subscription sent no headers: %v", err)
	}
	if m, err := st.Recv(); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("the stalled subscription sent %v (%v), want nothing until the deadline", m, err)
	}
}

func tGRPCStateUnknown(t *testing.T, e *tGRPCFaultEnv) {
	evs, err := e.tStreamAll(t, "x")
	var states []a2apb.TaskState
	for _, ev := range evs {
		if su := ev.GetStatusUpdate(); su != nil {
			states = append(states, su.GetStatus().GetState())
		}
	}
	if err != nil || !slices.Contains(states, 9) || tFinalState(evs) != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Errorf("states %v (%v), want the unrecognized value 9 (past TaskState) before COMPLETED", states, err)
	}
}

func tGRPCUnknownRole(t *testing.T, e *tGRPCFaultEnv) {
	msg := e.tSendOK(t, "x", "").GetTask().GetStatus().GetMessage()
	if msg.GetRole() != 3 || len(msg.GetParts()) == 0 {
		t.Errorf("status message %v, want role 3 (past Role) with the note", msg)
	}
}

func tGRPCUnknownFields(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	r := e.tSendOK(t, "x", "")
	e.tFaulted(t, since, OpSend, "unknown-fields")
	if r.GetTask().GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED || strings.Contains(r.String(), "MARKER-42") {
		t.Errorf("answer %v: want the honest task, the unknown fields dropped", r)
	}
}

func tGRPCTimestampForm(t *testing.T, e *tGRPCFaultEnv) {
	since := e.f.Trace().Seq()
	ts := e.tSendOK(t, "x", "").GetTask().GetStatus().GetTimestamp()
	e.tFaulted(t, since, OpSend, "timestamp-form")
	if !ts.IsValid() || time.Since(ts.AsTime()) > time.Minute || ts.GetNanos() == 0 {
		t.Errorf("timestamp %v: want now, with its nanoseconds", ts)
	}
}

// tGRPCConnFault is the row of a connection fault: the call fails
// UNAVAILABLE and the trace records the connection as op.
func tGRPCConnFault(op Op) func(t *testing.T, e *tGRPCFaultEnv) {
	return func(t *testing.T, e *tGRPCFaultEnv) {
		since := e.f.Trace().Seq()
		_, err := e.c.SendMessage(tGRPCCtx(t), tGRPCSend("x", ""))
		tGRPCStatus(t, err, codes.Unavailable, "")
		tWaitEvent(t, e.f, since, func(ev Event) bool { return ev.Op == op && ev.Host == tGRPCHost })
	}
}

// tGRPCSignedExtended signs the vendor's card and serves a public
// extended card.
func tGRPCSignedExtended(v *VendorConfig) {
	v.Signing = &SigningConfig{KID: "g-kid"}
	v.Card.ExtendedCard = &ExtendedCardConfig{Public: true}
}

func tGRPCTamperedExtended(t *testing.T, e *tGRPCFaultEnv) {
	card, err := e.c.GetExtendedAgentCard(tGRPCCtx(t), &a2apb.GetExtendedAgentCardRequest{})
	if err != nil || len(card.GetSignatures()) == 0 || card.GetSignatures()[0].GetProtected() == "" {
		t.Fatalf("extended card %v (%v): want it signed", card, err)
	}
	pub := tGet(t, tClient(t, e.f, tViaProxy), "https://agent-g.example"+CardPath, nil).JSON
	if card.GetDescription() == pub["description"].(string)+" (extended card)" {
		t.Errorf("description %q: want it changed after signing", card.GetDescription())
	}
}
