// Command a2a-conform is the conformance harness for A2A orchestrators: it
// runs a fleet of mock vendor agents, drives an orchestrator through the
// catalog's scenarios and scores what it saw.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/a2a-conform/a2a-conform/internal/gcbudget"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// revision is the VCS revision, set at build time with -ldflags
// "-X main.revision=..." for builds whose build info has none
// (-buildvcs=false, no .git). The build info's vcs.revision wins.
var revision = ""

// usageError is a command line the CLI cannot run (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries an exit code chosen by a subcommand (1: not
// conformant; 2: harness or configuration error).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

const usage = `a2a-conform: conformance harness for A2A orchestrators

usage:
  a2a-conform [run] [--orchestrator X] [--profile P] [--label-filter F]
              [--json-report F] [--junit-report F] [--html-report F]
              [--baseline F] [--shard K/N] [--slow]
              [--hello-timeout 2s] [--startup-grace D] [--deadline D] [--seed N]
              [--parallel N] [--fail-fast] [--rerun-failed REPORT.json] [--dry-run]
              [--events F] [--time-scale F]
                                                    score an orchestrator (default: builtin:reference)
  a2a-conform list [--json | --markdown | --label-filter F]
                                                    list scenarios and checks (or what a filter selects)
  a2a-conform explain ID                            the clause, the fleet's behaviour and the fix for an id
  a2a-conform score REPORT.json                     re-score a saved JSON report
  a2a-conform report merge A.json B.json... [--json-report F] [--junit-report F] [--html-report F] [--baseline F]
                                                    merge shard reports into one, scored as one run
  a2a-conform soak [--delegations 200] [--orchestrator X]...
                                                    many delegations while gateways roll skills out; plot errors over time
  a2a-conform fleet up [--config F | --scenario ID] [--addr-file F] [--ca DIR] [--admin-token T]
                                                    run the mock vendor fleet (with admin API and live page) until interrupted
  a2a-conform proxy --upstream NAME=URL... [--config F] [--record DIR] [--upstream-ca F]
                                                    the fleet in front of real agents: their cards and answers, under faults
  a2a-conform certs --out DIR                       write a long-lived test CA and host certificates
  a2a-conform version                               print the version, the VCS revision and the Go toolchain

Run 'a2a-conform COMMAND -h' for a command's flags.
`

func main() {
	gcbudget.Apply()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// flagError is the error of a subcommand whose flags did not parse: -h
// (the flag package has printed the flags) is exit 0, anything else exit 2
// (the flag package has printed the problem and the flags).
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return &exitError{code: 2}
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "a2a-conform:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "a2a-conform:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprint(stderr, usage)
	}
	return 2
}

// run dispatches a command line; it never exits the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "--") {
		return runCmd(ctx, args, stdout, stderr)
	}
	switch args[0] {
	case "fleet":
		if len(args) == 2 && (args[1] == "-h" || args[1] == "--help" || args[1] == "help") {
			fmt.Fprintln(stdout, "usage: a2a-conform fleet up [flags]  (a2a-conform fleet up -h lists them)")
			return nil
		}
		if len(args) < 2 || args[1] != "up" {
			return &usageError{"fleet takes the subcommand up"}
		}
		return fleetUp(ctx, args[2:], stdout, stderr)
	case "proxy":
		return proxyCmd(ctx, args[1:], stdout, stderr)
	case "certs":
		return certs(args[1:], stdout, stderr)
	case "run":
		return runCmd(ctx, args[1:], stdout, stderr)
	case "list":
		return listCmd(args[1:], stdout, stderr)
	case "explain":
		return explainCmd(args[1:], stdout, stderr)
	case "score":
		return scoreCmd(args[1:], stdout, stderr)
	case "soak":
		return soakCmd(ctx, args[1:], stdout, stderr)
	case "report":
		return reportCmd(args[1:], stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return &usageError{fmt.Sprintf("unknown command %q", args[0])}
}
