package scenarios

import (
	"strings"
	"testing"
)

// TestProfileRuleCatches: the profile rule (ProfileProblems) names each
// way a check can be mis-profiled, and accepts the ways the catalog's rules
// allow.
func TestProfileRuleCatches(t *testing.T) {
	coreMust := []Grade{{Profile: Core, Level: Must}}
	coreShould := []Grade{{Profile: Core, Level: Should}}
	safetyShould := []Grade{{Profile: Safety, Level: Should}}
	cases := []struct {
		name    string
		grades  []Grade
		sources []Source
		want    string // a problem containing this; "" = none
	}{
		{"core from a seed alone", coreMust, []Source{Seed000("Decision Boundary", SrcMust)}, "without an A2A clause that binds the client"},
		{"core from a server's clause", coreMust, []Source{A2A("§3.2.2", SrcMust, Server)}, "without an A2A clause that binds the client"},
		{"core MUST above a SHOULD", coreMust, []Source{A2A("§7.2", SrcShould, Client)}, "above its A2A sources, which give at most SHOULD"},
		{"core MUST from descriptive text", coreMust, []Source{A2A("§3.1.1", SrcDescriptive, Client)}, "at most SHOULD"},
		{"core SHOULD from descriptive text", coreShould, []Source{A2A("§3.1.1", SrcDescriptive, Client)}, ""},
		{"core MUST from what the client asked for", coreMust, []Source{A2A("§3.2.2", SrcDescriptive, Client).OnlyWhatItAsked("it asked to return immediately")}, ""},
		{"core MUST at a MUST", coreMust, []Source{Proto("Message.message_id", SrcMust, Client)}, ""},
		{"a seed's must below MUST", safetyShould, []Source{Seed000("Decision Boundary", SrcMust)}, "raise it to MUST"},
		{"a seed's must below MUST, with a reason", safetyShould, []Source{Seed000("Decision Boundary", SrcMust).NotMust("the seed's must is about the gateway, not the client")}, ""},
		{"a seed's must below MUST, with a note that is no reason", safetyShould, []Source{Seed000("Decision Boundary", SrcMust).Read("read as written")}, "raise it to MUST"},
		{"no sources", safetyShould, nil, "no sources"},
		{"an unknown document", safetyShould, []Source{{Document: "a blog", Locator: "x", Level: SrcMust, Binds: Client}}, "none of the known documents"},
		{"a field report", safetyShould, []Source{Field("google/adk-python#4934")}, ""},
		{"self-requested on a seed", safetyShould, []Source{Seed000("x", SrcDescriptive).OnlyWhatItAsked("no")}, "only a descriptive A2A clause"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			probs := ProfileProblems(Check{ID: "UNIT-001.X", Grades: tc.grades, Sources: tc.sources})
			got := strings.Join(probs, "\n")
			switch {
			case tc.want == "" && len(probs) > 0:
				t.Errorf("problems %q, want none", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("problems %q, want one containing %q", got, tc.want)
			}
		})
	}
}
