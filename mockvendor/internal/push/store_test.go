package push

import (
	"testing"
)

// TestStoreBounds: at most MaxPerTask configs per task (an error, for a
// -32602, past it) and MaxTasks tasks with configs per vendor (the oldest
// forgotten).
func TestStoreBounds(t *testing.T) {
	var s Store
	for i := range MaxPerTask {
		if err := s.Set("t", Config{ID: string(rune('a' + i)), URL: "u"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Set("t", Config{ID: "over", URL: "u"}); err == nil {
		t.Error("a config past the per-task cap was kept")
	}
	if err := s.Set("t", Config{ID: "a", URL: "u2"}); err != nil || s.List("t")[0].URL != "u2" {
		t.Errorf("replacing a config at the cap: %v", err)
	}
	for i := range MaxTasks {
		_ = s.Set("task-"+string(rune(i)), Config{ID: "x", URL: "u"})
	}
	if len(s.List("t")) != 0 || len(s.byTask) != MaxTasks {
		t.Errorf("store holds %d tasks, the oldest's %d configs", len(s.byTask), len(s.List("t")))
	}
}

// TestStoreRemove: a delete is idempotent, on a store that never held a
// config too, and a delete of a task without configs leaves no trace: the
// task's configs set afterwards count in MaxTasks and are forgotten first.
func TestStoreRemove(t *testing.T) {
	var s Store
	s.Remove("t", "none") // the zero store: nothing to delete
	if err := s.Set("t", Config{ID: "a", URL: "u"}); err != nil {
		t.Fatal(err)
	}
	s.Remove("t", "b")
	if cs := s.List("t"); len(cs) != 1 || cs[0].ID != "a" {
		t.Errorf("a delete of another id left %+v", cs)
	}
	s.Remove("t", "a")
	if cs := s.List("t"); len(cs) != 0 {
		t.Errorf("after the delete: %+v", cs)
	}
	s.Remove("u", "x")
	_ = s.Set("u", Config{ID: "x", URL: "u"})
	for i := range MaxTasks {
		_ = s.Set("task-"+string(rune(i)), Config{ID: "x", URL: "u"})
	}
	if len(s.byTask) != MaxTasks || len(s.List("u")) != 0 {
		t.Errorf("store holds %d tasks (want %d), u's configs %+v", len(s.byTask), MaxTasks, s.List("u"))
	}
}
