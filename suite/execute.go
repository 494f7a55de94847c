package suite

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// Execute runs one scenario: it starts the scenario's own fleet, opens a
// driver session, makes the scenario's delegations in order, and returns
// what happened. It knows nothing of Ginkgo, so tests and tools can run a
// scenario directly. A non-nil error is a harness failure (the fleet or
// the session could not start, or a *LimitError: the run reached one of
// the fleet's limits, so its evidence is incomplete and its checks are
// ERROR); the result still says what is known.
func Execute(ctx context.Context, s *scenarios.Scenario, d driver.Driver) (*scenarios.Run, ScenarioResult, error) {
	start := time.Now()
	res := ScenarioResult{ID: s.ID, Title: s.Title, Area: s.Area, Reproduce: ReproduceCommand(s.ID)}
	run := &scenarios.Run{Scenario: s.ID, VendorHosts: map[string][]string{}, Successors: s.Successors, Offers: s.Offers}
	fail := func(err error) (*scenarios.Run, ScenarioResult, error) {
		res.HarnessErr = err.Error()
		res.DurationMs = time.Since(start).Milliseconds()
		return run, res, err
	}
	f, err := mockvendor.NewFleet(s.Fleet())
	if err != nil {
		return fail(fmt.Errorf("starting the fleet: %w", err))
	}
	defer f.Close()
	caFile, err := f.WriteCAFile()
	if err != nil {
		return fail(fmt.Errorf("writing the CA file: %w", err))
	}
	for _, v := range f.Vendors() {
		run.VendorHosts[v.ID()] = v.Hosts()
	}
	run.UntrustedHosts = f.UntrustedHosts()
	sess, err := d.Open(ctx, driver.Env{Proxy: f.ProxyURL(), CAFile: caFile, Resolve: f.Resolve(), Client: f.Client()})
	if err != nil {
		return fail(fmt.Errorf("opening the orchestrator session: %w", err))
	}
	if h, err := sess.Hello(ctx); err == nil {
		h.Clip()
		res.Hello = Orchestrator{Name: h.Name, Version: h.Version, ProtocolVersions: h.ProtocolVersions, Bindings: h.Bindings}
		if d := scenarios.FromHello(h); d.Declared {
			run.Speaks = &d
		}
	}
	nonce := make([]byte, 3)
	_, _ = rand.Read(nonce)
	for i, rq := range s.Requests {
		if rq.Before != nil {
			if err := rq.Before(f); err != nil {
				res.Transcript = sess.Close()
				return fail(fmt.Errorf("preparing delegation %d: %w", i+1, err))
			}
		}
		if rq.Wait > 0 {
			select {
			case <-time.After(rq.Wait):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
		req := delegationRequest(s, i, hex.EncodeToString(nonce), caFile, f)
		if err := handOutCredentials(&req, rq.Credentials, f, run); err != nil {
			res.Transcript = sess.Close()
			return fail(fmt.Errorf("delegation %d: %w", i+1, err))
		}
		if err := handOutClientCerts(&req, rq.ClientCerts, f, run); err != nil {
			res.Transcript = sess.Close()
			return fail(fmt.Errorf("delegation %d: %w", i+1, err))
		}
		first := f.Trace().Seq() + 1
		r := sess.Delegate(ctx, req)
		f.Settle(settleTime)
		run.Delegations = append(run.Delegations, scenarios.Delegation{
			Request:       redactCredentials(req, f),
			Outcome:       r.Outcome,
			NoOutcome:     r.NoOutcome,
			BrokeContract: r.BrokeContract,
			Unimplemented: r.Unimplemented,
			FirstSeq:      first,
			LastSeq:       f.Trace().Seq(),
			ElapsedMs:     r.Elapsed.Milliseconds(),
		})
		if r.Unimplemented {
			break
		}
	}
	run.SessionClosedAt = time.Now()
	res.Transcript = sess.Close()
	redactReported(&res, run, f)
	clipOutcomes(run) // after redactReported, which needs the whole text
	run.Events = f.Trace().Events()
	if sp := scenarios.SpokenIn(run.Events); sp.Known() || len(sp.Bindings) > 0 {
		res.Spoke = &sp
	}
	run.Corroborate()
	res.Delegations = run.Delegations
	res.Trace, res.TraceLeftOut, res.BodiesLeftOut = reportTrace(run.Events)
	res.Untrusted = run.UntrustedHosts
	res.DurationMs = time.Since(start).Milliseconds()
	if hits := f.LimitsHit(); len(hits) > 0 {
		err := &LimitError{Hits: hits}
		res.HarnessErr = err.Error()
		return run, res, err
	}
	return run, res, nil
}

// LimitError is a scenario run that reached limits of the fleet
// (mockvendor.Fleet.LimitsHit): trace events or bodies were dropped,
// connections refused or tasks forgotten, so the evidence is incomplete.
// A check whose FAIL the kept evidence proves keeps it; every other check
// of the scenario is ERROR (Judge). The run goes on with the next
// scenario. A body cut to its digest is not a hit: the checks still judge
// it.
type LimitError struct {
	Hits []mockvendor.LimitHit
}

func (e *LimitError) Error() string {
	return "the run reached the fleet's limits, so the evidence is incomplete and no verdict is given: " + e.What()
}

// What lists what each limit took, in words.
func (e *LimitError) What() string {
	var b strings.Builder
	for i, h := range e.Hits {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(h.What)
	}
	return b.String()
}

// EventsLost reports whether a limit took trace events themselves
// (mockvendor.LimitHit.EventsLost), not only bodies or answers.
func (e *LimitError) EventsLost() bool {
	return slices.ContainsFunc(e.Hits, func(h mockvendor.LimitHit) bool { return h.EventsLost })
}

// delegationRequest is the contract request for delegation i of s.
func delegationRequest(s *scenarios.Scenario, i int, nonce, caFile string, f *mockvendor.Fleet) contract.DelegationRequest {
	rq := s.Requests[i]
	issuers := s.Issuers
	if issuers == nil {
		issuers = scenarios.DefaultIssuers()
	}
	deadline := s.DeadlineMs
	if deadline == 0 {
		deadline = int(driver.DefaultDeadline / time.Millisecond)
	}
	req := contract.DelegationRequest{
		Contract: contract.Version,
		Type:     contract.TypeDelegate,
		ID:       fmt.Sprintf("%s-%d-%s", s.ID, i+1, nonce),
		Scenario: s.ID,
		Task: contract.Task{
			Skill:           rq.Skill,
			Message:         userMessage(rq.Text, i+1),
			PreferStreaming: rq.PreferStreaming,
			Push:            rq.Push,
			Extensions:      append([]string(nil), rq.Extensions...),
		},
		Trust:      contract.Trust{CAFile: caFile, Issuers: issuers},
		Network:    contract.Network{Proxy: f.ProxyURL(), Resolve: f.Resolve()},
		DeadlineMs: deadline,
	}
	for _, h := range rq.Candidates {
		req.Candidates = append(req.Candidates, scenarios.CardURL(h))
	}
	for j, text := range rq.Replies {
		req.Task.Replies = append(req.Task.Replies, replyMessage(text, i+1, j+1))
	}
	return req
}

// replyMessage is the caller's j-th answer in delegation n, shaped like
// userMessage: the OUT sets its taskId and contextId when it sends it as a
// continuation (contract task.replies).
func replyMessage(text string, n, j int) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"role":      "user",
		"messageId": fmt.Sprintf("m-%d-reply-%d", n, j),
		"parts":     []any{map[string]any{"kind": "text", "text": text}},
	})
	return b
}

// handOutCredentials puts the credentials of the named vendors in the
// request, keyed by the origins of the vendor's hosts that demand them,
// and records those hosts in the run (Run.CredentialHosts).
func handOutCredentials(req *contract.DelegationRequest, vendors []string, f *mockvendor.Fleet, run *scenarios.Run) error {
	for _, id := range vendors {
		c, ok := f.Credential(id)
		if !ok {
			return fmt.Errorf("the scenario hands out vendor %s's credential, which the fleet did not issue", id)
		}
		if req.Trust.Credentials == nil {
			req.Trust.Credentials = map[string]contract.Credential{}
		}
		if run.CredentialHosts == nil {
			run.CredentialHosts = map[string][]string{}
		}
		hosts := c.Origins
		if c.Scheme == mockvendor.AuthOAuth2 {
			// The client secret goes to the token endpoint, the access
			// tokens to the vendor's endpoints: both are the vendor's.
			hosts = append(slices.Clone(c.Origins), contract.OriginOf(c.TokenURL))
		}
		for _, o := range c.Origins {
			origin := contract.OriginOf(o)
			if c.Scheme == mockvendor.AuthOAuth2 {
				if req.Trust.OAuth2 == nil {
					req.Trust.OAuth2 = map[string]contract.OAuth2Client{}
				}
				req.Trust.OAuth2[origin] = contract.OAuth2Client{TokenURL: c.TokenURL, ClientID: c.ClientID, ClientSecret: c.Value}
				continue
			}
			req.Trust.Credentials[origin] = contract.Credential{Scheme: c.Scheme, Value: c.Value}
		}
		for _, o := range hosts {
			host := strings.TrimPrefix(contract.OriginOf(o), "https://")
			if !slices.Contains(run.CredentialHosts[id], host) {
				run.CredentialHosts[id] = append(run.CredentialHosts[id], host)
			}
		}
	}
	return req.Trust.Validate()
}

// redactCredentials is the request as the run keeps it (and the report
// shows it): each credential value replaced by whose it is.
func redactCredentials(req contract.DelegationRequest, f *mockvendor.Fleet) contract.DelegationRequest {
	if len(req.Trust.Credentials) == 0 && len(req.Trust.OAuth2) == 0 {
		return req
	}
	creds := make(map[string]contract.Credential, len(req.Trust.Credentials))
	for k, c := range req.Trust.Credentials {
		c.Value, _ = f.RedactText(c.Value)
		creds[k] = c
	}
	req.Trust.Credentials = creds
	if len(req.Trust.OAuth2) > 0 {
		clients := make(map[string]contract.OAuth2Client, len(req.Trust.OAuth2))
		for k, c := range req.Trust.OAuth2 {
			c.ClientSecret, _ = f.RedactText(c.ClientSecret)
			clients[k] = c
		}
		req.Trust.OAuth2 = clients
	}
	return req
}

// redactReported cuts the fleet's credential values out of what the OUT
// reported (its stderr, the driver's notes, each outcome's detail), so the
// report never shows one even when the OUT logs it.
func redactReported(res *ScenarioResult, run *scenarios.Run, f *mockvendor.Fleet) {
	cut := func(where, s string) string {
		s, owners := f.RedactText(s)
		if where != "" {
			for _, o := range owners {
				run.CredentialsReported = append(run.CredentialsReported, where+": vendor "+o+"'s credential")
			}
		}
		return s
	}
	res.Transcript.Stderr = cut("stderr", res.Transcript.Stderr)
	for i, n := range res.Transcript.Notes {
		res.Transcript.Notes[i] = cut("", n) // the driver's own notes
	}
	for i := range run.Delegations {
		if o := run.Delegations[i].Outcome; o != nil {
			o.Detail = cut(fmt.Sprintf("delegation %d's detail", i+1), o.Detail)
		}
	}
}

// Bounds on the trace a scenario keeps in the report (the checks judge the
// whole trace first): the first reportEvents events, with the request
// bodies of the first reportBodyBytes of them, and no more events than
// fit in reportTraceBytes of JSON (bounds.go). A flooding orchestrator
// thus costs each scenario at most about 4 MiB of bodies and 5,000 event
// records (about 2 MiB; 8 MiB in all when every field is text JSON
// escapes), whatever it sent.
const (
	reportEvents    = 5000
	reportBodyBytes = 4 << 20
)

// reportTrace returns the events the report keeps, how many it left out,
// and how many kept events lost their request body.
func reportTrace(evs []mockvendor.Event) (kept []mockvendor.Event, leftOut, bodiesLeftOut int) {
	if len(evs) > reportEvents {
		leftOut = len(evs) - reportEvents
		evs = evs[:reportEvents]
	}
	kept = make([]mockvendor.Event, 0, len(evs))
	budget, size := reportBodyBytes, 0
	for i, e := range evs {
		n := len(e.Request) + len(e.RequestText)
		if n > budget {
			e.Request, e.RequestText = nil, ""
		}
		if size += encodedSize(e); size > reportTraceBytes {
			return kept, leftOut + len(evs) - i, bodiesLeftOut
		}
		if n > budget {
			bodiesLeftOut++
		} else {
			budget -= n
		}
		kept = append(kept, e)
	}
	return kept, leftOut, bodiesLeftOut
}

// settleTime bounds the wait for connections still in their TLS handshake
// when a delegation ends (mockvendor.Fleet.Settle).
const settleTime = 250 * time.Millisecond

// userMessage is the task's message in the contract example's shape (0.3
// style, as the orchestrator's own caller would hand it over).
func userMessage(text string, n int) json.RawMessage {
	if text == "" {
		text = "reconcile INV-1042"
	}
	b, _ := json.Marshal(map[string]any{
		"role":      "user",
		"messageId": fmt.Sprintf("m-%d", n),
		"parts":     []any{map[string]any{"kind": "text", "text": text}},
	})
	return b
}
