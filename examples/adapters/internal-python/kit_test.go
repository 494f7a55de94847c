package kitpython

import (
	"os/exec"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
)

// TestPythonKit runs test_a2a_conform_contract.py (unittest, standard
// library only) with python3: the kit's artifact summaries against the
// shared vectors, RFC 8785 numbers and key order, chunk joining and
// continuations. No python3 skips it unless A2A_CONFORM_REQUIRE_PYTHON=1.
func TestPythonKit(t *testing.T) {
	py := testenv.Program(t, "A2A_CONFORM_REQUIRE_PYTHON", "python3 is needed: apt-get install -y python3", "python3")
	cmd := exec.Command(py, "-m", "unittest", "-v", "test_a2a_conform_contract")
	cmd.Env = append(cmd.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("python3 -m unittest: %v", err)
	}
}
