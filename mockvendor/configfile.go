package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// A fleet file is the Config in YAML (or JSON, which is YAML too), with the
// field names of Config's json tags, plus two conveniences that only the
// file has:
//
//   - vendors[i].signing.keyFile: a PEM file whose content becomes keyPEM.
//   - vendors[i].cardFile: an A2A card in JSON (such as
//     fixtures/cards/d.json) whose fields fill the vendor's card (name,
//     description, version, url, protocolVersion, skills, streaming,
//     pushNotifications, extensions, input and output modes) and, when the vendor lists no
//     skills, its skills. Fields set under card win. The card the fleet
//     serves is still built from CardConfig.
//
// Relative paths are relative to the file's directory. Durations
// (limits.readTimeout, limits.workTime) take "10s" or a number of
// nanoseconds. docs/fleet-config.md has a complete example.

// FileError is a fleet file the fleet refuses, with the line and field at
// fault: "fleet.yaml:14: vendors[1].faults[0].config: region-gate: json:
// unknown field \"regoin\"".
type FileError struct {
	// Path is the file as given; Line and Column are 1-based, 0 when the
	// error has no place in the file (a file that cannot be read).
	Path         string
	Line, Column int
	// Field is the path of the field at fault ("vendors[1].faults[0].config"),
	// empty for a syntax error.
	Field string
	Msg   string
	// Err is the underlying error (a *ConfigError when the fleet refused
	// the configuration).
	Err error
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *FileError) Unwrap() error { return e.Err }

// LoadConfig reads a fleet file (YAML or JSON) and checks it as
// NewUnstartedFleet would, without listening. Every error is a *FileError
// naming the line and the field at fault.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, &FileError{Path: path, Msg: err.Error(), Err: err}
	}
	return ParseConfig(path, data)
}

// ParseConfig is LoadConfig over bytes already read; name is used in errors
// and to resolve relative keyFile and cardFile paths.
func ParseConfig(name string, data []byte) (Config, error) {
	var cfg Config
	d := &fileDecoder{name: name, dir: filepath.Dir(name), pos: map[string]*token.Position{}, anchors: map[string]ast.Node{}}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return cfg, d.syntaxError(err)
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
			return cfg, d.errAt(doc.Body, "", "a fleet file holds one document")
		}
		body = doc.Body
	}
	if body == nil {
		return cfg, nil // an empty file is the empty fleet
	}
	if err := d.decode(body, reflect.ValueOf(&cfg).Elem(), ""); err != nil {
		return Config{}, err
	}
	if err := d.check(cfg); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// fileDecoder decodes the YAML tree into a Config strictly, remembering
// where each field sits so the fleet's own errors can be placed.
type fileDecoder struct {
	name    string
	dir     string
	pos     map[string]*token.Position
	anchors map[string]ast.Node
}

func (d *fileDecoder) syntaxError(err error) error {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		return &FileError{Path: d.name, Line: p.Line, Column: p.Column, Msg: ye.GetMessage(), Err: err}
	}
	return &FileError{Path: d.name, Msg: err.Error(), Err: err}
}

func (d *fileDecoder) errAt(n ast.Node, field, format string, args ...any) error {
	e := &FileError{Path: d.name, Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.GetToken() != nil {
		e.Line, e.Column = n.GetToken().Position.Line, n.GetToken().Position.Column
	}
	return e
}

// resolve strips anchors and tags and follows aliases.
func (d *fileDecoder) resolve(n ast.Node) (ast.Node, error) {
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
				return nil, d.errAt(x, "", "unknown alias *%s", name)
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
	rawMessageType = reflect.TypeOf(json.RawMessage(nil))
	durationType   = reflect.TypeOf(time.Duration(0))
	caPtrType      = reflect.TypeOf((*CA)(nil))
)

func (d *fileDecoder) decode(n ast.Node, v reflect.Value, path string) error {
	n, err := d.resolve(n)
	if err != nil {
		return err
	}
	if _, isNull := n.(*ast.NullNode); isNull || n == nil {
		v.Set(reflect.Zero(v.Type()))
		return nil
	}
	switch {
	case v.Type() == rawMessageType:
		b, err := d.toJSON(n, path)
		if err != nil {
			return err
		}
		v.SetBytes(b)
		return nil
	case v.Type() == durationType:
		s, ok := scalarText(n)
		if !ok {
			return d.errAt(n, path, "want a duration (\"10s\") or a number of nanoseconds")
		}
		if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
			v.SetInt(ns)
			return nil
		}
		dur, err := time.ParseDuration(s)
		if err != nil {
			return d.errAt(n, path, "want a duration (\"10s\") or a number of nanoseconds, not %q", s)
		}
		v.SetInt(int64(dur))
		return nil
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
		seq, ok := n.(*ast.SequenceNode)
		if !ok {
			return d.errAt(n, path, "want a list")
		}
		out := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
		for i, e := range seq.Values {
			ep := fmt.Sprintf("%s[%d]", path, i)
			d.pos[ep] = e.GetToken().Position
			if err := d.decode(e, out.Index(i), ep); err != nil {
				return err
			}
		}
		v.Set(out)
		return nil
	case reflect.String:
		s, ok := scalarText(n)
		if !ok {
			return d.errAt(n, path, "want a string")
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
			return d.errAt(n, path, "want %s, not %s", jsonTypeName(v.Type()), b)
		}
		v.Set(p.Elem())
		return nil
	}
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

// fileOnlyKeys are the keys a fleet file accepts beyond Config's fields.
var fileOnlyKeys = map[reflect.Type]map[string]bool{
	reflect.TypeOf(SigningConfig{}): {"keyFile": true},
	reflect.TypeOf(VendorConfig{}):  {"cardFile": true},
}

func (d *fileDecoder) decodeStruct(n ast.Node, v reflect.Value, path string) error {
	m, ok := n.(*ast.MappingNode)
	if !ok {
		if mv, ok := n.(*ast.MappingValueNode); ok {
			m = &ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: []*ast.MappingValueNode{mv}}
		} else {
			return d.errAt(n, path, "want a mapping")
		}
	}
	t := v.Type()
	fields := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || f.Type == caPtrType {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = i
	}
	seen := map[string]bool{}
	extra := map[string]*ast.MappingValueNode{}
	for _, mv := range m.Values {
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			return d.errAt(mv.Key, path, "merge keys (<<) are not supported")
		}
		key := mv.Key.GetToken().Value
		fp := key
		if path != "" {
			fp = path + "." + key
		}
		if seen[key] {
			return d.errAt(mv.Key, fp, "duplicate key")
		}
		seen[key] = true
		d.pos[fp] = mv.Key.GetToken().Position
		i, ok := fields[key]
		if !ok {
			if fileOnlyKeys[t][key] {
				extra[key] = mv
				continue
			}
			return d.errAt(mv.Key, fp, "unknown field %q", key)
		}
		if err := d.decode(mv.Value, v.Field(i), fp); err != nil {
			return err
		}
	}
	for key, mv := range extra {
		if err := d.fileOnly(v, key, mv, path); err != nil {
			return err
		}
	}
	return nil
}

// fileOnly applies keyFile and cardFile.
func (d *fileDecoder) fileOnly(v reflect.Value, key string, mv *ast.MappingValueNode, path string) error {
	fp := path + "." + key
	val, err := d.resolve(mv.Value)
	if err != nil {
		return err
	}
	name, ok := scalarText(val)
	if !ok || name == "" {
		return d.errAt(mv.Value, fp, "want a file path")
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(d.dir, name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return d.errAt(mv.Value, fp, "%v", err)
	}
	switch key {
	case "keyFile":
		sc := v.Addr().Interface().(*SigningConfig)
		if sc.KeyPEM != "" {
			return d.errAt(mv.Key, fp, "give keyPEM or keyFile, not both")
		}
		sc.KeyPEM = string(data)
		d.pos[path+".keyPEM"] = mv.Key.GetToken().Position
	case "cardFile":
		vc := v.Addr().Interface().(*VendorConfig)
		if err := cardFromJSON(vc, data); err != nil {
			return d.errAt(mv.Value, fp, "%v", err)
		}
	}
	return nil
}

// cardFromJSON fills the vendor's card (and skills, when it has none) from
// an A2A card document; what the vendor's card section sets already wins.
func cardFromJSON(vc *VendorConfig, data []byte) error {
	var doc struct {
		Name            string `json:"name"`
		Description     string `json:"description"`
		Version         string `json:"version"`
		URL             string `json:"url"`
		ProtocolVersion string `json:"protocolVersion"`
		Interfaces      []struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"supportedInterfaces"`
		DefaultInputModes  []string `json:"defaultInputModes"`
		DefaultOutputModes []string `json:"defaultOutputModes"`
		Capabilities       struct {
			Streaming         bool            `json:"streaming"`
			PushNotifications bool            `json:"pushNotifications"`
			Extensions        []CardExtension `json:"extensions"`
		} `json:"capabilities"`
		Skills []struct {
			ID          string   `json:"id"`
			Name        string   `json:"name"`
			Description string   `json:"description"`
			InputModes  []string `json:"inputModes"`
			OutputModes []string `json:"outputModes"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("not an agent card: %v", err)
	}
	c := &vc.Card
	c.Name = or(c.Name, doc.Name)
	c.Description = or(c.Description, doc.Description)
	c.Version = or(c.Version, doc.Version)
	c.URL = or(c.URL, doc.URL)
	// The card carries the 0.3 protocolVersion beside the 1.0 interfaces;
	// a 1.0 interface means the card claims 1.0.
	claim := doc.ProtocolVersion
	for _, in := range doc.Interfaces {
		if strings.HasPrefix(in.ProtocolVersion, "1.") {
			claim = in.ProtocolVersion
		}
	}
	if c.ProtocolVersion == "" && claim != "" {
		maj, rest, _ := strings.Cut(claim, ".")
		mnr, _, _ := strings.Cut(rest, ".")
		c.ProtocolVersion = maj + "." + mnr
	}
	c.Streaming = c.Streaming || doc.Capabilities.Streaming
	c.PushNotifications = c.PushNotifications || doc.Capabilities.PushNotifications
	if c.Extensions == nil {
		c.Extensions = doc.Capabilities.Extensions
	}
	if c.DefaultInputModes == nil {
		c.DefaultInputModes = doc.DefaultInputModes
	}
	if c.DefaultOutputModes == nil {
		c.DefaultOutputModes = doc.DefaultOutputModes
	}
	listed := []string{}
	for _, s := range doc.Skills {
		listed = append(listed, s.ID)
	}
	if len(vc.Skills) == 0 {
		for _, s := range doc.Skills {
			vc.Skills = append(vc.Skills, SkillConfig{ID: s.ID, Name: s.Name, Description: s.Description, InputModes: s.InputModes, OutputModes: s.OutputModes})
		}
	} else if c.Skills == nil {
		c.Skills = listed // the card lists what it lists, the gateway serves what it serves
	}
	return nil
}

// toJSON renders a YAML subtree as compact JSON, keeping key order (so a
// fault config written by WriteConfig reads back byte for byte).
func (d *fileDecoder) toJSON(n ast.Node, path string) ([]byte, error) {
	var b bytes.Buffer
	if err := d.writeJSON(&b, n, path); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (d *fileDecoder) writeJSON(b *bytes.Buffer, n ast.Node, path string) error {
	n, err := d.resolve(n)
	if err != nil {
		return err
	}
	switch x := n.(type) {
	case nil, *ast.NullNode:
		b.WriteString("null")
	case *ast.MappingValueNode:
		return d.writeJSON(b, &ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: []*ast.MappingValueNode{x}}, path)
	case *ast.MappingNode:
		b.WriteByte('{')
		seen := map[string]bool{}
		for i, mv := range x.Values {
			if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
				return d.errAt(mv.Key, path, "merge keys (<<) are not supported")
			}
			key := mv.Key.GetToken().Value
			fp := path + "." + key
			if seen[key] {
				return d.errAt(mv.Key, fp, "duplicate key")
			}
			seen[key] = true
			d.pos[fp] = mv.Key.GetToken().Position
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
	case *ast.SequenceNode:
		b.WriteByte('[')
		for i, e := range x.Values {
			ep := fmt.Sprintf("%s[%d]", path, i)
			d.pos[ep] = e.GetToken().Position
			if i > 0 {
				b.WriteByte(',')
			}
			if err := d.writeJSON(b, e, ep); err != nil {
				return err
			}
		}
		b.WriteByte(']')
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
				return d.errAt(x, path, "%v", err)
			}
			text = string(vb)
		}
		b.WriteString(text)
	default:
		return d.errAt(n, path, "unsupported YAML value %s", n.Type())
	}
	return nil
}

var unknownFieldRE = regexp.MustCompile(`unknown field "([^"]+)"`)

// check runs the fleet's own validation without listening and places its
// errors in the file.
func (d *fileDecoder) check(cfg Config) error {
	if _, err := NewUnstartedFleet(cfg); err != nil {
		return d.placeError(err)
	}
	for i, vc := range cfg.Vendors {
		if err := checkSigning(vc); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				ce.Field = fmt.Sprintf("vendors[%d].%s", i, ce.Field)
			}
			return d.placeError(err)
		}
	}
	return nil
}

func (d *fileDecoder) placeError(err error) error {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return &FileError{Path: d.name, Msg: err.Error(), Err: err}
	}
	fe := &FileError{Path: d.name, Field: ce.Field, Msg: ce.Msg, Err: err}
	// The most precise place: the unknown key itself, else the field, else
	// its nearest parent that the file has.
	lookup := []string{}
	if m := unknownFieldRE.FindStringSubmatch(ce.Msg); m != nil {
		lookup = append(lookup, ce.Field+"."+m[1])
	}
	for p := ce.Field; p != ""; p = parentPath(p) {
		lookup = append(lookup, p)
	}
	for _, p := range lookup {
		if pos := d.pos[p]; pos != nil {
			fe.Line, fe.Column = pos.Line, pos.Column
			break
		}
	}
	return fe
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

// checkSigning is what Start would refuse about a vendor's signing
// configuration, found without generating keys or listening.
func checkSigning(vc VendorConfig) error {
	if vc.Signing == nil {
		return nil
	}
	_, _, _, err := resolveSigning(vc.Signing, vc.Hosts)
	return err
}

// MarshalYAML renders the configuration as a fleet file that LoadConfig
// reads back to an equal Config (the CA is not part of it).
func (c Config) MarshalYAML() ([]byte, error) {
	js, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	tree, err := orderedJSON(dec)
	if err != nil {
		return nil, err
	}
	return yaml.MarshalWithOptions(tree, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
}

// WriteConfig writes the configuration as a YAML fleet file.
func WriteConfig(w io.Writer, c Config) error {
	b, err := c.MarshalYAML()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// orderedJSON reads one JSON value keeping the order of object members.
func orderedJSON(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			ms := yaml.MapSlice{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := orderedJSON(dec)
				if err != nil {
					return nil, err
				}
				ms = append(ms, yaml.MapItem{Key: kt.(string), Value: v})
			}
			_, err := dec.Token()
			return ms, err
		case '[':
			out := []any{}
			for dec.More() {
				v, err := orderedJSON(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		return f, err
	}
	return tok, nil
}
