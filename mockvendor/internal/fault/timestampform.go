package fault

import (
	"fmt"
	"time"
)

// TimestampForm has a vendor write every status timestamp of its answers
// (TaskStatus.timestamp, in tasks and status updates, probes' too) in one
// of the ISO 8601 forms A2A 1.0.1 §5.6.1 allows, instead of the honest
// vendor's (RFC 3339 with the fraction's trailing zeros dropped): UTC
// with the 'Z' suffix, never an offset, and a fraction of seconds of
// Form's precision. §5.6.1's pattern is YYYY-MM-DDTHH:mm:ss.sssZ,
// millisecond precision SHOULD be used where available, and "when
// millisecond precision is not available, the fractional seconds portion
// MAY be omitted or zero-filled"; its notes say standard Protocol Buffer
// JSON encoding produces the string, and that encoding writes 0, 3, 6 or
// 9 fraction digits (micros and nanos here: a finer precision than the
// pattern's, which no MUST forbids). Clients MUST parse ISO 8601
// timestamps correctly (§5.6.1).
type TimestampForm struct {
	// Form is the precision: "seconds" (no fraction: 10:30:00Z),
	// "zero-millis" (whole seconds, zero-filled: 10:30:00.000Z), "millis"
	// (10:30:00.142Z), "micros" (six digits) or "nanos" (nine). Empty
	// means "millis".
	Form string `json:"form,omitempty" doc:"seconds, zero-millis, millis, micros or nanos; empty means millis"`
}

// timestampLayouts are the layouts of TimestampForm's forms (time.Format
// of a UTC time writes Z07:00 as 'Z'), and whether the time is cut to the
// second first.
var timestampLayouts = map[string]struct {
	layout string
	whole  bool
}{
	"seconds":     {"2006-01-02T15:04:05Z07:00", true},
	"zero-millis": {"2006-01-02T15:04:05.000Z07:00", true},
	"millis":      {"2006-01-02T15:04:05.000Z07:00", false},
	"micros":      {"2006-01-02T15:04:05.000000Z07:00", false},
	"nanos":       {"2006-01-02T15:04:05.000000000Z07:00", false},
}

func init() {
	Register("timestamp-form", "status timestamps in one ISO 8601 form A2A 1.0.1 allows: no fraction, zero-filled, or 3, 6 or 9 digits", func() any { return &TimestampForm{} })
}

func (f *TimestampForm) validate() error {
	if f.Form == "" {
		f.Form = "millis"
	}
	if _, ok := timestampLayouts[f.Form]; !ok {
		return &ConfigError{Field: "form", Msg: fmt.Sprintf("%q is not seconds, zero-millis, millis, micros or nanos", f.Form)}
	}
	return nil
}

// Format writes t in the form.
func (f *TimestampForm) Format(t time.Time) string {
	l := timestampLayouts[f.Form]
	if l.layout == "" {
		l = timestampLayouts["millis"]
	}
	t = t.UTC()
	if l.whole {
		t = t.Truncate(time.Second)
	}
	return t.Format(l.layout)
}

// OnAnswer rewrites the answer's status timestamps (AnswerHook).
func (f *TimestampForm) OnAnswer(c *Call, v map[string]any) {
	acted := false
	walkAnswer(v, func(k objKind, m map[string]any) {
		if k != objStatus {
			return
		}
		s, _ := m["timestamp"].(string)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return
		}
		m["timestamp"] = f.Format(t)
		acted = true
	})
	if acted {
		c.Faults = appendOnce(c.Faults, "timestamp-form")
	}
}
