package binding

import (
	"slices"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TestTraceErrorDataDepth: error data nested deeper than trace.MaxTracedDepth
// (a server-error fault's configured data may be anything) is left out
// and named in Clipped; shallower data is kept.
func TestTraceErrorDataDepth(t *testing.T) {
	deep := map[string]any{"leaf": 1}
	for i := 0; i < trace.MaxTracedDepth; i++ {
		deep = map[string]any{"d": deep}
	}
	for _, c := range []struct {
		data map[string]any
		kept bool
	}{{map[string]any{"skill": "s"}, true}, {deep, false}} {
		var ev trace.Event
		traceErrorData(&ev, &a2a.Error{Code: -32000, Message: "x", Data: c.data})
		if kept := ev.ErrorData != nil; kept != c.kept || !c.kept && !slices.Contains(ev.Clipped, "errorData") {
			t.Errorf("error data kept %v (want %v), Clipped %q", kept, c.kept, ev.Clipped)
		}
	}
}
