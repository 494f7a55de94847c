package grpc

import (
	"encoding/binary"
	"io"
	"sync"
	"sync/atomic"
)

// grpc-go's server has no way to reset a stream of its own accord: a
// handler's error is a status in trailers (RFC 9113 §8.1, gRPC over
// HTTP/2). A lost answer and a stream broken off are reset instead, as
// the fleet does over net/http, by the connection's frameWriter: it
// reads the frames grpc-go writes (from the first byte the server
// writes, every one a frame) and, before the HEADERS frame that ends a
// stream marked by resetStream, writes RST_STREAM(INTERNAL_ERROR) for
// it. Every frame of the stream grpc-go wrote before (its events) is
// out first, as grpc-go writes a stream's frames in order; the trailers
// after the reset keep HPACK's tables in step (RFC 9113 §4.3: a header
// block is decoded even on a closed stream) and the client drops them
// (grpc-go's client does; RFC 9113 §5.1 lets a peer answer them with a
// stream error, which ends nothing more).

const (
	frameHeaderLen  = 9
	frameHeaders    = 0x1
	frameRSTStream  = 0x3
	flagEndStream   = 0x1
	errCodeInternal = 0x2
)

// frameWriter passes grpc-go's writes on, a frame at a time as far as
// resets go.
type frameWriter struct {
	mu   sync.Mutex
	skip int                 // bytes of the current frame's payload still to pass
	part []byte              // a frame header cut by the end of a write, held back
	n    atomic.Int32        // streams marked (a fast path for none)
	mark map[uint32]struct{} // streams to reset before their end
}

// resetStream marks stream id to be reset before the frame that ends it.
func (w *frameWriter) resetStream(id uint32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mark == nil {
		w.mark = map[uint32]struct{}{}
	}
	w.mark[id] = struct{}{}
	w.n.Store(int32(len(w.mark)))
}

// take reports whether stream id is marked, unmarking it (w.mu held).
func (w *frameWriter) take(id uint32) bool {
	if w.n.Load() == 0 {
		return false
	}
	if _, ok := w.mark[id]; !ok {
		return false
	}
	delete(w.mark, id)
	w.n.Store(int32(len(w.mark)))
	return true
}

// write writes b to dst, a RST_STREAM before the end of each marked
// stream. A frame header the end of b cuts is held back until the next
// write completes it.
func (w *frameWriter) write(dst io.Writer, b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(b)
	if len(w.part) > 0 {
		b = append(w.part, b...)
		w.part = nil
	}
	start, i := 0, 0
	for i < len(b) {
		if w.skip > 0 {
			k := min(w.skip, len(b)-i)
			w.skip -= k
			i += k
			continue
		}
		if len(b)-i < frameHeaderLen {
			w.part = append([]byte(nil), b[i:]...)
			break
		}
		h := b[i : i+frameHeaderLen]
		length := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		if h[3] == frameHeaders && h[4]&flagEndStream != 0 {
			if id := binary.BigEndian.Uint32(h[5:]) & 0x7fffffff; w.take(id) {
				if _, err := dst.Write(b[start:i]); err != nil {
					return 0, err
				}
				if _, err := dst.Write(rstStream(id)); err != nil {
					return 0, err
				}
				start = i
			}
		}
		w.skip = length
		i += frameHeaderLen
	}
	end := len(b) - len(w.part)
	if end > start {
		if _, err := dst.Write(b[start:end]); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// rstStream is the RST_STREAM(INTERNAL_ERROR) frame of stream id.
func rstStream(id uint32) []byte {
	f := make([]byte, frameHeaderLen+4)
	f[2] = 4
	f[3] = frameRSTStream
	binary.BigEndian.PutUint32(f[5:], id)
	binary.BigEndian.PutUint32(f[9:], errCodeInternal)
	return f
}
