package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// Error is an exchange with the agent that ended short of a usable
// answer: the agent unreachable, or answering something that is not an
// A2A answer (a bad gateway), or too slow (a gateway timeout).
type Error struct {
	// Timeout is true when the agent was too slow (no answer header within
	// Config.Timeout, no stream event within Config.StreamIdle).
	Timeout bool
	// Detail says what happened, for the trace and the error's message.
	Detail string
}

func (e *Error) Error() string { return "upstream: " + e.Detail }

// HTTPStatus is the status a gateway answers the error with: 504 for a
// timeout, else 502.
func (e *Error) HTTPStatus() int {
	if e.Timeout {
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

// A2A is the A2A error the bindings answer it with: an internal error
// (-32603) that names the upstream failure.
func (e *Error) A2A() *a2a.Error {
	reason := "UPSTREAM_UNAVAILABLE"
	if e.Timeout {
		reason = "UPSTREAM_TIMEOUT"
	}
	return &a2a.Error{Code: a2a.CodeInternal, Message: e.Error(), Reason: reason}
}

// transportError is the Error of a request the agent did not answer: ctx
// is the orchestrator's, late whether Config.Timeout ran out, connected
// whether the request got a connection to the agent.
func (c *Client) transportError(ctx context.Context, late bool, err error, connected bool) *Error {
	var ne net.Error
	switch {
	case late && !connected:
		return &Error{Timeout: true, Detail: fmt.Sprintf("no free connection to the agent within %s (maxConns %d)", c.cfg.Timeout, c.cfg.MaxConns)}
	case late, errors.As(err, &ne) && ne.Timeout():
		return &Error{Timeout: true, Detail: fmt.Sprintf("no answer within %s", c.cfg.Timeout)}
	case ctx.Err() != nil:
		return &Error{Detail: "the orchestrator left before the agent answered"}
	}
	return &Error{Detail: "agent unreachable: " + err.Error()}
}

// bodyError is the Error of an answer whose body could not be read.
func bodyError(ctx context.Context, err error, limit int64) *Error {
	if errors.Is(err, errTooLarge) {
		return &Error{Detail: fmt.Sprintf("the agent's answer is over %d bytes", limit)}
	}
	if ctx.Err() != nil {
		return &Error{Detail: "the orchestrator left while the agent answered"}
	}
	return &Error{Detail: "the agent's answer broke off: " + err.Error()}
}

// envelope is a JSON-RPC response as the agent sent it.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// decodeEnvelope reads a JSON-RPC response body: the result, the agent's
// A2A error, or an *Error when the body is no JSON-RPC response.
func decodeEnvelope(body []byte, status int) (json.RawMessage, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.JSONRPC != "2.0" || (env.Result == nil && env.Error == nil) {
		return nil, &Error{Detail: fmt.Sprintf("the agent answered HTTP %d with no JSON-RPC response (%s)", status, snippet(body))}
	}
	if e := env.Error; e != nil {
		out := &a2a.Error{Code: e.Code, Message: e.Message}
		var data map[string]any
		if json.Unmarshal(e.Data, &data) == nil {
			out.Data = data
		}
		return nil, out
	}
	return env.Result, nil
}

// snippet is the start of a body, for an error message.
func snippet(b []byte) string {
	const n = 64
	if len(b) == 0 {
		return "empty body"
	}
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
