// Command hostile is an orchestrator under test that misbehaves on purpose,
// one way per -mode, for the harness's hostile-orchestrator tests. It
// records the pids it starts in -pids (one per line) so the test can check
// that none is left running.
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	mode := flag.String("mode", "", "crash | hang | garbage | huge-line | wrong-id | answer-first | grandchild | setsid | flood | invalid-utf8 | deep-nesting | big-bodies | tunnel-flood | escape | escape-mid | body-flood | big-text | max | sleep")
	floodFor := flag.Duration("for", 12*time.Second, "how long body-flood sends")
	floodScenario := flag.String("flood-scenario", "", "in mode max, the scenario whose fleet gets 5,000 requests with every field at its largest")
	pids := flag.String("pids", "", "file to append started pids to")
	flag.Parse()
	record(*pids, os.Getpid())
	switch *mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "hostile: crashing at once")
		os.Exit(3)
	case "sleep":
		time.Sleep(time.Hour)
		return
	case "escape-mid":
		// The middle of a double fork: a grandchild in a session of its
		// own with an empty environment, and exit at once so that it is
		// orphaned.
		cmd := exec.Command(os.Args[0], "-mode", "sleep", "-pids", *pids)
		cmd.Env = []string{}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err == nil {
			record(*pids, cmd.Process.Pid)
		}
		return
	case "huge-line":
		line := strings.Repeat("x", 1<<20)
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		for i := 0; i < 100; i++ { // 100 MB, no newline
			if _, err := w.WriteString(line); err != nil {
				os.Exit(0)
			}
		}
		_ = w.Flush()
		time.Sleep(time.Hour)
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	o := options{pids: *pids, floodFor: *floodFor, floodScenario: *floodScenario}
	for in.Scan() {
		var msg message
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		switch {
		case msg.Type == "hello" && (*mode == "big-text" || *mode == "max"):
			hello(*mode)
		case msg.Type == "delegate":
			answer(*mode, msg, o)
		}
	}
}

// message is what the orchestrator reads of a harness message.
type message struct {
	Type       string                  `json:"type"`
	ID         string                  `json:"id"`
	Scenario   string                  `json:"scenario"`
	Trust      struct{ CAFile string } `json:"trust"`
	Network    struct{ Proxy string }  `json:"network"`
	Candidates []string                `json:"candidates"`
}

// options are the flags an answer needs.
type options struct {
	pids          string
	floodFor      time.Duration
	floodScenario string
}

// answer answers a delegation the way mode misbehaves.
func answer(mode string, msg message, o options) {
	switch mode {
	case "hang":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "garbage":
		for i := 0; i < 50; i++ {
			fmt.Println("<html>not an outcome</html>", i)
		}
		time.Sleep(time.Hour)
	case "wrong-id":
		fmt.Printf(`{"contract":1,"id":"%s-not","outcome":"completed"}`+"\n", msg.ID)
	case "answer-first":
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"completed","cardTrust":"hint","trustMode":"full"}`+"\n", msg.ID)
	case "grandchild":
		cmd := exec.Command(os.Args[0], "-mode", "sleep", "-pids", o.pids)
		cmd.Stdout = os.Stdout // the grandchild keeps our stdout open
		if err := cmd.Start(); err == nil {
			record(o.pids, cmd.Process.Pid)
		}
		os.Exit(0)
	case "setsid":
		// Ten children in sessions of their own (out of our process
		// group), detached from our pipes; then answer and stay.
		for i := 0; i < 10; i++ {
			cmd := exec.Command(os.Args[0], "-mode", "sleep", "-pids", o.pids)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := cmd.Start(); err == nil {
				record(o.pids, cmd.Process.Pid)
			}
		}
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
	case "escape":
		// A double fork out of reach of the process group and the
		// session marker: the middle process calls setsid with an
		// empty environment, starts the grandchild and exits.
		cmd := exec.Command(os.Args[0], "-mode", "escape-mid", "-pids", o.pids)
		cmd.Env = []string{}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err == nil {
			record(o.pids, cmd.Process.Pid)
			_ = cmd.Wait()
		}
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
	case "flood":
		flood(msg.Trust.CAFile, msg.Network.Proxy, msg.Candidates)
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
	case "invalid-utf8", "deep-nesting", "big-bodies":
		post(mode, msg.Trust.CAFile, msg.Network.Proxy, msg.Candidates, 0)
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
	case "body-flood":
		// 60 KiB sends, 64 at a time, for -for (for measurements:
		// not in the test table).
		post("big-bodies", msg.Trust.CAFile, msg.Network.Proxy, msg.Candidates, o.floodFor)
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
	case "big-text":
		// A detail of 1,000 KiB (the hello named the orchestrator
		// with as much).
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other","detail":%q}`+"\n", msg.ID, strings.Repeat("d", 1000<<10))
	case "max":
		maxEverywhere(msg.ID, msg.Scenario == o.floodScenario, msg.Trust.CAFile, msg.Network.Proxy, msg.Candidates)
	case "tunnel-flood":
		conns := tunnels(msg.Network.Proxy, msg.Candidates, 2000)
		fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
		time.Sleep(500 * time.Millisecond)
		for _, c := range conns {
			c.Close()
		}
	}
}

// flood sends 2,000 card fetches through the fleet's proxy, 64 at a time.
func flood(caFile, proxy string, candidates []string) {
	pem, _ := os.ReadFile(caFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	pu, _ := url.Parse(proxy)
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: pool}, MaxConnsPerHost: 64,
	}}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := 0; i < 2000; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if resp, err := c.Get(candidates[0]); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

// client is an HTTP client through the fleet's proxy that trusts its CA.
func client(caFile, proxy string) *http.Client {
	pem, _ := os.ReadFile(caFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	pu, _ := url.Parse(proxy)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: pool}, MaxConnsPerHost: 64,
	}}
}

// post fetches the first candidate's card and sends its JSON-RPC endpoint
// bodies made to hurt the harness: invalid UTF-8 and a lone surrogate (5), JSON nested 9,990
// deep (5), or 500 sends of 60 KiB, 64 at a time.
func post(mode, caFile, proxy string, candidates []string, until time.Duration) {
	c := client(caFile, proxy)
	resp, err := c.Get(candidates[0])
	if err != nil {
		return
	}
	var card struct{ URL string }
	_ = json.NewDecoder(resp.Body).Decode(&card)
	resp.Body.Close()
	if card.URL == "" {
		return
	}
	send := `{"jsonrpc":"2.0","id":%s,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"%s"}]}}}`
	var body []byte
	n := 5
	switch mode {
	case "invalid-utf8":
		body = fmt.Appendf(nil, send, "\"\xff\xfe\"", "caf\xe9 \xc0\x80 \\ud800")
	case "deep-nesting":
		body = []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + `}}`)
	case "big-bodies":
		body, n = fmt.Appendf(nil, send, "1", strings.Repeat("x", 60<<10)), 500
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	end := time.Now().Add(until)
	for i := 0; i < n || (until > 0 && time.Now().Before(end)); i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// A2A-Version 1.0: the sends are 1.0 SendMessage calls (without
			// it they would be 0.3 requests, refused -32601 before any
			// task is made).
			req, _ := http.NewRequest(http.MethodPost, card.URL, strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("A2A-Version", "1.0")
			if resp, err := c.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

// tunnels opens n CONNECT tunnels to the first candidate's host and
// leaves them idle.
func tunnels(proxy string, candidates []string, n int) []net.Conn {
	pu, _ := url.Parse(proxy)
	cu, _ := url.Parse(candidates[0])
	var out []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.DialTimeout("tcp", pu.Host, time.Second)
		if err != nil {
			break
		}
		fmt.Fprintf(c, "CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n", cu.Hostname(), cu.Hostname())
		out = append(out, c)
	}
	return out
}

func record(file string, pid int) {
	if file == "" {
		return
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, pid)
}
