// Package serve runs an in-process orchestrator behind the driver
// contract's NDJSON streams, for the exec driver: one message per line on
// the input, one answer per line on the output.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/a2a-conform/a2a-conform/contract"
)

// Orchestrator is what Serve drives: the suite's GoOrchestrator.
type Orchestrator interface {
	Delegate(ctx context.Context, req contract.DelegationRequest, client *http.Client) contract.DelegationOutcome
}

// Serve reads messages from in until it ends and answers on out:
// hello -> hello with name and version (and the protocol versions and
// bindings an orchestrator with a Speaks method declares); reset -> Reset() (when the
// orchestrator has one) and {"type":"reset","ok":true}; delegate -> the
// outcome, with a nil client so the orchestrator builds its own from the
// request's trust and network sections. Lines that are not messages are
// reported on errw and skipped.
func Serve(ctx context.Context, in io.Reader, out io.Writer, errw io.Writer, name, version string, o Orchestrator) error {
	lr := contract.NewLineReader(in, 0)
	write := func(v any) error {
		b, err := contract.MarshalLine(v)
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	}
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, contract.ErrLineTooLong) {
			fmt.Fprintln(errw, "skipped an over-long line")
			continue
		}
		if err != nil {
			return err
		}
		if len(line) == 0 {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			fmt.Fprintf(errw, "skipped a line that is not JSON: %v\n", err)
			continue
		}
		switch head.Type {
		case contract.TypeHello:
			h := contract.Hello{Contract: contract.Version, Type: contract.TypeHello, Name: name, Version: version}
			if sp, ok := o.(interface{ Speaks() ([]string, []string) }); ok {
				h.ProtocolVersions, h.Bindings = sp.Speaks()
			}
			err = write(h)
		case contract.TypeReset:
			if r, ok := o.(interface{ Reset() }); ok {
				r.Reset()
			}
			err = write(contract.Reset{Contract: contract.Version, Type: contract.TypeReset, OK: true})
		case contract.TypeDelegate, "":
			var req contract.DelegationRequest
			if err := json.Unmarshal(line, &req); err != nil {
				fmt.Fprintf(errw, "skipped a request that does not decode: %v\n", err)
				continue
			}
			o := o.Delegate(ctx, req, nil)
			o.Contract, o.ID = contract.Version, req.ID
			err = write(o)
		default:
			fmt.Fprintf(errw, "skipped a message of unknown type %q\n", head.Type)
		}
		if err != nil {
			return err
		}
	}
}
