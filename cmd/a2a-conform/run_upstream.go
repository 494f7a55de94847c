package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// upstreamFlags are run's --upstream VENDOR=URL and the options every
// agent shares.
type upstreamFlags struct {
	specs, headers multiFlag
	caFile         string
}

// upstreamCatalog is the catalog of a run with real agents in the place of
// fleet vendors: each scenario every named vendor of which the agent can
// play (scenarios.Playable), with the agents in their place; the others
// are left out, and the report's Upstreams say which and why. No
// --upstream: nil, the whole catalog.
func upstreamCatalog(ctx context.Context, ts scenarios.TimeScale, uf upstreamFlags) ([]*scenarios.Scenario, []suite.UpstreamUse, error) {
	if len(uf.specs) == 0 {
		return nil, nil, nil
	}
	ups, uses, err := resolveUpstreams(ctx, uf)
	if err != nil {
		return nil, nil, err
	}
	var out []*scenarios.Scenario
	for _, s := range scenarios.Catalog(ts) {
		played := s
		ok := true
		for i, u := range ups {
			can, why := scenarios.Playable(s, u.Vendor, u.Versions)
			if !can {
				uses[i].NotPlayable = append(uses[i].NotPlayable, suite.NotPlayable{Scenario: s.ID, Reason: why})
				ok = false
				continue
			}
			played = scenarios.WithUpstream(played, u)
		}
		if !ok {
			continue
		}
		out = append(out, played)
		for i := range uses {
			uses[i].Played = append(uses[i].Played, s.ID)
		}
	}
	if len(out) == 0 {
		return nil, nil, &exitError{code: 2, err: fmt.Errorf("--upstream: no scenario can be played with these agents (a2a-conform proxy docs: docs/proxy.md)")}
	}
	return out, uses, nil
}

// resolveUpstreams reads each --upstream VENDOR=URL and asks the agent's
// card which versions it speaks.
func resolveUpstreams(ctx context.Context, uf upstreamFlags) ([]scenarios.Upstream, []suite.UpstreamUse, error) {
	var ups []scenarios.Upstream
	var uses []suite.UpstreamUse
	for _, spec := range uf.specs {
		vc, err := upstreamVendor(spec, upstreamOptions{caFile: uf.caFile, headers: uf.headers})
		if err != nil {
			return nil, nil, err
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		versions, err := mockvendor.AgentVersions(cctx, *vc.Upstream)
		cancel()
		if err != nil {
			return nil, nil, &exitError{code: 2, err: fmt.Errorf("--upstream %s: %w", vc.ID, err)}
		}
		ups = append(ups, scenarios.Upstream{Vendor: vc.ID, Config: *vc.Upstream, Versions: versions})
		uses = append(uses, suite.UpstreamUse{Vendor: vc.ID, URL: vc.Upstream.URL, Versions: versions})
	}
	return ups, uses, nil
}

// writeUpstreams prints which vendors were real agents, and how many
// scenarios each played and could not.
func writeUpstreams(w io.Writer, uses []suite.UpstreamUse) {
	for _, u := range uses {
		fmt.Fprintf(w, "upstream: vendor %s was the real agent at %s (A2A %s): %d scenarios played, %d not playable (the report's upstreams say why)\n",
			u.Vendor, u.URL, strings.Join(u.Versions, ", "), len(u.Played), len(u.NotPlayable))
	}
}
