package mockvendor

import (
	"bufio"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestListensOnLoopbackOnly checks every listening socket this process
// owns while a default fleet runs: each is bound to 127.0.0.1, none to a
// wildcard or another address.
func TestListensOnLoopbackOnly(t *testing.T) {
	f, err := NewFleet(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	owned := socketInodes(t)
	listening := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		for _, l := range listeners(t, table) {
			if !owned[l.inode] {
				continue
			}
			listening++
			if !l.ip.Equal(net.IPv4(127, 0, 0, 1)) {
				t.Errorf("a listener of this process is bound to %s:%d", l.ip, l.port)
			}
		}
	}
	// one per host and the proxy
	if want := len(f.Hosts()) + 1; listening < want {
		t.Errorf("found %d listening sockets of this process, want at least %d", listening, want)
	}
	for addr, target := range f.Resolve() {
		if !strings.HasPrefix(target, "127.0.0.1:") {
			t.Errorf("%s resolves to %s, not loopback", addr, target)
		}
	}
	if !strings.HasPrefix(f.ProxyURL(), "http://127.0.0.1:") {
		t.Errorf("proxy at %s", f.ProxyURL())
	}
}

// TestCAKeyStaysInMemory: writing the CA file writes the certificate only.
func TestCAKeyStaysInMemory(t *testing.T) {
	f, err := NewFleet(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Dir(p))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "ca.pem" {
		t.Errorf("the CA directory holds %v, want only ca.pem", entries)
	}
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "PRIVATE KEY") {
		t.Error("ca.pem holds a private key")
	}
}

// TestProxyRefusesTheOutsideWorld: every non-fleet target is refused with
// 403 and recorded, so nothing leaves loopback through the proxy.
func TestProxyRefusesTheOutsideWorld(t *testing.T) {
	f, err := NewFleet(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := f.Client()
	targets := []string{"https://example.com/", "https://10.0.0.1/", "https://192.168.1.1/", "https://127.0.0.1:1/", "http://example.org/x", "https://agent-b.example.evil.test/"}
	for _, u := range targets {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s: status %d, want 403", u, resp.StatusCode)
			}
		}
	}
	refused := 0
	for _, e := range f.Trace().Events() {
		if e.Op == OpRefused {
			refused++
		}
	}
	if refused != len(targets) {
		t.Errorf("%d refusals recorded, want %d", refused, len(targets))
	}
}

type listener struct {
	ip    net.IP
	port  int
	inode string
}

// listeners parses a /proc/net/tcp table for sockets in state LISTEN (0A).
func listeners(t *testing.T, table string) []listener {
	t.Helper()
	fh, err := os.Open(table)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		t.Fatal(err)
	}
	defer fh.Close()
	var out []listener
	sc := bufio.NewScanner(fh)
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" {
			continue
		}
		hostHex, portHex, _ := strings.Cut(fields[1], ":")
		raw, _ := hex.DecodeString(hostHex)
		ip := make(net.IP, len(raw))
		for i := 0; i+4 <= len(raw); i += 4 { // each 32-bit word is little-endian
			ip[i], ip[i+1], ip[i+2], ip[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
		}
		port, _ := strconv.ParseInt(portHex, 16, 32)
		out = append(out, listener{ip: ip, port: int(port), inode: fields[9]})
	}
	return out
}

// socketInodes lists the socket inodes among this process's open files.
func socketInodes(t *testing.T) map[string]bool {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	out := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			out[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	return out
}
