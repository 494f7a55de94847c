package fault

import (
	"cmp"
	"encoding/json"
)

// TamperedCard adds a skill to the card after it was signed, so the
// signature no longer covers what the card says [A2A 1.0 §8.4]. The vendor
// serves a card its signature was not computed over (A2A 1.0 §8.4.2 signs
// the canonical card), as a card altered on its way would be.
type TamperedCard struct {
	// Skill is the id of the skill added after signing. Empty means
	// "wire-transfer".
	Skill string `json:"skill,omitempty" doc:"skill id added after signing; empty means \"wire-transfer\""`
}

func init() {
	Register("tampered-card", "a skill is added to the card after it was signed", func() any { return &TamperedCard{} })
}

// SignCard signs the card honestly, then adds the skill (SignHook).
func (t *TamperedCard) SignCard(v VendorView, s CardSigner, card []byte) ([]byte, error) {
	return signedThenChanged(s, card, func(doc map[string]any) {
		skills, _ := doc["skills"].([]any)
		doc["skills"] = append(skills, v.SkillEntry(cmp.Or(t.Skill, "wire-transfer")))
	})
}

// signedThenChanged signs card honestly, then lets change edit the signed
// document: the signature stays, and no longer covers what it says.
func signedThenChanged(s CardSigner, card []byte, change func(doc map[string]any)) ([]byte, error) {
	signed, err := s.Sign(card)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(signed, &doc); err != nil {
		return nil, err
	}
	change(doc)
	return json.Marshal(doc)
}
