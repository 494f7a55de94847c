package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Stream is a stream the agent is sending, read one event at a time as
// it comes (A2A 1.0 §9.4.2: server-sent events, each the data of one
// JSON-RPC response).
type Stream struct {
	c      *Client
	ctx    context.Context
	cancel context.CancelFunc
	body   io.ReadCloser
	events *eventReader
	rec    *trace.Upstream
	plain  json.RawMessage // an agent that answered plain JSON: its one result
	done   bool
	// x is the exchange being recorded (nil: no recorder), last the time
	// of its last event, secrets the credentials it carried.
	x       *Exchange
	last    time.Time
	secrets []string
}

// OpenStream forwards a stream method: the agent's stream, open, or its
// A2A error (*a2a.Error) when it refused before any event (plainly or as
// the stream's one event), or an *Error. The record is never nil and
// grows as the stream is read.
func (c *Client) OpenStream(ctx context.Context, call Call) (*Stream, *trace.Upstream, error) {
	sctx, cancel := context.WithCancel(ctx)
	c.inUse.Add(1)
	resp, rec, err := c.exchange(sctx, call, "text/event-stream")
	if err != nil {
		cancel()
		c.inUse.Add(-1)
		return nil, rec, err
	}
	s := &Stream{c: c, ctx: sctx, cancel: cancel, body: resp.Body, rec: rec}
	if c.cfg.Recorder != nil {
		x := exchangeOf(call, resp)
		s.x, s.last, s.secrets = &x, time.Now(), sentSecrets(resp.Request, resp)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return s.plainAnswer(resp.StatusCode)
	}
	s.events = newEventReader(resp.Body, c.cfg.MaxBody)
	return s, rec, nil
}

// plainAnswer reads an agent's JSON answer to a stream method: an error
// ends it there; a result is the stream's one event.
func (s *Stream) plainAnswer(status int) (*Stream, *trace.Upstream, error) {
	body, err := readBounded(s.body, s.c.cfg.MaxBody)
	s.rec.Bytes = int64(len(body))
	if err != nil {
		e := bodyError(s.ctx, err, s.c.cfg.MaxBody)
		s.rec.Error = e.Error()
		s.Close()
		return nil, s.rec, e
	}
	if s.x != nil {
		s.x.Body = compact(body)
	}
	result, err := decodeEnvelope(body, status)
	noteError(s.rec, err)
	if err != nil {
		s.Close()
		return nil, s.rec, err
	}
	s.plain = result
	return s, s.rec, nil
}

// Next waits for the stream's next event and returns its result: io.EOF
// at the stream's end; the agent's A2A error (*a2a.Error) for an error
// event, which ends it; an *Error when the stream stalled past
// Config.StreamIdle, broke off or sent something that is not an event of
// a JSON-RPC response.
func (s *Stream) Next() (json.RawMessage, error) {
	if s.done {
		return nil, io.EOF
	}
	if s.events == nil {
		s.done = true
		s.rec.Events = 1
		return s.plain, nil
	}
	data, err := s.nextData()
	if err != nil {
		s.done = true
		return nil, err
	}
	s.rec.Events++
	s.rec.Bytes += int64(len(data))
	if s.x != nil {
		now := time.Now()
		s.x.Events = append(s.x.Events, Event{AfterMs: now.Sub(s.last).Milliseconds(), Data: compact(data)})
		s.last = now
	}
	result, err := decodeEnvelope(data, http.StatusOK)
	noteError(s.rec, err)
	if err != nil {
		s.done = true
	}
	return result, err
}

// nextData reads the next event's data within the idle bound.
func (s *Stream) nextData() ([]byte, error) {
	idle := time.AfterFunc(s.c.cfg.StreamIdle, s.cancel)
	data, err := s.events.next()
	stalled := !idle.Stop()
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, io.EOF):
		return nil, io.EOF
	case stalled && s.ctx.Err() != nil:
		e := &Error{Timeout: true, Detail: fmt.Sprintf("the agent's stream sent no event for %s", s.c.cfg.StreamIdle)}
		s.rec.Error = e.Error()
		return nil, e
	}
	e := bodyError(s.ctx, err, s.c.cfg.MaxBody)
	s.rec.Error = e.Error()
	return nil, e
}

// Close ends the stream (the agent's connection with it).
func (s *Stream) Close() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	_ = s.body.Close()
	s.cancel = nil
	s.c.inUse.Add(-1)
	if s.x != nil {
		s.c.cfg.Recorder.add(*s.x, s.secrets)
	}
}

// eventReader reads server-sent events (the WHATWG HTML "server-sent
// events" format): data lines joined by newlines, an event ended by an
// empty line; comments and other fields are skipped. One event's data is
// at most limit bytes.
type eventReader struct {
	r     *bufio.Reader
	limit int64
}

func newEventReader(r io.Reader, limit int64) *eventReader {
	return &eventReader{r: bufio.NewReaderSize(r, 16<<10), limit: limit}
}

// next is the data of the next event with data; io.EOF at the end.
func (e *eventReader) next() ([]byte, error) {
	var data bytes.Buffer
	has := false
	for {
		line, err := e.line()
		if err != nil {
			if errors.Is(err, io.EOF) && has {
				return data.Bytes(), nil // the last event lacked its blank line
			}
			return nil, err
		}
		if len(line) == 0 {
			if has {
				return data.Bytes(), nil
			}
			continue
		}
		v, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // a comment, event:, id: or retry:
		}
		if has {
			data.WriteByte('\n')
		}
		data.Write(bytes.TrimPrefix(v, []byte(" ")))
		has = true
		if int64(data.Len()) > e.limit {
			return nil, errTooLarge
		}
	}
}

// line reads one line without its end (LF, CRLF), at most limit bytes.
func (e *eventReader) line() ([]byte, error) {
	var out []byte
	for {
		chunk, err := e.r.ReadSlice('\n')
		out = append(out, chunk...)
		if int64(len(out)) > e.limit+8 {
			return nil, errTooLarge
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(out) == 0 {
			return nil, err
		}
		return bytes.TrimRight(out, "\r\n"), nil
	}
}
