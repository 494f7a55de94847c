package fault

import (
	"cmp"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// SkillRollout makes the gateway roll a skill forward on a clock: in the first
// window it serves Skill, in the second Skill-v2, then Skill-v3 and so on,
// answering -32004 with the current id for any other generation. The origin
// card follows the rollout; the CDN copy keeps what the vendor's configuration
// lists, so with a rollout window far shorter than the CDN's max-age the
// cached card goes stale within a day [card as claim, not contract:
// Operational Effect]. The clock starts when the fault is attached.
type SkillRollout struct {
	// Skill is the base skill id that is rolled forward. Empty means the
	// vendor's default skill.
	Skill string `json:"skill,omitempty" doc:"base skill id rolled forward (skill, skill-v2, ...); empty means the vendor's default skill"`
	// WindowMs is the rollout window in milliseconds. Zero means 3,600,000
	// (the source document's hour).
	WindowMs int `json:"windowMs,omitempty" doc:"milliseconds between generations; 0 means 3600000"`

	once  sync.Once
	start time.Time
}

func init() {
	Register("skill-rollout", "the gateway renames a skill every window; the origin card follows, the CDN does not", func() any { return &SkillRollout{} })
}

func (r *SkillRollout) validate() error {
	if r.WindowMs < 0 {
		return fmt.Errorf("windowMs must not be negative")
	}
	r.once.Do(func() { r.start = time.Now() })
	return nil
}

func (r *SkillRollout) generation() int64 {
	w := time.Duration(r.WindowMs) * time.Millisecond
	if w == 0 {
		w = time.Hour
	}
	return int64(time.Since(r.start) / w)
}

func (r *SkillRollout) base(v VendorView) string { return cmp.Or(r.Skill, v.DefaultSkill()) }

// current is the skill id the gateway serves now.
func (r *SkillRollout) current(v VendorView) string {
	if g := r.generation(); g > 0 {
		return fmt.Sprintf("%s-v%d", r.base(v), g+1)
	}
	return r.base(v)
}

func (r *SkillRollout) rolled(v VendorView, id string) bool {
	b := r.base(v)
	return id == b || strings.HasPrefix(id, b+"-v")
}

// OnCall runs the current name of the rolled skill and refuses the
// others with -32004 (CallHook).
func (r *SkillRollout) OnCall(c *Call) *CallError {
	if c.Op != trace.OpSend && c.Op != trace.OpStream {
		return nil
	}
	skill := c.Skill
	if skill == "" {
		skill = c.Vendor.DefaultSkill()
	}
	if !r.rolled(c.Vendor, skill) {
		return nil
	}
	cur := r.current(c.Vendor)
	if skill == cur || c.Probe {
		c.AnySkill = true
		return nil
	}
	return errSkillUnavailable(c.Region, []string{cur})
}

// OnCard puts the current name of the rolled skill on the origin card
// (CardHook).
func (r *SkillRollout) OnCard(v VendorView, card map[string]any, cdn bool) {
	if cdn {
		return
	}
	list, _ := card["skills"].([]any)
	for i, e := range list {
		if m, ok := e.(map[string]any); ok && r.rolled(v, fmt.Sprint(m["id"])) {
			list[i] = v.SkillEntry(r.current(v))
		}
	}
}

// CardEpoch changes whenever the origin card must be rebuilt.
func (r *SkillRollout) CardEpoch() int64 { return r.generation() }
