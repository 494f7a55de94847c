package mockvendor

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/yamlfile"
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
	d := &yamlfile.Decoder{What: "a fleet file", Extra: fileOnlyKeys(filepath.Dir(name))}
	if err := d.Decode(data, &cfg); err != nil {
		return Config{}, fileError(name, err)
	}
	resolveReplays(&cfg, filepath.Dir(name))
	if err := checkConfig(cfg); err != nil {
		return Config{}, placeError(name, d, err)
	}
	return cfg, nil
}

// fileError is a decoding error as a *FileError of the file name.
func fileError(name string, err error) error {
	var ye *yamlfile.Error
	if !errors.As(err, &ye) {
		return &FileError{Path: name, Msg: err.Error(), Err: err}
	}
	return &FileError{Path: name, Line: ye.Line, Column: ye.Column, Field: ye.Field, Msg: ye.Msg, Err: ye.Err}
}

// fileOnlyKeys are the keys a fleet file accepts beyond Config's fields;
// relative paths are relative to dir.
func fileOnlyKeys(dir string) map[reflect.Type]map[string]yamlfile.ExtraFunc {
	return map[reflect.Type]map[string]yamlfile.ExtraFunc{
		reflect.TypeFor[SigningConfig](): {"keyFile": func(v any, k *yamlfile.Key) error {
			return keyFile(v.(*SigningConfig), dir, k)
		}},
		reflect.TypeFor[VendorConfig](): {"cardFile": func(v any, k *yamlfile.Key) error {
			return cardFile(v.(*VendorConfig), dir, k)
		}},
	}
}

// keyFile reads signing.keyFile into keyPEM, which the file then places at
// the keyFile key.
func keyFile(sc *SigningConfig, dir string, k *yamlfile.Key) error {
	data, err := readFileKey(dir, k)
	if err != nil {
		return err
	}
	if sc.KeyPEM != "" {
		return k.Errorf("give keyPEM or keyFile, not both")
	}
	sc.KeyPEM = string(data)
	k.Sets("keyPEM")
	return nil
}

// cardFile fills the vendor's card from the agent card cardFile names.
func cardFile(vc *VendorConfig, dir string, k *yamlfile.Key) error {
	data, err := readFileKey(dir, k)
	if err != nil {
		return err
	}
	if err := cardFromJSON(vc, data); err != nil {
		return k.ValueErrorf("%v", err)
	}
	return nil
}

// readFileKey reads the file a file-only key names.
func readFileKey(dir string, k *yamlfile.Key) ([]byte, error) {
	name, ok := k.Text()
	if !ok || name == "" {
		return nil, k.ValueErrorf("want a file path")
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, k.ValueErrorf("%v", err)
	}
	return data, nil
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
	c.Name = cmp.Or(c.Name, doc.Name)
	c.Description = cmp.Or(c.Description, doc.Description)
	c.Version = cmp.Or(c.Version, doc.Version)
	c.URL = cmp.Or(c.URL, doc.URL)
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

var unknownFieldRE = regexp.MustCompile(`unknown field "([^"]+)"`)

// checkConfig runs the fleet's own validation without listening.
func checkConfig(cfg Config) error {
	if _, err := NewUnstartedFleet(cfg); err != nil {
		return err
	}
	for i, vc := range cfg.Vendors {
		if err := checkSigning(vc); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				ce.Field = fmt.Sprintf("vendors[%d].%s", i, ce.Field)
			}
			return err
		}
	}
	return nil
}

// placeError places the fleet's refusal in the file: at the unknown key
// itself, else the field, else its nearest parent that the file has.
func placeError(name string, d *yamlfile.Decoder, err error) error {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return &FileError{Path: name, Msg: err.Error(), Err: err}
	}
	fe := &FileError{Path: name, Field: ce.Field, Msg: ce.Msg, Err: err}
	pos, ok := yamlfile.Pos{}, false
	if m := unknownFieldRE.FindStringSubmatch(ce.Msg); m != nil {
		pos, ok = d.Position(ce.Field + "." + m[1])
	}
	if !ok {
		pos, ok = d.Nearest(ce.Field)
	}
	if ok {
		fe.Line, fe.Column = pos.Line, pos.Column
	}
	return fe
}

// checkSigning is what Start would refuse about a vendor's signing
// configuration, found without generating keys or listening.
func checkSigning(vc VendorConfig) error {
	if vc.Signing == nil {
		return nil
	}
	return resolveSigning(vc.Signing, vc.Hosts)
}

// MarshalYAML renders the configuration as a fleet file that LoadConfig
// reads back to an equal Config (the CA is not part of it).
func (c Config) MarshalYAML() ([]byte, error) { return yamlfile.Marshal(c) }

// WriteConfig writes the configuration as a YAML fleet file.
func WriteConfig(w io.Writer, c Config) error {
	b, err := c.MarshalYAML()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// resolveReplays makes each relative upstream replay path (a recording)
// relative to the fleet file's directory dir.
func resolveReplays(cfg *Config, dir string) {
	for _, v := range cfg.Vendors {
		if u := v.Upstream; u != nil && u.Replay != "" && !filepath.IsAbs(u.Replay) {
			u.Replay = filepath.Join(dir, u.Replay)
		}
	}
}
