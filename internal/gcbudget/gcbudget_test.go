package gcbudget

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestApply runs Apply in a child process per environment, since the GC
// settings are process-wide: the defaults apply unless GOGC or GOMEMLIMIT
// say otherwise.
func TestApply(t *testing.T) {
	if os.Getenv("GCBUDGET_CHILD") == "1" {
		p, l := Apply()
		os.Stdout.WriteString(strconv.Itoa(p) + " " + strconv.FormatInt(l, 10) + "\n")
		return
	}
	cases := []struct {
		name string
		env  []string
		want string
	}{
		{"defaults", nil, "400 838860800"},
		{"GOGC wins", []string{"GOGC=50"}, "50 838860800"},
		{"GOMEMLIMIT wins", []string{"GOMEMLIMIT=2GiB"}, "400 2147483648"},
		{"GOGC=off", []string{"GOGC=off"}, "-1 838860800"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestApply$")
			env := []string{"GCBUDGET_CHILD=1"}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
					env = append(env, kv)
				}
			}
			cmd.Env = append(env, c.env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("child: %v", err)
			}
			if got := strings.SplitN(string(out), "\n", 2)[0]; got != c.want {
				t.Errorf("Apply() = %q, want %q", got, c.want)
			}
		})
	}
}
