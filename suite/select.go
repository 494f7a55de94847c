package suite

import (
	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/scenarios"
)

// Selection is one scenario a label filter selects and the ids of its
// checks it selects, global ones included, in the order a run judges
// them.
type Selection struct {
	Scenario *scenarios.Scenario
	Checks   []string
}

// Select says what a run with this label filter would run: the
// scenarios of all (catalog order) with at least one selected check. It
// matches the labels run gives each check (its scenario, area and
// scenario labels, its id, profiles and levels, "global") with Ginkgo's
// own filter, slow scenarios left out unless includeSlow or the filter
// names them, as run does.
func Select(all []*scenarios.Scenario, filter string, includeSlow bool) ([]Selection, error) {
	match, err := types.ParseLabelFilter(labelFilter(filter, Config{IncludeSlow: includeSlow}))
	if err != nil {
		return nil, err
	}
	var out []Selection
	for _, s := range all {
		sel := Selection{Scenario: s}
		container := append([]string{s.ID, s.Area}, s.Labels...)
		for _, c := range s.WithGlobals() {
			id := s.CheckID(c)
			if match(append(append([]string(nil), container...), checkLabels(id, c)...)) {
				sel.Checks = append(sel.Checks, id)
			}
		}
		if len(sel.Checks) > 0 {
			out = append(out, sel)
		}
	}
	return out, nil
}
