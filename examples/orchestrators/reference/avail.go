package reference

import (
	"strings"
	"sync"
	"time"
)

// availKey is the seed's availability key: (url_host, skill_id,
// region_hint) [seed 000, Operational Effect]. The region is what the
// host's errors said last ("" until one did).
type availKey struct {
	host, skill, region string
}

type availEntry struct {
	// available: the skill ran here; otherwise -32004 said it does not.
	available bool
	// successor is the skill to ask for instead (from availableSkills or
	// the fresh card). Empty means none known.
	successor string
	expires   time.Time
	// blocked: a -32004 was seen and the card has not been re-fetched
	// since; the skill must not be sent to the host (CARD-006.INVALIDATE).
	// It outlives expires.
	blocked bool
}

// availCache is the per-region skill availability cache with its TTL.
type availCache struct {
	mu      sync.Mutex
	entries map[availKey]availEntry
	region  map[string]string // host -> region its errors named
}

func newAvailCache() *availCache {
	return &availCache{entries: map[availKey]availEntry{}, region: map[string]string{}}
}

func (c *availCache) key(host, skill string) availKey {
	return availKey{host: host, skill: skill, region: c.region[host]}
}

// route returns the skill to send for wanted at host: a known successor
// while the -32004 that named it is fresh, else wanted.
func (c *availCache) route(host, wanted string, now time.Time) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[c.key(host, wanted)]
	if ok && !e.available && e.successor != "" && now.Before(e.expires) {
		if s, ok := c.entries[c.key(host, e.successor)]; !ok || !s.blocked {
			return e.successor
		}
	}
	return wanted
}

// blocked reports whether skill may not go to host before a card re-fetch.
func (c *availCache) blocked(host, skill string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[c.key(host, skill)].blocked
}

// isAvailable reports a fresh "available" entry.
func (c *availCache) isAvailable(host, skill string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[c.key(host, skill)]
	return ok && e.available && now.Before(e.expires)
}

func (c *availCache) markAvailable(host, skill string, now time.Time, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[c.key(host, skill)] = availEntry{available: true, expires: now.Add(ttl)}
}

// markUnavailable records a -32004 for (host, skill) in region: any entry
// for the pair is invalidated, whatever region it was filed under, and the
// pair is blocked until the card is re-fetched. keepAvailable (a break)
// leaves a positive entry in place.
func (c *availCache) markUnavailable(host, skill, region string, now time.Time, ttl time.Duration, keepAvailable bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if keepAvailable {
		if e, ok := c.entries[c.key(host, skill)]; ok && e.available {
			return
		}
	}
	for k := range c.entries {
		if k.host == host && k.skill == skill {
			delete(c.entries, k)
		}
	}
	if region != "" {
		c.region[host] = region
	}
	c.entries[c.key(host, skill)] = availEntry{expires: now.Add(ttl), blocked: true}
}

// setSuccessor records the successor of a skill that -32004 refused.
func (c *availCache) setSuccessor(host, skill, successor string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.key(host, skill)
	if e, ok := c.entries[k]; ok && !e.available {
		e.successor = successor
		c.entries[k] = e
	}
}

// cardRefetched lifts the blocks on host: its card has been fetched again
// from the origin, so the orchestrator routes on fresh information.
func (c *availCache) cardRefetched(host string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if k.host == host && e.blocked {
			e.blocked = false
			c.entries[k] = e
		}
	}
}

// successorOf picks, among names, a successor of base: the same id followed
// by '-' and a suffix ("invoice-reconciliation-v2", "S-next"). skip says
// which names are ruled out.
func successorOf(base string, names []string, skip func(string) bool) string {
	if base == "" {
		return ""
	}
	for _, n := range names {
		if strings.HasPrefix(n, base+"-") && len(n) > len(base)+1 && !skip(n) {
			return n
		}
	}
	return ""
}
