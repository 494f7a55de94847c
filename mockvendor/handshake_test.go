package mockvendor

import (
	"net"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestBrokenHandshakeIsTraced: a client that refuses a host's certificate
// leaves a tls-handshake-failed event for that host (the only trace of a
// client that verified and refused), and one that connects and sends
// nothing leaves none.
func TestBrokenHandshakeIsTraced(t *testing.T) {
	f, err := NewFleet(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	addr := f.Resolve()[HostCardB+":443"]

	// A client without the fleet CA: verification fails, it aborts.
	c := &http.Client{Timeout: 2 * time.Second}
	if _, err := c.Get("https://" + addr + CardPath); err == nil {
		t.Fatal("a client without the fleet CA got through")
	}
	// A connection that says nothing.
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
	}
	f.Settle(time.Second)
	time.Sleep(50 * time.Millisecond) // the silent connection's close
	var failed []Event
	for _, e := range f.Trace().Events() {
		if e.Op == OpTLSFailed {
			failed = append(failed, e)
		}
	}
	if len(failed) != 1 || failed[0].Host != HostCardB || failed[0].Vendor != "b" {
		t.Fatalf("tls-handshake-failed events = %+v, want one for %s", failed, HostCardB)
	}
	// The fleet's own client completes its handshakes: no such event.
	f.Trace().Reset()
	resp, err := f.Client().Get("https://" + HostCardB + CardPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	f.Settle(time.Second)
	if slices.ContainsFunc(f.Trace().Events(), func(e Event) bool { return e.Op == OpTLSFailed }) {
		t.Error("a completed handshake was traced as failed")
	}
}
