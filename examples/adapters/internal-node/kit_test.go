package internalnode

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
)

// TestKit runs the kit's Node tests: the artifact summaries against the
// shared vectors (contract/testdata/artifact-vectors.json), RFC 8785
// data, streamed chunks, replies as continuations, remote errors. It
// needs node and nothing from npm; without node it skips unless
// A2A_CONFORM_REQUIRE_NODE=1.
func TestKit(t *testing.T) {
	node := testenv.Program(t, "A2A_CONFORM_REQUIRE_NODE", "node (Node 20+) is needed: install it", "node")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--test", "contract.test.mjs").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test contract.test.mjs: %v\n%s", err, out)
	}
}
