package contract

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
)

// DefaultMaxLine is the longest NDJSON line, in bytes without its newline,
// that a [LineReader] accepts when it is given no limit.
const DefaultMaxLine = 1 << 20

// ErrLineTooLong is returned by [LineReader.ReadLine] for a line longer than
// the reader's limit. The line is dropped; the next call resumes after the
// line's newline.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads newline-delimited lines from a source that may be hostile:
// it never holds more than its limit of one line plus a fixed read buffer,
// however much the source writes without a newline.
//
// A LineReader is not safe for concurrent use.
type LineReader struct {
	br       *bufio.Reader
	max      int
	skipping bool  // dropping the rest of an over-long line
	err      error // sticky error from the source
}

// NewLineReader returns a reader of the lines of r that rejects lines longer
// than max bytes (not counting the newline). A max of zero or less means
// [DefaultMaxLine].
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	size := 64 << 10
	if max < size {
		size = max
	}
	return &LineReader{br: bufio.NewReaderSize(r, size), max: max}
}

// ReadLine returns the next line without its "\n" (or "\r\n"), in a slice the
// caller owns. Empty lines are returned as empty, non-nil slices.
//
// A line longer than the limit yields ErrLineTooLong as soon as the limit is
// passed, without waiting for its end; the following call first discards the
// rest of that line, up to and including its newline. A final line without a
// newline is returned with a nil error. When the source is exhausted or
// fails, ReadLine returns io.EOF or the source's error, and keeps returning
// it.
func (lr *LineReader) ReadLine() ([]byte, error) {
	if lr.err != nil {
		return nil, lr.err
	}
	if lr.skipping {
		if err := lr.skip(); err != nil {
			return nil, err
		}
	}
	var line []byte
	for {
		frag, err := lr.br.ReadSlice('\n')
		complete := err == nil // frag ends with '\n'
		body := frag
		if complete {
			body = frag[:len(frag)-1]
		}
		if n := len(line) + len(body); n > lr.max {
			// Allow a "\r\n" ending exactly at the limit, also when the
			// buffer filled between the '\r' and the '\n' (the next
			// fragment then decides).
			last := byte(0)
			if len(body) > 0 {
				last = body[len(body)-1]
			} else if len(line) > 0 {
				last = line[len(line)-1]
			}
			if !(n == lr.max+1 && last == '\r' && (complete || err == bufio.ErrBufferFull)) {
				lr.skipping = !complete
				if err != nil && err != bufio.ErrBufferFull {
					lr.err = err
					lr.skipping = false
				}
				return nil, ErrLineTooLong
			}
		}
		line = grow(line, len(body), lr.max+1)
		line = append(line, body...)
		switch {
		case complete:
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, nil
		case err == bufio.ErrBufferFull:
			continue
		default:
			lr.err = err
			if len(line) > 0 {
				return line, nil
			}
			return nil, err
		}
	}
}

// skip drops input up to and including the next newline.
func (lr *LineReader) skip() error {
	for {
		_, err := lr.br.ReadSlice('\n')
		switch err {
		case nil:
			lr.skipping = false
			return nil
		case bufio.ErrBufferFull:
			continue
		default:
			lr.err = err
			lr.skipping = false
			return err
		}
	}
}

// grow makes room for n more bytes in b without letting its capacity exceed
// limit (append's doubling could otherwise allocate twice the limit).
func grow(b []byte, n, limit int) []byte {
	need := len(b) + n
	if need <= cap(b) {
		if b == nil {
			return make([]byte, 0)
		}
		return b
	}
	c := 2 * cap(b)
	if c < need {
		c = need
	}
	if c < 512 {
		c = 512
	}
	if c > limit {
		c = limit
	}
	if c < need {
		c = need
	}
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// MarshalLine encodes v as one line of NDJSON: compact JSON followed by "\n".
// encoding/json escapes newlines inside strings and compacts raw messages, so
// the result never contains another newline.
func MarshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
