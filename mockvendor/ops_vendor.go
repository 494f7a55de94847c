package mockvendor

import (
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// The operations live in internal/ops; they see a vendor through
// ops.Vendor, which opsVendor implements over the vendor's configuration,
// its card, the fleet's task store and the vendor's push store.

// ProbeText is the text of a probe part [card as claim, not contract: Decision Boundary].
const ProbeText = ops.ProbeText

// opsVendor is a vendor as its operations see it (ops.Vendor). A pointer
// conversion of *Vendor, so passing it as the interface allocates nothing.
type opsVendor Vendor

var _ ops.Vendor = (*opsVendor)(nil)

func (o *opsVendor) v() *Vendor           { return (*Vendor)(o) }
func (o *opsVendor) ID() string           { return o.cfg.ID }
func (o *opsVendor) Organization() string { return o.cfg.Organization }
func (o *opsVendor) DefaultSkill() string { return o.v().defaultSkill() }
func (o *opsVendor) ServesSkill(skill, region string) bool {
	return o.v().servesSkill(skill, region)
}
func (o *opsVendor) SkillsIn(region string) []string { return o.v().skillsIn(region) }
func (o *opsVendor) Streaming() bool                 { return o.cfg.Card.Streaming }
func (o *opsVendor) PushNotifications() bool         { return o.cfg.Card.PushNotifications }
func (o *opsVendor) Tasks() *tasks.Store             { return o.fleet.tasks }
func (o *opsVendor) Push() (*push.Store, push.Vendor) {
	return &o.push, pushVendor{o.v()}
}
func (o *opsVendor) WorkTime() time.Duration    { return o.fleet.limits.WorkTime }
func (o *opsVendor) StreamsWork() bool          { return o.fleet.cfg.StreamsWork }
func (o *opsVendor) Upstream() *upstream.Client { return o.upstream }

// ExtendedCard is the extended card CardConfig.ExtendedCard declares.
func (o *opsVendor) ExtendedCard() (ops.ExtendedCard, bool) {
	ec := o.cfg.Card.ExtendedCard
	if ec == nil {
		return ops.ExtendedCard{}, false
	}
	return ops.ExtendedCard{Unconfigured: ec.Unconfigured}, true
}

// ExtendedCardDocument is the vendor's extended card for a client of d's
// generation (extcard.go).
func (o *opsVendor) ExtendedCardDocument(d a2a.Dialect) (map[string]any, error) {
	return o.v().extendedCard(d)
}
