package admin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/sdkupstream"
	"github.com/a2a-conform/a2a-conform/internal/testenv"

	"github.com/chromedp/chromedp"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The live page in a real browser: a request through the proxy shows up in
// its table, and its stub-endpoint button for vendor D makes the very next
// JSON-RPC request to rpc.agent-d.example answer -32601.
func TestLivePageInChromium(t *testing.T) {
	e := start(t)
	ctx := tBrowser(t)

	tOpenPage(t, ctx, e, `#toggle-d-stub-endpoint`)
	// The first visit traded the token for the cookie: neither the address
	// nor the page holds it.
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(loc, token) || strings.Contains(html, token) {
		t.Errorf("the token is still in the address (%s) or the page", loc)
	}

	// A request through the fleet's proxy appears in the table.
	resp, err := e.fc.Get("https://" + mockvendor.HostCardD + mockvendor.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#events tr[data-host="agent-d.example"][data-op="card-fetch"]`)),
	); err != nil {
		t.Fatalf("waiting for the card fetch in the table: %v", err)
	}
	cell, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#events tr[data-host="agent-d.example"] td.res`)))
	if err != nil {
		t.Fatal(err)
	}
	if cell != "200 cdn" {
		t.Errorf("result cell = %q, want \"200 cdn\"", cell)
	}

	// The stub-endpoint button of vendor D attaches the fault.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#toggle-d-stub-endpoint`)),
		chromedp.WaitVisible(chromedp.CSS(`#faults-d [data-fault-type="stub-endpoint"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#toggle-d-stub-endpoint.on`)),
	); err != nil {
		t.Fatalf("switching stub-endpoint on: %v", err)
	}
	if faults, _ := e.f.Faults("d"); len(faults) != 1 || faults[0].Type != "stub-endpoint" {
		t.Fatalf("vendor d faults after the click = %+v", faults)
	}
	tStubbedSend(t, ctx, e, rpcD, mockvendor.SkillFXHedging)
	tScreenshot(t, ctx, "fleet-live-page.png")

	// Switching it off again restores the answer.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#toggle-d-stub-endpoint`)),
		chromedp.WaitNotPresent(chromedp.CSS(`#toggle-d-stub-endpoint.on`)),
	); err != nil {
		t.Fatalf("switching stub-endpoint off: %v", err)
	}
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("after switching off: error %d", code)
	}
}

// tBrowser starts a headless Chromium for the test: its tab's context,
// bounded to 30 s.
func tBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := testenv.Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(func() { cancel(); cancelTab(); cancelAlloc() })
	return ctx
}

// The live page of a proxy in front of the a2a-go SDK's server: the
// vendor names its agent and offers only the faults a proxy can apply,
// and a forwarded call shows what the agent answered beside what the
// orchestrator got; switching stub-endpoint on answers -32601 without the
// agent.
func TestLivePageOfAProxy(t *testing.T) {
	ctx := tBrowser(t)
	agent := sdkupstream.Start(t, "a2a-go", "--skill", mockvendor.SkillInvoice)
	const host = "agent.partner.example"
	e := startWith(t, mockvendor.Config{Vendors: []mockvendor.VendorConfig{{
		ID: "partner", Organization: "partner",
		Hosts:    []mockvendor.HostConfig{{Name: host, Card: true, RPCPath: mockvendor.DefaultRPCPath}},
		Upstream: &mockvendor.UpstreamConfig{URL: agent},
	}}})
	rpc := "https://" + host + mockvendor.DefaultRPCPath
	tOpenPage(t, ctx, e, `#toggle-partner-stub-endpoint`)
	named, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#vendor-partner .upstream`)))
	if err != nil || named != "→ agent "+agent {
		t.Errorf("the vendor's agent line %q (%v), want %q", named, err, "→ agent "+agent)
	}
	for _, fault := range []string{"long-task", "push-trials", "task-outcome"} {
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#toggle-partner-`+fault+`").length`)); err != nil || n != 0 {
			t.Errorf("%s: %d toggles (%v), want none: it changes what the agent does", fault, n, err)
		}
	}
	seq := e.f.Trace().Seq() + 1
	if code := e.send(t, rpc, mockvendor.SkillInvoice); code != 0 {
		t.Fatalf("the forwarded send answered error %d", code)
	}
	row := `#events tr[data-seq="` + strconv.FormatInt(seq, 10) + `"]`
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(row+` td.up`))); err != nil {
		t.Fatalf("waiting for the send in the table: %v", err)
	}
	cell, err := tWaitText(ctx, row+` td.up`, func(s string) bool { return strings.HasPrefix(s, "200 ") && strings.HasSuffix(s, " ms") })
	if err != nil {
		t.Errorf("the agent's cell %q (%v), want the agent's 200 and its time", cell, err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#toggle-partner-stub-endpoint`)),
		chromedp.WaitVisible(chromedp.CSS(`#toggle-partner-stub-endpoint.on`)),
	); err != nil {
		t.Fatalf("switching stub-endpoint on: %v", err)
	}
	grow := tStubbedSend(t, ctx, e, rpc, mockvendor.SkillInvoice)
	if up, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(grow+` td.up`))); err != nil || up != "" {
		t.Errorf("the stubbed send's agent cell %q (%v), want empty: the stub answered, not the agent", up, err)
	}
	tScreenshot(t, ctx, "proxy-live-page.png")
}

// tOpenPage opens the live page with the token and waits for its trace
// stream to be live and for the element at sel (a vendor's toggle).
func tOpenPage(t *testing.T, ctx context.Context, e *env, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(e.srv.URL+"/?token="+token),
		chromedp.WaitVisible(chromedp.CSS(`#status.live`)),
		chromedp.WaitVisible(chromedp.CSS(sel)),
	); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
}

// tStubbedSend sends to url for skill through the fleet with
// stub-endpoint on, wants -32601, and waits for the page to show it in
// its table and its diagram: the row's selector.
func tStubbedSend(t *testing.T, ctx context.Context, e *env, url, skill string) string {
	t.Helper()
	seq := e.f.Trace().Seq() + 1
	if code := e.send(t, url, skill); code != -32601 {
		t.Fatalf("the next request to %s answered %d, want -32601", url, code)
	}
	row := `#events tr[data-seq="` + strconv.FormatInt(seq, 10) + `"][data-error="-32601"]`
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(row)),
		chromedp.WaitVisible(chromedp.CSS(`#diagram svg g#ev-`+strconv.FormatInt(seq, 10)+`.sq-err`)),
	); err != nil {
		t.Fatalf("waiting for the -32601 in the page: %v", err)
	}
	return row
}

// tWaitText polls the text of the element at sel until ok holds (at most
// 5 s; the page replaces a row when its event finishes): the last text.
func tWaitText(ctx context.Context, sel string, ok func(string) bool) (string, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err == nil && ok(s) {
			return s, nil
		}
		if time.Now().After(deadline) {
			return s, fmt.Errorf("still %q after 5s (%v)", s, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tScreenshot writes the page as it is to name in the artifact directory.
func tScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(testenv.ArtifactDir(t), name)
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)
}
