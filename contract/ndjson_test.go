package contract_test

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

type step struct {
	line string
	err  error
}

func readAll(lr *contract.LineReader) []step {
	var out []step
	for i := 0; i < 100; i++ {
		line, err := lr.ReadLine()
		out = append(out, step{string(line), err})
		if err != nil && err != contract.ErrLineTooLong {
			break
		}
	}
	return out
}

func TestLineReader(t *testing.T) {
	tooLong := contract.ErrLineTooLong
	tests := []struct {
		name  string
		in    string
		max   int
		steps []step
	}{
		{"plain", "a\nbb\n", 4, []step{{"a", nil}, {"bb", nil}, {"", io.EOF}}},
		{"no final newline", "a\nbb", 4, []step{{"a", nil}, {"bb", nil}, {"", io.EOF}}},
		{"crlf", "a\r\nbb\r\n", 4, []step{{"a", nil}, {"bb", nil}, {"", io.EOF}}},
		{"empty lines", "\n\nx\n", 4, []step{{"", nil}, {"", nil}, {"x", nil}, {"", io.EOF}}},
		{"exactly the limit", "abcd\nabcd\r\n", 4, []step{{"abcd", nil}, {"abcd", nil}, {"", io.EOF}}},
		{"one over", "abcde\nok\n", 4, []step{{"", tooLong}, {"ok", nil}, {"", io.EOF}}},
		{"long then more", strings.Repeat("x", 100) + "\nok\n", 16,
			[]step{{"", tooLong}, {"ok", nil}, {"", io.EOF}}},
		{"long at eof", "ok\n" + strings.Repeat("x", 100), 16,
			[]step{{"ok", nil}, {"", tooLong}, {"", io.EOF}}},
		{"two long", strings.Repeat("x", 40) + "\n" + strings.Repeat("y", 40) + "\nz", 16,
			[]step{{"", tooLong}, {"", tooLong}, {"z", nil}, {"", io.EOF}}},
		{"empty input", "", 4, []step{{"", io.EOF}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(contract.NewLineReader(strings.NewReader(tc.in), tc.max))
			if len(got) != len(tc.steps) {
				t.Fatalf("got %v, want %v", got, tc.steps)
			}
			for i := range got {
				if got[i].line != tc.steps[i].line || !errors.Is(got[i].err, tc.steps[i].err) {
					t.Fatalf("step %d: got %v, want %v (all: %v)", i, got[i], tc.steps[i], got)
				}
			}
		})
	}
}

// endless writes b forever without a newline, counting what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += int64(len(p))
	if e.n > 100<<20 {
		return len(p), io.EOF // 100 MB, then stop so the test ends
	}
	return len(p), nil
}

// TestLineReaderHostile feeds 100 MB without a newline and checks that the
// reader reports the line as too long early and never holds it in memory.
func TestLineReaderHostile(t *testing.T) {
	src := &endless{}
	lr := contract.NewLineReader(src, 0)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := lr.ReadLine(); err != contract.ErrLineTooLong {
		t.Fatalf("first read: %v, want line too long", err)
	}
	if src.n > 2*contract.DefaultMaxLine {
		t.Fatalf("read %d bytes before reporting the line", src.n)
	}
	if _, err := lr.ReadLine(); err != io.EOF {
		t.Fatalf("second read: %v, want EOF after discarding", err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Fatalf("allocated %d bytes while reading 100 MB", grew)
	}
	t.Logf("read %d MB without newline; allocated %d KiB", src.n>>20, (after.TotalAlloc-before.TotalAlloc)>>10)
}

func TestMarshalLineCompactsRaw(t *testing.T) {
	req := contract.DelegationRequest{Contract: 1, Type: "delegate", ID: "a",
		Task: contract.Task{Message: []byte("{\n  \"role\": \"user\",\n  \"text\": \"a\\nb\"\n}")}}
	line, err := contract.MarshalLine(req)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("pretty message broke the line: %q", line)
	}
	got, err := contract.NewLineReader(bytes.NewReader(line), 0).ReadLine()
	if err != nil || !bytes.Equal(got, line[:len(line)-1]) {
		t.Fatalf("read back %q, %v", got, err)
	}
}
