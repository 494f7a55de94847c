package contract

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"
)

var updateVectors = flag.Bool("update", false, "rewrite testdata/artifact-vectors.json from SummarizeArtifact")

// artifactVector is one entry of testdata/artifact-vectors.json, the
// vectors every driver kit (Go, Node, Python) summarises artifacts against.
type artifactVector struct {
	Name     string          `json:"name"`
	Artifact json.RawMessage `json:"artifact"`
	Want     *Artifact       `json:"want"`
}

// TestArtifactVectors: SummarizeArtifact gives each vector's summary; the
// Node and Python kits read the same file in their own tests.
func TestArtifactVectors(t *testing.T) {
	const path = "testdata/artifact-vectors.json"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []artifactVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		got, err := SummarizeArtifact(v.Artifact)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if *updateVectors {
			vs[i].Want = &got
			continue
		}
		if v.Want == nil || !reflect.DeepEqual(got, *v.Want) {
			t.Errorf("%s:\n got  %+v\n want %+v", v.Name, got, v.Want)
		}
	}
	if *updateVectors {
		out, _ := json.MarshalIndent(vs, "", "  ")
		if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDigestPartRefuses: a part with nothing in it, bad base64 or broken
// JSON is an error, not an empty digest.
func TestDigestPartRefuses(t *testing.T) {
	for _, raw := range []string{`{}`, `{"kind":"file","file":{"bytes":"!!"}}`, `{"raw":"%%%"}`, `[1]`, `{"data":null}`} {
		if d, _, err := DigestPart(json.RawMessage(raw)); err == nil {
			t.Errorf("DigestPart(%s) = %+v, want an error", raw, d)
		}
	}
}

// TestValidateResults: a part digest of an unknown kind or a malformed
// sum, and an error with neither code nor reason, make an outcome
// unusable.
func TestValidateResults(t *testing.T) {
	good := PartDigest{Kind: PartKindText, SHA256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}
	for name, c := range map[string]struct {
		o       DelegationOutcome
		wantErr bool
	}{
		"good":           {DelegationOutcome{Artifacts: []Artifact{{Parts: []PartDigest{good}}}, Error: &RemoteError{Code: -32001}}, false},
		"reason only":    {DelegationOutcome{Error: &RemoteError{Reason: "TASK_NOT_FOUND"}}, false},
		"unknown kind":   {DelegationOutcome{Artifacts: []Artifact{{Parts: []PartDigest{{Kind: "image", SHA256: good.SHA256}}}}}, true},
		"upper-case hex": {DelegationOutcome{Artifacts: []Artifact{{Parts: []PartDigest{{Kind: PartKindText, SHA256: "2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824"}}}}}, true},
		"short sum":      {DelegationOutcome{Artifacts: []Artifact{{Parts: []PartDigest{{Kind: PartKindText, SHA256: "abc"}}}}}, true},
		"empty error":    {DelegationOutcome{Error: &RemoteError{Message: "boom"}}, true},
	} {
		if err := c.o.validateResults(); (err != nil) != c.wantErr {
			t.Errorf("%s: validateResults() = %v, want error %v", name, err, c.wantErr)
		}
	}
}
