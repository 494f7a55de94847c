package yamlfile

import (
	"bytes"
	"encoding/json"

	"github.com/goccy/go-yaml"
)

// Marshal renders v as YAML the way encoding/json renders it (the json
// tags' names, omitempty, json:"-", MarshalJSON), members in the order
// encoding/json writes them, sequences indented, multi-line strings as
// literal blocks. A Decoder reads it back to an equal value.
func Marshal(v any) ([]byte, error) {
	js, err := json.Marshal(v)
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
			return orderedObject(dec)
		case '[':
			return orderedArray(dec)
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

func orderedObject(dec *json.Decoder) (yaml.MapSlice, error) {
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
}

func orderedArray(dec *json.Decoder) ([]any, error) {
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
