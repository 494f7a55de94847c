package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
	"github.com/a2a-conform/a2a-conform/internal/a2apb"
)

// gRPC streams [A2A 1.0.1 §10.4.2, §10.4.6, §10.7]: SendStreamingMessage
// and SubscribeToTask are server streams of StreamResponse. The reference
// reads one the way it reads an SSE stream (rpc.go's stream, life.go's
// subscribe), so every rule about streams holds over gRPC alike (first-
// frame timeout, a stream cut before the task ended, error events):
//
//   - the answer's headers come first (grpcHeaders, presented as a
//     text/event-stream answer, or an application/json one when the
//     stream's first word is an error status);
//   - each StreamResponse is an event carrying its protojson as a
//     JSON-RPC result;
//   - a status that names an A2A error (its ErrorInfo) is the stream's
//     error event, or, before any message, the method's plain error answer;
//     UNAUTHENTICATED before any message is a 401;
//   - any other status after a message is a stream that broke off; before
//     any, a call that reached nothing (grpcTransportError).

// grpcStream opens a stream method on the attempt's gRPC interface and
// returns its reader. The request, its metadata and the call's budget are
// taken here, on the delegation's goroutine; the reader may run on another.
func (r *run) grpcStream(ctx context.Context, a *attempt, method string, params map[string]any) (streamReader, error) {
	if r.rpcCalls >= maxRPCCalls {
		return nil, fmt.Errorf("call budget (%d) spent", maxRPCCalls)
	}
	in, err := r.grpcRequest(a, method, params)
	if err != nil {
		return nil, err
	}
	cl, err := r.grpcClient(a)
	if err != nil {
		return nil, err
	}
	first := !a.sawResponse
	ctx = metadata.NewOutgoingContext(ctx, r.grpcMetadata(a, method))
	ep := a.ep.URL
	r.rpcCalls++
	return func(emit func(streamEvent) bool) {
		var st grpc.ServerStreamingClient[a2apb.StreamResponse]
		var err error
		switch req := in.(type) {
		case *a2apb.SendMessageRequest:
			st, err = cl.SendStreamingMessage(ctx, req)
		case *a2apb.SubscribeToTaskRequest:
			st, err = cl.SubscribeToTask(ctx, req)
		default:
			err = fmt.Errorf("%s is no stream method", method)
		}
		if err != nil {
			emit(streamEvent{err: grpcStreamError(method, ep, err, nil, first), end: true})
			return
		}
		readGRPCStream(st, method, ep, first, emit)
	}, nil
}

// readGRPCStream reads st to its end, as streamEvents.
func readGRPCStream(st grpc.ServerStreamingClient[a2apb.StreamResponse], method, ep string, first bool, emit func(streamEvent) bool) {
	messages := 0
	for {
		msg, err := st.Recv()
		p, _ := peer.FromContext(st.Context())
		if messages == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				if terr := grpcStreamError(method, ep, err, p, first); terr != nil {
					emit(streamEvent{err: terr, end: true})
					return
				}
			}
			header, _ := st.Header()
			stat := status.Convert(err)
			code := http.StatusOK
			if err != nil && stat.Code() == codes.Unauthenticated {
				code = http.StatusUnauthorized
			}
			hdr := grpcHeaders(code, header, st.Trailer(), p)
			hdr.Header.Set("Content-Type", "text/event-stream")
			if err != nil && !errors.Is(err, io.EOF) {
				hdr.Header.Set("Content-Type", "application/json")
			}
			if !emit(streamEvent{resp: hdr}) || code == http.StatusUnauthorized {
				return
			}
			if err != nil && !errors.Is(err, io.EOF) {
				// The method's answer is an error: its plain JSON answer.
				if emit(streamEvent{data: rpcErrorAnswer(grpcRPCError(stat))}) {
					emit(streamEvent{end: true})
				}
				return
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			emit(streamEvent{end: true})
			return
		case err != nil:
			stat := status.Convert(err)
			if _, ok := a2aReason(stat); ok {
				if emit(streamEvent{data: rpcErrorAnswer(grpcRPCError(stat)), sse: true}) {
					emit(streamEvent{end: true})
				}
				return
			}
			emit(streamEvent{err: fmt.Errorf("gRPC %s %s: stream broke off: %s: %s", method, ep, stat.Code(), stat.Message()), end: true})
			return
		}
		messages++
		raw, err := protojson.Marshal(msg)
		if err != nil {
			emit(streamEvent{err: err, end: true})
			return
		}
		b, _ := json.Marshal(wire.RPCResponse{JSONRPC: "2.0", Result: raw})
		if !emit(streamEvent{data: b, sse: true}) {
			return
		}
	}
}

// grpcStreamError is the error of a stream that reached nothing (as
// grpcTransportError says), nil when the interface answered.
func grpcStreamError(method, ep string, err error, p *peer.Peer, first bool) error {
	return grpcTransportError(method, ep, status.Convert(err), p, first)
}

// rpcErrorAnswer is a JSON-RPC error answer carrying e.
func rpcErrorAnswer(e *wire.RPCError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		Error   *wire.RPCError `json:"error"`
	}{"2.0", e})
	return b
}

// subscribeGRPC is life.go's subscribe over gRPC: one SubscribeToTask,
// read to its end within the card's first-frame timeout.
func (r *run) subscribeGRPC(a *attempt, id string) (wire.TaskInfo, *wire.RPCError, error) {
	first := r.firstEventTimer(a) // streamerr.go
	defer first.close()
	read, err := r.grpcStream(first.ctx, a, "SubscribeToTask", map[string]any{"id": id})
	if err != nil {
		return wire.TaskInfo{}, nil, first.explain(err)
	}
	var info wire.TaskInfo
	var rpcErr *wire.RPCError
	read(func(e streamEvent) bool {
		switch {
		case e.resp != nil:
			if e.resp.StatusCode == http.StatusUnauthorized {
				err = fmt.Errorf("SubscribeToTask %s: %w", a.ep.URL, errAuthRejected)
				return false
			}
			r.observe(a, e.resp)
		case e.end:
			err = e.err
		default:
			var rr wire.RPCResponse
			if json.Unmarshal(e.data, &rr) != nil {
				return true
			}
			if rr.Error != nil {
				rpcErr = rr.Error
				return false
			}
			first.arrived()
			if ti, perr := wire.ParseResult(rr.Result); perr == nil && ti.State != "" {
				info.State = ti.State
			}
			r.takeResult(rr.Result) // results.go
		}
		return true
	})
	return info, rpcErr, first.explain(err)
}
