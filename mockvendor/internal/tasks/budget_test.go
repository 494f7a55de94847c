package tasks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TestBudget: the store keeps within its byte budget, for the fleet and
// each vendor, whatever the tasks hold: new tasks make room by forgetting
// the oldest (of the vendor past its budget, of the fleet past the
// fleet's), follow-ups past the budget are kept as stubs or left out, a
// vendor's flood spares another vendor while the fleet's budget holds, and
// a reset returns every byte. (The fleet-wide form, through requests, is
// the root package's TestTaskBudget.)
func TestBudget(t *testing.T) {
	big := strings.Repeat("x", 60<<10)
	const budget = 1 << 20
	cases := []struct {
		name             string
		fleet, perVendor int64
		run              func(t *testing.T, s *Store, put func(vendor, text string) *testTask)
	}{
		{"new tasks forget the oldest", budget, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			var all []*testTask
			for i := 0; i < 100; i++ { // 6 MiB of text into a 1 MiB budget
				all = append(all, put("d", big))
				wantWithin(t, s, "d", budget, budget)
			}
			if s.Get("d", all[0].ID) != nil || s.Get("d", all[99].ID) != all[99] {
				t.Error("the oldest task stayed or the newest went")
			}
			if n := s.Budget().Forgotten(); n < 80 {
				t.Errorf("%d tasks forgotten to make room, want at least 80 of 100", n)
			}
			if stored, ordered := s.Counts(); stored != len(s.List("d")) || ordered != stored {
				t.Errorf("the store holds %d tasks, %d in order, %d listed", stored, ordered, len(s.List("d")))
			}
		}},
		{"follow-ups past the budget are stubs", budget, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			tk := put("d", "first")
			for i := 0; i < 40; i++ { // 2.4 MiB of follow-ups
				tk.AddMessage(textMessage(fmt.Sprint("m", i), big))
				wantWithin(t, s, "d", budget, budget)
			}
			var kept, stubs int
			for _, m := range tk.Messages() {
				switch text := m.Parts[0].Text; {
				case text == big:
					kept++
				case strings.HasPrefix(text, "[message not kept: about 6"):
					stubs++
				}
			}
			if n := len(tk.Messages()); kept < 10 || kept > 17 || stubs != 40-kept || n != 41 {
				t.Errorf("history of %d: %d full follow-ups, %d stubs; want 10-17 full (1 MiB of 60 KiB) and the rest stubs", n, kept, stubs)
			}
			if n := s.Budget().Stubbed(); n != int64(stubs) {
				t.Errorf("Stubbed counts %d, the history holds %d stubs", n, stubs)
			}
		}},
		{"a vendor's flood spares another vendor", 4 * budget, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			keep := put("c", big)
			for i := 0; i < 50; i++ {
				put("d", big)
				wantWithin(t, s, "d", 4*budget, budget)
			}
			if s.Get("c", keep.ID) != keep {
				t.Error("vendor d's flood forgot vendor c's task")
			}
			if _, c := s.Budget().InUse("c"); c < 60<<10 {
				t.Errorf("vendor c is charged %d bytes for a task of 60 KiB", c)
			}
		}},
		{"the fleet's budget forgets any vendor's oldest", 3 * budget / 2, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			first := put("c", big)
			for i := 0; i < 50; i++ {
				put([]string{"d", "e"}[i%2], big)
				wantWithin(t, s, "d", 3*budget/2, budget)
			}
			if s.Get("c", first.ID) != nil {
				t.Error("past the fleet's budget the fleet's oldest task stayed")
			}
		}},
		{"a stub that does not fit is left out", budget, 2400, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			tk := put("d", "first")                                    // 645 bytes of 2400
			tk.AddMessage(textMessage("m1", strings.Repeat("y", 900))) // 1230 bytes
			tk.AddMessage(textMessage("m2", strings.Repeat("y", 900))) // a stub of 400 bytes
			tk.AddMessage(textMessage("m3", strings.Repeat("y", 900))) // nothing fits
			b := s.Budget()
			if n := len(tk.Messages()); n != 3 || b.Stubbed() != 1 || b.LeftOut() != 1 {
				t.Errorf("history of %d (want 3), %d stubbed (want 1), %d left out (want 1)", n, b.Stubbed(), b.LeftOut())
			}
			if _, d := b.InUse("d"); d > 2400 {
				t.Errorf("vendor d is charged %d bytes of 2400", d)
			}
		}},
		{"a forgotten task returns its bytes", budget, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			s.max = 1
			old := put("d", big)
			old.AddMessage(textMessage("m1", big))
			put("d", "small")
			if _, d := s.Budget().InUse("d"); d > 4<<10 {
				t.Errorf("after the big task was forgotten vendor d is charged %d bytes", d)
			}
			old.AddMessage(textMessage("m2", big)) // in flight: kept, not charged
			if _, d := s.Budget().InUse("d"); d > 4<<10 || len(old.Messages()) != 3 {
				t.Errorf("a follow-up to a forgotten task: charged %d bytes, history of %d", d, len(old.Messages()))
			}
		}},
		{"reset returns every byte", budget, budget, func(t *testing.T, s *Store, put func(vendor, text string) *testTask) {
			for i := 0; i < 10; i++ {
				put("d", big).AddMessage(textMessage("m", "more"))
			}
			if all, _ := s.Budget().InUse("d"); all < 10*60<<10 {
				t.Errorf("10 tasks of 60 KiB charge %d bytes", all)
			}
			s.Reset()
			if all, d := s.Budget().InUse("d"); all != 0 || d != 0 {
				t.Errorf("after a reset the budget holds %d bytes (%d of d)", all, d)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(10_000, NewBudget(tc.fleet, tc.perVendor))
			put := func(vendor, text string) *testTask {
				tk := &testTask{ID: NewID("t-"), ContextID: NewID("ctx-"), Vendor: vendor, Input: textMessage(NewID("m-"), text)}
				s.Put(tk)
				return tk
			}
			tc.run(t, s, put)
		})
	}
}

// wantWithin checks that the store charges at most perVendor bytes to
// vendor and fleet bytes in all, plus one task (the documented overshoot).
func wantWithin(t *testing.T, s *Store, vendor string, fleet, perVendor int64) {
	t.Helper()
	slack := int64(64 << 10)
	if all, v := s.Budget().InUse(vendor); v > perVendor+slack || all > fleet+slack {
		t.Fatalf("the store charges %d bytes (%d to %s), budgets %d and %d", all, v, vendor, fleet, perVendor)
	}
}

func textMessage(id, text string) *a2a.Message {
	return &a2a.Message{Role: "user", MessageID: id, Parts: []a2a.Part{{Kind: "text", Text: text}}}
}

// TestStubMessage: a stub keeps the role and the message id, clipped to
// trace.MaxTracedField, and says how many bytes were left out.
func TestStubMessage(t *testing.T) {
	long := strings.Repeat("é", trace.MaxTracedField) // 2 bytes each
	cases := []struct {
		name, role, id string
	}{
		{"short", "user", "m-1"},
		{"long id", "user", long},
		{"long role", long, "m-2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := stubMessage(&a2a.Message{Role: tc.role, MessageID: tc.id, Parts: []a2a.Part{{Kind: "text", Text: "x"}}}, 12345)
			for _, f := range []struct{ got, in string }{{st.Role, tc.role}, {st.MessageID, tc.id}} {
				if len(f.got) > trace.MaxTracedField || !strings.HasPrefix(f.in, f.got) || len(f.in) <= trace.MaxTracedField && f.got != f.in {
					t.Errorf("kept %d bytes of %d: %.20q", len(f.got), len(f.in), f.got)
				}
			}
			if len(st.Parts) != 1 || st.Parts[0].Text != "[message not kept: about 12345 bytes past the task store's byte budget]" {
				t.Errorf("stub parts %+v", st.Parts)
			}
		})
	}
}
