package contract

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gowebpki/jcs"
)

// Artifact summarises one result of the agent in an outcome
// ([DelegationOutcome.Artifacts]): enough to tell, in any language, whether
// the OUT kept what the agent produced byte for byte, without carrying it.
type Artifact struct {
	// ArtifactID is the agent's artifactId. Empty for the parts of a
	// Message reply.
	ArtifactID string `json:"artifactId"`
	// Name is the artifact's name. Empty means it had none.
	Name string `json:"name,omitempty"`
	// Parts digest the artifact's parts in order ([DigestPart]).
	Parts []PartDigest `json:"parts"`
	// Text is the artifact's text parts joined in order with nothing
	// between. Empty means it had no text.
	Text string `json:"text,omitempty"`
}

// PartDigest is one part of an artifact, reduced to its kind and the
// SHA-256 of its content ([DigestPart]).
type PartDigest struct {
	// Kind is one of the PartKind* words.
	Kind string `json:"kind"`
	// SHA256 is the lower-case hex SHA-256 of the part's content bytes.
	SHA256 string `json:"sha256"`
}

// Part kinds ([PartDigest.Kind]) and what their content bytes are.
const (
	// PartKindText: the text, in UTF-8.
	PartKindText = "text"
	// PartKindBytes: inline file bytes (0.3 file.bytes, 1.0 raw), decoded
	// from base64.
	PartKindBytes = "bytes"
	// PartKindURL: a file by reference (0.3 file.uri, 1.0 url): the URL as
	// written.
	PartKindURL = "url"
	// PartKindData: structured data, in its RFC 8785 canonical form.
	PartKindData = "data"
)

// Bounds on the results an outcome carries; [DelegationOutcome.Clip] cuts
// past them. The fleet's results are a few hundred bytes.
const (
	// MaxArtifacts is how many artifacts of an outcome the harness keeps.
	MaxArtifacts = 64
	// MaxArtifactParts is how many part digests of an artifact it keeps.
	MaxArtifactParts = 256
	// MaxArtifactTextBytes bounds an artifact's text and an outcome's
	// statusText.
	MaxArtifactTextBytes = 64 << 10
)

// wirePart is a part in any A2A spelling: 0.3 ("kind" with text, file or
// data) and 1.0 (one of text, raw, url, data).
type wirePart struct {
	Kind string          `json:"kind"`
	Type string          `json:"type"` // 0.1/0.2's name for kind
	Text *string         `json:"text"`
	Raw  *string         `json:"raw"`
	URL  *string         `json:"url"`
	Data json.RawMessage `json:"data"`
	File *struct {
		Bytes *string `json:"bytes"`
		URI   *string `json:"uri"`
	} `json:"file"`
}

// DigestPart reads one A2A part (0.3 or 1.0 JSON) and returns its digest
// and, for a text part, its text.
func DigestPart(raw json.RawMessage) (PartDigest, string, error) {
	var p wirePart
	if err := json.Unmarshal(raw, &p); err != nil {
		return PartDigest{}, "", fmt.Errorf("part: %w", err)
	}
	switch {
	case p.Text != nil:
		return digestOf(PartKindText, []byte(*p.Text)), *p.Text, nil
	case p.Raw != nil:
		return digestBase64(*p.Raw)
	case p.URL != nil:
		return digestOf(PartKindURL, []byte(*p.URL)), "", nil
	case p.File != nil && p.File.Bytes != nil:
		return digestBase64(*p.File.Bytes)
	case p.File != nil && p.File.URI != nil:
		return digestOf(PartKindURL, []byte(*p.File.URI)), "", nil
	case len(p.Data) > 0 && !bytes.Equal(p.Data, []byte("null")):
		canon, err := jcs.Transform(p.Data)
		if err != nil {
			return PartDigest{}, "", fmt.Errorf("data part: %w", err)
		}
		return digestOf(PartKindData, canon), "", nil
	}
	return PartDigest{}, "", errors.New("part has no text, raw, url, file or data")
}

func digestBase64(s string) (PartDigest, string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return PartDigest{}, "", fmt.Errorf("file bytes: %w", err)
		}
	}
	return digestOf(PartKindBytes, b), "", nil
}

func digestOf(kind string, content []byte) PartDigest {
	sum := sha256.Sum256(content)
	return PartDigest{Kind: kind, SHA256: hex.EncodeToString(sum[:])}
}

// SummarizeParts digests parts in order and joins their text.
func SummarizeParts(parts []json.RawMessage) ([]PartDigest, string, error) {
	digests := make([]PartDigest, 0, len(parts))
	var text strings.Builder
	for i, raw := range parts {
		d, t, err := DigestPart(raw)
		if err != nil {
			return nil, "", fmt.Errorf("parts[%d]: %w", i, err)
		}
		digests = append(digests, d)
		text.WriteString(t)
	}
	return digests, text.String(), nil
}

// SummarizeArtifact reads one whole A2A artifact (0.3 or 1.0 JSON: its
// artifactId, name and parts) and summarises it. A streamed artifact is
// summarised once its chunks are joined.
func SummarizeArtifact(raw json.RawMessage) (Artifact, error) {
	var a struct {
		ArtifactID string            `json:"artifactId"`
		Name       string            `json:"name"`
		Parts      []json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return Artifact{}, fmt.Errorf("artifact: %w", err)
	}
	parts, text, err := SummarizeParts(a.Parts)
	if err != nil {
		return Artifact{}, fmt.Errorf("artifact %q: %w", a.ArtifactID, err)
	}
	return Artifact{ArtifactID: a.ArtifactID, Name: a.Name, Parts: parts, Text: text}, nil
}

// validateResults checks the results of an outcome: every part digest has
// a known kind and a SHA-256 in lower-case hex, and an error names a code
// or a reason.
func (o *DelegationOutcome) validateResults() error {
	for i, a := range o.Artifacts {
		for j, p := range a.Parts {
			if !KnownPartKind(p.Kind) {
				return fmt.Errorf("artifacts[%d].parts[%d].kind %q is not text, bytes, url or data", i, j, p.Kind)
			}
			if !isSHA256Hex(p.SHA256) {
				return fmt.Errorf("artifacts[%d].parts[%d].sha256 is not 64 lower-case hex digits", i, j)
			}
		}
	}
	if o.Error != nil && o.Error.Code == 0 && o.Error.Reason == "" {
		return errors.New("error names neither a code nor a reason")
	}
	return nil
}

// KnownPartKind reports whether s is one of the PartKind* words.
func KnownPartKind(s string) bool {
	return s == PartKindText || s == PartKindBytes || s == PartKindURL || s == PartKindData
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// clipResults cuts the results of o to the bounds above.
func (o *DelegationOutcome) clipResults() {
	o.ContextID = ClipText(o.ContextID, MaxFieldBytes)
	o.StatusText = ClipText(o.StatusText, MaxArtifactTextBytes)
	if len(o.Artifacts) > MaxArtifacts {
		o.Artifacts = o.Artifacts[:MaxArtifacts]
	}
	for i := range o.Artifacts {
		a := &o.Artifacts[i]
		a.ArtifactID = ClipText(a.ArtifactID, MaxFieldBytes)
		a.Name = ClipText(a.Name, MaxFieldBytes)
		a.Text = ClipText(a.Text, MaxArtifactTextBytes)
		if len(a.Parts) > MaxArtifactParts {
			a.Parts = a.Parts[:MaxArtifactParts]
		}
	}
	if o.Error != nil {
		o.Error.Reason = ClipText(o.Error.Reason, MaxFieldBytes)
		o.Error.Message = ClipText(o.Error.Message, MaxFieldBytes)
	}
}
