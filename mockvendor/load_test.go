package mockvendor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// ldDelegations is how many delegations TestLoadDelegations runs at once.
const ldDelegations = 1000

// ldHeapBound is the HeapInuse growth TestLoadDelegations tolerates.
const ldHeapBound = 200 << 20

// TestLoadDelegations runs 1,000 concurrent delegations to vendor D of the
// default fleet, each a card fetch and a 1.0 SendMessage over TLS through
// the CONNECT proxy, on one shared transport capped at 64 connections per
// host. Every answer must be a 200 with a completed task, the trace must
// hold exactly the requests sent, the heap must stay bounded, and closing
// the fleet must leave no goroutine behind.
func TestLoadDelegations(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f, err := NewFleet(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := f.Transport()
	tr.MaxConnsPerHost = 64
	tr.MaxIdleConnsPerHost = 64
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	before := ldHeapInuse()
	start := time.Now()
	var wg sync.WaitGroup
	gate := make(chan struct{})
	errs := make(chan error, ldDelegations)
	for i := 0; i < ldDelegations; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			if err := ldDelegate(c, i); err != nil {
				errs <- fmt.Errorf("delegation %d: %w", i, err)
			}
		}()
	}
	close(gate)
	wg.Wait()
	close(errs)
	elapsed := time.Since(start)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 0 {
		t.Fatalf("%d of %d delegations failed", n, ldDelegations)
	}
	after := ldHeapInuse()
	t.Logf("%d delegations (%d requests) in %v; HeapInuse %.1f MiB before, %.1f MiB after (growth %.1f MiB); trace %d events",
		ldDelegations, 2*ldDelegations, elapsed.Round(time.Millisecond),
		float64(before)/(1<<20), float64(after)/(1<<20), (float64(after)-float64(before))/(1<<20), len(f.Trace().Events()))
	if after > before && after-before > ldHeapBound {
		t.Errorf("HeapInuse grew by %d MiB, bound %d MiB", (after-before)>>20, ldHeapBound>>20)
	}

	counts := map[string]int{}
	for _, ev := range f.Trace().Events() {
		counts[ev.Vendor+" "+string(ev.Op)]++
		if ev.Status != http.StatusOK {
			t.Errorf("trace event %d answered %d", ev.Seq, ev.Status)
		}
		if ev.Op == OpSend && (ev.State != "completed" || ev.ErrorCode != 0 || ev.TaskID == "") {
			t.Errorf("send event %d: state %q, error %d, task %q", ev.Seq, ev.State, ev.ErrorCode, ev.TaskID)
		}
	}
	want := map[string]int{"d " + string(OpCardFetch): ldDelegations, "d " + string(OpSend): ldDelegations}
	if len(counts) != len(want) || counts["d "+string(OpCardFetch)] != ldDelegations || counts["d "+string(OpSend)] != ldDelegations {
		t.Errorf("trace by op %v, want %v", counts, want)
	}
	if d := f.Trace().Dropped(); d != 0 {
		t.Errorf("trace dropped %d events under its cap", d)
	}

	tr.CloseIdleConnections()
	f.Close()
}

// ldDelegate fetches vendor D's card and sends one 1.0 message to the
// endpoint the card names.
func ldDelegate(c *http.Client, i int) error {
	resp, err := c.Get("https://" + HostCardD + CardPath)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("card fetch answered %d", resp.StatusCode)
	}
	var card struct {
		SupportedInterfaces []struct {
			URL             string `json:"url"`
			ProtocolBinding string `json:"protocolBinding"`
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"supportedInterfaces"`
	}
	if err := json.Unmarshal(body, &card); err != nil {
		return fmt.Errorf("card: %w", err)
	}
	endpoint := ""
	for _, si := range card.SupportedInterfaces {
		if si.ProtocolBinding == "JSONRPC" && si.ProtocolVersion == "1.0" {
			endpoint = si.URL
		}
	}
	if endpoint == "" {
		return fmt.Errorf("card names no 1.0 JSON-RPC interface: %s", body)
	}
	send := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-%d","parts":[{"text":"reconcile invoice %d"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`, i, i, i)
	req, _ := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader([]byte(send)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err = c.Do(req)
	if err != nil {
		return err
	}
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("send answered %d: %s", resp.StatusCode, body)
	}
	var ans struct {
		ID     int `json:"id"`
		Result struct {
			Task struct {
				ID     string `json:"id"`
				Status struct {
					State string `json:"state"`
				} `json:"status"`
			} `json:"task"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return fmt.Errorf("send answer: %w", err)
	}
	if ans.Error != nil || ans.ID != i || ans.Result.Task.ID == "" || ans.Result.Task.Status.State != "TASK_STATE_COMPLETED" {
		return fmt.Errorf("send answer %s", body)
	}
	return nil
}

func ldHeapInuse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestLoadTraceCap documents the trace past Limits.MaxTraceEvents: when
// full, the trace drops the oldest tenth of its events (at least one) before
// recording a new one, Dropped counts every dropped event, sequence numbers
// keep counting, and the kept events are always the newest, in order.
func TestLoadTraceCap(t *testing.T) {
	const capEvents = 50
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxTraceEvents: capEvents}})
	c := tClient(t, f, tViaResolve)
	const total = 137
	for i := 0; i < total; i++ {
		if r := tGet(t, c, "https://"+HostCardD+CardPath, nil); r.Status != http.StatusOK {
			t.Fatalf("card fetch %d answered %d", i, r.Status)
		}
		evs := f.Trace().Events()
		if len(evs) > capEvents {
			t.Fatalf("after %d requests the trace holds %d events, cap %d", i+1, len(evs), capEvents)
		}
	}
	tr := f.Trace()
	evs := tr.Events()
	if int64(len(evs))+tr.Dropped() != total || tr.Seq() != total {
		t.Fatalf("%d kept + %d dropped, seq %d; want %d requests accounted for", len(evs), tr.Dropped(), tr.Seq(), total)
	}
	// Each time it is full the trace drops capEvents/10 = 5: it never holds
	// fewer than cap - cap/10 + 1 once it has filled.
	if len(evs) < capEvents-capEvents/10+1 {
		t.Errorf("trace holds %d events, want at least %d", len(evs), capEvents-capEvents/10+1)
	}
	for i, ev := range evs {
		if want := int64(total-len(evs)+i) + 1; ev.Seq != want {
			t.Fatalf("kept event %d has seq %d, want %d (the newest, in order)", i, ev.Seq, want)
		}
		if ev.Status != http.StatusOK || ev.Op != OpCardFetch {
			t.Fatalf("kept event %+v is not a completed card fetch", ev)
		}
	}
	if since := tr.Since(0); len(since) != len(evs) {
		t.Errorf("Since(0) returns %d events, Events %d", len(since), len(evs))
	}
	if since := tr.Since(evs[0].Seq - 1); len(since) != len(evs) {
		t.Errorf("Since(before the oldest kept) returns %d events, want %d", len(since), len(evs))
	}
	t.Logf("cap %d: %d requests, %d kept, %d dropped", capEvents, total, len(evs), tr.Dropped())
}

// TestLoadTaskStoreCap documents the task store past Limits.MaxTasks: when
// full, the store forgets the oldest tenth of its tasks (at least one)
// before keeping a new one; a get or cancel for a forgotten task answers
// -32001 (task not found) and the trace records it; the newest tasks stay
// readable and sends keep succeeding.
func TestLoadTaskStoreCap(t *testing.T) {
	const capTasks = 20
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxTasks: capTasks}})
	c := tClient(t, f, tViaResolve)
	u := "https://" + HostRPCD + DefaultRPCPath
	const total = 73
	var ids []string
	for i := 0; i < total; i++ {
		r := tSend(t, c, u, Dialect10, fmt.Sprintf("task %d", i), "")
		id, _ := tTask(r)["id"].(string)
		if r.Status != http.StatusOK || id == "" || tState(r) != "completed" {
			t.Fatalf("send %d past the cap: %d %s", i, r.Status, r.Body)
		}
		ids = append(ids, id)
	}
	stored, ordered := f.tasks.Counts()
	if stored > capTasks || ordered != stored {
		t.Fatalf("store holds %d tasks (%d in order), cap %d", stored, ordered, capTasks)
	}
	kept := 0
	firstKept := -1
	for i, id := range ids {
		r := tRPC(t, c, u, "1.0", "GetTask", map[string]any{"id": id})
		switch {
		case r.Code() == -32001:
			if firstKept >= 0 {
				t.Fatalf("task %d forgotten while the older task %d is kept", i, firstKept)
			}
		case r.Code() == 0 && tState(r) == "completed":
			if firstKept < 0 {
				firstKept = i
			}
			kept++
		default:
			t.Fatalf("get of task %d: %d %s", i, r.Status, r.Body)
		}
	}
	if kept < capTasks-capTasks/10+1 || kept > capTasks || ids[total-1] == "" {
		t.Errorf("%d tasks kept of %d sent, want between %d and %d", kept, total, capTasks-capTasks/10+1, capTasks)
	}
	// Cancel of a forgotten task: -32001 too, and the trace says so.
	seq := f.Trace().Seq()
	if r := tRPC(t, c, u, "1.0", "CancelTask", map[string]any{"id": ids[0]}); r.Code() != -32001 {
		t.Errorf("cancel of a forgotten task: %d %s", r.Status, r.Body)
	}
	evs := tEvents(f, seq)
	if len(evs) != 1 || evs[0].Op != OpCancel || evs[0].ErrorCode != -32001 || evs[0].TaskID != ids[0] {
		t.Errorf("trace of the cancel: %+v", evs)
	}
	t.Logf("cap %d: %d sent, %d kept (oldest kept: #%d)", capTasks, total, kept, firstKept)
}
