package mockvendor

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tRSS returns this process's resident set in bytes (Linux).
func tRSS(b testing.TB) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkHostile runs, against a default-limits fleet on loopback, a
// hostile orchestrator's attacks in bounded loops: 2,000 idle CONNECT
// tunnels, 2,000 idle keep-alive connections, and 3,000 requests with
// 60 KiB bodies. For each it reports the process's descriptors, RSS and
// live heap (after a GC) added by the attack, and the latency of an
// ordinary card fetch during the attack against the same fetch before it
// (a ratio in the same run).
func BenchmarkHostile(b *testing.B) {
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"%s"}]}}}`, strings.Repeat("x", 60<<10))
	attacks := []struct {
		name string
		run  func(b *testing.B, f *Fleet) func() // returns the clean-up
	}{
		{"tunnel-flood-2000", func(b *testing.B, f *Fleet) func() {
			return hbFlood(b, f, 2000, "CONNECT %[1]s:443 HTTP/1.1\r\nHost: %[1]s:443\r\n\r\n")
		}},
		{"keepalive-flood-2000", func(b *testing.B, f *Fleet) func() {
			return hbFlood(b, f, 2000, "GET http://%[1]s"+CardPath+" HTTP/1.1\r\nHost: %[1]s\r\n\r\n")
		}},
		{"body-flood-3000x60KiB", func(b *testing.B, f *Fleet) func() {
			c := f.Client()
			u := "https://" + HostRPCD + DefaultRPCPath
			for i := 0; i < 3000; i++ {
				// A2A-Version 1.0: without it the request is a 0.3 one, and
				// SendMessage would be refused (-32601) before any task is
				// made.
				req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("A2A-Version", "1.0")
				resp, err := c.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				head := make([]byte, 512)
				n, _ := io.ReadFull(resp.Body, head)
				resp.Body.Close()
				if i == 0 && !bytes.Contains(head[:n], []byte(`"task"`)) {
					b.Fatalf("the send made no task: %s", head[:n])
				}
			}
			return func() { c.CloseIdleConnections() }
		}},
	}
	for _, a := range attacks {
		b.Run(a.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, err := NewFleet(DefaultConfig())
				if err != nil {
					b.Fatal(err)
				}
				c := f.Client()
				base, _ := hbLatency(c)
				fds0, rss0, heap0 := tOpenFDs(b), tRSS(b), tbHeap()
				done := a.run(b, f)
				during, failed := hbLatency(c)
				fds1, rss1, heap1 := tOpenFDs(b), tRSS(b), tbHeap()
				open, refused := f.Conns()
				b.ReportMetric(float64(fds1-fds0), "fds")
				b.ReportMetric(float64(rss1-rss0)/(1<<20), "MiB-RSS")
				b.ReportMetric((float64(heap1)-float64(heap0))/(1<<20), "MiB-heap")
				b.ReportMetric(float64(during)/float64(base), "latency-ratio")
				b.ReportMetric(float64(failed), "fetches-refused/21")
				b.ReportMetric(0, "ns/op")
				b.Logf("%s: fds %d -> %d (fleet conns open %d, refused %d, idle ones reclaimed %d), RSS %.0f -> %.0f MiB, live heap %+.0f MiB, card fetch %v -> %v (%d of 21 refused), trace bodies left out %d",
					a.name, fds0, fds1, open, refused, f.ConnsReclaimed(), float64(rss0)/(1<<20), float64(rss1)/(1<<20), (float64(heap1)-float64(heap0))/(1<<20), base, during, failed, f.Trace().BodiesLeftOut())
				done()
				c.CloseIdleConnections()
				f.Close()
			}
		})
	}
}

// hbFlood opens n connections to the proxy, each sending head (a format
// with the host name) and then staying idle; it returns their clean-up.
func hbFlood(b *testing.B, f *Fleet, n int, head string) func() {
	addr := strings.TrimPrefix(f.ProxyURL(), "http://")
	var conns []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			b.Logf("dial %d: %v", i, err)
			break
		}
		fmt.Fprintf(c, head, HostCardD)
		conns = append(conns, c)
	}
	time.Sleep(200 * time.Millisecond) // let the proxy answer them
	return func() {
		for _, c := range conns {
			c.Close()
		}
	}
}

// hbLatency is the median of 21 card fetches (each fetch refused counts
// as its time to refusal) and how many were refused.
func hbLatency(c *http.Client) (time.Duration, int) {
	var ds []time.Duration
	failed := 0
	for i := 0; i < 21; i++ {
		start := time.Now()
		resp, err := c.Get("https://" + HostCardD + CardPath)
		if err != nil {
			failed++
		} else {
			resp.Body.Close()
		}
		ds = append(ds, time.Since(start))
	}
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if ds[j] < ds[i] {
				ds[i], ds[j] = ds[j], ds[i]
			}
		}
	}
	return ds[len(ds)/2], failed
}
