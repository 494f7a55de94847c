package mockvendor

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// A vendor with an upstream stands in front of a real A2A agent (the
// proxy: `a2a-conform proxy`, `a2a-conform run --upstream`): every
// operation is forwarded to the agent's JSON-RPC endpoint
// (internal/ops/forward.go over internal/upstream), whatever binding the
// orchestrator used, and the vendor's faults act on the way as they act on
// a fleet vendor's own answers. Its card is the agent's, its interfaces
// pointing at the vendor's hosts (or, with OwnCard, the card the vendor's
// configuration describes). Faults that change what the agent itself does
// with a task (its states, artifacts, replies, timing) have nothing to act
// on and are refused (UpstreamFaults lists the others).

// UpstreamConfig is the real agent a vendor stands in front of.
type UpstreamConfig struct {
	// URL is the agent's base URL (https://host[:port][/base]; http:// for
	// an agent on loopback). Required.
	URL string `json:"url,omitempty"`
	// CardPath is the path of the agent's card below the host, or a full
	// card URL; "" means /.well-known/agent-card.json.
	CardPath string `json:"cardPath,omitempty"`
	// CAFile is a PEM file of the CA certificates that verify the agent;
	// "" means the system's roots.
	CAFile string `json:"caFile,omitempty"`
	// ClientCertFile and ClientKeyFile are a PEM client certificate and
	// its key offered to the agent (mutual TLS); "" offers none.
	ClientCertFile string `json:"clientCertFile,omitempty"`
	ClientKeyFile  string `json:"clientKeyFile,omitempty"`
	// Header is added to every request to the agent: its credentials
	// (Authorization, an API key). ${NAME} in a value is read from the
	// environment, so a file need not hold the secret. Values are never
	// traced or recorded. Nil adds none.
	Header map[string]string `json:"header,omitempty"`
	// OwnCard serves the card the vendor's configuration describes (its
	// skills, hosts and signature) instead of the agent's: the agent then
	// plays a fleet vendor in a scenario. False serves the agent's card.
	OwnCard bool `json:"ownCard,omitempty"`
	// Timeout bounds the wait for the agent's answer header, the wait for
	// a free connection (MaxConns) included; 0 means 30s.
	Timeout time.Duration `json:"timeout,omitempty"`
	// StreamIdle bounds the wait for a stream's next event; 0 means 60s.
	StreamIdle time.Duration `json:"streamIdle,omitempty"`
	// MaxBody bounds an answer, a card and one stream event, in bytes; 0
	// means 8 MiB.
	MaxBody int64 `json:"maxBody,omitempty"`
	// MaxConns bounds the connections open to the agent; 0 means 64.
	MaxConns int `json:"maxConns,omitempty"`
	// Replay, in place of URL, is a recording of an agent (a file `proxy
	// --record` wrote; a relative path is below the fleet file's
	// directory): the vendor answers as the agent answered then, with no
	// network. "" means the agent at URL.
	Replay string `json:"replay,omitempty"`
	// Record is a file the vendor records the agent's card and answers
	// into as it forwards (secrets left out; the file says which). ""
	// records nothing.
	Record string `json:"record,omitempty"`
}

// checkUpstream checks that an upstream names its agent once: a URL or a
// recording.
func checkUpstream(uc *UpstreamConfig) *ConfigError {
	switch {
	case uc == nil:
		return nil
	case uc.URL == "" && uc.Replay == "":
		return &ConfigError{Field: "url", Msg: "an upstream needs the agent's url (or a recording to replay)"}
	case uc.URL != "" && uc.Replay != "":
		return &ConfigError{Field: "replay", Msg: "give url or replay, not both"}
	case uc.Replay != "" && uc.Record != "":
		return &ConfigError{Field: "record", Msg: "a replayed agent is not recorded again"}
	}
	return nil
}

// upstreamClient is the client of the agent uc names.
func upstreamClient(uc *UpstreamConfig) (*upstream.Client, error) {
	cfg := upstream.Config{URL: uc.URL, CardPath: uc.CardPath, Timeout: uc.Timeout, StreamIdle: uc.StreamIdle, MaxBody: uc.MaxBody, MaxConns: uc.MaxConns}
	if uc.Replay != "" {
		rec, err := upstream.LoadRecording(uc.Replay)
		if err != nil {
			return nil, err
		}
		cfg.Replay = rec
	}
	if uc.Record != "" {
		cfg.Recorder = upstream.NewRecorder(uc.Record, uc.URL)
		if err := cfg.Recorder.Flush(); err != nil {
			return nil, fmt.Errorf("upstream record: %w", err)
		}
	}
	if uc.CAFile != "" {
		pem, err := os.ReadFile(uc.CAFile)
		if err != nil {
			return nil, fmt.Errorf("upstream caFile: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("upstream caFile %s: no PEM certificate in it", uc.CAFile)
		}
	}
	if uc.ClientCertFile != "" || uc.ClientKeyFile != "" {
		cert, err := tls.LoadX509KeyPair(uc.ClientCertFile, uc.ClientKeyFile)
		if err != nil {
			return nil, fmt.Errorf("upstream client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if len(uc.Header) > 0 {
		cfg.Header = http.Header{}
		for k, v := range uc.Header {
			cfg.Header.Set(k, os.ExpandEnv(v))
		}
	}
	return upstream.New(cfg)
}

// initUpstream makes the vendor's upstream client.
func (v *Vendor) initUpstream() error {
	uc := v.cfg.Upstream
	if uc == nil {
		return nil
	}
	c, err := upstreamClient(uc)
	if err != nil {
		return fmt.Errorf("vendor %s: %w", v.cfg.ID, err)
	}
	v.upstream = c
	if v.servesUpstreamCard() && len(v.cfg.Skills) == 0 {
		v.learnSkills()
	}
	return nil
}

// learnSkills takes the skills and default input modes of the agent's
// card as the vendor's own, so that the faults that read them (the region
// gate's available skills, the input-mode coercion) see the agent's. An
// agent that cannot be reached now leaves them empty: its card fetches
// then answer 502 until it can.
func (v *Vendor) learnSkills() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	doc, _, _, err := v.upstream.Card(ctx)
	if err != nil {
		return
	}
	list, _ := doc["skills"].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		id, _ := m["id"].(string)
		if id == "" {
			continue
		}
		name, _ := m["name"].(string)
		v.cfg.Skills = append(v.cfg.Skills, SkillConfig{ID: id, Name: name, InputModes: stringList(m["inputModes"])})
	}
	v.cfg.Card.DefaultInputModes = stringList(doc["defaultInputModes"])
}

// stringList is a JSON array's strings.
func stringList(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// upstreamAdmits refuses a fault a vendor with an upstream cannot apply.
func (v *Vendor) upstreamAdmits(name string) error {
	if v.cfg.Upstream == nil || UpstreamFaults[name] {
		return nil
	}
	return &ConfigError{Field: "type", Msg: fmt.Sprintf("vendor %s stands in front of an upstream agent: fault %q changes what the agent does with a task, which the proxy cannot (the faults that apply: docs/proxy.md)", v.cfg.ID, name)}
}

// ApplicableFaults are the fault types the vendor takes, sorted, when it
// stands in front of a real agent (UpstreamFaults; upstreamAdmits refuses
// the others); nil when it takes every type.
func (v *Vendor) ApplicableFaults() []string {
	if v.cfg.Upstream == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(UpstreamFaults))
}

// UpstreamFaults are the faults that act on an upstream agent's card,
// connections and answers (on the way, as a proxy can), by name. The
// others make the fleet's own agent behave otherwise (its task states,
// artifacts, replies, timing, push deliveries): an upstream vendor
// refuses them.
var UpstreamFaults = map[string]bool{
	// the card and its signature
	"stale-card": true, "card-empty": true, "card-missing": true, "unknown-fields": true,
	"alg-none": true, "hs256-confusion": true, "unsigned-card": true, "canon-traps": true,
	"duplicate-kid": true, "expired-key": true, "embedded-jwk": true, "foreign-jku": true,
	"plain-http-jku": true, "revoked-key": true, "key-rotation": true, "several-signatures": true,
	"tampered-card": true, "unknown-kid": true,
	// the gateway in front of the agent
	"region-gate": true, "reseller-gateway": true, "server-error": true, "stub-endpoint": true,
	"version-reject": true, "version-header-lie": true, "input-mode-coercion": true,
	"stream-unauthorized": true, "stream-error-json": true, "lost-answer": true,
	// the stream on its way
	"slow-first-frame": true, "stream-cut": true, "stream-error-event": true,
	"stream-content-type-lie": true, "timestamp-form": true, "unknown-role": true, "state-unknown": true,
	// the host's certificate and connections
	"wrong-san": true, "self-signed": true, "refuse-connections": true,
}

// upstreamCard is the agent's card as the vendor serves it: its
// interfaces pointing at the vendor's hosts (each binding the vendor has
// a host for; the others dropped), its signatures dropped (the URLs
// changed; a signing vendor signs it anew). version grows when the
// agent's card changed.
func (v *Vendor) upstreamCard() (doc map[string]any, version int64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc, version, _, err = v.upstream.Card(ctx)
	if err != nil {
		return nil, 0, err
	}
	delete(doc, "signatures")
	if _, ok := doc["url"]; ok {
		doc["url"] = v.endpointURL()
	}
	for _, key := range []string{"supportedInterfaces", "additionalInterfaces"} {
		if list, ok := doc[key].([]any); ok {
			doc[key] = v.pointedInterfaces(list)
		}
	}
	return doc, version, nil
}

// pointedInterfaces are a card's interfaces with each URL the vendor's
// endpoint of its binding; an interface of a binding the vendor has no
// endpoint for is dropped.
func (v *Vendor) pointedInterfaces(list []any) []any {
	out := []any{}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		b, _ := m["protocolBinding"].(string)
		if b == "" {
			b, _ = m["transport"].(string)
		}
		u := v.bindingURL(strings.ToUpper(b))
		if u == "" {
			continue
		}
		m["url"] = u
		out = append(out, m)
	}
	return out
}

// bindingURL is the vendor's endpoint URL of a binding ("" when none).
func (v *Vendor) bindingURL(b string) string {
	switch b {
	case card.BindingJSONRPC, "":
		return v.endpointURL()
	case card.BindingREST:
		return v.restURL()
	case card.BindingGRPC:
		return v.grpcURL()
	}
	return ""
}

// upstreamStatus is the HTTP status a card fetch gets when the agent's
// card could not be had: a gateway's 502 or 504.
func upstreamStatus(err error) int {
	var ue *upstream.Error
	if errors.As(err, &ue) {
		return ue.HTTPStatus()
	}
	return http.StatusInternalServerError
}

// upstreamCardFailure is what a card fetch's event records of an agent
// whose card could not be had (nil for another error): the card's URL
// and why.
func (v *Vendor) upstreamCardFailure(err error) *trace.Upstream {
	var ue *upstream.Error
	if v.upstream == nil || !errors.As(err, &ue) {
		return nil
	}
	return &trace.Upstream{URL: v.upstream.CardURL(), Error: ue.Error()}
}

// servesUpstreamCard reports whether the vendor serves its agent's card.
func (v *Vendor) servesUpstreamCard() bool {
	return v.upstream != nil && !v.cfg.Upstream.OwnCard
}

// AgentVersions fetches the card of the agent uc names and returns the
// A2A versions (Major.Minor) it declares for JSON-RPC, the binding the
// fleet forwards over: what a vendor in front of it may offer.
func AgentVersions(ctx context.Context, uc UpstreamConfig) ([]string, error) {
	c, err := upstreamClient(&uc)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	doc, _, _, err := c.Card(ctx)
	if err != nil {
		return nil, err
	}
	if upstream.JSONRPCURL(doc) == "" {
		return nil, fmt.Errorf("the agent's card at %s names no JSON-RPC interface (the proxy forwards over JSON-RPC)", uc.URL)
	}
	return upstream.JSONRPCVersions(doc), nil
}

// Recording is what `proxy --record` wrote of an agent (the root's alias
// of internal/upstream's): its card and each answer.
type Recording = upstream.Recording
