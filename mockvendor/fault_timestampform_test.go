package mockvendor

import (
	"regexp"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("timestamp-form", tFaultTimestampForm)
}

// tFaultTimestampForm is the timestamp-form case of TestFaults: each form
// writes a send's status timestamp (1.0 and 0.3) and a get's with its
// precision, 'Z' and no offset, a time close to now; an unknown form is
// refused; no form is millis.
func tFaultTimestampForm(t *testing.T, e *tFaultEnv) {
	forms := map[string]*regexp.Regexp{
		"seconds":     regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`),
		"zero-millis": regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$`),
		"millis":      regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`),
		"micros":      regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`),
		"nanos":       regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$`),
	}
	for form, re := range forms {
		id := e.add(t, "x", Spec("timestamp-form", TimestampForm{Form: form}))
		for _, d := range []Dialect{Dialect10, Dialect03} {
			r := e.send(t, d, "clock", "alpha")
			tWantState(t, form+" send "+string(d), r, "completed")
			ts, _ := tPath(tTask(r), "status", "timestamp").(string)
			at, err := time.Parse(time.RFC3339Nano, ts)
			if !re.MatchString(ts) || err != nil || time.Since(at) > time.Minute {
				t.Errorf("%s, %s: timestamp %q", form, d, ts)
			}
			if d == Dialect10 {
				g := tRPC(t, e.c, e.rpc, "1.0", "GetTask", map[string]any{"id": tTask(r)["id"]})
				if ts, _ := tPath(g.Result(), "status", "timestamp").(string); !re.MatchString(ts) {
					t.Errorf("%s: GetTask timestamp %q", form, ts)
				}
			}
		}
		e.remove(t, id)
	}
	e.add(t, "x", Spec("timestamp-form", nil)) // the default: millis
	if ts, _ := tPath(tTask(e.send(t, Dialect10, "clock", "alpha")), "status", "timestamp").(string); !forms["millis"].MatchString(ts) {
		t.Errorf("default form: timestamp %q", ts)
	}
	if _, err := e.f.AddFault("x", Spec("timestamp-form", TimestampForm{Form: "+01:00"})); err == nil {
		t.Error("an unknown form was accepted")
	}
}
