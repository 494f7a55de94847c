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
	mode := flag.String("mode", "", "crash | hang | garbage | huge-line | wrong-id | answer-first | grandchild | setsid | flood | sleep")
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
	for in.Scan() {
		var msg struct {
			Type       string                  `json:"type"`
			ID         string                  `json:"id"`
			Trust      struct{ CAFile string } `json:"trust"`
			Network    struct{ Proxy string }  `json:"network"`
			Candidates []string                `json:"candidates"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.Type != "delegate" {
			continue
		}
		switch *mode {
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
			cmd := exec.Command(os.Args[0], "-mode", "sleep", "-pids", *pids)
			cmd.Stdout = os.Stdout // the grandchild keeps our stdout open
			if err := cmd.Start(); err == nil {
				record(*pids, cmd.Process.Pid)
			}
			os.Exit(0)
		case "setsid":
			// Ten children in sessions of their own (out of our process
			// group), detached from our pipes; then answer and stay.
			for i := 0; i < 10; i++ {
				cmd := exec.Command(os.Args[0], "-mode", "sleep", "-pids", *pids)
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
				if err := cmd.Start(); err == nil {
					record(*pids, cmd.Process.Pid)
				}
			}
			fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
		case "flood":
			flood(msg.Trust.CAFile, msg.Network.Proxy, msg.Candidates)
			fmt.Printf(`{"contract":1,"id":%q,"outcome":"failed","reason":"other"}`+"\n", msg.ID)
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
