package push

import "testing"

// TestLoopbackHost: which hosts count as loopback; nothing is resolved.
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.9.8.7": true, "::1": true,
		"LOCALHOST.": false, "localhost.example": false, "10.0.0.1": false, "0.0.0.0": false,
		"::ffff:127.0.0.1": true, "fe80::1%lo": false, "hook.example": false, "": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
