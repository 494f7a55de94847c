package fault

import (
	"slices"
	"strings"
)

// VersionReject refuses requests whose A2A-Version the interface does not
// support with -32009, as the 1.0 spec lets an agent do (§3.6.2); a missing
// header counts as 0.3. Off by default: the fleet records versions and
// judges them only through G-VERSION-HEADER. The -32009 is what §3.6.2
// asks; but where the card declares an interface at a version this fault
// refuses (IFACE-006), the vendor breaks A2A 1.0 §8.3 (the card MUST
// properly declare its supported protocols).
type VersionReject struct {
	// Accepted are the versions served. Empty means ["1.0"].
	Accepted []string `json:"accepted,omitempty" doc:"A2A-Version values served; empty means [\"1.0\"]"`
}

func init() {
	Register("version-reject", "requests with an unsupported A2A-Version get -32009", func() any { return &VersionReject{} })
}

// OnCall answers a call whose A2A-Version is not accepted with -32009
// (CallHook).
func (v *VersionReject) OnCall(c *Call) *CallError {
	acc := v.Accepted
	if len(acc) == 0 {
		acc = []string{"1.0"}
	}
	asked := c.A2AVersion
	if asked == "" {
		asked = "0.3"
	}
	if slices.Contains(acc, asked) {
		return nil
	}
	return &CallError{Code: -32009, Message: "A2A version not supported", Data: map[string]any{"requested": asked, "supportedVersions": strings.Join(acc, ",")}, Reason: "VERSION_NOT_SUPPORTED"}
}
