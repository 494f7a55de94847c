package a2a

import "strings"

// MajorMinor is the Major.Minor of an A2A version ("1.0.1" is "1.0"):
// patch numbers play no part in negotiation (A2A 1.0 §3.6), and an empty
// A2A-Version means 0.3 (§3.6.2).
func MajorMinor(version string) string {
	version = strings.TrimSpace(version)
	if version == "" {
		return "0.3"
	}
	if i := strings.IndexByte(version, '.'); i >= 0 {
		if j := strings.IndexByte(version[i+1:], '.'); j >= 0 {
			return version[:i+1+j]
		}
	}
	return version
}
