// Package naive is the orchestrator the source documents warn about: it
// treats the Agent Card as a contract [seed 000] and a valid-looking
// signature as proof of who runs the endpoint [seed 003]. It exists so the
// suite can show what it catches; do not copy it.
//
// What it does, per delegation:
//
//   - fetches each card once and keeps it for the card's max-age,
//     revalidating with If-None-Match only when that expires;
//   - checks the wanted skill against the card's skills and refuses when
//     it is missing;
//   - sends straight to the card's url in the 0.3 dialect (message/send,
//     kind parts, no A2A-Version header), text parts whatever the input
//     modes, no probe;
//   - escalates on -32004 and on every other server-range error;
//   - reports cardTrust "authoritative" always, and trustMode "full" for
//     any card that carries a signature;
//   - streams with message/stream when asked and waits for as long as it
//     takes;
//   - tries the next candidate only when a card cannot be fetched.
//
// It does verify TLS certificates with the request's CA.
package naive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// Name and Version identify the naive orchestrator in hello answers.
const (
	Name    = "a2a-conform-naive"
	Version = "0.1.0"
)

// Orchestrator is the naive orchestrator. It implements the suite's
// GoOrchestrator and Reset.
type Orchestrator struct {
	mu      sync.Mutex
	cards   map[string]*cached
	clients map[string]*http.Client
	seq     int
}

type cached struct {
	card    naiveCard
	etag    string
	expires time.Time
}

type naiveCard struct {
	URL                 string `json:"url"`
	SupportedInterfaces []struct {
		URL string `json:"url"`
	} `json:"supportedInterfaces"`
	Capabilities struct {
		Streaming bool `json:"streaming"`
	} `json:"capabilities"`
	Skills []struct {
		ID string `json:"id"`
	} `json:"skills"`
	Signatures []json.RawMessage `json:"signatures"`
}

// New returns a naive orchestrator.
func New() *Orchestrator {
	o := &Orchestrator{}
	o.Reset()
	return o
}

// Reset drops the card cache and the clients built from requests.
func (o *Orchestrator) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range o.clients {
		c.CloseIdleConnections()
	}
	o.cards = map[string]*cached{}
	o.clients = map[string]*http.Client{}
}

func (o *Orchestrator) client(req contract.DelegationRequest, given *http.Client) (*http.Client, error) {
	if given != nil {
		return given, nil
	}
	co := wire.ClientOptionsFor(req)
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.clients[co.Key()]; ok {
		return c, nil
	}
	t, err := wire.NewTransport(co)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Transport: t}
	o.clients[co.Key()] = c
	return c, nil
}

// Delegate runs one delegation the naive way.
func (o *Orchestrator) Delegate(ctx context.Context, req contract.DelegationRequest, client *http.Client) contract.DelegationOutcome {
	out := contract.DelegationOutcome{Contract: contract.Version, ID: req.ID, CardTrust: contract.CardTrustAuthoritative, TrustMode: contract.TrustModeUnpinned}
	if req.DeadlineMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.DeadlineMs)*time.Millisecond-250*time.Millisecond)
		defer cancel()
	}
	fail := func(outcome, reason, detail string) contract.DelegationOutcome {
		out.Outcome, out.Reason, out.Detail = outcome, reason, detail
		return out
	}
	c, err := o.client(req, client)
	if err != nil {
		return fail(contract.OutcomeFailed, contract.ReasonOther, err.Error())
	}
	msg, err := wire.ParseMessage(req.Task.Message)
	if err != nil {
		return fail(contract.OutcomeRejected, contract.ReasonOther, err.Error())
	}
	var card naiveCard
	var errs []string
	found := false
	for _, u := range req.Candidates {
		card, err = o.card(ctx, c, u)
		if err == nil {
			found = true
			break
		}
		errs = append(errs, err.Error())
	}
	if !found {
		return fail(contract.OutcomeFailed, contract.ReasonOther, strings.Join(errs, "; "))
	}
	if len(card.Signatures) > 0 {
		out.TrustMode = contract.TrustModeFull // a signature means the signer runs it
	}
	skill := req.Task.Skill
	if skill != "" {
		listed := false
		for _, s := range card.Skills {
			listed = listed || s.ID == skill
		}
		if !listed {
			return fail(contract.OutcomeRejected, contract.ReasonSkillUnavailable, "the card does not list "+skill)
		}
	}
	endpoint := card.URL
	if endpoint == "" && len(card.SupportedInterfaces) > 0 {
		endpoint = card.SupportedInterfaces[0].URL
	}
	// Text only: the card's input modes are somebody else's problem.
	text := &wire.Message{MessageID: msg.MessageID, ContextID: msg.ContextID, Parts: []wire.Part{{Kind: "text", Text: msg.Text()}}, Metadata: map[string]any{}}
	if text.MessageID == "" {
		text.MessageID = wire.NewID("m-")
	}
	params := map[string]any{"message": text.V03()}
	if skill != "" {
		text.Metadata["skillId"] = skill
		params["message"] = text.V03()
		params["metadata"] = map[string]any{"skillId": skill}
	}
	method := "message/send"
	if req.Task.PreferStreaming && card.Capabilities.Streaming {
		method = "message/stream"
	}
	res, err := o.call(ctx, c, endpoint, method, params)
	if err != nil {
		return fail(contract.OutcomeFailed, contract.ReasonOther, err.Error())
	}
	if res.Error != nil {
		if res.Error.ServerRange() {
			return fail(contract.OutcomeEscalated, contract.ReasonOther, "remote agent error: "+res.Error.Error())
		}
		return fail(contract.OutcomeFailed, contract.ReasonOther, res.Error.Error())
	}
	out.Outcome, out.Reason = contract.OutcomeCompleted, contract.ReasonOK
	out.Agent, out.Skill, out.TaskID, out.TaskState = endpoint, skill, res.info.ID, res.info.State
	if res.info.State != "" && res.info.State != "completed" {
		out.Outcome = contract.OutcomeFailed
		out.Reason = contract.ReasonOther
	}
	return out
}

// card returns the cached card while its max-age lasts, revalidating with
// If-None-Match afterwards.
func (o *Orchestrator) card(ctx context.Context, c *http.Client, u string) (naiveCard, error) {
	o.mu.Lock()
	e := o.cards[u]
	o.mu.Unlock()
	if e != nil && time.Now().Before(e.expires) {
		return e.card, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return naiveCard{}, err
	}
	if e != nil && e.etag != "" {
		req.Header.Set("If-None-Match", e.etag)
	}
	resp, err := c.Do(req)
	if err != nil {
		return naiveCard{}, err
	}
	defer resp.Body.Close()
	maxAge := time.Duration(0)
	for _, d := range strings.Split(resp.Header.Get("Cache-Control"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(d), "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				maxAge = time.Duration(n) * time.Second
			}
		}
	}
	if resp.StatusCode == http.StatusNotModified && e != nil {
		o.mu.Lock()
		o.cards[u] = &cached{card: e.card, etag: e.etag, expires: time.Now().Add(maxAge)}
		o.mu.Unlock()
		return e.card, nil
	}
	if resp.StatusCode != http.StatusOK {
		return naiveCard{}, fmt.Errorf("card %s: http status %d", u, resp.StatusCode)
	}
	var card naiveCard
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&card); err != nil {
		return naiveCard{}, fmt.Errorf("card %s: %w", u, err)
	}
	o.mu.Lock()
	o.cards[u] = &cached{card: card, etag: resp.Header.Get("ETag"), expires: time.Now().Add(maxAge)}
	o.mu.Unlock()
	return card, nil
}

type answer struct {
	Error *wire.RPCError
	info  wire.TaskInfo
}

// call makes a 0.3 JSON-RPC call; for message/stream it reads events until
// the server closes the stream, however long that takes.
func (o *Orchestrator) call(ctx context.Context, c *http.Client, endpoint, method string, params map[string]any) (answer, error) {
	o.mu.Lock()
	o.seq++
	id := o.seq
	o.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	var a answer
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
		err := wire.ReadSSE(resp.Body, func(d []byte) bool {
			var rr wire.RPCResponse
			if json.Unmarshal(d, &rr) != nil {
				return true
			}
			if rr.Error != nil {
				a.Error = rr.Error
				return false
			}
			if ti, err := wire.ParseResult(rr.Result); err == nil {
				if ti.ID != "" {
					a.info.ID = ti.ID
				}
				if ti.State != "" {
					a.info.State = ti.State
				}
			}
			return true
		})
		return a, err
	}
	var rr wire.RPCResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&rr); err != nil {
		return answer{}, fmt.Errorf("http status %d: %w", resp.StatusCode, err)
	}
	if rr.Error != nil {
		return answer{Error: rr.Error}, nil
	}
	a.info, err = wire.ParseResult(rr.Result)
	return a, err
}
