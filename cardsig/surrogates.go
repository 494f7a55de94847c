package cardsig

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// checkText refuses JSON text that names no well-formed Unicode string:
// bytes that are not UTF-8, and \u escapes of a surrogate that is not one
// half of a pair. encoding/json (and gowebpki/jcs after it) would replace
// either with U+FFFD without a word, so two different cards, one holding a
// lone surrogate and one holding U+FFFD, would share their canonical bytes
// and so their signatures. RFC 8785 §3.2.2.2 emits strings as UTF-8, which
// a lone surrogate has none of; the a2a-jcs-v01 corpus of the A2A TCK
// refuses such input too (its A3-REJECT and A4-REJECT vectors).
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("card is not valid UTF-8")
	}
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\':
			n, err := escapeLen(data, i)
			if err != nil {
				return err
			}
			i += n - 1
		}
	}
	return nil
}

// escapeLen returns how many bytes the escape at data[i] (a backslash)
// spans, reading a \u surrogate pair as one escape, or an error for a
// surrogate without its other half.
func escapeLen(data []byte, i int) (int, error) {
	u, ok := hex4(data, i)
	if !ok {
		return 2, nil // a short escape, or malformed (the decoder refuses that)
	}
	switch {
	case u >= 0xDC00 && u <= 0xDFFF:
		return 0, fmt.Errorf("lone low surrogate \\u%04x at byte %d", u, i)
	case u >= 0xD800 && u <= 0xDBFF:
		lo, ok := hex4(data, i+6)
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return 0, fmt.Errorf("high surrogate \\u%04x at byte %d is not followed by a low surrogate", u, i)
		}
		return 12, nil
	}
	return 6, nil
}

// hex4 reads a \uXXXX escape starting at data[i].
func hex4(data []byte, i int) (uint64, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	u, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
	return u, err == nil
}
