package yamlfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/goccy/go-yaml/ast"
)

// toJSON renders a YAML subtree as compact JSON, keeping key order (so a
// json.RawMessage written by Marshal reads back byte for byte).
func (d *Decoder) toJSON(n ast.Node, path string) ([]byte, error) {
	var b bytes.Buffer
	if err := d.writeJSON(&b, n, path); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (d *Decoder) writeJSON(b *bytes.Buffer, n ast.Node, path string) error {
	n, err := d.resolve(n)
	if err != nil {
		return err
	}
	switch x := n.(type) {
	case nil, *ast.NullNode:
		b.WriteString("null")
	case *ast.MappingValueNode, *ast.MappingNode:
		m, _ := mapping(x)
		return d.writeObject(b, m, path)
	case *ast.SequenceNode:
		return d.writeArray(b, x, path)
	case *ast.StringNode, *ast.LiteralNode:
		s, _ := scalarText(x)
		sb, _ := json.Marshal(s)
		b.Write(sb)
	case *ast.BoolNode:
		b.WriteString(strconv.FormatBool(x.Value))
	case *ast.IntegerNode, *ast.FloatNode:
		text := x.GetToken().Value
		if !json.Valid([]byte(text)) {
			vb, err := json.Marshal(x.(ast.ScalarNode).GetValue())
			if err != nil {
				return errAt(x, path, "%v", err)
			}
			text = string(vb)
		}
		b.WriteString(text)
	default:
		return errAt(n, path, "unsupported YAML value %s", n.Type())
	}
	return nil
}

func (d *Decoder) writeObject(b *bytes.Buffer, m *ast.MappingNode, path string) error {
	b.WriteByte('{')
	seen := map[string]bool{}
	for i, mv := range m.Values {
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			return errAt(mv.Key, path, "merge keys (<<) are not supported")
		}
		key := mv.Key.GetToken().Value
		fp := path + "." + key
		if seen[key] {
			return errAt(mv.Key, fp, "duplicate key")
		}
		seen[key] = true
		d.mark(fp, mv.Key)
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		b.Write(kb)
		b.WriteByte(':')
		if err := d.writeJSON(b, mv.Value, fp); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func (d *Decoder) writeArray(b *bytes.Buffer, s *ast.SequenceNode, path string) error {
	b.WriteByte('[')
	for i, e := range s.Values {
		ep := fmt.Sprintf("%s[%d]", path, i)
		d.mark(ep, e)
		if i > 0 {
			b.WriteByte(',')
		}
		if err := d.writeJSON(b, e, ep); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}
