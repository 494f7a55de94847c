package contract

import (
	"strconv"
	"unicode/utf8"
)

// Bounds on the text an OUT sends that the harness keeps in its reports.
// A longer value is cut by [ClipText]: the kept part is at most the bound,
// cut at a UTF-8 boundary, and a marker of at most [MaxClipMarker] bytes
// says how many bytes were cut. A hello holds no map, and fields this version does not know are dropped on decoding, so
// these bound everything the harness keeps of one; an outcome's results
// (artifacts, statusText, error) have bounds of their own (MaxArtifacts).
const (
	// MaxFieldBytes bounds each word-like field: a hello's name and
	// version, and every field of an outcome but its detail (id, outcome,
	// agent, skill, taskId, taskState, cardTrust, trustMode, reason).
	// Honest values are a few dozen bytes; a URL in agent rarely passes
	// 100.
	MaxFieldBytes = 256
	// MaxDetailBytes bounds an outcome's detail (free text for humans: a
	// sentence, an error chain; stderr is the place for more).
	MaxDetailBytes = 4 << 10
	// MaxClipMarker is the longest marker [ClipText] appends (for a cut
	// of math.MaxInt bytes on a 64-bit machine; 43 bytes up to a TB).
	MaxClipMarker = 51
)

// ClipText returns s when it is at most max bytes long; otherwise its
// first max bytes or fewer (never splitting a UTF-8 sequence) followed by
// a marker saying how many bytes were cut, such as
// "… [clipped: 1,023,000 more bytes]". The result is a new string, so a
// long s is not kept alive by it.
func ClipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "… [clipped: " + thousands(len(s)-n) + " more bytes]"
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Clip cuts each text field of h to [MaxFieldBytes] ([ClipText]).
// The lists protocolVersions and bindings keep their first
// [MaxHelloListEntries] entries.
func (h *Hello) Clip() {
	h.Name = ClipText(h.Name, MaxFieldBytes)
	h.Version = ClipText(h.Version, MaxFieldBytes)
	for _, l := range []*[]string{&h.ProtocolVersions, &h.Bindings} {
		if len(*l) > MaxHelloListEntries {
			*l = (*l)[:MaxHelloListEntries]
		}
		for i, v := range *l {
			(*l)[i] = ClipText(v, MaxFieldBytes)
		}
	}
}

// MaxHelloListEntries is how many entries of a hello's protocolVersions
// and bindings the harness keeps.
const MaxHelloListEntries = 16

// Clip cuts the detail of o to [MaxDetailBytes] and every other text field
// to [MaxFieldBytes] ([ClipText]). A value cut carries the marker, so it
// never equals a word of the vocabulary or an id it did not equal before.
func (o *DelegationOutcome) Clip() {
	for _, f := range []*string{&o.ID, &o.Outcome, &o.Agent, &o.Skill, &o.TaskID, &o.TaskState, &o.CardTrust, &o.TrustMode, &o.Reason} {
		*f = ClipText(*f, MaxFieldBytes)
	}
	o.Detail = ClipText(o.Detail, MaxDetailBytes)
	o.clipResults()
}
