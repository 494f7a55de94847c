package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/sdkupstream"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestProxyRefusesBadInvocations(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no upstream", nil, "at least one --upstream"},
		{"no name", []string{"--upstream", "https://agent.example.com"}, "want NAME=URL"},
		{"bad name", []string{"--upstream", "Partner_1=https://agent.example.com"}, "want NAME=URL"},
		{"not http", []string{"--upstream", "p=ftp://agent.example.com"}, "not an http(s) URL"},
		{"bad header", []string{"--upstream", "p=https://a.example", "--upstream-header", "NoColon"}, "want 'Name: value'"},
		{"remote without flag", []string{"--upstream", "p=https://a.example", "--listen", "0.0.0.0:8443"}, "--allow-remote"},
		{"remote without token", []string{"--upstream", "p=https://a.example", "--listen", "0.0.0.0:8443", "--allow-remote"}, "--admin-token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"proxy"}, c.args...), &stdout, &stderr)
			var msg bytes.Buffer
			if code := exitCode(err, &msg); code != 2 {
				t.Fatalf("exit code %d (%v), want 2", code, err)
			}
			if !strings.Contains(msg.String(), c.want) {
				t.Errorf("error %q, want it to say %q", msg.String(), c.want)
			}
		})
	}
}

func TestProxyConfigOfUpstreams(t *testing.T) {
	var stdout bytes.Buffer
	err := run(context.Background(), []string{"proxy", "--print-config",
		"--upstream", "partner=https://agent.partner.com/a2a/.well-known/agent-card.json",
		"--upstream-header", "Authorization: Bearer ${PARTNER_TOKEN}"}, &stdout, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mockvendor.ParseConfig("proxy.yaml", stdout.Bytes())
	if err != nil {
		t.Fatalf("the printed config does not load: %v\n%s", err, stdout.String())
	}
	v := cfg.Vendors[0]
	if v.ID != "partner" || v.Hosts[0].Name != "agent.partner.example" || !v.Hosts[0].GRPC {
		t.Errorf("vendor %+v, want partner at agent.partner.example with every binding", v)
	}
	u := v.Upstream
	if u == nil || u.URL != "https://agent.partner.com" || u.CardPath != "/a2a/.well-known/agent-card.json" || u.Header["Authorization"] != "Bearer ${PARTNER_TOKEN}" {
		t.Errorf("upstream %+v, want the base, the card path and the header as written (the secret left to the environment)", u)
	}
}

// TestProxyRecordSurvivesInterrupt runs `proxy --record` in front of the
// a2a-go SDK's server, sends three calls through it faster than the
// recording is rewritten, and stops it with SIGINT: it exits 0 and the
// recording holds the card and all three answers, no secret among them,
// and fleet.yaml replays it.
func TestProxyRecordSurvivesInterrupt(t *testing.T) {
	cli, _ := built(t)
	agent := sdkupstream.Start(t, "a2a-go", "--skill", mockvendor.SkillInvoice)
	dir := t.TempDir()
	cmd := exec.Command(cli, "proxy", "--upstream", "partner="+agent, "--record", dir)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	proxyURL, caFile := tProxyAddresses(t, stdout)
	c := tProxyClient(t, proxyURL, caFile)
	for i := 0; i < 3; i++ {
		body := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m` + strconv.Itoa(i) + `","role":"user","parts":[{"kind":"text","text":"INV-1042"}]}}}`
		req, _ := http.NewRequest(http.MethodPost, "https://agent.partner.example/a2a/v1", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer sk-live-secret")
		resp, err := c.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("send %d through the proxy: %v", i, err)
		}
		resp.Body.Close()
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCodeOf(t, err); code != 0 {
			t.Fatalf("proxy exit %d after SIGINT\n%s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the proxy did not stop within 20 s of SIGINT\n%s", errb.String())
	}
	file := filepath.Join(dir, "partner.recording.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rec mockvendor.Recording
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Card) == 0 || len(rec.Exchanges) != 3 {
		t.Fatalf("recording: %d exchanges, card %d bytes (%v); want the card and 3", len(rec.Exchanges), len(rec.Card), err)
	}
	if bytes.Contains(b, []byte("sk-live")) || !slices.Contains(rec.Redacted, "Authorization") {
		t.Errorf("recording holds the secret or does not name it redacted (%v)", rec.Redacted)
	}
	cfg, err := mockvendor.LoadConfig(filepath.Join(dir, "fleet.yaml"))
	if err != nil || cfg.Vendors[0].Upstream == nil || cfg.Vendors[0].Upstream.Replay == "" {
		t.Fatalf("fleet.yaml: %+v (%v), want the vendor replaying its recording", cfg, err)
	}
	replay, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatalf("the recording does not replay: %v", err)
	}
	replay.Close()
}

// tProxyAddresses reads the proxy's start-up lines for its CONNECT proxy
// and its CA file.
func tProxyAddresses(t *testing.T, stdout io.Reader) (proxyURL, caFile string) {
	t.Helper()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	for proxyURL == "" || caFile == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the proxy ended before it printed its addresses")
			}
			if v, ok := strings.CutPrefix(l, "proxy:"); ok {
				proxyURL = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(l, "CA:"); ok {
				caFile = strings.TrimSpace(v)
			}
		case <-deadline:
			t.Fatal("the proxy did not print its addresses within 30 s")
		}
	}
	go func() {
		for range lines { // the rest of its output, until it exits
		}
	}()
	return proxyURL, caFile
}

// tProxyClient reaches the fleet's hosts through its CONNECT proxy,
// trusting the CA in caFile.
func tProxyClient(t *testing.T, proxyURL, caFile string) *http.Client {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("%s holds no certificate", caFile)
	}
	c := proxiedClient(t, proxyURL, pool)
	t.Cleanup(c.CloseIdleConnections)
	return c
}
