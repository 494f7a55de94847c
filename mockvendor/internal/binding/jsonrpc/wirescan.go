package jsonrpc

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// scanRequest is the fast path's first try at a JSON-RPC request: one pass
// over the body that reads the envelope and, for a send, the params in the
// common shape decodeSendTokens takes (id, sessionId, a message of string
// members and text parts, metadata of scalars), without a general JSON
// decoder. It checks what it reads completely and takes only what it can:
// strings of printable ASCII without an escape, the literals true, false
// and null, integer ids; members named exactly and once; jsonrpc, id,
// method before params. Anything else declines (ok false) and the body
// goes to the jsontext path (readEnvelopeFast, decodeSendTokens) as
// before, so that a request reads the same whichever path takes it;
// Config.PlainJSON turns this off with the rest of the fast path.
// FuzzScanRequest holds it to the jsontext path.
func scanRequest(b []byte) (env envelope, p *sendParamsMsg, ok bool) {
	s := &requestScan{b: b}
	var seen uint8
	var op trace.Op
	s.object(func(name []byte) {
		start := s.skipWS()
		switch string(name) {
		case "jsonrpc":
			s.once(&seen, 1)
			s.str()
			env.JSONRPC = json.RawMessage(b[start:s.i:s.i])
		case "method":
			s.once(&seen, 2)
			m := s.str()
			env.Method = json.RawMessage(b[start:s.i:s.i])
			op = methods[string(m)].Op
		case "id":
			s.once(&seen, 4)
			s.id()
			env.ID = json.RawMessage(b[start:s.i:s.i])
		case "params":
			s.once(&seen, 8)
			if op != trace.OpSend && op != trace.OpStream {
				s.bad = true // not a send, or params before the method
				return
			}
			p = s.sendParams()
			env.Params = json.RawMessage(b[start:s.i:s.i])
		default:
			s.bad = true
		}
	})
	s.skipWS()
	if s.bad || s.i != len(b) || p == nil || p.Message == nil {
		return envelope{}, nil, false
	}
	return env, p, true
}

// requestScan reads b from i, remembering the first surprise in bad (after
// which every read does nothing).
type requestScan struct {
	b   []byte
	i   int
	bad bool
}

// skipWS skips JSON whitespace and returns the offset reached.
func (s *requestScan) skipWS() int {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i
		}
	}
	return s.i
}

// next returns the byte after any whitespace (0 at the end) without
// consuming it.
func (s *requestScan) next() byte {
	if s.bad || s.skipWS() == len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// expect consumes the byte c, after any whitespace.
func (s *requestScan) expect(c byte) {
	if s.next() != c {
		s.bad = true
		return
	}
	s.i++
}

// str reads a string of printable ASCII without a backslash and returns
// what stands between its quotes (a slice of b).
func (s *requestScan) str() []byte {
	s.expect('"')
	if s.bad {
		return nil
	}
	for j := s.i; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			v := s.b[s.i:j]
			s.i = j + 1
			return v
		case c < 0x20 || c >= 0x80 || c == '\\':
			s.bad = true
			return nil
		}
	}
	s.bad = true
	return nil
}

// literal reads true, false or null and returns its first byte.
func (s *requestScan) literal() byte {
	c := s.next()
	var lit string
	switch c {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	default:
		s.bad = true
		return 0
	}
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		s.bad = true
		return 0
	}
	s.i += len(lit)
	return c
}

// id reads a request id: a string, an integer (-?(0|[1-9][0-9]*), at most
// 18 digits) or null.
func (s *requestScan) id() {
	switch c := s.next(); {
	case c == '"':
		s.str()
	case c == 'n':
		s.literal()
	case c == '-' || '0' <= c && c <= '9':
		if c == '-' {
			s.i++
		}
		start := s.i
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
		}
		if n := s.i - start; n == 0 || n > 18 || n > 1 && s.b[start] == '0' {
			s.bad = true
		}
		if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
			s.bad = true // a fraction or exponent: the jsontext path reads it
		}
	default:
		s.bad = true
	}
}

// object reads an object, calling member with each name; member reads the
// value.
func (s *requestScan) object(member func(name []byte)) {
	s.expect('{')
	if s.next() == '}' {
		s.i++
		return
	}
	for !s.bad {
		name := s.str()
		s.expect(':')
		if s.bad {
			return
		}
		member(name)
		switch s.next() {
		case ',':
			s.i++
		case '}':
			s.i++
			return
		default:
			s.bad = true
		}
	}
}

// once marks the member bit of an object seen, and a member seen before
// or no member of the shape (bit 0) as bad.
func (s *requestScan) once(seen *uint8, bit uint8) {
	if bit == 0 || *seen&bit != 0 {
		s.bad = true
	}
	*seen |= bit
}

// ops.SendParams reads send params of the common shape (paramsMember).
func (s *requestScan) sendParams() *sendParamsMsg {
	p := &sendParamsMsg{}
	var seen uint8
	s.object(func(name []byte) {
		field, bit := paramsMember(p, name)
		s.once(&seen, bit)
		switch {
		case s.bad:
		case field != nil:
			*field = string(s.str())
		case bit == memberMessage:
			p.Message = s.message()
		default:
			p.Metadata = s.metadata()
		}
	})
	return p
}

// message reads a message of string members and text parts
// (messageMember).
func (s *requestScan) message() *a2a.WireMessage {
	wm := &a2a.WireMessage{}
	var seen uint8
	s.object(func(name []byte) {
		field, bit := messageMember(wm, name)
		s.once(&seen, bit)
		if field != nil {
			*field = string(s.str())
		} else if !s.bad {
			wm.Parts = s.parts()
		}
	})
	return wm
}

// parts reads an array of parts of string members (partMember). An empty
// array gives nil, as decodeSendTokens leaves it.
func (s *requestScan) parts() []a2a.WirePart {
	s.expect('[')
	var ps []a2a.WirePart
	if s.next() == ']' {
		s.i++
		return ps
	}
	for !s.bad {
		var wp a2a.WirePart
		var seen uint8
		s.object(func(name []byte) {
			field, bit := partMember(&wp, name)
			s.once(&seen, bit)
			if field != nil {
				*field = string(s.str())
			}
		})
		ps = append(ps, wp)
		switch s.next() {
		case ',':
			s.i++
		case ']':
			s.i++
			return ps
		default:
			s.bad = true
		}
	}
	return nil
}

// metadata reads a metadata object as tokenReader.metadata does
// (ops.SendMetadata.take): every member's value a string or a literal.
func (s *requestScan) metadata() ops.SendMetadata {
	var m ops.SendMetadata
	s.object(func(name []byte) {
		key := metadataKey(name)
		switch kind := s.next(); {
		case kind != '"':
			takeMetadata(&m, key, "", s.literal())
		case key == 1:
			takeMetadata(&m, key, string(s.str()), kind)
		default:
			s.str() // a value the fleet does not read
		}
	})
	return m
}
