package upstream

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

func TestEventReader(t *testing.T) {
	cases := []struct {
		name, in string
		limit    int64
		want     []string
		err      error // after the events
	}{
		{"two events", "data: a\n\ndata: b\n\n", 100, []string{"a", "b"}, io.EOF},
		{"multi-line data", "data: a\ndata: b\n\n", 100, []string{"a\nb"}, io.EOF},
		{"CRLF, comments and fields", ": hi\r\nevent: x\r\nid: 1\r\ndata:a\r\n\r\n", 100, []string{"a"}, io.EOF},
		{"last event without its blank line", "data: a", 100, []string{"a"}, io.EOF},
		{"over the limit", "data: " + strings.Repeat("x", 200) + "\n\n", 100, nil, errTooLarge},
		{"no data", "\n\n: ping\n\n", 100, nil, io.EOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newEventReader(strings.NewReader(c.in), c.limit)
			var got []string
			var err error
			for {
				var b []byte
				if b, err = r.next(); err != nil {
					break
				}
				got = append(got, string(b))
			}
			if !slices.Equal(got, c.want) || !errors.Is(err, c.err) {
				t.Errorf("events %q, end %v; want %q, %v", got, err, c.want, c.err)
			}
		})
	}
}

func TestCardEndpointAndVersions(t *testing.T) {
	cases := []struct {
		name     string
		card     map[string]any
		url      string
		versions []string
	}{
		{"0.3 card", map[string]any{"url": "https://a/rpc", "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC"}, "https://a/rpc", []string{"0.3"}},
		{"1.0 card", map[string]any{"supportedInterfaces": []any{
			map[string]any{"url": "https://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
			map[string]any{"url": "https://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
		}}, "https://a/rpc", []string{"1.0"}},
		{"0.3 card preferring REST, JSON-RPC among the others", map[string]any{"url": "https://a/rest", "preferredTransport": "HTTP+JSON", "protocolVersion": "0.3.0",
			"additionalInterfaces": []any{map[string]any{"url": "https://a/rpc", "transport": "JSONRPC"}}}, "https://a/rpc", []string{"0.3"}},
		{"no JSON-RPC", map[string]any{"supportedInterfaces": []any{map[string]any{"url": "a:443", "protocolBinding": "GRPC"}}}, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := JSONRPCURL(c.card); got != c.url {
				t.Errorf("JSONRPCURL = %q, want %q", got, c.url)
			}
			if got := JSONRPCVersions(c.card); !slices.Equal(got, c.versions) {
				t.Errorf("JSONRPCVersions = %v, want %v", got, c.versions)
			}
		})
	}
}

func TestDecodeEnvelope(t *testing.T) {
	cases := []struct {
		name, body string
		result     string
		code       int  // the agent's A2A error
		gateway    bool // no JSON-RPC response
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"a":1}}`, `{"a":1}`, 0, false},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no","data":{"x":1}}}`, "", -32001, false},
		{"html", `<html>oops</html>`, "", 0, true},
		{"no version", `{"id":1,"result":{}}`, "", 0, true},
		{"neither", `{"jsonrpc":"2.0","id":1}`, "", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeEnvelope([]byte(c.body), 200)
			var ae *a2a.Error
			var ge *Error
			switch {
			case c.gateway && !errors.As(err, &ge):
				t.Errorf("err %v, want a gateway error", err)
			case c.code != 0 && (!errors.As(err, &ae) || ae.Code != c.code):
				t.Errorf("err %v, want the agent's %d", err, c.code)
			case c.result != "" && string(got) != c.result:
				t.Errorf("result %s, want %s", got, c.result)
			}
		})
	}
}
