package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// ReadBody reads the request body within the host's body limit
// (Limits.MaxBody): over it, a *BodyTooLargeError (413) without reading
// what Content-Length announces; a body not read whole, a
// *BodyReadError.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64, ev *trace.Event) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &BodyTooLargeError{Size: r.ContentLength, Limit: limit}
	}
	body, err := readAllSized(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		ev.Note = "body not read whole"
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &BodyTooLargeError{Limit: limit}
		}
		return nil, &BodyReadError{Err: err, Read: len(body)}
	}
	return body, nil
}

// readAllSized is io.ReadAll with a first buffer of the announced size (so
// a body kept in the trace holds no slack); size <= 0 means unknown.
func readAllSized(rd io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > 1<<20 {
		return io.ReadAll(rd)
	}
	b := make([]byte, 0, size+1) // +1: the read that finds EOF needs room
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// BodyTooLargeError is a request body over Limits.MaxBody; Size is the
// announced Content-Length (0: the limit was hit while reading).
type BodyTooLargeError struct{ Size, Limit int64 }

func (e *BodyTooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("body of %d bytes is over the %d byte limit", e.Size, e.Limit)
	}
	return fmt.Sprintf("body is over the %d byte limit", e.Limit)
}

// a2aError is the A2A error of the body: -32600 with the limit (and the
// announced size) as data.
func (e *BodyTooLargeError) a2aError() *a2a.Error {
	r := a2a.InvalidRequest(e.Error())
	r.Data = map[string]any{"maxBodyBytes": e.Limit}
	if e.Size > 0 {
		r.Data["bodyBytes"] = e.Size
	}
	return r
}

// BodyReadError is a body that could not be read whole; Read is how many
// bytes arrived.
type BodyReadError struct {
	Err  error
	Read int
}

func (e *BodyReadError) Error() string { return "reading body: " + e.Err.Error() }

// a2aError is the A2A error of the body: -32700 with the bytes read as
// data.
func (e *BodyReadError) a2aError() *a2a.Error {
	r := a2a.ParseError(e.Error())
	r.Data = map[string]any{"bytesRead": e.Read}
	return r
}

// ContentTypeError is a request body that is not JSON by its
// Content-Type. Every binding refuses it alike, with HTTP 415 (RFC 9110
// §15.5.16) and the A2A ContentTypeNotSupportedError (-32005), as the
// official TCK expects of either binding, before the body is parsed: the
// JSON-RPC binding's requests are application/json (A2A 1.0 §9.1), the
// HTTP+JSON binding's SHOULD be application/a2a+json (§11.1), and each
// takes the other's JSON type too, any parameters (charset).
type ContentTypeError struct{ Got string }

// JSONMediaTypes are the Content-Types a request body may have.
var JSONMediaTypes = []string{"application/json", "application/a2a+json"}

func (e *ContentTypeError) Error() string {
	if e.Got == "" {
		return "no Content-Type: the body must be application/json or application/a2a+json"
	}
	return "Content-Type " + strconv.Quote(e.Got) + " is not application/json or application/a2a+json"
}

// a2aError is the A2A error of the body: -32005 with the Content-Type
// received and those accepted as data.
func (e *ContentTypeError) a2aError() *a2a.Error {
	r := a2a.ContentTypeNotSupported(e.Error())
	r.Data = map[string]any{"contentType": e.Got, "accepted": JSONMediaTypes}
	return r
}

// CheckContentType is nil when the request's Content-Type is JSON (one of
// JSONMediaTypes, any parameters, in any case: RFC 9110 §8.3.1), else a
// *ContentTypeError.
func CheckContentType(r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); !JSONContentType(ct) {
		return &ContentTypeError{ct}
	}
	return nil
}

// JSONContentType reports whether a Content-Type is JSON: one of
// JSONMediaTypes, any parameters, in any case (RFC 9110 §8.3.1).
func JSONContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == JSONMediaTypes[0] || mt == JSONMediaTypes[1])
}

// NotJSON is the error for a body the JSON parsers refused: nested deeper
// than MaxBodyDepth, or not JSON from the byte offset where it stops
// being JSON (in the error's data).
func NotJSON(body []byte) *a2a.Error {
	if trace.NestedDeeper(body, trace.MaxBodyDepth) {
		return a2a.TooDeep(trace.MaxBodyDepth)
	}
	e := a2a.ParseError("the body is not JSON")
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(body, new(json.RawMessage)), &se) {
		e.Data = map[string]any{"offset": se.Offset}
	}
	return e
}
