package scenarios

import (
	"fmt"
	"regexp"
	"strings"
)

// A Source is one place a check's requirement comes from, as data: which
// document, where in it, how strongly that document words the rule and
// whom the rule binds. A check lists every source it rests on
// (Check.Sources); the profile rule (ProfileProblems) reads them.
type Source struct {
	// Document is one of the Doc constants, "RFC n", or a public field
	// report "owner/repo#n".
	Document string `json:"document"`
	// Locator is the place in the document: a section ("§3.2.2"), a proto
	// field or enum ("TaskState"), a requirement id ("A2ACLI_TASK_POLL_002"),
	// a seed's section title ("Decision Boundary"). Empty for a field
	// report, which is its own locator.
	Locator string `json:"locator,omitempty"`
	// Level is the strength the source itself gives the rule.
	Level SourceLevel `json:"level"`
	// Binds is whom the source's rule binds: the client or the server.
	Binds Party `json:"binds"`
	// Note says how the check reads the source where that is not plain:
	// which reading of a clause that contradicts another it accepts, or
	// why a descriptive clause still gives a MUST (SelfRequested).
	Note string `json:"note,omitempty"`
	// BrokenHere marks a server-side A2A clause that the scenario's vendor
	// breaks on purpose (a fault): the check judges how a client survives
	// that, which is delegation-safety, never a2a-core, and every report
	// says so beside the source.
	BrokenHere bool `json:"brokenHere,omitempty"`
	// WhyNotMust, set on a seed's "must", says why the check grades it
	// below MUST in delegation-safety; empty means it must be a MUST there.
	WhyNotMust string `json:"whyNotMust,omitempty"`
	// SelfRequested marks a descriptive A2A clause whose check only asks
	// the client to achieve what the client itself asked for (it asked
	// to return immediately, it chose to stream) and nothing else could:
	// such a source may carry an a2a-core MUST.
	SelfRequested bool `json:"selfRequested,omitempty"`
}

// SourceLevel is how a source words a rule.
type SourceLevel string

// The levels a source can give a rule. Descriptive is text that states how
// the protocol works without a requirement keyword.
const (
	SrcMust        SourceLevel = "MUST"
	SrcShould      SourceLevel = "SHOULD"
	SrcMay         SourceLevel = "MAY"
	SrcDescriptive SourceLevel = "descriptive"
)

// Party is whom a source's rule binds.
type Party string

// The two parties of an A2A exchange.
const (
	Client Party = "client"
	Server Party = "server"
)

// The documents a source may name besides "RFC n" and field reports.
const (
	// DocA2A is the A2A specification 1.0.1 (docs/specification.md of
	// a2aproject/A2A).
	DocA2A = "A2A 1.0"
	// DocA2AProto is its normative proto (specification/a2a.proto),
	// cited by message, field or enum.
	DocA2AProto = "A2A 1.0 proto"
	// DocA2A03 is the A2A specification 0.3.0.
	DocA2A03 = "A2A 0.3"
	// DocJSONRPC is the JSON-RPC 2.0 specification, which A2A 1.0 §9
	// adopts for its JSON-RPC binding.
	DocJSONRPC = "JSON-RPC 2.0"
	// DocSeed000 and DocSeed003 are the project's two source documents:
	// "card as claim, not contract" and "pin the signer's kid to the
	// endpoint". Their "must" is a MUST of delegation-safety.
	DocSeed000 = "seed 000"
	DocSeed003 = "seed 003"
	// DocA2ACLI is the a2a-cli requirement registry
	// (a2aproject/a2a-cli specification/COMPLIANCE.md), cited by id.
	DocA2ACLI = "a2a-cli"
	// DocContract is this project's driver contract
	// (docs/driver-contract.md), cited by section.
	DocContract = "driver contract"
	// DocPosture is this project's own safety stance: a rule no outside
	// document states, said in the locator and the note.
	DocPosture = "posture"
	// DocOpenIDRP is the OpenID Foundation's relying-party conformance
	// tests, cited by test name.
	DocOpenIDRP = "OpenID RP tests"
)

var (
	rfcDoc   = regexp.MustCompile(`^RFC [1-9][0-9]*$`)
	fieldDoc = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*#[1-9][0-9]*$`)
)

// IsSpec reports whether the source is a clause of the A2A specification
// or its proto, of any version.
func (s Source) IsSpec() bool {
	return s.Document == DocA2A || s.Document == DocA2AProto || s.Document == DocA2A03
}

// Validate reports what is wrong with the source as data: an unknown
// document, a missing locator, a level or party outside the lists.
func (s Source) Validate() error {
	switch {
	case s.Document == DocA2A, s.Document == DocA2AProto, s.Document == DocA2A03, s.Document == DocJSONRPC,
		s.Document == DocSeed000, s.Document == DocSeed003, s.Document == DocA2ACLI, s.Document == DocContract,
		s.Document == DocPosture, s.Document == DocOpenIDRP, rfcDoc.MatchString(s.Document):
		if s.Locator == "" {
			return fmt.Errorf("source %q has no locator", s.Document)
		}
	case fieldDoc.MatchString(s.Document):
	default:
		return fmt.Errorf("source document %q is none of the known documents, an RFC or an owner/repo#n field report", s.Document)
	}
	switch s.Level {
	case SrcMust, SrcShould, SrcMay, SrcDescriptive:
	default:
		return fmt.Errorf("source %s: level %q is not MUST, SHOULD, MAY or descriptive", s, s.Level)
	}
	if s.Binds != Client && s.Binds != Server {
		return fmt.Errorf("source %s: binds %q is not client or server", s, s.Binds)
	}
	if s.BrokenHere && (!s.IsSpec() || s.Binds != Server) {
		return fmt.Errorf("source %s: only a server-side A2A clause can be broken by the scenario's vendor", s)
	}
	if s.SelfRequested && (!s.IsSpec() || s.Level != SrcDescriptive) {
		return fmt.Errorf("source %s: only a descriptive A2A clause can be marked self-requested", s)
	}
	return nil
}

// String cites the source in one line: "A2A 1.0 §3.2.2 (MUST, server)".
func (s Source) String() string {
	loc := s.Document
	if s.Locator != "" {
		loc += " " + s.Locator
	}
	if s.BrokenHere {
		return fmt.Sprintf("%s (%s, %s; broken on purpose by this scenario's vendor)", loc, s.Level, s.Binds)
	}
	return fmt.Sprintf("%s (%s, %s)", loc, s.Level, s.Binds)
}

// Cite is the check's sources in one line.
func (c Check) Cite() string { return Cite(c.Sources) }

// Cite renders a list of sources as one line, for the console and the
// report's source text.
func Cite(sources []Source) string {
	parts := make([]string, len(sources))
	for i, s := range sources {
		parts[i] = s.String()
	}
	return strings.Join(parts, "; ")
}

// Constructors for the catalog's source lists. Each names its document;
// the locator, level and party are the arguments.

// A2A cites a section of the A2A 1.0 specification.
func A2A(section string, level SourceLevel, binds Party) Source {
	return Source{Document: DocA2A, Locator: section, Level: level, Binds: binds}
}

// Proto cites a message, field or enum of the A2A 1.0 proto.
func Proto(element string, level SourceLevel, binds Party) Source {
	return Source{Document: DocA2AProto, Locator: element, Level: level, Binds: binds}
}

// A2A03 cites a section of the A2A 0.3 specification.
func A2A03(section string, level SourceLevel, binds Party) Source {
	return Source{Document: DocA2A03, Locator: section, Level: level, Binds: binds}
}

// Seed000 cites a section of seed 000 ("card as claim, not contract").
func Seed000(section string, level SourceLevel) Source {
	return Source{Document: DocSeed000, Locator: section, Level: level, Binds: Client}
}

// Seed003 cites a section of seed 003 ("pin the signer's kid to the
// endpoint").
func Seed003(section string, level SourceLevel) Source {
	return Source{Document: DocSeed003, Locator: section, Level: level, Binds: Client}
}

// CLI cites a requirement id of the a2a-cli registry.
func CLI(id string, level SourceLevel) Source {
	return Source{Document: DocA2ACLI, Locator: id, Level: level, Binds: Client}
}

// RFC cites a section of an RFC.
func RFC(n int, section string, level SourceLevel, binds Party) Source {
	return Source{Document: fmt.Sprintf("RFC %d", n), Locator: section, Level: level, Binds: binds}
}

// Field cites a public field report ("owner/repo#n"): what a client was
// seen to do wrong, descriptive of the client.
func Field(ref string) Source {
	return Source{Document: ref, Level: SrcDescriptive, Binds: Client}
}

// ContractRule cites a section of the driver contract.
func ContractRule(section string, level SourceLevel) Source {
	return Source{Document: DocContract, Locator: section, Level: level, Binds: Client}
}

// Posture cites this project's own safety stance, stated in rule.
func Posture(rule string) Source {
	return Source{Document: DocPosture, Locator: rule, Level: SrcMust, Binds: Client}
}

// Read attaches how the check reads the source.
func (s Source) Read(note string) Source {
	s.Note = note
	return s
}

// NotMust says why a seed's "must" is graded below MUST in
// delegation-safety (see Source.WhyNotMust).
func (s Source) NotMust(why string) Source {
	s.WhyNotMust = why
	return s
}

// Broken marks a server-side A2A clause as one the scenario's vendor breaks
// on purpose (see Source.BrokenHere), with how.
func (s Source) Broken(how string) Source {
	s.BrokenHere = true
	s.Note = how
	return s
}

// OnlyWhatItAsked marks a descriptive A2A clause as one whose check only
// asks the client to achieve what it itself asked for (see
// Source.SelfRequested), with the reason.
func (s Source) OnlyWhatItAsked(why string) Source {
	s.SelfRequested = true
	s.Note = why
	return s
}

// levelRank orders requirement levels: MAY < SHOULD < MUST.
var levelRank = map[Level]int{May: 1, Should: 2, Must: 3}

// ceiling is the highest check level a source can carry: its own, and
// SHOULD for descriptive text (MUST where the client only achieves what it
// itself asked for).
func (s Source) ceiling() Level {
	switch s.Level {
	case SrcMust:
		return Must
	case SrcShould:
		return Should
	case SrcMay:
		return May
	}
	if s.SelfRequested {
		return Must
	}
	return Should
}

// ProfileProblems lists how a check breaks the catalog's profile rule
// (catalog, "Profiles and levels"), empty when it keeps it:
//   - every check names at least one source, each valid (Source.Validate);
//   - an a2a-core grade needs a clause of the A2A specification or proto
//     that binds the client, and is no higher than the highest such
//     clause's ceiling (descriptive text gives at most SHOULD, unless the
//     client only achieves what it asked for);
//   - a delegation-safety grade is a MUST where a seed says "must", unless
//     that source says why not (WhyNotMust);
//   - a check whose scenario's vendor breaks a server-side clause
//     (BrokenHere) has no a2a-core grade.
func ProfileProblems(c Check) []string {
	var out []string
	if len(c.Sources) == 0 {
		return []string{c.ID + ": no sources"}
	}
	for _, s := range c.Sources {
		if err := s.Validate(); err != nil {
			out = append(out, c.ID+": "+err.Error())
		}
	}
	for _, g := range c.Grades {
		switch g.Profile {
		case Core:
			out = append(out, coreProblems(c, g)...)
			for _, s := range c.Sources {
				if s.BrokenHere {
					out = append(out, fmt.Sprintf("%s: a2a-core %s, but its scenario's vendor breaks %s: surviving that is delegation-safety", c.ID, g.Level, s))
				}
			}
		case Safety:
			for _, s := range c.Sources {
				if (s.Document == DocSeed000 || s.Document == DocSeed003) && s.Level == SrcMust && g.Level != Must && s.WhyNotMust == "" {
					out = append(out, fmt.Sprintf("%s: delegation-safety %s, but %s says must (raise it to MUST, or say why not: Source.WhyNotMust)", c.ID, g.Level, s))
				}
			}
		}
	}
	return out
}

// coreProblems checks one a2a-core grade against the check's A2A clauses.
func coreProblems(c Check, g Grade) []string {
	best, any := Level(""), false
	for _, s := range c.Sources {
		if s.IsSpec() && s.Binds == Client {
			any = true
			if levelRank[s.ceiling()] > levelRank[best] {
				best = s.ceiling()
			}
		}
	}
	switch {
	case !any:
		return []string{fmt.Sprintf("%s: a2a-core %s without an A2A clause that binds the client (sources: %s)", c.ID, g.Level, Cite(c.Sources))}
	case levelRank[g.Level] > levelRank[best]:
		return []string{fmt.Sprintf("%s: a2a-core %s above its A2A sources, which give at most %s (sources: %s)", c.ID, g.Level, best, Cite(c.Sources))}
	}
	return nil
}

// core03 says why the a2a-core grade g does not apply to a client that
// speaks only A2A 0.3, or "" when it does: an A2A 0.3 clause that binds
// the client carries g's level (Source.ceiling). Without one, the grade
// rests on A2A 1.0 clauses alone, which bind 1.0 clients, not a client
// that speaks 0.3 only.
func (c Check) core03(g Grade) string {
	best, at := Level(""), ""
	for _, s := range c.Sources {
		if s.Document != DocA2A03 || s.Binds != Client {
			continue
		}
		if levelRank[s.ceiling()] >= levelRank[g.Level] {
			return ""
		}
		if levelRank[s.ceiling()] > levelRank[best] {
			best, at = s.ceiling(), s.Locator
		}
	}
	if best == "" {
		return "A2A 0.3 asks this of no client: judged for A2A 1.0 clients (its A2A sources are 1.0 clauses), and the client speaks A2A 0.3 only"
	}
	return fmt.Sprintf("A2A 0.3 asks this of a client at %s at most (A2A 0.3 %s), below this %s: the %s is judged for A2A 1.0 clients, and the client speaks A2A 0.3 only", best, at, g.Level, g.Level)
}

// Binds03 reports whether the check's a2a-core grade, if it has one,
// binds a client that speaks only A2A 0.3: an A2A 0.3 clause that binds
// the client carries the grade's level. False for a check with no
// a2a-core grade.
func (c Check) Binds03() bool {
	for _, g := range c.Grades {
		if g.Profile == Core {
			return c.core03(g) == ""
		}
	}
	return false
}
