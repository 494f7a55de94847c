//go:build !unix

package mockvendor

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// tRefusedAddr returns the address of a server already closed: it refuses
// connections until another listener takes its port (the unix version
// holds the port for the test's life).
func tRefusedAddr(t *testing.T) string {
	t.Helper()
	s := httptest.NewServer(http.NotFoundHandler())
	s.Close()
	return strings.TrimPrefix(s.URL, "http://")
}
