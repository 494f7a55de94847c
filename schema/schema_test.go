package schema_test

// The validator is github.com/santhosh-tekuri/jsonschema/v6: it implements
// draft 2020-12 completely (it passes the official JSON-Schema-Test-Suite,
// including $ref across documents, unevaluatedProperties and format
// assertions), it is maintained, pure Go, and pulls in nothing but
// golang.org/x/text; its default loader reads only file URLs, so these
// tests never touch the network.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/schema"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// validators compiles every schema twice: as published (open: readers
// must ignore properties they do not know), and strict, with
// unevaluatedProperties false on every object that lists properties, so
// that a field the Go types write but the schema does not describe fails
// the test instead of slipping through.
type validators struct {
	open, strict map[string]*jsonschema.Schema
}

var (
	valOnce sync.Once
	vals    validators
	valErr  error
)

func compile(strict bool) (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, f := range schema.All {
		b, err := schema.Load(f)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if strict {
			closeObjects(doc)
		}
		if err := c.AddResource(schema.ID(f), doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, f := range schema.All {
		s, err := c.Compile(schema.ID(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[f] = s
	}
	return out, nil
}

// closeObjects adds unevaluatedProperties: false to every object schema
// with properties, recursively.
func closeObjects(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"]; ok {
			if _, set := x["additionalProperties"]; !set {
				x["unevaluatedProperties"] = false
			}
		}
		for _, c := range x {
			closeObjects(c)
		}
	case []any:
		for _, c := range x {
			closeObjects(c)
		}
	}
}

func getValidators(t *testing.T) validators {
	t.Helper()
	valOnce.Do(func() {
		if vals.open, valErr = compile(false); valErr != nil {
			return
		}
		vals.strict, valErr = compile(true)
	})
	if valErr != nil {
		t.Fatalf("compiling the schemas: %v", valErr)
	}
	return vals
}

// validate checks a JSON document against a schema, open and strict.
func validate(t *testing.T, file string, what string, doc []byte) {
	t.Helper()
	v := getValidators(t)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Errorf("%s: not JSON: %v", what, err)
		return
	}
	if err := v.open[file].Validate(inst); err != nil {
		t.Errorf("%s does not validate against %s:\n%v", what, file, err)
		return
	}
	if err := v.strict[file].Validate(inst); err != nil {
		t.Errorf("%s has fields %s does not describe:\n%v", what, file, err)
	}
}

func TestSchemasCompile(t *testing.T) {
	getValidators(t)
}

// TestSchemasReject: the schemas are not vacuous.
func TestSchemasReject(t *testing.T) {
	v := getValidators(t)
	bad := map[string][]string{
		schema.DelegationOutcome: {`{"contract":1,"id":"x"}`, `{"contract":2,"id":"x","outcome":"completed"}`, `{"contract":1,"id":"x","outcome":"done"}`},
		schema.DelegationRequest: {`{"contract":1,"type":"delegate","id":"x"}`, `{"contract":1,"type":"hello","id":"x","task":{"skill":"","message":null},"candidates":[],"trust":{},"network":{},"deadlineMs":0}`},
		schema.Hello:             {`{"contract":1,"type":"reset"}`},
		schema.Reset:             {`{"contract":1,"type":"reset","ok":"yes"}`},
		schema.Close:             {`{"contract":1,"type":"close"}`, `{"contract":1,"type":"reset","session":"s-1"}`},
		schema.Report:            {`{"schema":"a2a-conform/report/v2"}`, `{"schema":"a2a-conform/report/v1","tool":{"name":"a","version":"b"},"orchestrator":{"spec":"x"},"startedAt":"yesterday","durationMs":1,"complete":true,"profiles":{},"checks":[],"scenarios":[]}`},
	}
	extra, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"contract":1,"type":"hello","name":"x","shoeSize":44}`))
	if v.open[schema.Hello].Validate(extra) != nil || v.strict[schema.Hello].Validate(extra) == nil {
		t.Errorf("an unknown field must pass the published schema and fail the strict one")
	}
	for f, docs := range bad {
		for _, d := range docs {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(d))
			if err != nil {
				t.Fatal(err)
			}
			if v.open[f].Validate(inst) == nil {
				t.Errorf("%s accepts %s", f, d)
			}
		}
	}
}

// runAll runs every default scenario against d (concurrently, as separate
// fleets) and assembles the report with baseline b.
func runAll(d driver.Driver, spec string, b suite.Baseline, ids ...string) *suite.Report {
	var picked []*scenarios.Scenario
	for _, s := range scenarios.All() {
		if s.HasLabel("slow") {
			continue
		}
		if len(ids) > 0 && !contains(ids, s.ID) {
			continue
		}
		picked = append(picked, s)
	}
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		checks []suite.CheckResult
		scens  []suite.ScenarioResult
	)
	start := time.Now()
	for _, s := range picked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, res, err := suite.Execute(context.Background(), s, d)
			mu.Lock()
			defer mu.Unlock()
			scens = append(scens, res)
			for _, c := range s.WithGlobals() {
				checks = append(checks, suite.Judge(run, err, s, c, b))
			}
		}()
	}
	wg.Wait()
	return suite.NewReport(suite.Config{Orchestrator: spec, Version: "test", Scenarios: picked, Baseline: b}, start, true, checks, scens)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// writeAndValidate writes r as the suite does and validates the file.
func writeAndValidate(t *testing.T, name string, r *suite.Report) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name+".json")
	if err := r.WriteJSON(p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	validate(t, schema.Report, "the "+name+" report", b)
	for _, s := range r.Scenarios {
		for _, d := range s.Delegations {
			rb, _ := json.Marshal(d.Request)
			validate(t, schema.DelegationRequest, name+": request "+d.Request.ID, rb)
			if d.Outcome != nil {
				ob, _ := json.Marshal(d.Outcome)
				validate(t, schema.DelegationOutcome, name+": outcome "+d.Request.ID, ob)
			}
		}
	}
}

// TestReportsValidate: the reports of full runs of the reference and of
// the naive orchestrator (with a baseline that waives some failures and
// has a stale entry), shard reports and their merge, and an interrupted
// report validate, as do the contract messages the harness sent in them.
func TestReportsValidate(t *testing.T) {
	t.Parallel()
	var (
		ref, nv *suite.Report
		wg      sync.WaitGroup
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		ref = runAll(driver.NewGo("reference", func() driver.GoOrchestrator { return reference.New(reference.Options{}) }), "builtin:reference", nil)
	}()
	go func() {
		defer wg.Done()
		nv = runAll(driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() }), "builtin:naive",
			suite.Baseline{"CARD-001.*": "naive never re-fetches", "SIG-00[12].REJECT": "naive ignores signatures", "NOPE-001.X": "stale"})
	}()
	wg.Wait()
	if !ref.Conformant(nil) {
		t.Errorf("the reference run is not conformant: %+v", ref.Profiles)
	}
	var waived int
	for _, c := range nv.Checks {
		if c.Result == scenarios.Waived {
			waived++
		}
	}
	if waived == 0 || len(nv.BaselineProblems) == 0 {
		t.Errorf("the naive run has %d waived checks and %d baseline problems; want some of each", waived, len(nv.BaselineProblems))
	}
	writeAndValidate(t, "reference", ref)
	writeAndValidate(t, "naive", nv)

	// Shards of the naive run, and their merge.
	var shards []*suite.Report
	for k := 1; k <= 2; k++ {
		sh := suite.ShardSpec{Index: k, Total: 2}
		part := *nv
		part.Shard = &sh
		part.Checks, part.Scenarios = nil, nil
		picked := map[string]bool{}
		for _, s := range sh.Select(scenarios.All()) {
			picked[s.ID] = true
		}
		for _, c := range nv.Checks {
			if picked[c.Scenario] {
				part.Checks = append(part.Checks, c)
			}
		}
		for _, s := range nv.Scenarios {
			if picked[s.ID] {
				part.Scenarios = append(part.Scenarios, s)
			}
		}
		part.Finish(nv.Baseline)
		writeAndValidate(t, fmt.Sprintf("shard-%d", k), &part)
		shards = append(shards, &part)
	}
	merged, err := suite.Merge(shards, suite.MergeOptions{Names: []string{"a.json", "b.json"}})
	if err != nil {
		t.Fatal(err)
	}
	writeAndValidate(t, "merged", merged)

	// An interrupted run with nothing finished.
	empty := suite.NewReport(suite.Config{Orchestrator: "exec:x"}, time.Now(), false, nil, nil)
	writeAndValidate(t, "empty-interrupted", empty)
}

// TestSuiteRunReportValidates: the report suite.Run writes through Ginkgo
// (as the CLI and go test do) validates.
func TestSuiteRunReportValidates(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.json")
	d := driver.NewGo("naive", func() driver.GoOrchestrator { return naive.New() })
	// naive fails checks, which fails Ginkgo's suite: hand it its own T.
	r, err := suite.Run(&ginkgoT{}, suite.Config{
		Driver: d, Orchestrator: "builtin:naive", LabelFilter: "CARD-001 || BIND-004 || PROBE-002",
		Baseline: suite.Baseline{"CARD-001.REFETCH": "known"}, JSONReport: file,
		Out: io.Discard, GinkgoOutput: io.Discard, NoColor: true,
	})
	if err != nil || r == nil {
		t.Fatalf("suite.Run: %v, report %v", err, r)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scenarios) != 3 {
		t.Errorf("%d scenarios ran, want 3", len(r.Scenarios))
	}
	validate(t, schema.Report, "the suite.Run report", b)
}

type ginkgoT struct{ failed bool }

func (g *ginkgoT) Fail() { g.failed = true }

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// examples builds the reference and naive exec programs once.
func examples(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "a2a-conform-schema-")
		if buildErr != nil {
			return
		}
		for _, name := range []string{"reference", "naive"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, name), "../examples/orchestrators/cmd/"+name).CombinedOutput()
			if err != nil {
				buildErr = errors.New(string(out))
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatalf("building the example orchestrators: %v", buildErr)
	}
	return binDir
}

// TestExecProgramsSpeakTheSchemas runs the reference and naive exec
// programs through the exec driver with their stdin and stdout copied to
// files, and validates every line each side wrote: the harness's requests,
// the programs' outcomes; then their answers to hello and reset.
func TestExecProgramsSpeakTheSchemas(t *testing.T) {
	t.Parallel()
	dir := examples(t)
	for _, name := range []string{"reference", "naive"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := filepath.Join(dir, name)
			work := t.TempDir()
			in, out := filepath.Join(work, "in.ndjson"), filepath.Join(work, "out.ndjson")
			d := driver.NewExec([]string{"sh", "-c", `tee -a "$0" | "$1" | tee -a "$2"`, in, prog, out})
			r := runAll(d, "exec:"+name, nil, "CARD-001", "PROBE-002", "BIND-001", "SIG-003")
			writeAndValidate(t, "exec-"+name, r)
			for _, s := range r.Scenarios {
				for _, dl := range s.Delegations {
					if dl.Outcome == nil {
						t.Errorf("%s: %s: no outcome (%s); stderr:\n%s", name, s.ID, dl.NoOutcome, s.Transcript.Stderr)
					}
				}
			}
			lines := func(file string) [][]byte {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				var out [][]byte
				for _, l := range bytes.Split(b, []byte("\n")) {
					if len(bytes.TrimSpace(l)) > 0 {
						out = append(out, l)
					}
				}
				return out
			}
			requests, outcomes := lines(in), lines(out)
			if len(requests) < 4 || len(outcomes) < 4 {
				t.Fatalf("%d requests, %d answers recorded; want at least 4 of each", len(requests), len(outcomes))
			}
			for i, l := range requests {
				validate(t, schemaOf(l, false), fmt.Sprintf("harness line %d to %s", i+1, name), l)
			}
			for i, l := range outcomes {
				validate(t, schemaOf(l, true), fmt.Sprintf("%s line %d", name, i+1), l)
			}

			// hello and reset, straight through the program's stdin.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, prog)
			var hello, reset bytes.Buffer
			hb, _ := json.Marshal(contract.NewHello())
			rb, _ := json.Marshal(contract.NewReset())
			validate(t, schema.Hello, "the harness's hello", hb)
			validate(t, schema.Reset, "the harness's reset", rb)
			cmd.Stdin = strings.NewReader(string(hb) + "\n" + string(rb) + "\n")
			stdout, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sc := bufio.NewScanner(bytes.NewReader(stdout))
			for sc.Scan() {
				var m struct{ Type string }
				_ = json.Unmarshal(sc.Bytes(), &m)
				switch m.Type {
				case contract.TypeHello:
					hello.Write(sc.Bytes())
				case contract.TypeReset:
					reset.Write(sc.Bytes())
				}
			}
			if hello.Len() == 0 || reset.Len() == 0 {
				t.Fatalf("%s answered hello %q and reset %q; stdout:\n%s", name, hello.String(), reset.String(), stdout)
			}
			validate(t, schema.Hello, name+"'s hello", hello.Bytes())
			validate(t, schema.Reset, name+"'s reset", reset.Bytes())
			var h contract.Hello
			if json.Unmarshal(hello.Bytes(), &h) != nil || h.Name == "" {
				t.Errorf("%s's hello has no name: %s", name, hello.String())
			}
		})
	}
}

// TestSessionMessages: the messages of a session with an http service that
// holds several (contract.Hello.Sessions) match their schemas.
func TestSessionMessages(t *testing.T) {
	hello, reset := contract.NewHello(), contract.NewReset()
	hello.Session, reset.Session = "s-0123456789abcdef", "s-0123456789abcdef"
	for _, m := range []struct {
		file, what string
		v          any
	}{
		{schema.Hello, "a session's hello", hello},
		{schema.Reset, "a session's reset", reset},
		{schema.DelegationRequest, "a session's delegation", contract.DelegationRequest{Contract: 1, Type: contract.TypeDelegate, ID: "r-1",
			Candidates: []string{"https://agent-b.example/.well-known/agent-card.json"}, DeadlineMs: 1000, Session: "s-0123456789abcdef"}},
		{schema.Close, "a session's close", contract.Close{Contract: 1, Type: contract.TypeClose, Session: "s-0123456789abcdef"}},
		{schema.Hello, "a service's hello declaring sessions", contract.Hello{Contract: 1, Type: contract.TypeHello, Name: "svc", Sessions: 8}},
	} {
		b, err := json.Marshal(m.v)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, m.file, m.what, b)
	}
}

// schemaOf picks the schema of a contract line by its type field.
func schemaOf(line []byte, fromOUT bool) string {
	var m struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(line, &m)
	switch m.Type {
	case contract.TypeHello:
		return schema.Hello
	case contract.TypeReset:
		return schema.Reset
	}
	if fromOUT {
		return schema.DelegationOutcome
	}
	return schema.DelegationRequest
}

// TestResultFields: the optional fields of contract 1 for conversations
// and results (task.replies; contextId, artifacts, statusText, error)
// validate as the Go types write them, the artifact vectors the Node and
// Python kits share included, and the schemas refuse what
// contract.DelegationOutcome.Validate refuses.
func TestResultFields(t *testing.T) {
	b, err := os.ReadFile("../contract/testdata/artifact-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors []struct {
		Want contract.Artifact `json:"want"`
	}
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	var arts []contract.Artifact
	for _, v := range vectors {
		arts = append(arts, v.Want)
	}
	req := contract.DelegationRequest{Contract: 1, Type: contract.TypeDelegate, ID: "r-1", DeadlineMs: 1000,
		Candidates: []string{"https://agent-b.example/.well-known/agent-card.json"},
		Task: contract.Task{Message: json.RawMessage(`{"role":"user","parts":[{"kind":"text","text":"book it"}],"messageId":"m-1"}`),
			Replies: []json.RawMessage{json.RawMessage(`{"role":"ROLE_USER","parts":[{"text":"Tuesday"}],"messageId":"m-2"}`)}}}
	outcomes := []struct {
		what string
		o    contract.DelegationOutcome
	}{
		{"completed with results", contract.DelegationOutcome{Contract: 1, ID: "r-1", Outcome: contract.OutcomeCompleted, TaskID: "t-1",
			ContextID: "c-1", Artifacts: arts, StatusText: "done"}},
		{"interrupted with a question", contract.DelegationOutcome{Contract: 1, ID: "r-1", Outcome: contract.OutcomeInterrupted, TaskID: "t-1",
			TaskState: contract.TaskStateInputRequired, ContextID: "c-1", StatusText: "Which day?"}},
		{"failed with a code", contract.DelegationOutcome{Contract: 1, ID: "r-1", Outcome: contract.OutcomeFailed,
			Error: &contract.RemoteError{Code: -32001, Message: "task not found"}}},
		{"failed with a reason", contract.DelegationOutcome{Contract: 1, ID: "r-1", Outcome: contract.OutcomeFailed,
			Error: &contract.RemoteError{Reason: "TASK_NOT_FOUND"}}},
	}
	rb, _ := json.Marshal(req)
	validate(t, schema.DelegationRequest, "a request with replies", rb)
	for _, c := range outcomes {
		if err := c.o.Validate("r-1"); err != nil {
			t.Fatalf("%s: the Go side refuses it: %v", c.what, err)
		}
		ob, _ := json.Marshal(c.o)
		validate(t, schema.DelegationOutcome, c.what, ob)
	}

	v := getValidators(t)
	const head = `{"contract":1,"id":"r-1","outcome":"completed",`
	// goRefuses: contract.DelegationOutcome.Validate refuses it too.
	for _, d := range []struct {
		file, doc string
		goRefuses bool
	}{
		{schema.DelegationOutcome, head + `"artifacts":[{"artifactId":"a","parts":[{"kind":"file","sha256":"` + strings.Repeat("0", 64) + `"}]}]}`, true},
		{schema.DelegationOutcome, head + `"artifacts":[{"artifactId":"a","parts":[{"kind":"text","sha256":"` + strings.Repeat("A", 64) + `"}]}]}`, true},
		{schema.DelegationOutcome, head + `"artifacts":[{"artifactId":"a","parts":[{"kind":"text","sha256":"abc"}]}]}`, true},
		{schema.DelegationOutcome, head + `"error":{}}`, true},
		{schema.DelegationOutcome, head + `"error":{"message":"no"}}`, true},
		{schema.DelegationOutcome, head + `"error":{"code":0,"reason":""}}`, true},
		// The Go types always write artifactId (empty for a Message reply).
		{schema.DelegationOutcome, head + `"artifacts":[{"parts":[]}]}`, false},
		{schema.DelegationOutcome, head + `"statusText":7}`, false},
		{schema.DelegationRequest, `{"contract":1,"type":"delegate","id":"x","task":{"skill":"","message":null,"replies":["yes"]},"candidates":[],"trust":{},"network":{},"deadlineMs":0}`, false},
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(d.doc))
		if err != nil {
			t.Fatal(err)
		}
		if v.open[d.file].Validate(inst) == nil {
			t.Errorf("%s accepts %s", d.file, d.doc)
		}
		var o contract.DelegationOutcome
		if d.goRefuses && json.Unmarshal([]byte(d.doc), &o) == nil && o.Validate("r-1") == nil {
			t.Errorf("the schema refuses %s, contract.Validate accepts it", d.doc)
		}
	}
}
