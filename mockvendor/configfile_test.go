package mockvendor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// writeFleetFile writes text to name in a fresh directory and returns the
// path.
func writeFleetFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// roundTrip writes cfg as YAML and reads it back.
func roundTrip(t *testing.T, cfg mockvendor.Config) (mockvendor.Config, string) {
	t.Helper()
	var b bytes.Buffer
	if err := mockvendor.WriteConfig(&b, cfg); err != nil {
		t.Fatalf("WriteConfig: %v", err)
	}
	got, err := mockvendor.LoadConfig(writeFleetFile(t, "fleet.yaml", b.String()))
	if err != nil {
		t.Fatalf("LoadConfig of what WriteConfig wrote: %v\n%s", err, b.String())
	}
	return got, b.String()
}

func TestConfigFileRoundTripDefault(t *testing.T) {
	key, err := os.ReadFile(filepath.Join(cardsDir, signingKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	cfg := mockvendor.DefaultConfig()
	cfg.Vendors[0].Signing.KeyPEM = string(key)
	cfg.Vendors[3].Card.Extensions = []mockvendor.CardExtension{{URI: "urn:x:<&>", Params: map[string]any{"n": 1.5, "s": "x"}}}
	cfg.Limits = mockvendor.Limits{MaxBody: 4096, ReadTimeout: 3 * time.Second, WorkTime: 250 * time.Millisecond}
	got, text := roundTrip(t, cfg)
	if !reflect.DeepEqual(got, cfg) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(cfg, "", " ")
		t.Fatalf("round trip changed the config\nfile:\n%s\ngot:\n%s\nwant:\n%s", text, gj, wj)
	}

	// Both fleets serve the same cards (A's signature aside: ES256 is
	// randomised, so A's cards are compared without it).
	a, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := mockvendor.NewFleet(got)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, v := range a.Vendors() {
		for _, cdn := range []bool{false, true} {
			ca, err := v.Card(cdn)
			if err != nil {
				t.Fatal(err)
			}
			cb, err := b.Vendor(v.ID()).Card(cdn)
			if err != nil {
				t.Fatal(err)
			}
			if ma, mb := unsignedCard(t, ca), unsignedCard(t, cb); !reflect.DeepEqual(ma, mb) {
				t.Errorf("vendor %s cdn=%v: cards differ\n%s\n%s", v.ID(), cdn, ca, cb)
			}
		}
	}
}

func unsignedCard(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "signatures")
	return m
}

// Every scenario's fleet survives the file format too. They are compared in
// their JSON form: extension params are map[string]any, where a number
// written as an int reads back as a float64.
func TestConfigFileRoundTripScenarios(t *testing.T) {
	for _, s := range scenarios.All() {
		cfg := s.Fleet()
		cfg.CA = nil // not part of the file
		got, text := roundTrip(t, cfg)
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(cfg)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%s: round trip changed the config\n%s", s.ID, text)
		}
	}
}

func TestConfigFileJSONAndFiles(t *testing.T) {
	dir := t.TempDir()
	key, err := os.ReadFile(filepath.Join(cardsDir, signingKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	card, err := os.ReadFile(filepath.Join(cardsDir, "d.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"a.pem": key, "d.json": card} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	js := `{"vendors": [
  {"id": "a", "organization": "Vendor A",
   "hosts": [{"name": "agent.vendor-a.example", "card": true, "rpcPath": "/a2a"}],
   "skills": [{"id": "summarize"}],
   "signing": {"kid": "a-prod-2026-11", "keyFile": "a.pem"}},
  {"id": "d", "organization": "Vendor D", "cardFile": "d.json",
   "hosts": [{"name": "agent-d.example", "card": true}, {"name": "rpc.agent-d.example", "rpcPath": "/a2a/v1", "restPath": "/a2a/rest", "grpc": true}]}
]}`
	p := filepath.Join(dir, "fleet.json")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := mockvendor.LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Vendors[0].Signing.KeyPEM != string(key) {
		t.Errorf("keyFile was not read into keyPEM")
	}
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := f.Vendor("d").Card(false)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := unsignedCard(t, got), unsignedCard(t, card); !reflect.DeepEqual(a, b) {
		t.Errorf("a vendor built from d.json serves another card:\n%s\nwant:\n%s", got, card)
	}
}

// An invalid file fails with the line and the field at fault.
func TestConfigFileErrors(t *testing.T) {
	const vendorB = `vendors:
  - id: a
    organization: Vendor A
    hosts:
      - name: agent.vendor-a.example
        card: true
`
	cases := []struct {
		name, text string
		line       int
		field, msg string
	}{
		{"fault config unknown field", `vendors:
  - id: a
    hosts:
      - name: agent-a.example
        card: true
  - id: b
    hosts:
      - name: rpc.agent-b.example
        rpcPath: /a2a/v1
    skills:
      - id: fx-hedging
    faults:
      - type: region-gate
        config:
          regoin: eu-west-1
`, 15, "vendors[1].faults[0].config", `region-gate: json: unknown field "regoin"`},
		{"unknown fault type", vendorB + `    faults:
      - type: no-such-fault
`, 8, "vendors[0].faults[0].type", `unknown fault type "no-such-fault"`},
		{"fault on a host the vendor lacks", vendorB + `    faults:
      - type: stub-endpoint
        hosts: [rpc.agent-b.example]
`, 9, "vendors[0].faults[0].hosts", `vendor a has no host "rpc.agent-b.example"`},
		{"fault config bad value", vendorB + `    faults:
      - type: server-error
        config: {code: -1}
`, 9, "vendors[0].faults[0].config", "code -1 is outside"},
		{"unknown vendor field", vendorB + `    organisation: typo
`, 7, "vendors[0].organisation", `unknown field "organisation"`},
		{"unknown top-level field", "vendor: []\n", 1, "vendor", `unknown field "vendor"`},
		{"hosts not a list", `vendors:
  - id: a
    hosts: agent-a.example
`, 3, "vendors[0].hosts", "want a list"},
		{"bool of the wrong kind", `vendors:
  - id: a
    hosts:
      - name: agent-a.example
        card: sometimes
`, 5, "vendors[0].hosts[0].card", "want boolean"},
		{"missing id", `vendors:
  - organization: X
    hosts: [{name: x.example}]
`, 2, "vendors[0].id", "is required"},
		{"duplicate host", vendorB + `  - id: b
    hosts:
      - name: agent.vendor-a.example
`, 9, "vendors[1].hosts[0].name", "used twice"},
		{"no hosts", "vendors:\n  - id: a\n", 2, "vendors[0].hosts", "at least one host"},
		{"bad alg", vendorB + `    signing:
      kid: k1
      alg: HS256
`, 9, "vendors[0].signing.alg", `unsupported algorithm "HS256"`},
		{"bad key", vendorB + `    signing:
      kid: k1
      keyPEM: not a key
`, 9, "vendors[0].signing.keyPEM", "no private key block"},
		{"missing key file", vendorB + `    signing:
      kid: k1
      keyFile: nowhere.pem
`, 9, "vendors[0].signing.keyFile", "no such file"},
		{"bad duration", "limits:\n  readTimeout: soon\n", 2, "limits.readTimeout", "want a duration"},
		{"duplicate key", "vendors: []\nvendors: []\n", 2, "", "already defined"},
		{"syntax error", "vendors:\n  - id: a\n    hosts: [\n", 3, "", ""},
		{"json with an unknown field", `{"vendors": [
  {"id": "a", "hosts": [{"name": "a.example"}],
   "faults": [{"type": "stale-card", "config": {"skils": []}}]}
]}`, 3, "vendors[0].faults[0].config", `unknown field "skils"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFleetFile(t, "fleet.yaml", c.text)
			_, err := mockvendor.LoadConfig(p)
			var fe *mockvendor.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *FileError", err, err)
			}
			t.Logf("%v", err)
			if fe.Line != c.line || fe.Field != c.field || !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("got line %d field %q msg %q; want line %d field %q msg containing %q", fe.Line, fe.Field, fe.Msg, c.line, c.field, c.msg)
			}
			if want := p + ":" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

func TestConfigFileEmpty(t *testing.T) {
	cfg, err := mockvendor.LoadConfig(writeFleetFile(t, "empty.yaml", "# nothing\n"))
	if err != nil || len(cfg.Vendors) != 0 {
		t.Fatalf("empty file: %v, %+v", err, cfg)
	}
}

// The complete example of docs/fleet-config.md reads, starts and serves
// what it says.
func TestConfigFileDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "fleet-config.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "A complete example")
	_, rest, ok2 := strings.Cut(rest, "```yaml\n")
	example, _, ok3 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/fleet-config.md has no complete example")
	}
	// Relative paths resolve against the file's directory: the top of the
	// repository.
	cfg, err := mockvendor.ParseConfig(filepath.Join("..", "fleet.yaml"), []byte(example))
	if err != nil {
		t.Fatalf("the documented example: %v", err)
	}
	if n := len(cfg.Vendors); n != 3 {
		t.Fatalf("%d vendors", n)
	}
	if cfg.Vendors[0].Signing.KeyPEM == "" || len(cfg.Vendors[2].Skills) != 2 || cfg.Limits.ReadTimeout != 10*time.Second {
		t.Errorf("keyFile, cardFile or limits not applied: %+v", cfg)
	}
	if a := cfg.Vendors[2].Auth; a == nil || a.Scheme != mockvendor.AuthAPIKey || a.Header != "X-Vendor-Key" {
		t.Errorf("vendor d's auth block not read: %+v", a)
	}
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if faults, _ := f.Faults("b"); len(faults) != 3 {
		t.Errorf("vendor b has %d faults, want 3", len(faults))
	}
	card, err := f.Vendor("a").Card(false)
	if err != nil || !bytes.Contains(card, []byte(`"signatures"`)) || !bytes.Contains(card, []byte(`"version":"2.1.0"`)) {
		t.Errorf("vendor a's card: %v %s", err, card)
	}
}
