// Command reference runs the reference orchestrator behind the driver
// contract's exec protocol: NDJSON messages on stdin, answers on stdout.
//
//	a2a-conform run --orchestrator 'exec:reference'
//	a2a-conform run --orchestrator 'exec:reference --break no-probe,extra-calls'
//
// Each delegation builds its HTTP client from the request: the roots are the
// system pool plus trust.caFile, and requests go through network.proxy (or
// are dialled through network.resolve when there is no proxy).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/serve"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func run(args []string, in io.Reader, out, errw io.Writer) int {
	fs := flag.NewFlagSet("reference", flag.ContinueOnError)
	fs.SetOutput(errw)
	var breaks multi
	fs.Var(&breaks, "break", "switch off a behaviour: `NAME[,NAME]` (repeatable; -list-breaks shows them)")
	var alts multi
	fs.Var(&alts, "alt", "switch on a legitimate alternative behaviour: `NAME[,NAME]` (repeatable; -list-breaks shows them)")
	list := fs.Bool("list-breaks", false, "list the break names with the checks each fails, the alternatives with the checks each keeps, and exit")
	verbose := fs.Bool("v", false, "log each step to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *list {
		for _, b := range reference.BreakList() {
			fmt.Fprintf(out, "break %-36s fails %s\n", b.Name, strings.Join(b.Checks, ", "))
		}
		for _, a := range reference.AltList() {
			fmt.Fprintf(out, "alt   %-36s keeps %s\n", a.Name, strings.Join(a.Keeps, ", "))
		}
		return 0
	}
	alt, err := reference.ParseAlternatives(alts...)
	if err != nil {
		fmt.Fprintln(errw, "reference:", err)
		return 2
	}
	br, err := reference.ParseBreaks(breaks...)
	if err != nil {
		fmt.Fprintln(errw, "reference:", err)
		return 2
	}
	opts := reference.Options{Break: br, Alt: alt}
	if *verbose {
		opts.Logf = func(format string, a ...any) { fmt.Fprintf(errw, format+"\n", a...) }
	}
	version := reference.Version
	if names := br.Names(); len(names) > 0 {
		version += "+break." + strings.Join(names, ".")
	}
	if err := serve.Serve(context.Background(), in, out, errw, reference.Name, version, reference.New(opts)); err != nil {
		fmt.Fprintln(errw, "reference:", err)
		return 1
	}
	return 0
}
