package ops

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// fakeVendor is a Vendor of fixed facts, without the fleet.
type fakeVendor struct {
	streaming, push bool
	ext             *ExtendedCard
	store           *tasks.Store
}

func (f *fakeVendor) ID() string                       { return "z" }
func (f *fakeVendor) Organization() string             { return "Zed" }
func (f *fakeVendor) DefaultSkill() string             { return "echo" }
func (f *fakeVendor) ServesSkill(skill, _ string) bool { return skill == "echo" }
func (f *fakeVendor) SkillsIn(string) []string         { return []string{"echo"} }
func (f *fakeVendor) Streaming() bool                  { return f.streaming }
func (f *fakeVendor) PushNotifications() bool          { return f.push }
func (f *fakeVendor) Tasks() *tasks.Store              { return f.store }
func (f *fakeVendor) Push() (*push.Store, push.Vendor) { return nil, nil }
func (f *fakeVendor) WorkTime() time.Duration          { return 0 }
func (f *fakeVendor) StreamsWork() bool                { return false }
func (f *fakeVendor) Upstream() *upstream.Client       { return nil }
func (f *fakeVendor) ExtendedCardDocument(d a2a.Dialect) (map[string]any, error) {
	return map[string]any{"description": "Zed agent (extended card).", "dialect": string(d)}, nil
}
func (f *fakeVendor) ExtendedCard() (ExtendedCard, bool) {
	if f.ext == nil {
		return ExtendedCard{}, false
	}
	return *f.ext, true
}

// TestRunErrors: each operation refuses what its vendor or params rule
// out with the A2A error of the spec, whatever binding asked.
func TestRunErrors(t *testing.T) {
	store := tasks.NewStore(10, tasks.NewBudget(1<<20, 1<<20))
	for _, tc := range []struct {
		name string
		v    *fakeVendor
		q    Request
		code int
	}{
		{"no streaming", &fakeVendor{store: store}, Request{Op: trace.OpStream, Call: &fault.Call{}}, a2a.CodeUnsupported},
		{"subscribe, no streaming", &fakeVendor{store: store}, Request{Op: trace.OpSubscribe}, a2a.CodeUnsupported},
		{"no push", &fakeVendor{store: store}, Request{Op: trace.OpPushConfig}, a2a.CodePushNotSupported},
		{"no extended card", &fakeVendor{store: store}, Request{Op: trace.OpExtendedCard}, a2a.CodeUnsupported},
		{"extended card unconfigured", &fakeVendor{store: store, ext: &ExtendedCard{Unconfigured: true}}, Request{Op: trace.OpExtendedCard}, a2a.CodeExtendedCardNotConfigured},
		{"get of nothing", &fakeVendor{store: store}, Request{Op: trace.OpGet}, a2a.CodeInvalidParams},
		{"get of an unknown task", &fakeVendor{store: store}, Request{Op: trace.OpGet, Task: TaskParams{ID: "t-none"}}, a2a.CodeTaskNotFound},
		{"cancel of an unknown task", &fakeVendor{store: store}, Request{Op: trace.OpCancel, Task: TaskParams{Name: "tasks/t-none"}}, a2a.CodeTaskNotFound},
		{"list page too big", &fakeVendor{store: store}, Request{Op: trace.OpList, Params: json.RawMessage(`{"pageSize":101}`)}, a2a.CodeInvalidParams},
		{"list of no state", &fakeVendor{store: store}, Request{Op: trace.OpList, Params: json.RawMessage(`{"status":"UNRECOGNIZED"}`)}, a2a.CodeInvalidParams},
		{"a method not offered", &fakeVendor{store: store}, Request{Op: trace.OpOther, Method: "x"}, a2a.CodeUnsupported},
	} {
		_, err := Run(tc.v, &tc.q)
		var e *a2a.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("%s: error %v, want code %d", tc.name, err, tc.code)
		}
	}
}

// TestExtendedCard: a declared, configured extended card is the vendor's
// document for the request's generation.
func TestExtendedCard(t *testing.T) {
	for _, d := range []a2a.Dialect{a2a.Dialect10, a2a.Dialect03} {
		res, err := Run(&fakeVendor{ext: &ExtendedCard{}}, &Request{Op: trace.OpExtendedCard, Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Value.(map[string]any)["dialect"]; got != string(d) {
			t.Errorf("card for %q, want the vendor's document for %q", got, d)
		}
	}
}
