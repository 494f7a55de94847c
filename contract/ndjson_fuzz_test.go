package contract_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// chunkReader hands out at most n bytes per Read and counts what it gave.
type chunkReader struct {
	data []byte
	n    int
	read int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	c.read += k
	return k, nil
}

// ndjsonModel is the reference semantics of LineReader: split at "\n";
// a terminated line loses one trailing "\r"; a line longer than max is
// dropped with ErrLineTooLong; a final line without newline is returned as is
// (or dropped when too long).
func ndjsonModel(data []byte, max int) (lines [][]byte, tooLong []bool) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
			l = bytes.TrimSuffix(l, []byte("\r"))
		}
		if len(l) > max {
			lines, tooLong = append(lines, nil), append(tooLong, true)
		} else {
			lines, tooLong = append(lines, l), append(tooLong, false)
		}
	}
	return lines, tooLong
}

// FuzzLineReader reads arbitrary bytes through a LineReader with a small
// limit and arbitrary read sizes. No line longer than the limit may come
// back, every byte of the source is consumed exactly once and accounted for
// (as a returned line plus its terminator, or as part of a dropped line),
// and the sequence of lines and ErrLineTooLong matches the reference model.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":2}\n"), uint16(8), uint8(3))
	f.Add([]byte("abc\r\nabcd\r\n\r\n\n"), uint16(3), uint8(1))
	f.Add([]byte("0123456789abcde\r\n"), uint16(14), uint8(64))
	f.Add([]byte("0123456789abcdef\r\nx"), uint16(16), uint8(64))
	f.Add(bytes.Repeat([]byte("x"), 100), uint16(10), uint8(7))
	f.Add([]byte("tail without newline\r"), uint16(20), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, max16 uint16, chunk uint8) {
		max := int(max16%300) + 1
		src := &chunkReader{data: data, n: int(chunk%64) + 1}
		lr := contract.NewLineReader(src, max)
		wantLines, wantTooLong := ndjsonModel(data, max)
		var got int
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatalf("reader does not reach EOF")
			}
			line, err := lr.ReadLine()
			if err == io.EOF {
				if line != nil {
					t.Fatalf("EOF with a line")
				}
				break
			}
			if err != nil && !errors.Is(err, contract.ErrLineTooLong) {
				t.Fatalf("unexpected error %v", err)
			}
			if len(line) > max {
				t.Fatalf("line %d of %d bytes is over the %d byte limit", i, len(line), max)
			}
			if got >= len(wantLines) {
				t.Fatalf("result %d (%q, %v) beyond the model's %d lines", i, line, err, len(wantLines))
			}
			if tl := err != nil; tl != wantTooLong[got] {
				t.Fatalf("result %d: too long = %v, model says %v (model line %q, max %d)", i, tl, wantTooLong[got], wantLines[got], max)
			}
			if err == nil && !bytes.Equal(line, wantLines[got]) {
				t.Fatalf("result %d: line %q, model %q", i, line, wantLines[got])
			}
			if err == nil && line == nil {
				t.Fatalf("result %d: nil line without error", i)
			}
			got++
		}
		if got != len(wantLines) {
			t.Fatalf("%d results, model has %d", got, len(wantLines))
		}
		if src.read != len(data) {
			t.Fatalf("consumed %d of %d bytes", src.read, len(data))
		}
		if line, err := lr.ReadLine(); err != io.EOF || line != nil {
			t.Fatalf("EOF is not sticky: %q %v", line, err)
		}
	})
}
