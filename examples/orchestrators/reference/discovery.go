package reference

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
)

// Discovery: what a card URL answered is an Agent Card only if it has the
// members A2A 1.0 marks REQUIRED (the proto's field_behavior on
// AgentCard, AgentInterface and AgentSkill); a 0.3 card, which has no
// supportedInterfaces, names its endpoint in url instead. Anything else,
// {} included, is refused before any of it is used (reason invalid-card,
// the missing members in the detail), and its agent is sent nothing
// [assistant-ui/assistant-ui PR 5115; a2aproject/a2a-python#1267;
// A2ACLI_CARD_GET_002]. The card URL itself is fetched as given and every
// interface URL used as the card spells it (card.go, rpc.go).

// cardMembers are the top-level members every card needs, with the JSON
// kind each must have ("string": a non-empty string, "object", "array").
var cardMembers = []struct{ name, kind string }{
	{"name", "string"}, {"description", "string"}, {"version", "string"},
	{"capabilities", "object"}, {"defaultInputModes", "array"}, {"defaultOutputModes", "array"},
	{"skills", "array"},
}

// missingMembers lists what the card lacks of the members A2A makes
// REQUIRED ("supportedInterfaces[0].protocolVersion"); nil for a valid
// card. A document that is no JSON object lacks everything.
func missingMembers(raw []byte) []string {
	var card map[string]json.RawMessage
	if json.Unmarshal(raw, &card) != nil || card == nil {
		return []string{"every member (not a JSON object)"}
	}
	var out []string
	for _, m := range cardMembers {
		if !hasKind(card[m.name], m.kind) {
			out = append(out, m.name)
		}
	}
	switch {
	case hasKind(card["supportedInterfaces"], "array"):
		out = append(out, missingInEach(card["supportedInterfaces"], "supportedInterfaces", "url", "protocolBinding", "protocolVersion")...)
	case !hasKind(card["url"], "string"):
		out = append(out, "supportedInterfaces (or a 0.3 url)")
	}
	if hasKind(card["skills"], "array") {
		out = append(out, missingInEach(card["skills"], "skills", "id", "name", "description")...)
	}
	return out
}

// missingInEach lists the string members each entry of a JSON array lacks.
func missingInEach(raw json.RawMessage, list string, members ...string) []string {
	var entries []map[string]json.RawMessage
	if json.Unmarshal(raw, &entries) != nil {
		return []string{list + " (entries that are not objects)"}
	}
	var out []string
	for i, e := range entries {
		for _, m := range members {
			if !hasKind(e[m], "string") {
				out = append(out, fmt.Sprintf("%s[%d].%s", list, i, m))
			}
		}
	}
	return out
}

// hasKind reports whether the member is present with the kind.
func hasKind(raw json.RawMessage, kind string) bool {
	s := strings.TrimSpace(string(raw))
	switch kind {
	case "object":
		return strings.HasPrefix(s, "{")
	case "array":
		return strings.HasPrefix(s, "[")
	}
	var str string
	return json.Unmarshal(raw, &str) == nil && strings.TrimSpace(str) != ""
}

// validCard refuses a card that lacks required members (false, the
// attempt's reason set); the UnvalidatedCard and GuessEndpoint breaks
// take any card.
func (r *run) validCard(a *attempt, card *agentCard) bool {
	if r.br.UnvalidatedCard || r.br.GuessEndpoint {
		if r.br.UnvalidatedCard && len(card.Skills) == 0 {
			r.notef("%s: the card lists no skills: %q taken as missing", a.cardURL, a.wanted)
			a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonSkillUnavailable
			return false
		}
		return true
	}
	missing := missingMembers(card.raw)
	if len(missing) == 0 {
		return true
	}
	if len(missing) > 8 {
		missing = append(missing[:8], fmt.Sprintf("and %d more", len(missing)-8))
	}
	r.notef("%s: not an Agent Card: it lacks %s; its agent is sent nothing", a.cardURL, strings.Join(missing, ", "))
	a.outcome, a.reason = contract.OutcomeRejected, contract.ReasonInvalidCard
	if r.alt.InvalidCardAsOther {
		a.reason = contract.ReasonOther
	}
	return false
}

// cardFetchURL is where the card of cardURL is fetched: cardURL itself,
// or under the CardAtRoot break the root of its host.
func (r *run) cardFetchURL(cardURL string) string {
	if !r.br.CardAtRoot {
		return cardURL
	}
	u, err := url.Parse(cardURL)
	if err != nil {
		return cardURL
	}
	return u.Scheme + "://" + u.Host + "/.well-known/agent-card.json"
}

// guessedInterfaces are the GuessEndpoint break's interfaces for a card
// that names none: 1.0 JSON-RPC at /a2a/v1 on the card's host.
func (r *run) guessedInterfaces(a *attempt) []iface {
	if !r.br.GuessEndpoint {
		return nil
	}
	return []iface{{URL: "https://" + hostOf(a.cardURL) + "/a2a/v1", Version: ProtocolVersion, Binding: bindingJSONRPC}}
}

// withoutBasePath is the EndpointWithoutBasePath break: each interface
// URL cut down to the part of its path from the first /a2a segment.
func (r *run) withoutBasePath(l []iface) []iface {
	if !r.br.EndpointWithoutBasePath {
		return l
	}
	out := make([]iface, len(l))
	for k, i := range l {
		if u, err := url.Parse(i.URL); err == nil {
			if n := strings.Index(u.Path, "/a2a"); n > 0 {
				u.Path = u.Path[n:]
				i.URL = u.String()
			}
		}
		out[k] = i
	}
	return out
}

// lastOfEqual is the LastEqualInterface break: of interfaces with the
// same binding and version, the last one listed takes the place of the
// first.
func (r *run) lastOfEqual(l []iface) []iface {
	if !r.br.LastEqualInterface {
		return l
	}
	var out []iface
	for _, i := range l {
		k := -1
		for j, o := range out {
			if o.Binding == i.Binding && o.Version == i.Version {
				k = j
			}
		}
		if k >= 0 {
			out[k] = i
			continue
		}
		out = append(out, i)
	}
	return out
}
