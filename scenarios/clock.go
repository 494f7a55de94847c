package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// TimeScale scales the durations that are a scenario's own situation, not
// the orchestrator's work: how long a vendor's task works, how late a
// stream's first frame comes and the first-frame timeout the card
// declares, a delegation's deadline, the pauses between delegations. A
// scenario built at scale F (Catalog) stages each of them F times as long
// and judges by the scaled values; the orchestrator learns the ones it
// must keep to through what it already reads (the request's deadlineMs,
// the card's firstFrameTimeoutMs).
//
// Some values keep a floor (each says why where it is staged): a
// tolerance for the harness's own jitter, or a duration below which a
// scaled run would be flaky or could no longer tell a right orchestrator
// from a wrong one. A run at a scale other than 1 is another measurement,
// which the report records; 1 (RealTime) is what users run.
type TimeScale float64

// RealTime is the scale of a user's run: every duration as the scenario
// states it.
const RealTime TimeScale = 1

// ParseTimeScale reads a scale as a user types it ("0.1"): a number
// greater than 0 and at most 1.
func ParseTimeScale(s string) (TimeScale, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("time scale %q is not a number (0 < F <= 1)", s)
	}
	ts := TimeScale(f)
	return ts, ts.Validate()
}

// Validate reports an error unless 0 < ts <= 1.
func (ts TimeScale) Validate() error {
	f := float64(ts)
	if math.IsNaN(f) || f <= 0 || f > 1 {
		return fmt.Errorf("time scale %v is out of range (0 < F <= 1)", f)
	}
	return nil
}

// Factor is the scale as a number, 0 read as 1.
func (ts TimeScale) Factor() float64 {
	if ts == 0 {
		return 1
	}
	return float64(ts)
}

// IsReal reports whether ts stages real durations (1, or 0 for unset).
func (ts TimeScale) IsReal() bool { return ts.Factor() == 1 }

// Ms scales a duration in milliseconds, rounding to the nearest
// millisecond, never below floorMs.
func (ts TimeScale) Ms(ms, floorMs int) int {
	return max(int(math.Round(float64(ms)*ts.Factor())), floorMs)
}

// Duration scales d, never below floor.
func (ts TimeScale) Duration(d, floor time.Duration) time.Duration {
	return max(time.Duration(math.Round(float64(d)*ts.Factor())), floor)
}

// String is the scale as a user types it ("0.1").
func (ts TimeScale) String() string {
	return strconv.FormatFloat(ts.Factor(), 'g', -1, 64)
}

// seconds prints d in seconds as the catalog's texts do ("61 s", "6.1 s").
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', -1, 64) + " s"
}
