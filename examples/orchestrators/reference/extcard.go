package reference

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
)

// The authenticated extended agent card [A2A 1.0 §3.1.11, §13.3; 0.3
// §7.10]. When the public card declares one and the caller holds a
// credential of a scheme that card declares for the endpoint, the
// reference fetches it with that credential (GetExtendedAgentCard, 0.3
// agent/getAuthenticatedExtendedCard, GET /extendedAgentCard), verifies it
// like a public card and, once it verifies, uses it in place of the public
// card (§3.1.11: clients SHOULD replace it). An extended card whose
// signature fails ends the candidate (signature-invalid): nothing from it
// is used, and nothing more is sent to that agent (a2aproject/a2a-js#705).
// A fetch that fails (401, an error, not a card) leaves the public card in
// use. An unsigned extended card does not replace a signed public card.

// declaresExtendedCard reports whether the card declares an extended card
// (1.0 capabilities.extendedAgentCard, 0.3 supportsAuthenticatedExtendedCard).
func (c *agentCard) declaresExtendedCard() bool {
	return c.Capabilities.ExtendedAgentCard || c.SupportsAuthenticatedExtendedCard
}

// extendedCardStep fetches, verifies and takes the extended card. False
// means the candidate is done (its extended card's signature failed).
func (r *run) extendedCardStep(a *attempt) bool {
	if a.card == nil || !a.card.declaresExtendedCard() || r.alt.NoExtendedCard {
		return true
	}
	if r.alt.NoExtendedCardRefuse {
		r.notef("%s: declares an extended card, which this orchestrator does not read", a.cardURL)
		return r.keptPublicCard(a)
	}
	p, ok := r.credentialFor(a)
	if !ok || p.header == "" {
		r.notef("%s: declares an extended card, but the caller holds no credential of a scheme the card declares: public card kept", a.cardURL)
		return true
	}
	raw, err := r.fetchExtendedCard(a)
	if err != nil {
		r.notef("%s: extended card not fetched (%v): public card kept", a.ep.URL, err)
		return true
	}
	ext, err := parseCard(raw)
	if err != nil {
		r.notef("%s: extended card unreadable (%v): public card kept", a.ep.URL, err)
		return true
	}
	switch {
	case r.br.ExtendedCardUnverified:
		r.notef("%s: extended card taken without checking its signature", a.ep.URL)
		a.card = ext
		return true
	case r.br.ExtendedCardKeepPublic:
		r.notef("%s: extended card fetched; the public card is kept", a.ep.URL)
		return r.keptPublicCard(a)
	case !ext.signed() && a.card.signed():
		r.notef("%s: the extended card is unsigned and the public card signed: public card kept", a.ep.URL)
		return true
	}
	if !r.useCard(a, ext) {
		r.notef("%s: the extended card's signature does not verify: nothing more is sent to this agent", a.ep.URL)
		return false
	}
	r.notef("%s: extended card in use (%d skills)", a.ep.URL, len(ext.Skills))
	return true
}

// keptPublicCard checks the wanted skill against the public card, which
// does not list what only the extended card does (the ExtendedCardKeepPublic
// break, the NoExtendedCardRefuse alternative).
func (r *run) keptPublicCard(a *attempt) bool {
	if a.wanted == "" || a.card.hasSkill(a.wanted) {
		return true
	}
	r.notef("%s: the public card does not list %q", a.cardURL, a.wanted)
	a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonSkillUnavailable
	return false
}

// fetchExtendedCard gets the extended card from the attempt's interface,
// with the credential the public card's scheme asks for (newRequest puts
// it on), and returns the card's JSON.
func (r *run) fetchExtendedCard(a *attempt) ([]byte, error) {
	if a.ep.Binding == bindingGRPC {
		res := r.callGRPC(r.ctx, a, "GetExtendedAgentCard", map[string]any{}) // grpc.go
		switch {
		case res.err != nil:
			return nil, res.err
		case res.rpcErr != nil:
			return nil, res.rpcErr
		}
		return res.raw, nil
	}
	var req *http.Request
	var err error
	if a.ep.Binding == bindingREST {
		req, err = http.NewRequestWithContext(withVersion(r.ctx, a), http.MethodGet, strings.TrimSuffix(a.ep.URL, "/")+"/extendedAgentCard", nil)
		if err == nil && r.rpcCalls >= maxRPCCalls {
			err = fmt.Errorf("call budget (%d) spent", maxRPCCalls)
		}
		if err == nil {
			req.Header.Set("Accept", "application/json")
			r.authorize(a, req)
			r.rpcCalls++
		}
	} else {
		method := "GetExtendedAgentCard"
		if a.ep.Version == legacyVersion {
			method = "agent/getAuthenticatedExtendedCard"
		}
		req, err = r.newRequest(withVersion(r.ctx, a), a, method, map[string]any{}, "application/json")
	}
	if err != nil {
		return nil, err
	}
	if r.br.ExtendedCardNoCredential {
		p, _ := r.credentialFor(a)
		req.Header.Del(p.header)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	r.observe(a, resp)
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("http status %d", resp.StatusCode)
	}
	if a.ep.Binding == bindingREST {
		return body, nil
	}
	var rr wire.RPCResponse
	if err := json.Unmarshal(body, &rr); err != nil || rr.Error != nil || rr.Result == nil {
		return nil, fmt.Errorf("no extended card in the answer")
	}
	return rr.Result, nil
}
