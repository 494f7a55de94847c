//go:build unix

package mockvendor

import (
	"net"
	"strconv"
	"syscall"
	"testing"
)

// tRefusedAddr returns a loopback address that refuses every connection
// for the test's life: a socket bound to it that never listens holds the
// port, so no listener of this or another test can take it over (a closed
// server's port can be reused at once, and a connection meant to be
// refused then reaches whatever took it).
func tRefusedAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
}
