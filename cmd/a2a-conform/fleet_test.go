package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// syncBuffer is a bytes.Buffer safe to read while fleet up writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fleetUpRun runs `fleet up ARGS --addr-file F` until the test ends and
// returns what it wrote to the address file.
func fleetUpRun(t *testing.T, args ...string) addrFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "addr.json")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"fleet", "up", "--addr-file", path}, args...), &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("fleet up: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("fleet up did not stop when its context ended")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("fleet up ended early: %v\nstderr: %s", err, stderr.String())
		default:
		}
		var a addrFile
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &a) == nil {
			if !strings.Contains(stdout.String(), "admin:  "+a.Admin) {
				t.Errorf("stdout does not name the admin API:\n%s", stdout.String())
			}
			return a
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no address file after 10 s\nstderr: %s", stderr.String())
	return addrFile{}
}

// adminGet reads an admin route with the token.
func adminGet(t *testing.T, a addrFile, path string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.Admin+path, nil)
	if a.AdminToken != "" {
		req.Header.Set("Authorization", "Bearer "+a.AdminToken)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v: %s", path, err, b)
		}
	}
	return resp.StatusCode
}

type vendorFaults struct {
	ID     string   `json:"id"`
	Hosts  []string `json:"hosts"`
	Faults []struct {
		Type string `json:"type"`
	} `json:"faults"`
}

func faultTypesOf(vs []vendorFaults) map[string][]string {
	out := map[string][]string{}
	for _, v := range vs {
		out[v.ID] = []string{}
		for _, f := range v.Faults {
			out[v.ID] = append(out[v.ID], f.Type)
		}
	}
	return out
}

const smallFleet = `# vendor D with a gated skill
vendors:
  - id: d
    organization: Vendor D
    hosts:
      - name: agent-d.example
        card: true
      - name: rpc.agent-d.example
        rpcPath: /a2a/v1
        region: eu-west-1
    card:
      streaming: true
    skills:
      - id: fx-hedging
        regions: [eu-west-1]
      - id: fx-hedging-v2
    faults:
      - type: region-gate
        config:
          region: eu-west-1
          gatedSkills: [fx-hedging]
          availableSkills: [fx-hedging-v2]
`

func TestFleetUpConfigFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(p, []byte(smallFleet), 0o644); err != nil {
		t.Fatal(err)
	}
	a := fleetUpRun(t, "--config", p)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(a.Admin) {
		t.Errorf("admin = %q, want http://127.0.0.1:PORT", a.Admin)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(a.AdminToken) {
		t.Errorf("adminToken = %q, want 32 hex characters", a.AdminToken)
	}
	if len(a.Hosts) != 2 {
		t.Errorf("hosts = %v, want the file's two", a.Hosts)
	}
	var vs []vendorFaults
	if code := adminGet(t, a, "/admin/vendors", &vs); code != 200 {
		t.Fatalf("GET /admin/vendors: %d", code)
	}
	if got := faultTypesOf(vs); !reflect.DeepEqual(got, map[string][]string{"d": {"region-gate"}}) {
		t.Errorf("vendors and faults = %v", got)
	}
	if code := adminGet(t, addrFile{Admin: a.Admin}, "/admin/vendors", nil); code != 401 {
		t.Errorf("without the token: %d, want 401", code)
	}
}

func TestFleetUpScenario(t *testing.T) {
	a := fleetUpRun(t, "--scenario", "CARD-001", "--admin-token", "s3cret-s3cret-s3cret")
	if a.AdminToken != "s3cret-s3cret-s3cret" {
		t.Errorf("adminToken = %q, want the one given", a.AdminToken)
	}
	var vs []vendorFaults
	if code := adminGet(t, a, "/admin/vendors", &vs); code != 200 {
		t.Fatalf("GET /admin/vendors: %d", code)
	}
	s, _ := scenarios.Find("CARD-001")
	want := map[string][]string{}
	var hosts []string
	for _, v := range s.Fleet().Vendors {
		want[v.ID] = []string{}
		for _, f := range v.Faults {
			want[v.ID] = append(want[v.ID], f.Type)
		}
		for _, h := range v.Hosts {
			hosts = append(hosts, h.Name+":443")
		}
	}
	if got := faultTypesOf(vs); !reflect.DeepEqual(got, want) {
		t.Errorf("faults = %v, want CARD-001's %v", got, want)
	}
	var gotHosts []string
	for h := range a.Hosts {
		gotHosts = append(gotHosts, h)
	}
	sort.Strings(gotHosts)
	sort.Strings(hosts)
	if !reflect.DeepEqual(gotHosts, hosts) {
		t.Errorf("hosts = %v, want CARD-001's %v", gotHosts, hosts)
	}
}

// An invalid file fails with its line and field, with exit code 2, before
// anything listens (no address file is written).
func TestFleetUpInvalidConfig(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"fault config typo", strings.Replace(smallFleet, "          region: eu-west-1", "          regoin: eu-west-1", 1),
			`fleet.yaml:20: vendors[0].faults[0].config: region-gate: json: unknown field "regoin"`},
		{"unknown fault", strings.Replace(smallFleet, "type: region-gate", "type: region-gait", 1),
			`fleet.yaml:18: vendors[0].faults[0].type: unknown fault type "region-gait"`},
		{"host typo", strings.Replace(smallFleet, "rpcPath: /a2a/v1", "rpcPth: /a2a/v1", 1),
			`fleet.yaml:9: vendors[0].hosts[1].rpcPth: unknown field "rpcPth"`},
		{"skills not a list", strings.Replace(smallFleet, "regions: [eu-west-1]", "regions: eu-west-1", 1),
			`fleet.yaml:15: vendors[0].skills[0].regions: want a list`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "fleet.yaml")
			if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			addr := filepath.Join(dir, "addr.json")
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), []string{"fleet", "up", "--config", p, "--addr-file", addr}, &stdout, &stderr)
			if err == nil {
				t.Fatal("fleet up accepted an invalid file")
			}
			var msg bytes.Buffer
			if code := exitCode(err, &msg); code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			t.Logf("%s", strings.TrimSpace(msg.String()))
			if want := "a2a-conform: " + filepath.Join(dir, c.want); !strings.Contains(msg.String(), want) {
				t.Errorf("error output %q, want %q", msg.String(), want)
			}
			if _, err := os.Stat(addr); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the address file was written: the fleet started")
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %s", stdout.String())
			}
		})
	}
}

func TestFleetUpFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--config", "x.yaml", "--scenario", "CARD-001"},
		{"--scenario", "NOPE-999"},
		{"--config", filepath.Join(t.TempDir(), "missing.yaml")},
		{"--admin-addr", "0.0.0.0:0"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"fleet", "up"}, args...), &stdout, &stderr)
		if err == nil {
			t.Errorf("fleet up %q: no error", args)
			continue
		}
		if code := exitCode(err, io.Discard); code != 2 {
			t.Errorf("fleet up %q: exit code %d, want 2 (%v)", args, code, err)
		}
	}
}

// --print-config writes a fleet file that reads back to the same fleet.
func TestFleetUpPrintConfig(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"fleet", "up", "--print-config"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(p, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := mockvendor.LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, mockvendor.DefaultConfig()) {
		t.Errorf("--print-config did not read back as the default fleet:\n%s", stdout.String())
	}
}

// TestFleetUpScenarioCredentials: an AUTH scenario's fleet hands the
// developer the credentials its vendors issued (in the address file and on
// stdout), fresh each start.
func TestFleetUpScenarioCredentials(t *testing.T) {
	a := fleetUpRun(t, "--scenario", "AUTH-001")
	if len(a.Credentials) != 1 || a.Credentials[0].Vendor != "d" || a.Credentials[0].Value == "" ||
		a.Credentials[0].Scheme != mockvendor.AuthBearer || len(a.Credentials[0].Origins) != 1 {
		t.Fatalf("credentials %+v, want D's bearer token", a.Credentials)
	}
	b := fleetUpRun(t, "--scenario", "AUTH-001")
	if len(b.Credentials) != 1 || b.Credentials[0].Value == a.Credentials[0].Value {
		t.Errorf("the credential did not change between starts: %+v %+v", a.Credentials, b.Credentials)
	}
}
