package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
)

// listCmd prints every check: id, grades, title; with --json every check
// as data (sources included), with --markdown the generated catalog page
// (docs/catalog.md).
func listCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "every check as a JSON array: id, scenario, title, profiles, sources, requirement, reached, fix")
	asMarkdown := fs.Bool("markdown", false, "the catalog as Markdown (docs/catalog.md)")
	filter := fs.String("label-filter", "", "list only what run --label-filter would run (the same filter)")
	slow := fs.Bool("slow", false, "with --label-filter: count slow scenarios in, as run --slow does")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	switch {
	case *asJSON && *asMarkdown:
		return &usageError{"list takes --json or --markdown, not both"}
	case *filter != "" && (*asJSON || *asMarkdown):
		return &usageError{"list --label-filter prints the selection as text; it takes no --json or --markdown"}
	case *filter != "":
		return printSelection(stdout, scenarios.All(), *filter, *slow)
	case *asJSON:
		return writeCatalogJSON(stdout)
	case *asMarkdown:
		writeCatalogMarkdown(stdout)
		return nil
	}
	for _, s := range scenarios.All() {
		label := ""
		if len(s.Labels) > 0 {
			label = " [" + strings.Join(s.Labels, ",") + "]"
		}
		fmt.Fprintf(stdout, "%s  %s%s\n", s.ID, s.Title, label)
		for _, c := range s.Checks {
			fmt.Fprintf(stdout, "  %-28s %-40s %s\n", c.ID, grades(c.Grades), c.Title)
		}
	}
	fmt.Fprintln(stdout, "global (judged on every scenario, scored once per run)")
	for _, c := range scenarios.GlobalChecks() {
		fmt.Fprintf(stdout, "  %-28s %-40s %s\n", c.ID, grades(c.Grades), c.Title)
	}
	return nil
}

// printSelection prints what a run with this label filter would run: each
// selected scenario, then its selected checks with their grades, and a
// count. A filter that selects nothing is an error (exit 2), as it is for
// run.
func printSelection(w io.Writer, all []*scenarios.Scenario, filter string, slow bool) error {
	if err := checkLabelFilter(filter); err != nil {
		return &exitError{code: 2, err: err}
	}
	sel, err := suite.Select(all, filter, slow)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if len(sel) == 0 {
		return &exitError{code: 2, err: fmt.Errorf("the filter %q selects no check (a2a-conform list shows the ids and labels)", filter)}
	}
	n := 0
	for _, s := range sel {
		fmt.Fprintf(w, "%s  %s\n", s.Scenario.ID, s.Scenario.Title)
		for _, id := range s.Checks {
			_, c := scenarios.Find(id)
			fmt.Fprintf(w, "  %-28s %s\n", id, grades(c.Grades))
		}
		n += len(s.Checks)
	}
	fmt.Fprintf(w, "%d scenarios, %d checks\n", len(sel), n)
	return nil
}

// grades spells a check's grades as every report does
// ("delegation-safety MUST, a2a-core SHOULD").
func grades(gs []scenarios.Grade) string {
	var out []string
	for _, g := range gs {
		out = append(out, string(g.Profile)+" "+string(g.Level))
	}
	return strings.Join(out, ", ")
}

// explainCmd prints a scenario or check: the clause, what the fleet does,
// what passes and how to fix.
func explainCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: a2a-conform explain ID\n  the clause, the fleet's behaviour, what reaches it and the fix, for a scenario or check id (any case)")
	}
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	args = fs.Args()
	if len(args) != 1 {
		return &usageError{"explain takes one scenario or check id"}
	}
	s, c := scenarios.Find(args[0])
	if s == nil && c == nil {
		return &exitError{code: 2, err: fmt.Errorf("no scenario or check %q (see a2a-conform list)", args[0])}
	}
	var checks []scenarios.Check
	switch {
	case c != nil:
		checks = []scenarios.Check{*c}
	default:
		checks = s.Checks
	}
	if s != nil {
		fmt.Fprintf(stdout, "%s %s\n  source: %s\n  fleet:  %s\n", s.ID, s.Title, s.Source, s.Setup)
	} else {
		fmt.Fprintln(stdout, "global requirement: judged on every scenario's trace, scored once per run across the scenarios that exercised it")
	}
	for _, c := range checks {
		fmt.Fprintf(stdout, "\n%s [%s] %s\n  requirement: %s\n  source:      %s\n  reached when the orchestrator did: %s\n  fix:         %s\n",
			c.ID, grades(c.Grades), c.Title, c.Requirement, c.Cite(), c.Reached.Needs, c.Fix)
	}
	return nil
}

// scoreCmd re-scores a saved JSON report.
func scoreCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: a2a-conform score REPORT.json\n  re-score a saved JSON report (v1 or v2) and exit as run would have")
	}
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	args = fs.Args()
	if len(args) != 1 {
		return &usageError{"score takes one report file"}
	}
	r, err := suite.ReadReport(args[0])
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	r.Rescore()
	suite.WriteScorecard(stdout, r)
	return verdictExit(r, nil)
}
