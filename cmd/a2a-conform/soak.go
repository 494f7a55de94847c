package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/soak"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// soakCmd runs the soak measurement for one or more orchestrators and
// draws them in one plot.
func soakCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var orchs multiFlag
	fs.Var(&orchs, "orchestrator", "orchestrator to soak (repeatable; default builtin:reference)")
	n := fs.Int("delegations", 200, "delegations per orchestrator")
	window := fs.Duration("window", 3*time.Second, "rollout window of B's gateway (D's is 3x); the CDN max-age stays 86400 s")
	spacing := fs.Duration("spacing", 40*time.Millisecond, "pause between delegations")
	plot := fs.String("plot", "soak.svg", "write the errors-over-time plot (SVG) to this file; empty for none")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if len(orchs) == 0 {
		orchs = multiFlag{"builtin:reference"}
	}
	if *n <= 0 {
		return &usageError{"--delegations must be positive"}
	}
	var results []*soak.Result
	for _, spec := range orchs {
		d, err := driver.Parse(spec, builtins())
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		if err := driver.Preflight(ctx, d); err != nil {
			return &exitError{code: 2, err: err}
		}
		r, err := soak.Run(ctx, d, spec, soak.Options{Delegations: *n, Window: *window, Spacing: *spacing})
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("soak %s: %w", spec, err)}
		}
		r.WriteText(stdout)
		fmt.Fprintln(stdout)
		results = append(results, r)
	}
	if *plot != "" {
		if err := os.WriteFile(*plot, soak.PlotSVG(results...), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "plot: %s\n", *plot)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
