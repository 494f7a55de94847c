// Command reference runs the reference orchestrator behind the driver
// contract's exec protocol (NDJSON messages on stdin, answers on stdout),
// or, with -http, as a service for the http driver that holds -sessions
// harness sessions at once, each with an orchestrator of its own.
//
//	a2a-conform run --orchestrator 'exec:reference'
//	a2a-conform run --orchestrator 'exec:reference --break no-probe,extra-calls'
//	reference -http 127.0.0.1:9000 & a2a-conform run --orchestrator http://127.0.0.1:9000/
//
// Each delegation builds its HTTP client from the request: the roots are the
// system pool plus trust.caFile, and requests go through network.proxy (or
// are dialled through network.resolve when there is no proxy).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

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
	addr := fs.String("http", "", "serve the driver contract over HTTP on `ADDR` (host:port; port 0 picks one) instead of stdin and stdout, until interrupted")
	sessions := fs.Int("sessions", 8, "with -http: how many harness sessions (scenarios) to hold at once, each with an orchestrator of its own")
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
	id := serve.Identity{Name: reference.Name, Version: version}
	if *addr != "" {
		id.Sessions = max(1, *sessions)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serveHTTP(ctx, *addr, errw, &serve.Sessions{Identity: id, New: func() serve.Orchestrator { return reference.New(opts) }})
	}
	if err := serve.Serve(context.Background(), in, out, errw, id, reference.New(opts)); err != nil {
		fmt.Fprintln(errw, "reference:", err)
		return 1
	}
	return 0
}

// serveHTTP listens on addr, says where on errw ("reference: serving the
// driver contract on http://ADDR/"), and serves h until ctx ends.
func serveHTTP(ctx context.Context, addr string, errw io.Writer, h http.Handler) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(errw, "reference:", err)
		return 2
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(errw, "reference: serving the driver contract on http://%s/\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(errw, "reference:", err)
		return 1
	}
	return 0
}
