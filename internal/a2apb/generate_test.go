package a2apb_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestGeneratedCodeIsCurrent regenerates the package from proto/ with the
// pinned tools into a temporary directory and compares it with the
// committed files. It needs protoc from Maven Central and the two Go
// plugins from the module proxy: it skips when neither is cached in
// bin/tools, unless A2A_CONFORM_REQUIRE_PROTOC=1 (CI), which fetches them.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: regenerating needs protoc")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("proto/generate.sh pins protoc for Linux only")
	}
	_, statErr := os.Stat(filepath.Join(root, "bin/tools/protoc-4.33.5"))
	if statErr != nil && os.Getenv("A2A_CONFORM_REQUIRE_PROTOC") != "1" {
		t.Skip("protoc is not in bin/tools (run make proto once, or set A2A_CONFORM_REQUIRE_PROTOC=1 to fetch it)")
	}
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "proto/generate.sh"), out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("proto/generate.sh: %v\n%s", err, b)
	}
	for _, name := range []string{"a2a.pb.go", "a2a_grpc.pb.go"} {
		want, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("internal/a2apb/%s is stale: run make proto and commit the result", name)
		}
	}
}
