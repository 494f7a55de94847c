package grpc

import (
	"context"
	"net/http"
	"time"
)

// A call's HTTP/2 stream is reset, rather than ended with a status, for
// a lost answer and a stream broken off (stream-cut's abort): its
// writer (resetWriter) then writes nothing more, and Serve has the
// stream reset once the call is traced. grpc-go hands each write of a
// call (its header, each message, its status) from the call's goroutine
// to the one in ServeHTTP and returns before that one has run it, so the
// call counts the writes it asks for (queue), the writer counts those it
// flushed, and resetAfterWrites waits until every write asked for before
// the reset is out: a reset stops what comes after it, never what came
// before.

// maxDrain bounds how long a reset waits for the writes before it.
const maxDrain = 2 * time.Second

// queue counts one write the call asks grpc-go for (a header or a
// message), before it asks.
func (c *call) queue() { c.queued.Add(1) }

// wrote counts one write flushed (resetWriter.Flush).
func (c *call) wrote() {
	c.flushed.Add(1)
	select {
	case c.flushedC <- struct{}{}:
	default:
	}
}

// resetAfterWrites marks the call to be reset once the writes it asked
// for are flushed (or the client left, or maxDrain passed).
func (c *call) resetAfterWrites(ctx context.Context) {
	if c.conn != nil { // the transport mode: frames.go
		if id := streamID(ctx); id != 0 {
			c.conn.w.resetStream(id)
		}
		c.reset.Store(true)
		return
	}
	deadline := time.NewTimer(maxDrain)
	defer deadline.Stop()
	for c.flushed.Load() < c.queued.Load() {
		select {
		case <-c.flushedC:
		case <-ctx.Done():
			c.reset.Store(true)
			return
		case <-deadline.C:
			c.reset.Store(true)
			return
		}
	}
	c.reset.Store(true)
}

// resetWriter is the ResponseWriter grpc-go writes the call to: once the
// call is to be reset it writes nothing more, so that Serve's caller can
// reset the stream.
type resetWriter struct {
	http.ResponseWriter
	c *call
}

func (w *resetWriter) WriteHeader(code int) {
	if !w.c.reset.Load() {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *resetWriter) Write(b []byte) (int, error) {
	if w.c.reset.Load() {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Flush flushes what was written (grpc-go requires an http.Flusher) and
// counts the write.
func (w *resetWriter) Flush() {
	if !w.c.reset.Load() {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
	}
	w.c.wrote()
}

func (w *resetWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
