package tasks

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// testTask is a task whose attachment is a string, to see the store keep
// it untouched.
type testTask = Task

// TestStoreBounds: a task keeps MaxHistory messages (its first and the
// newest), a vendor MaxPerVendor tasks (the oldest go), and one vendor's
// flood leaves another's tasks alone.
func TestStoreBounds(t *testing.T) {
	s := NewStore(1_000_000, nil)
	mine := []a2a.ArtifactSpec{{Name: "mine", Parts: []a2a.ArtifactPart{{}}}}
	keep := &testTask{ID: "keep", Vendor: "w", Input: &a2a.Message{MessageID: "w0"}, Artifacts: mine}
	s.Put(keep)
	for i := 0; i < MaxPerVendor+10; i++ {
		s.Put(&testTask{ID: fmt.Sprint("t", i), Vendor: "v", Input: &a2a.Message{}})
	}
	if n := len(s.List("v")); n > MaxPerVendor || n < MaxPerVendor*9/10 {
		t.Errorf("vendor v keeps %d tasks, cap %d", n, MaxPerVendor)
	}
	if s.Get("v", "t0") != nil || s.Get("v", fmt.Sprint("t", MaxPerVendor+9)) == nil {
		t.Error("the oldest task stayed or the newest went")
	}
	if live := len(s.order) - s.dead; s.Get("w", "keep") == nil || live != len(s.byID) || len(s.order) > 2*len(s.byID)+1 {
		t.Errorf("another vendor's task went, or the order (%d, %d of them dead) and the index (%d) disagree", len(s.order), s.dead, len(s.byID))
	}
	if stored, ordered := s.Counts(); stored != len(s.byID) || ordered != stored {
		t.Errorf("Counts %d, %d; the index holds %d", stored, ordered, len(s.byID))
	}
	for i := 1; i <= 3*MaxHistory; i++ {
		keep.AddMessage(&a2a.Message{MessageID: fmt.Sprint("w", i)})
	}
	ms := keep.Messages()
	if len(ms) != MaxHistory || ms[0].MessageID != "w0" || ms[len(ms)-1].MessageID != fmt.Sprint("w", 3*MaxHistory) {
		t.Errorf("history of %d messages, first %s, last %s", len(ms), ms[0].MessageID, ms[len(ms)-1].MessageID)
	}
	if got := s.Get("w", "keep").Artifacts; len(got) != 1 || &got[0] != &mine[0] {
		t.Errorf("the task's artifacts are %+v, want %+v (the same)", got, mine)
	}
}

// TestStoreCaps: past its cap the store forgets the oldest tenth of the
// fleet's tasks and counts them (Budget.Capped); a task of the same vendor
// and id replaces the stored one (a 0.1 client reused its id), while the
// same id at another vendor is another task; Reset forgets every task.
func TestStoreCaps(t *testing.T) {
	s := NewStore(20, nil)
	for i := 0; i < 25; i++ {
		s.Put(&testTask{ID: fmt.Sprint("t", i), Vendor: []string{"v", "w"}[i%2], Input: &a2a.Message{}})
	}
	if stored, ordered := s.Counts(); stored > 20 || ordered != stored {
		t.Errorf("store of cap 20 holds %d tasks (%d in order)", stored, ordered)
	}
	if n := s.Budget().Capped(); n != 6 {
		t.Errorf("Capped %d, want 6 (the 21st, 23rd and 25th task each forget the oldest tenth, 2)", n)
	}
	if s.Get("v", "t4") != nil || s.Get("w", "t5") != nil || s.Get("v", "t6") == nil || s.Get("v", "t24") == nil {
		t.Error("the oldest task stayed or the newest went")
	}
	first := &testTask{ID: "same", Vendor: "v", Input: &a2a.Message{}, Output: "first"}
	again := &testTask{ID: "same", Vendor: "v", Input: &a2a.Message{}, Output: "again"}
	other := &testTask{ID: "same", Vendor: "w", Input: &a2a.Message{}, Output: "other"}
	for _, tk := range []*testTask{first, again, other} {
		s.Put(tk)
	}
	if s.Get("v", "same") != again || s.Get("w", "same") != other {
		t.Errorf("same id: v has %v, w has %v", s.Get("v", "same"), s.Get("w", "same"))
	}
	if stored, ordered := s.Counts(); ordered != stored {
		t.Errorf("after a replacement the order holds %d live tasks, the index %d", ordered, stored)
	}
	s.Reset()
	if stored, ordered := s.Counts(); stored != 0 || ordered != 0 || s.Get("v", "same") != nil || len(s.List("v")) != 0 {
		t.Errorf("after Reset the store holds %d tasks (%d in order)", stored, ordered)
	}
}

// TestState: a task's state comes from the clock: a non-blocking task is
// submitted for the first half of the work time, working for the second,
// then in its end state; a blocking one is in its end state at once, a
// held one working until cancelled, one with WorkFor working that long;
// a cancel wins over everything. NextChange names the moment State
// changes next (none for a cancelled, held or blocking task, or one past
// its end), and State does change there.
func TestState(t *testing.T) {
	const work = 10 * time.Second
	t0 := time.Unix(1_700_000_000, 0)
	type timing struct {
		blocking, hold bool
		end            string
		workFor        time.Duration
	}
	cases := []struct {
		name     string
		task     timing
		at       time.Duration
		canceled bool
		want     string
		doneAt   time.Duration
		next     time.Duration // -1: none
	}{
		{"new", timing{}, 0, false, "submitted", work, work / 2},
		{"second half", timing{}, work / 2, false, "working", work, work},
		{"after work", timing{}, work, false, "completed", work, -1},
		{"end state", timing{end: "failed"}, work, false, "failed", work, -1},
		{"blocking", timing{blocking: true}, 0, false, "completed", work, -1},
		{"blocking, end state", timing{blocking: true, end: "input-required"}, 0, false, "input-required", work, -1},
		{"held", timing{hold: true, blocking: true}, time.Hour, false, "working", work, -1},
		{"work for", timing{blocking: true, workFor: time.Second}, time.Second - 1, false, "working", time.Second, time.Second},
		{"worked for", timing{blocking: true, workFor: time.Second, end: "rejected"}, time.Second, false, "rejected", time.Second, -1},
		{"canceled", timing{hold: true}, 0, true, "canceled", work, -1},
		{"canceled after completion", timing{blocking: true}, 0, true, "canceled", work, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tk := &testTask{Created: t0, Blocking: tc.task.blocking, Hold: tc.task.hold, End: tc.task.end, WorkFor: tc.task.workFor}
			if tc.canceled {
				tk.MarkCanceled()
			}
			if got := tk.State(t0.Add(tc.at), work); got != tc.want {
				t.Errorf("state %q at %v, want %q", got, tc.at, tc.want)
			}
			next, ok := tk.NextChange(t0.Add(tc.at), work)
			switch {
			case tc.next < 0 && ok:
				t.Errorf("next change at %v, want none", next.Sub(t0))
			case tc.next >= 0 && (!ok || !next.Equal(t0.Add(tc.next))):
				t.Errorf("next change at %v (%v), want %v", next.Sub(t0), ok, tc.next)
			case ok && tk.State(next, work) == tc.want:
				t.Errorf("state %q at the next change too", tc.want)
			}
			if got := tk.DoneAt(work); !got.Equal(t0.Add(tc.doneAt)) {
				t.Errorf("done at %v, want %v", got.Sub(t0), tc.doneAt)
			}
			if tk.Canceled() != tc.canceled {
				t.Errorf("Canceled %v, want %v", tk.Canceled(), tc.canceled)
			}
		})
	}
}

// TestCancel: Store.Cancel cancels a live task of the vendor, not a
// terminal one nor another vendor's; the cancel channel closes once the
// task is cancelled and signalled, whether it was made before or after.
func TestCancel(t *testing.T) {
	const work = time.Hour
	now := time.Now()
	s := NewStore(100, nil)
	live := &testTask{ID: "live", Vendor: "v", Created: now, Input: &a2a.Message{}}
	done := &testTask{ID: "done", Vendor: "v", Created: now, Blocking: true, Input: &a2a.Message{}}
	s.Put(live)
	s.Put(done)
	before := live.CanceledC()
	cases := []struct {
		vendor, id string
		want       *testTask
		ok         bool
	}{
		{"v", "nope", nil, false},
		{"w", "live", nil, false},
		{"v", "done", done, false},
		{"v", "live", live, true},
	}
	for _, tc := range cases {
		got, ok := s.Cancel(tc.vendor, tc.id, now, work)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Cancel(%s, %s) = %p, %v; want %p, %v", tc.vendor, tc.id, got, ok, tc.want, tc.ok)
		}
	}
	select {
	case <-before:
		t.Fatal("the cancel channel closed before SignalCancel")
	default:
	}
	live.SignalCancel()
	for name, c := range map[string]<-chan struct{}{"made before": before, "made after": live.CanceledC()} {
		select {
		case <-c:
		default:
			t.Errorf("cancel channel %s not closed", name)
		}
	}
	live.SignalCancel() // a second signal is no double close
	if done.Canceled() || live.State(now, work) != "canceled" {
		t.Errorf("done canceled %v, live %s", done.Canceled(), live.State(now, work))
	}
}

// TestTerminal: the terminal states, in the 0.3 spelling.
func TestTerminal(t *testing.T) {
	for state, want := range map[string]bool{
		"completed": true, "canceled": true, "failed": true, "rejected": true,
		"submitted": false, "working": false, "input-required": false, "auth-required": false,
		"TASK_STATE_COMPLETED": false, "": false,
	} {
		if got := Terminal(state); got != want {
			t.Errorf("Terminal(%q) = %v, want %v", state, got, want)
		}
	}
}

// TestNewID: a prefix and 16 hex digits, fresh each time.
func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^t-[0-9a-f]{16}$`)
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		id := NewID("t-")
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("id %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}

// TestAskingTask: a task that asks is at input-required until it has taken
// one answer per question, then at its end state; one that ends meanwhile
// is in that state from then on, and takes no answer.
func TestAskingTask(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name    string
		task    *Task
		answers int
		meanw   bool
		want    string
	}{
		{"never asks", &Task{Blocking: true}, 0, false, "completed"},
		{"asks, unanswered", &Task{Blocking: true, Asks: 2}, 0, false, "input-required"},
		{"asks twice, answered once", &Task{Blocking: true, Asks: 2}, 1, false, "input-required"},
		{"asks twice, answered twice", &Task{Blocking: true, Asks: 2}, 2, false, "completed"},
		{"answers past the questions", &Task{Blocking: true, Asks: 1}, 3, false, "completed"},
		{"ends meanwhile", &Task{Blocking: true, Asks: 1, EndsMeanwhile: "failed"}, 0, true, "failed"},
		{"answered before it could end", &Task{Blocking: true, Asks: 1, EndsMeanwhile: "failed"}, 1, true, "completed"},
	}
	for _, tc := range cases {
		took := 0
		for i := 0; i < tc.answers; i++ {
			if tc.task.TakeAnswer() {
				took++
			}
		}
		if took != min(tc.answers, tc.task.Asks) {
			t.Errorf("%s: took %d answers", tc.name, took)
		}
		if tc.meanw && tc.task.EndMeanwhile() != (tc.want == "failed") {
			t.Errorf("%s: EndMeanwhile disagrees with the state", tc.name)
		}
		if got := tc.task.State(now, time.Second); got != tc.want || tc.task.EndState() != tc.want {
			t.Errorf("%s: state %q end %q, want %q", tc.name, got, tc.task.EndState(), tc.want)
		}
	}
}
