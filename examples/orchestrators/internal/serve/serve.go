// Package serve runs an in-process orchestrator behind the driver
// contract: over NDJSON streams for the exec driver (one message per line
// on the input, one answer per line on the output), or as an HTTP service
// for the http driver (one POST per message).
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

// Identity is what a hello answer says about the orchestrator.
type Identity struct {
	// Name and Version are the hello answer's name and version.
	Name, Version string
	// Sessions is the hello answer's sessions: how many harness sessions
	// the service holds at once. Zero for the exec loop, whose process is
	// one session.
	Sessions int
}

// Serve reads messages from in until it ends and answers on out (see
// answer). Lines that are not messages are reported on errw and skipped.
func Serve(ctx context.Context, in io.Reader, out io.Writer, errw io.Writer, id Identity, o Orchestrator) error {
	lr := contract.NewLineReader(in, 0)
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
		a, err := answer(ctx, line, id, o)
		if err != nil {
			fmt.Fprintln(errw, err)
			continue
		}
		b, err := contract.MarshalLine(a)
		if err != nil {
			return err
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
}

// answer returns o's answer to one message: hello -> hello with id (and
// the protocol versions and bindings an orchestrator with a Speaks method
// declares); reset -> Reset() (when the orchestrator has one) and
// {"type":"reset","ok":true}; delegate -> the outcome, with a nil client
// so the orchestrator builds its own from the request's trust and network
// sections. A line that is no message is an error, and gets no answer.
func answer(ctx context.Context, line []byte, id Identity, o Orchestrator) (any, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, fmt.Errorf("skipped a line that is not JSON: %v", err)
	}
	switch head.Type {
	case contract.TypeHello:
		h := contract.Hello{Contract: contract.Version, Type: contract.TypeHello, Name: id.Name, Version: id.Version, Sessions: id.Sessions}
		if sp, ok := o.(interface{ Speaks() ([]string, []string) }); ok {
			h.ProtocolVersions, h.Bindings = sp.Speaks()
		}
		return h, nil
	case contract.TypeReset:
		if r, ok := o.(interface{ Reset() }); ok {
			r.Reset()
		}
		return contract.Reset{Contract: contract.Version, Type: contract.TypeReset, OK: true}, nil
	case contract.TypeDelegate, "":
		var req contract.DelegationRequest
		if err := json.Unmarshal(line, &req); err != nil {
			return nil, fmt.Errorf("skipped a request that does not decode: %v", err)
		}
		out := o.Delegate(ctx, req, nil)
		out.Contract, out.ID = contract.Version, req.ID
		return out, nil
	}
	return nil, fmt.Errorf("skipped a message of unknown type %q", head.Type)
}
