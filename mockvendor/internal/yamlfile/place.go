package yamlfile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Pos is a place in the file; Line and Column are 1-based.
type Pos struct {
	Line, Column int
}

// Error is a document the decoder refuses, placed in the file.
type Error struct {
	// Line and Column are 1-based, 0 when the error has no place.
	Line, Column int
	// Field is the path of the field at fault ("vendors[1].hosts"), empty
	// for a syntax error or an error about the whole document.
	Field string
	Msg   string
	// Err is the YAML parser's error for a syntax error, else nil.
	Err error
}

// Error renders the error as "line:column: field: msg", leaving out what
// it lacks.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Column)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Position is where the file sets the field at path (its key, or for a
// list element the element), as the last Decode found it.
func (d *Decoder) Position(path string) (Pos, bool) {
	p, ok := d.pos[path]
	return p, ok
}

// Nearest is the Position of path or, when the file does not set it, of
// its nearest parent that the file sets: "a[1].b", then "a[1]", then "a".
func (d *Decoder) Nearest(path string) (Pos, bool) {
	for p := path; p != ""; p = parentPath(p) {
		if pos, ok := d.pos[p]; ok {
			return pos, true
		}
	}
	return Pos{}, false
}

// parentPath drops the last element of a field path: "a[1].b" -> "a[1]" ->
// "a" -> "".
func parentPath(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

// childPath is the path of key in the mapping at path.
func childPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d *Decoder) mark(path string, n ast.Node) {
	if t := n.GetToken(); t != nil && t.Position != nil {
		d.pos[path] = Pos{t.Position.Line, t.Position.Column}
	}
}

func syntaxError(err error) error {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		return &Error{Line: p.Line, Column: p.Column, Msg: ye.GetMessage(), Err: err}
	}
	return &Error{Msg: err.Error(), Err: err}
}

func errAt(n ast.Node, field, format string, args ...any) error {
	e := &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.GetToken() != nil {
		e.Line, e.Column = n.GetToken().Position.Line, n.GetToken().Position.Column
	}
	return e
}
