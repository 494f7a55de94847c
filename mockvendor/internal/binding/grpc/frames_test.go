package grpc

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// tFrame is an HTTP/2 frame (RFC 9113 §4.1) with a payload of n bytes.
func tFrame(typ, flags byte, stream uint32, n int) []byte {
	f := make([]byte, frameHeaderLen+n)
	f[0], f[1], f[2] = byte(n>>16), byte(n>>8), byte(n)
	f[3], f[4] = typ, flags
	binary.BigEndian.PutUint32(f[5:], stream)
	for i := range n {
		f[frameHeaderLen+i] = byte(i + 1)
	}
	return f
}

// TestFrameWriterResets: a marked stream gets RST_STREAM(INTERNAL_ERROR)
// right before the HEADERS frame that ends it, and nowhere else, however
// grpc-go's writes cut the frames (every chunk size from 1 byte to the
// whole); an unmarked stream's frames pass as they are.
func TestFrameWriterResets(t *testing.T) {
	const endHeaders = 0x4
	settings := tFrame(0x4, 0, 0, 12)
	head1 := tFrame(frameHeaders, endHeaders, 1, 20)
	data1 := tFrame(0x0, 0, 1, 300)
	end3 := tFrame(frameHeaders, endHeaders|flagEndStream, 3, 7) // trailers-only of stream 3
	end1 := tFrame(frameHeaders, flagEndStream, 1, 30)           // trailers of stream 1, then a CONTINUATION
	cont1 := tFrame(0x9, endHeaders, 1, 5)
	in := bytes.Join([][]byte{settings, head1, data1, end3, end1, cont1}, nil)
	cases := []struct {
		name  string
		marks []uint32
		want  []byte
	}{
		{"none", nil, in},
		{"stream 1", []uint32{1}, bytes.Join([][]byte{settings, head1, data1, end3, rstStream(1), end1, cont1}, nil)},
		{"stream 3", []uint32{3}, bytes.Join([][]byte{settings, head1, data1, rstStream(3), end3, end1, cont1}, nil)},
		{"both and one never ending", []uint32{1, 3, 5}, bytes.Join([][]byte{settings, head1, data1, rstStream(3), end3, rstStream(1), end1, cont1}, nil)},
	}
	for _, tc := range cases {
		for chunk := 1; chunk <= len(in); chunk++ {
			var w frameWriter
			for _, id := range tc.marks {
				w.resetStream(id)
			}
			var out bytes.Buffer
			for i := 0; i < len(in); i += chunk {
				b := in[i:min(i+chunk, len(in))]
				if n, err := w.write(&out, b); n != len(b) || err != nil {
					t.Fatalf("%s, chunks of %d: write gave %d, %v", tc.name, chunk, n, err)
				}
			}
			if !bytes.Equal(out.Bytes(), tc.want) {
				t.Fatalf("%s, chunks of %d: %d bytes out, want %d (%x)", tc.name, chunk, out.Len(), len(tc.want), out.Bytes())
			}
		}
	}
	if got := rstStream(7); !bytes.Equal(got, []byte{0, 0, 4, 3, 0, 0, 0, 0, 7, 0, 0, 0, 2}) {
		t.Errorf("RST_STREAM frame %x", got)
	}
}
