// Command upstream is an honest A2A 0.3 echo agent served by the official Go
// SDK, github.com/a2aproject/a2a-go v0.3.3 (a2asrv.NewHandler behind
// a2asrv.NewJSONRPCHandler, with the SDK's in-memory task store). It is an
// upstream for the tests and the bench of `a2a-conform proxy`: a real SDK
// server, not one of the harness's mock vendors.
//
//	go run . [--addr 127.0.0.1:0] [--skill ID]... [--slow DURATION]
//
// Once listening it prints one line, "A2A upstream listening on
// http://127.0.0.1:PORT", and serves until SIGTERM, SIGINT or the end of its
// standard input, then exits 0. See examples/upstreams/README.md.
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

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// skillFlags is the repeatable --skill flag.
type skillFlags []string

func (s *skillFlags) String() string { return strings.Join(*s, ",") }

func (s *skillFlags) Set(v string) error {
	if v == "" {
		return errors.New("a skill id cannot be empty")
	}
	*s = append(*s, v)
	return nil
}

// options are the command line's settings.
type options struct {
	addr   string
	skills []string
	slow   time.Duration
}

func main() {
	opts, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "upstream:", err)
		os.Exit(2)
	}
	if err := run(opts, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "upstream:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line; --skill defaults to one skill, "echo".
func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("upstream", flag.ContinueOnError)
	var o options
	var skills skillFlags
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "loopback `host:port` to listen on (port 0: any free port)")
	fs.Var(&skills, "skill", "a skill `id` for the agent card (repeatable; default: echo)")
	fs.DurationVar(&o.slow, "slow", 0, "how long each task waits before it completes")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if o.slow < 0 {
		return o, fmt.Errorf("--slow %v is negative", o.slow)
	}
	o.skills = skills
	if len(o.skills) == 0 {
		o.skills = []string{"echo"}
	}
	return o, nil
}

// run listens on opts.addr, prints the "listening on" line to out and
// serves until a signal or the end of in.
func run(opts options, in io.Reader, out io.Writer) error {
	ln, err := listenLoopback(opts.addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	srv := &http.Server{Handler: newMux(base, opts), ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() { // the end of stdin stops the server like a signal does
		_, _ = io.Copy(io.Discard, in)
		stop()
	}()

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(out, "A2A upstream listening on %s\n", base)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	return shutdown(srv)
}

// listenLoopback listens on addr, which must name a loopback address.
func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("--addr %q: only a loopback IP address is allowed", addr)
	}
	return net.Listen("tcp", addr)
}

// shutdown gives open requests (a stream, a --slow task) a moment, then
// closes what is left.
func shutdown(srv *http.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		_ = srv.Close()
	}
	return nil
}

// newMux serves the agent card at the A2A well-known path (A2A 0.3 §5.3)
// and JSON-RPC at the root, the card's url; every other path is 404.
func newMux(base string, opts options) *http.ServeMux {
	handler := a2asrv.NewHandler(&echoExecutor{slow: opts.slow})
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(agentCard(base, opts.skills)))
	mux.Handle("/{$}", a2asrv.NewJSONRPCHandler(handler))
	return mux
}

// agentCard is the A2A 0.3 card (A2A 0.3 §5.5): JSON-RPC at base + "/".
func agentCard(base string, skills []string) *a2a.AgentCard {
	card := &a2a.AgentCard{
		Name:               "Echo (a2a-go)",
		Description:        "An honest echo agent on the a2a-go SDK: each task completes with one artifact, \"echo: \" and the user's text.",
		URL:                base + "/",
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            "0.1.0",
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
	}
	for _, id := range skills {
		card.Skills = append(card.Skills, a2a.AgentSkill{
			ID:          id,
			Name:        id,
			Description: "Answers with \"echo: \" and the text of the message.",
			Tags:        []string{"echo"},
		})
	}
	return card
}
