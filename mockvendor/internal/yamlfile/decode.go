package yamlfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// A Decoder decodes one YAML (or JSON) document into a Go value strictly,
// by the json tags of its structs, and remembers where each field sits.
// The zero Decoder is ready; a Decoder decodes one document at a time.
type Decoder struct {
	// What names the document in the error about a file of several
	// documents ("a fleet file" gives "a fleet file holds one document");
	// empty means "a document".
	What string
	// Extra lists, for a struct type, the keys it accepts beyond its
	// fields and what each does. Extra keys apply after the struct's
	// fields, in the file's order.
	Extra map[reflect.Type]map[string]ExtraFunc

	pos     map[string]Pos
	anchors map[string]ast.Node
}

// ExtraFunc applies an extra key to the struct it was met in: v is a
// pointer to that struct, whose fields are decoded already. Its errors
// should come from k.Errorf or k.ValueErrorf, which place them.
type ExtraFunc func(v any, k *Key) error

// Key is an extra key met in a mapping, as an ExtraFunc sees it.
type Key struct {
	// Name is the key ("keyFile"), Path its field path
	// ("vendors[0].signing.keyFile").
	Name, Path string

	d          *Decoder
	parent     string // the path of the struct the key is in
	key, value ast.Node
	resolved   ast.Node
}

// Text is the key's value when it is a scalar: a string's value, or a
// number's or boolean's text as written.
func (k *Key) Text() (string, bool) { return scalarText(k.resolved) }

// Errorf is an error about the key, placed at the key.
func (k *Key) Errorf(format string, args ...any) error {
	return errAt(k.key, k.Path, format, args...)
}

// ValueErrorf is an error about the key's value, placed at the value.
func (k *Key) ValueErrorf(format string, args ...any) error {
	return errAt(k.value, k.Path, format, args...)
}

// Sets records that this key sets the struct's field named field (keyFile
// sets keyPEM): Position and Nearest place that field's path at this key.
func (k *Key) Sets(field string) { k.d.mark(childPath(k.parent, field), k.key) }

// Decode decodes the document in data into v, a non-nil pointer. A file
// with no document (empty, or comments only) leaves v as it is. Every
// error about the document is an *Error.
func (d *Decoder) Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("yamlfile: Decode needs a non-nil pointer")
	}
	d.pos, d.anchors = map[string]Pos{}, map[string]ast.Node{}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return syntaxError(err)
	}
	var body ast.Node
	for _, doc := range file.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if _, ok := doc.Body.(*ast.CommentGroupNode); ok {
			continue
		}
		if body != nil {
			what := d.What
			if what == "" {
				what = "a document"
			}
			return errAt(doc.Body, "", "%s holds one document", what)
		}
		body = doc.Body
	}
	if body == nil {
		return nil
	}
	return d.decode(body, rv.Elem(), "")
}

// resolve strips anchors and tags and follows aliases.
func (d *Decoder) resolve(n ast.Node) (ast.Node, error) {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			if x.Name != nil {
				d.anchors[x.Name.GetToken().Value] = x.Value
			}
			n = x.Value
		case *ast.AliasNode:
			name := x.Value.GetToken().Value
			t, ok := d.anchors[name]
			if !ok {
				return nil, errAt(x, "", "unknown alias *%s", name)
			}
			n = t
		case *ast.TagNode:
			n = x.Value
		default:
			return n, nil
		}
	}
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	durationType   = reflect.TypeFor[time.Duration]()
)

func (d *Decoder) decode(n ast.Node, v reflect.Value, path string) error {
	n, err := d.resolve(n)
	if err != nil {
		return err
	}
	if _, isNull := n.(*ast.NullNode); isNull || n == nil {
		v.Set(reflect.Zero(v.Type()))
		return nil
	}
	switch v.Type() {
	case rawMessageType:
		b, err := d.toJSON(n, path)
		if err != nil {
			return err
		}
		v.SetBytes(b)
		return nil
	case durationType:
		return decodeDuration(n, v, path)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(n, v.Elem(), path)
	case reflect.Struct:
		return d.decodeStruct(n, v, path)
	case reflect.Slice:
		return d.decodeSlice(n, v, path)
	case reflect.String:
		s, ok := scalarText(n)
		if !ok {
			return errAt(n, path, "want a string")
		}
		v.SetString(s)
		return nil
	default: // bool, numbers, maps of any: through encoding/json
		b, err := d.toJSON(n, path)
		if err != nil {
			return err
		}
		p := reflect.New(v.Type())
		if err := json.Unmarshal(b, p.Interface()); err != nil {
			return errAt(n, path, "want %s, not %s", JSONTypeName(v.Type()), b)
		}
		v.Set(p.Elem())
		return nil
	}
}

// decodeDuration takes "10s" or a number of nanoseconds.
func decodeDuration(n ast.Node, v reflect.Value, path string) error {
	s, ok := scalarText(n)
	if !ok {
		return errAt(n, path, "want a duration (\"10s\") or a number of nanoseconds")
	}
	if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
		v.SetInt(ns)
		return nil
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		return errAt(n, path, "want a duration (\"10s\") or a number of nanoseconds, not %q", s)
	}
	v.SetInt(int64(dur))
	return nil
}

func (d *Decoder) decodeSlice(n ast.Node, v reflect.Value, path string) error {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return errAt(n, path, "want a list")
	}
	out := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
	for i, e := range seq.Values {
		ep := fmt.Sprintf("%s[%d]", path, i)
		d.mark(ep, e)
		if err := d.decode(e, out.Index(i), ep); err != nil {
			return err
		}
	}
	v.Set(out)
	return nil
}

// scalarText is the text of a scalar: a string's value, or a number's or
// boolean's text as written (so `version: 1.0` is the string "1.0").
func scalarText(n ast.Node) (string, bool) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return x.GetToken().Value, true
	}
	return "", false
}

// fieldIndex maps the keys of a struct type (json tag names, else Go
// names) to its fields; unexported fields and json:"-" have none.
func fieldIndex(t reflect.Type) map[string]int {
	fields := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = i
	}
	return fields
}
