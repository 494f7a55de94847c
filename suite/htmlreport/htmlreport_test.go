package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/sdkupstream"
	"github.com/a2a-conform/a2a-conform/internal/testenv"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
	"github.com/a2a-conform/a2a-conform/suite/htmlreport"
)

const hostile = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">"'&`

var (
	reportOnce sync.Once
	report     *suite.Report
)

// naiveReport runs three scenarios against the naive orchestrator (through
// suite.Execute and suite.Judge, as the suite does) and assembles their
// report; the orchestrator's stderr and a note are replaced by hostile
// markup, which the page must show as text.
func naiveReport(t *testing.T) *suite.Report {
	t.Helper()
	reportOnce.Do(func() {
		d := driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() })
		var (
			picked []*scenarios.Scenario
			checks []suite.CheckResult
			scens  []suite.ScenarioResult
			mu     sync.Mutex
			wg     sync.WaitGroup
		)
		for _, id := range []string{"CARD-001", "PROBE-001", "BIND-004"} {
			s, _ := scenarios.Find(id)
			picked = append(picked, s)
		}
		start := time.Now()
		for _, s := range picked {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run, res, err := suite.Execute(context.Background(), s, d)
				mu.Lock()
				defer mu.Unlock()
				if s.ID == "PROBE-001" {
					res.Transcript.Stderr = "naive: " + hostile + "\n"
					res.Transcript.Notes = []string{"note " + hostile}
				}
				scens = append(scens, res)
				for _, c := range s.WithGlobals() {
					checks = append(checks, suite.Judge(run, err, s, c, nil))
				}
			}()
		}
		wg.Wait()
		report = suite.NewReport(suite.Config{Orchestrator: "builtin:naive", Version: "test", Scenarios: picked}, start, true, checks, scens)
	})
	return report
}

func find(t *testing.T, r *suite.Report, id string) suite.CheckResult {
	t.Helper()
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s in the report", id)
	return suite.CheckResult{}
}

// TestRenderIsSelfContainedAndEscaped checks the page as bytes: no script,
// no reference to anything outside it, the hostile text escaped.
func TestRenderIsSelfContainedAndEscaped(t *testing.T) {
	r := naiveReport(t)
	page, err := htmlreport.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "img", "link", "iframe", "object", "embed", "image", "use", "foreignobject":
			t.Errorf("the page has a <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			if k == "src" || strings.HasPrefix(k, "on") || strings.HasSuffix(k, "href") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q> reaches outside the page or runs code", n.Data, a.Key, a.Val)
			}
		}
		if n.Data == "style" && n.FirstChild != nil && regexp.MustCompile(`url\((?:["']?)[^#"')]`).MatchString(n.FirstChild.Data) {
			t.Errorf("a stylesheet loads something: %s", n.FirstChild.Data)
		}
	}
	if !bytes.Contains(page, []byte("&lt;script&gt;window.__pwned=1&lt;/script&gt;")) {
		t.Errorf("the hostile stderr is not shown escaped")
	}
	// Every in-page link points at an element of the page.
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllSubmatch(page, -1) {
		if ids[string(m[1])] && !strings.HasPrefix(string(m[1]), "failure-") {
			t.Errorf("duplicate id %q", m[1])
		}
		ids[string(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllSubmatch(page, -1) {
		h := string(m[1])
		if !strings.HasPrefix(h, "#") || !ids[h[1:]] {
			t.Errorf("link %q does not point into the page", h)
		}
	}
	fail := find(t, r, "CARD-001.REFETCH")
	if fail.Result != scenarios.Fail || fail.Seq == 0 {
		t.Fatalf("CARD-001.REFETCH = %s at #%d; want a FAIL with a step", fail.Result, fail.Seq)
	}
	if !ids[htmlreport.StepAnchor("CARD-001", fail.Seq)] {
		t.Errorf("no diagram step %s", htmlreport.StepAnchor("CARD-001", fail.Seq))
	}
}

// TestReportInBrowser opens the page in headless Chromium and reads it
// through the DOM: the scorecard's numbers, a failed check's row and its
// link to the diagram step that decided it, the diagram's steps, and that
// nothing ran or loaded. It saves screenshots as test artifacts.
func TestReportInBrowser(t *testing.T) {
	bin := testenv.Chromium(t)
	r := naiveReport(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := htmlreport.Write(r, file); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(1400, 1000),
	)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(t.Logf))
	defer cancelBrowser()

	safety := r.Profiles[scenarios.Safety]
	core := r.Profiles[scenarios.Core]
	fail := find(t, r, "CARD-001.REFETCH")
	var card001 suite.ScenarioResult
	for _, s := range r.Scenarios {
		if s.ID == "CARD-001" {
			card001 = s
		}
	}

	type row struct {
		Result, Text, Href string
	}
	type step struct {
		Class, Text, Section string
	}
	var failed bool
	must := func(err error, what string) {
		if err != nil && !failed {
			failed = true
			t.Errorf("chromium: %s: %v", what, err)
		}
	}
	text := func(sel string) string {
		v, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		must(err, sel)
		return v
	}
	must(chromedp.Do(bctx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("#scenarios"))), "opening the page")
	if failed {
		t.FailNow()
	}
	safetyScore := text("#profile-delegation-safety .score")
	safetyMust := text("#profile-delegation-safety .must")
	safetyConf := text("#profile-delegation-safety .conformant")
	coreScore := text("#profile-a2a-core .score")
	stderr := text("#sc-PROBE-001 pre.stderr")
	failRow, err := chromedp.Run(bctx, chromedp.Evaluate[row](fmt.Sprintf(`(() => { const r = document.getElementById(%q);
		return {Result: r.dataset.result, Text: r.innerText, Href: r.querySelector("a.step").getAttribute("href")}; })()`, htmlreport.CheckAnchor(fail.ID))))
	must(err, "the failed check's row")
	steps, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](fmt.Sprintf(`Array.from(document.querySelectorAll("#%s svg g.sq-ev")).map(g => g.id + " " + g.textContent)`, htmlreport.ScenarioAnchor("CARD-001"))))
	must(err, "the diagram's steps")
	scripts, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.scripts.length`))
	must(err, "scripts")
	resources, err := chromedp.Run(bctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource").length`))
	must(err, "resources")
	pwned, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.__pwned !== undefined`))
	must(err, "pwned")
	// The steps as rows: which are open, what an open one shows, and
	// whether any drawn text is cut (ends in an ellipsis, or runs past its
	// SVG's edge; a lone "…" is the mark of an answer with no status).
	type stepState struct {
		ID, Text string
		Open     bool
	}
	stepStates, err := chromedp.Run(bctx, chromedp.Evaluate[[]stepState](fmt.Sprintf(`Array.from(document.querySelectorAll("#%s details.step")).map(d =>
		({ID: d.id, Open: d.open, Text: d.querySelector(".exchange").innerText}))`, htmlreport.ScenarioAnchor("CARD-001"))))
	must(err, "the steps")
	cut, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#scenarios svg text")).filter(t => {
		const svg = t.ownerSVGElement, b = t.getBBox();
		return (t.textContent.length > 1 && t.textContent.endsWith("…")) || b.x < 0 || b.x + b.width > svg.width.baseVal.value + 0.5;
	}).map(t => t.textContent)`))
	must(err, "cut labels")
	heads, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#sc-BIND-004 .seq-head text")).map(t => t.textContent)`))
	must(err, "lifeline names")
	globalsInScenarios, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("section.scenario a[href^='#check-G-']")).map(a => a.textContent)`))
	must(err, "globals under scenarios")
	globalRows, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#matrix tr[id='check-G-JSONRPC']").length`))
	must(err, "G-JSONRPC's rows")
	// A closed step opens in place when its arrow is clicked.
	first := htmlreport.StepAnchor("CARD-001", card001.Trace[0].Seq)
	must(chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#"+first+" > summary"))), "clicking the first step")
	opened, err := chromedp.Run(bctx, chromedp.Evaluate[stepState](fmt.Sprintf(`(() => { const d = document.getElementById(%q);
		return {ID: d.id, Open: d.open, Text: d.querySelector(".exchange").innerText}; })()`, first)))
	must(err, "the first step after the click")
	page, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	must(err, "screenshot")
	// Follow the failed check's link: the step it names becomes the page's
	// target, inside CARD-001's diagram.
	must(chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#"+strings.ReplaceAll(htmlreport.CheckAnchor(fail.ID), ".", `\.`)+" a.step"))), "following the link")
	target, err := chromedp.Run(bctx, chromedp.Evaluate[step](`(() => { const g = document.querySelector(":target");
		return g ? {Class: g.getAttribute("class"), Text: g.textContent, Section: g.closest("section.scenario").id} : {}; })()`))
	must(err, "the target")
	hit, err := chromedp.Run(bctx, chromedp.Evaluate[string](`location.hash`))
	must(err, "the hash")
	card, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.CSS("#"+htmlreport.ScenarioAnchor("CARD-001"))))
	must(err, "screenshot of CARD-001")
	if failed {
		t.FailNow()
	}

	out := testenv.ArtifactDir(t)
	for name, png := range map[string][]byte{"report-naive.png": page, "report-naive-CARD-001.png": card} {
		p := filepath.Join(out, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", p, len(png))
	}

	if want := fmt.Sprintf("%.1f", safety.Score); safetyScore != want {
		t.Errorf("delegation-safety score shows %q, want %q", safetyScore, want)
	}
	if want := fmt.Sprintf("%d/%d", safety.MustPassed, safety.MustApplicable); safetyMust != want {
		t.Errorf("delegation-safety MUST shows %q, want %q", safetyMust, want)
	}
	if safety.Conformant || strings.TrimSpace(safetyConf) != "no" {
		t.Errorf("delegation-safety conformant shows %q (report: %v), want no", safetyConf, safety.Conformant)
	}
	if want := fmt.Sprintf("%.1f", core.Score); coreScore != want {
		t.Errorf("a2a-core score shows %q, want %q", coreScore, want)
	}
	if failRow.Result != "FAIL" || !strings.Contains(failRow.Text, fail.Detail) || !strings.Contains(failRow.Text, "fix:") || !strings.Contains(failRow.Text, fail.Source) {
		t.Errorf("the row of %s reads %+v; want FAIL with the detail, the clause's source and the fix", fail.ID, failRow)
	}
	if want := "#" + htmlreport.StepAnchor("CARD-001", fail.Seq); failRow.Href != want || hit != want {
		t.Errorf("the row links to %q (followed: %q), want %q", failRow.Href, hit, want)
	}
	if target.Section != htmlreport.ScenarioAnchor("CARD-001") || !strings.Contains(target.Class, "sq-hl") || !strings.Contains(target.Text, "-32004") {
		t.Errorf("the linked step is %+v; want CARD-001's highlighted step with the -32004", target)
	}
	if len(steps) != len(card001.Trace) || len(steps) < 2 {
		t.Fatalf("CARD-001's diagram has %d steps, want %d: %q", len(steps), len(card001.Trace), steps)
	}
	if !strings.Contains(steps[0], "GET card") || !strings.Contains(steps[0], "cdn") {
		t.Errorf("first step %q; want the card fetch served by the CDN", steps[0])
	}
	if !strings.Contains(steps[1], "skill=invoice-reconciliation") || !strings.Contains(steps[1], "-32004") {
		t.Errorf("second step %q; want the send with its skill and the -32004", steps[1])
	}
	if scripts != 0 || pwned || resources != 0 {
		t.Errorf("the page ran or loaded something: %d scripts, pwned %v, %d resources", scripts, pwned, resources)
	}
	if len(stepStates) != len(card001.Trace) {
		t.Fatalf("CARD-001 has %d step rows, want %d", len(stepStates), len(card001.Trace))
	}
	for _, st := range stepStates {
		decided := st.ID == htmlreport.StepAnchor("CARD-001", fail.Seq)
		if st.Open != decided {
			t.Errorf("step %s open %v; want only the step that decided %s open", st.ID, st.Open, fail.ID)
		}
		if decided {
			for _, want := range []string{"POST https://rpc.agent-b.example/a2a/v1", "TLS server name", "A2A-Version", "message/send (dialect 0.3)",
				"invoice-reconciliation", `"parts"`, "-32004", "error data", `"availableSkills"`, "invoice-reconciliation-v2"} {
				if !strings.Contains(st.Text, want) {
					t.Errorf("the open step %s lacks %q:\n%s", st.ID, want, st.Text)
				}
			}
		}
	}
	if !opened.Open || !strings.Contains(opened.Text, "GET https://agent-b.example/.well-known/agent-card.json") || !strings.Contains(opened.Text, "cdn") {
		t.Errorf("the first step after a click: %+v; want it open with the card fetch and the CDN's answer", opened)
	}
	if len(cut) > 0 {
		t.Errorf("labels cut off or drawn past their diagram: %q", cut)
	}
	if !slices.Contains(heads, "127.0.0.1") && !slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, "127.0.0.1:") }) {
		t.Errorf("BIND-004's lifelines %q: want the bare-IP host in full", heads)
	}
	if len(globalsInScenarios) > 0 || globalRows != 1 {
		t.Errorf("global requirements under scenarios: %q; G-JSONRPC rows in the matrix: %d (want none and 1)", globalsInScenarios, globalRows)
	}
	if !strings.Contains(stderr, "<script>window.__pwned=1</script>") {
		t.Errorf("the stderr shows %q; want the hostile text as text", stderr)
	}
}

// TestReportShowsTheAgent: a scenario played with the a2a-go SDK's server
// in the place of vendor b (run --upstream) says at its top that vendor b
// was the real agent, and shows, in the answer of each forwarded step,
// what the agent answered.
func TestReportShowsTheAgent(t *testing.T) {
	agent := sdkupstream.Start(t, "a2a-go")
	s, _ := scenarios.Find("CARD-003")
	s = scenarios.WithUpstream(s, scenarios.Upstream{Vendor: "b", Config: mockvendor.UpstreamConfig{URL: agent}, Versions: []string{"0.3"}})
	d := driver.NewGo("reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) })
	run, res, err := suite.Execute(context.Background(), s, d)
	if err != nil {
		t.Fatal(err)
	}
	var checks []suite.CheckResult
	for _, c := range s.WithGlobals() {
		checks = append(checks, suite.Judge(run, err, s, c, nil))
	}
	use := suite.UpstreamUse{Vendor: "b", URL: agent, Versions: []string{"0.3"}, Played: []string{s.ID}}
	r := suite.NewReport(suite.Config{Orchestrator: "builtin:reference", Driver: d, Scenarios: []*scenarios.Scenario{s}, Upstreams: []suite.UpstreamUse{use}},
		time.Now(), true, checks, []suite.ScenarioResult{res})
	page, err := htmlreport.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	forwarded := 0
	for _, e := range run.Events {
		if e.Upstream != nil && e.Upstream.Status != 0 {
			forwarded++
		}
	}
	shown := bytes.Count(page, []byte("<th>agent</th>"))
	if forwarded == 0 || shown < forwarded || !bytes.Contains(page, []byte("→ HTTP 200")) || !bytes.Contains(page, []byte(agent)) {
		t.Errorf("%d steps forwarded to the agent, %d show an agent field (want each, with its HTTP 200 and the agent's URL %s)", forwarded, shown, agent)
	}
	banner := `vendor <span class="mono">b</span> was the agent at <span class="mono">` + agent + `</span> (A2A 0.3): 1 scenarios played`
	if !bytes.Contains(page, []byte(`id="upstreams"`)) || !bytes.Contains(page, []byte(banner)) {
		t.Errorf("the page does not say vendor b was the real agent (want %q)", banner)
	}
}
