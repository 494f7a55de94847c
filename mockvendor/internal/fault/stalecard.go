package fault

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
