package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// The two A2A versions a verdict can be judged for. Every 0.x request is
// judged as 0.3 and every 1.x request as 1.0: the catalog's clauses are
// those of A2A 0.3 and A2A 1.0 (DocA2A03, DocA2A, DocA2AProto).
const (
	V03 = "0.3"
	V10 = "1.0"
)

// Speaks is what a client speaks: the A2A versions (V03, V10) and the
// bindings (contract.BindingJSONRPC, ...). It is what the client declared
// in its hello plus what the wire shows it sending; a verdict that
// depends on it is judged with the whole run's (Run.Speaks).
type Speaks struct {
	Versions []string `json:"versions,omitempty"`
	Bindings []string `json:"bindings,omitempty"`
	// Declared is true when the client's hello declared versions or
	// bindings (what the wire showed is added to them).
	Declared bool `json:"declared,omitempty"`
}

// Family is the version a verdict judges a request's version as: V03 for
// 0.x, V10 for anything else ("1.0", "1.1", "2.0" alike).
func Family(v string) string {
	if below10(v) {
		return V03
	}
	return V10
}

// SpokenIn is what a client's calls among evs show it speaking: for each
// call, the version it asked for explicitly (A2A-Version header or query
// parameter) and the dialect of its method; a call with neither is 0.3
// (A2A 1.0 §3.6.2: an empty version is read as 0.3). Bindings are those of
// the calls: JSON-RPC, HTTP+JSON, gRPC.
func SpokenIn(evs []mockvendor.Event) Speaks {
	var s Speaks
	for _, e := range evs {
		if isGRPC(e) {
			s.Bindings = addWord(s.Bindings, contract.BindingGRPC)
			s.Versions = addWord(s.Versions, V10)
			continue
		}
		if !isCall(e) {
			continue
		}
		if e.Binding == mockvendor.BindingREST {
			s.Bindings = addWord(s.Bindings, contract.BindingHTTPJSON)
		} else {
			s.Bindings = addWord(s.Bindings, contract.BindingJSONRPC)
		}
		explicit := e.HasA2AVersion || e.A2AVersionQuery != ""
		if explicit {
			s.Versions = addWord(s.Versions, Family(askedVersion(e)))
		}
		if e.Dialect != "" {
			s.Versions = addWord(s.Versions, Family(e.Dialect))
		}
		if !explicit && e.Dialect == "" {
			s.Versions = addWord(s.Versions, V03)
		}
	}
	return s
}

// isGRPC reports whether the event is a gRPC call: one the fleet's gRPC
// binding answered (Binding GRPC), or a request to an A2AService method
// path at a host that serves no gRPC.
func isGRPC(e mockvendor.Event) bool {
	return e.Binding == mockvendor.BindingGRPC ||
		e.HTTPMethod != "" && (strings.HasPrefix(e.Path, "/lf.a2a.v1.A2AService/") || strings.HasPrefix(e.Path, "/a2a.v1.A2AService/"))
}

// FromHello is what a hello declared, its unknown entries left out and
// every version taken as its family (V03, V10).
func FromHello(h contract.Hello) Speaks {
	var s Speaks
	for _, v := range h.ProtocolVersions {
		if contract.KnownProtocolVersion(v) {
			s.Versions = addWord(s.Versions, Family(v))
		}
	}
	for _, b := range h.Bindings {
		if contract.KnownBinding(b) {
			s.Bindings = addWord(s.Bindings, b)
		}
	}
	s.Declared = len(s.Versions) > 0 || len(s.Bindings) > 0
	return s
}

// Union is what either s or o shows.
func (s Speaks) Union(o Speaks) Speaks {
	out := Speaks{Declared: s.Declared || o.Declared}
	for _, v := range append(slices.Clone(s.Versions), o.Versions...) {
		out.Versions = addWord(out.Versions, v)
	}
	for _, b := range append(slices.Clone(s.Bindings), o.Bindings...) {
		out.Bindings = addWord(out.Bindings, b)
	}
	return out
}

// Has reports whether s speaks version v's family.
func (s Speaks) Has(v string) bool { return slices.Contains(s.Versions, Family(v)) }

// Known reports whether anything is known of the versions s speaks: a
// client that sent nothing anywhere and declared nothing speaks nothing
// the verdicts could go by.
func (s Speaks) Known() bool { return len(s.Versions) > 0 }

// Key is the versions and bindings in one word ("0.3,1.0|JSONRPC", "|"
// for nothing): what a verdict judged for a client that speaks s
// (Alternatives).
func (s Speaks) Key() string {
	return strings.Join(s.Versions, ",") + "|" + strings.Join(s.Bindings, ",")
}

// String is the versions for people: "0.3, 1.0".
func (s Speaks) String() string { return strings.Join(s.Versions, ", ") }

// addWord adds w to a sorted list of distinct words.
func addWord(l []string, w string) []string {
	i, found := slices.BinarySearch(l, w)
	if found {
		return l
	}
	return slices.Insert(l, i, w)
}

// SpeaksCandidates are what a client whose known speech is base (its
// hello's declaration and this scenario's calls) may turn out to speak
// over the whole run: base plus any of 0.3 and 1.0 and any of the three
// bindings. A verdict
// that reads what the client speaks is judged for each, and the whole
// run picks one.
func SpeaksCandidates(base Speaks) []Speaks {
	var out []Speaks
	seen := map[string]bool{}
	bindings := []string{contract.BindingGRPC, contract.BindingHTTPJSON, contract.BindingJSONRPC}
	for _, extra := range [][]string{nil, {V03}, {V10}, {V03, V10}} {
		for mask := range 1 << len(bindings) {
			var bs []string
			for i, b := range bindings {
				if mask&(1<<i) != 0 {
					bs = append(bs, b)
				}
			}
			c := base.Union(Speaks{Versions: extra, Bindings: bs})
			if !seen[c.Key()] {
				seen[c.Key()] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// speaks is what the client speaks as far as this run knows: what the
// whole run knows (Speaks, filled in by the suite: the hello's
// declaration and every scenario's calls) and this scenario's own calls.
// A judge that reads it is judged again once the whole run is known.
func (r *Run) speaks() Speaks {
	r.speechRead = true
	own := SpokenIn(r.Events)
	if r.Speaks == nil {
		return own
	}
	return r.Speaks.Union(own)
}

// ReadsSpeech reports whether a judge of the run read what the client
// speaks (see Run.speaks) since the last ResetSpeechRead: its verdict may
// change with what the rest of the run shows.
func (r *Run) ReadsSpeech() bool { return r.speechRead }

// ResetSpeechRead forgets that a judge read what the client speaks.
func (r *Run) ResetSpeechRead() { r.speechRead = false }

// only10 and only03 report whether the client is known to speak 1.0 but
// not 0.3, or 0.3 but not 1.0.
func (s Speaks) only10() bool { return s.Has(V10) && !s.Has(V03) }
func (s Speaks) only03() bool { return s.Has(V03) && !s.Has(V10) }

// NeedsVersionf builds the verdict of a check that the client cannot
// reach because the scenario offers it only version v, which it does not
// speak: NOT_APPLICABLE, with Needs set, so no profile counts it and the
// scorecard says "needs v".
func NeedsVersionf(v, format string, args ...any) Verdict {
	return Verdict{Outcome: NotApplicable, Needs: v, Detail: "needs " + v + ": " + fmt.Sprintf(format, args...)}
}

// needsOffered is the verdict of a check in a scenario that offers only
// versions the client does not speak (Run.Offers), for a verdict v that
// neither passed nor rests on a request on the wire: "needs X". ok is
// false where the scenario offers a version the client speaks, or
// nothing is known of what it speaks.
func needsOffered(r *Run, v Verdict) (Verdict, bool) {
	if len(r.Offers) == 0 || v.Outcome == Pass || v.Proven() || v.Needs != "" {
		return v, false
	}
	s := r.speaks()
	if !s.Known() || slices.ContainsFunc(r.Offers, s.Has) {
		return v, false
	}
	return NeedsVersionf(strings.Join(r.Offers, ", "), "the scenario's cards offer A2A %s only and the client speaks %s (as declared and seen in the whole run); it was not judged here (it would have said %s: %s)",
		strings.Join(r.Offers, ", "), s, v.Outcome, v.Detail), true
}
