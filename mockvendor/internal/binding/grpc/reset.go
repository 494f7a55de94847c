package grpc

import "context"

// A call's HTTP/2 stream is reset, rather than ended with a status, for
// a lost answer and a stream broken off (stream-cut's abort): the
// connection's writer puts RST_STREAM before the frame that would end
// the stream (frames.go), so every frame the call sent before (its
// events) is out first; a reset stops what comes after it, never what
// came before.

// resetAfterWrites marks the call's stream to be reset before its end.
func (c *call) resetAfterWrites(ctx context.Context) {
	if id := streamID(ctx); id != 0 {
		c.conn.w.resetStream(id)
	}
	c.reset.Store(true)
}
