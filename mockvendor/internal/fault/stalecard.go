package fault

import (
	"encoding/json"
	"sync"
)

// StaleCard keeps an old card in the CDN: the CDN copy lists Skills while the
// origin has the vendor's current skills. A fetch that bypasses the cache
// without If-None-Match reaches the origin [card as claim, not contract: What
// Was Observed, steps 1-2].
type StaleCard struct {
	// Skills are the skill ids the stale CDN copy lists. Empty means the CDN
	// copy lists no skills at all.
	Skills []string `json:"skills" doc:"skill ids the stale CDN copy lists; empty lists none"`
	// Streaming, when set, overrides capabilities.streaming in the stale copy.
	// Nil keeps the origin's value.
	Streaming *bool `json:"streaming,omitempty" doc:"capabilities.streaming of the stale copy; absent keeps the origin's"`
	// Freeze keeps, as the CDN copy, the card as the CDN first saw it,
	// while the origin moves on: what a CDN in front of a real agent does
	// (a2a-conform proxy). Skills and Streaming are then not used. False
	// builds the stale copy from Skills.
	Freeze bool `json:"freeze,omitempty" doc:"the CDN copy is the card as first served, kept while the origin (a real agent behind the proxy) moves on; skills and streaming are then not used"`

	mu     sync.Mutex
	frozen []byte // the card the CDN keeps (Freeze)
}

func init() {
	Register("stale-card", "the CDN keeps serving an old card; the origin has the new one", func() any { return &StaleCard{} })
}

// OnCard gives the CDN's card the stale skills and streaming flag
// (CardHook).
func (s *StaleCard) OnCard(v VendorView, card map[string]any, cdn bool) {
	if !cdn {
		return
	}
	if s.Freeze {
		s.freeze(card)
		return
	}
	known := map[string]map[string]any{}
	if list, ok := card["skills"].([]any); ok {
		for _, e := range list {
			if m, ok := e.(map[string]any); ok {
				known[m["id"].(string)] = m
			}
		}
	}
	skills := []any{}
	for _, id := range s.Skills {
		if m, ok := known[id]; ok {
			skills = append(skills, m)
		} else {
			skills = append(skills, v.SkillEntry(id))
		}
	}
	card["skills"] = skills
	if s.Streaming != nil {
		card["capabilities"].(map[string]any)["streaming"] = *s.Streaming
	}
}

// freeze keeps the first CDN card it sees and puts it back in card on
// every later build.
func (s *StaleCard) freeze(card map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frozen == nil {
		s.frozen, _ = json.Marshal(card)
		return
	}
	var kept map[string]any
	if json.Unmarshal(s.frozen, &kept) != nil {
		return
	}
	clear(card)
	for k, v := range kept {
		card[k] = v
	}
}
