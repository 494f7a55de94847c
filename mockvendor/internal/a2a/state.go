package a2a

import "strings"

// Task states travel in the 0.3 spelling inside the fleet ("working",
// "input-required"); StateName spells one for a dialect on the way out,
// NormalState reads any dialect's spelling back.

// states10 and states03 spell the task states in 1.0 and in 0.3, one from
// the other, so that StateName and NormalState build no strings for them.
var states10, states03 = func() (map[string]string, map[string]string) {
	to10, to03 := map[string]string{}, map[string]string{}
	for _, s := range []string{"submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected"} {
		v := "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(s, "-", "_"))
		to10[s], to03[v] = v, s
	}
	return to10, to03
}()

// StateName spells a task state given in the 0.3 spelling in dialect d:
// TASK_STATE_* in 1.0, the 0.3 spelling itself in 0.3, and in 0.1 the
// nearest 0.1 state for the two it lacks.
func StateName(state string, d Dialect) string {
	if d == Dialect10 {
		if s, ok := states10[state]; ok {
			return s
		}
		return "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(state, "-", "_"))
	}
	if d == Dialect01 {
		// 0.1 has neither rejected nor auth-required (both came in 0.2):
		// its nearest states stand in.
		switch state {
		case "rejected":
			return "failed"
		case "auth-required":
			return "input-required"
		}
	}
	return state
}

// NormalState turns any dialect's state spelling into the 0.3 spelling
// (TASK_STATE_INPUT_REQUIRED -> input-required); a 0.x spelling comes back
// as it is.
func NormalState(s string) string {
	if v, ok := states03[s]; ok {
		return v
	}
	if rest, ok := strings.CutPrefix(s, "TASK_STATE_"); ok {
		return strings.ReplaceAll(strings.ToLower(rest), "_", "-")
	}
	return s
}
