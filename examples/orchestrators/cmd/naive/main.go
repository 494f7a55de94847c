// Command naive runs the naive orchestrator (the card-as-contract posture
// the source documents warn about) behind the driver contract's exec
// protocol: NDJSON messages on stdin, answers on stdout.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/serve"
	"github.com/a2a-conform/a2a-conform/examples/orchestrators/naive"
)

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

func run(in io.Reader, out, errw io.Writer) int {
	if err := serve.Serve(context.Background(), in, out, errw, serve.Identity{Name: naive.Name, Version: naive.Version}, naive.New()); err != nil {
		fmt.Fprintln(errw, "naive:", err)
		return 1
	}
	return 0
}
