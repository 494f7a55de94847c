package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dockerStage is one FROM ... section of a Dockerfile, its instructions
// with continuation lines joined.
type dockerStage struct {
	from, name string
	lines      []string // "INSTRUCTION args"
}

// parseDockerfile splits a Dockerfile into its stages (comments dropped,
// backslash continuations joined): enough to check its structure without a
// container engine.
func parseDockerfile(text string) (args []string, stages []dockerStage) {
	var joined []string
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || t == "" && cur == "" {
			continue
		}
		if strings.HasSuffix(t, "\\") {
			cur += strings.TrimSuffix(t, "\\") + " "
			continue
		}
		joined = append(joined, cur+t)
		cur = ""
	}
	for _, l := range joined {
		if l == "" {
			continue
		}
		word, rest, _ := strings.Cut(l, " ")
		switch strings.ToUpper(word) {
		case "FROM":
			f := strings.Fields(rest)
			st := dockerStage{from: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				st.name = f[2]
			}
			stages = append(stages, st)
		default:
			if len(stages) == 0 {
				args = append(args, l)
				continue
			}
			stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, strings.ToUpper(word)+" "+strings.TrimSpace(rest))
		}
	}
	return args, stages
}

func (s dockerStage) find(instr string) []string {
	var out []string
	for _, l := range s.lines {
		if strings.HasPrefix(l, instr+" ") {
			out = append(out, strings.TrimPrefix(l, instr+" "))
		}
	}
	return out
}

// TestDockerfileStructure holds the Dockerfile to what a release asks of the
// image: multi-stage, a static binary (CGO off) stamped with its version
// and revision, a last stage with nothing else in it, a non-root user, and
// ENTRYPOINT ["a2a-conform"]; and .dockerignore keeps VCS data and Node
// packages out of the build context.
func TestDockerfileStructure(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	_, stages := parseDockerfile(string(b))
	if len(stages) < 2 {
		t.Fatalf("%d stages, want a build stage and a final one", len(stages))
	}
	build, final := stages[0], stages[len(stages)-1]
	runs := strings.Join(build.find("RUN"), "\n")
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-X main.version=${VERSION}", "-X main.revision=${REVISION}", "./cmd/a2a-conform", "a2a-conform version"} {
		if !strings.Contains(runs, want) {
			t.Errorf("the build stage's RUN lacks %q", want)
		}
	}
	if final.from != "scratch" {
		t.Errorf("final stage FROM %s, want scratch (a static binary needs nothing)", final.from)
	}
	for _, c := range final.find("COPY") {
		if !strings.Contains(c, "--from="+build.name) {
			t.Errorf("final stage copies %q from outside the build stage", c)
		}
	}
	if r := final.find("RUN"); len(r) > 0 {
		t.Errorf("final stage RUNs %q: scratch has no shell", r)
	}
	users := final.find("USER")
	if len(users) != 1 || regexp.MustCompile(`^(0|root)(:|$)`).MatchString(users[0]) {
		t.Errorf("final stage USER %q, want one non-root user", users)
	}
	if uid, _, _ := strings.Cut(users[0], ":"); !strings.Contains(runs, ":x:"+uid+":") {
		t.Errorf("user %s has no /etc/passwd entry made in the build stage", uid)
	}
	if ep := final.find("ENTRYPOINT"); len(ep) != 1 || ep[0] != `["a2a-conform"]` {
		t.Errorf("ENTRYPOINT %q, want [\"a2a-conform\"]", ep)
	}
	env := strings.Join(final.find("ENV"), " ")
	if !strings.Contains(env, "PATH=/usr/local/bin") || !strings.Contains(runs, "/out/usr/local/bin/a2a-conform") {
		t.Errorf("the binary is not on the final stage's PATH (ENV %q)", env)
	}
	ign, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git", "**/node_modules", "*.exe"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `$`).Match(ign) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
}

// TestDockerImage builds the image with podman and runs it: version shows
// the stamps, and the image scores builtin:reference on two scenarios as a
// non-root user. It needs podman and a build-stage image that the machine
// can reach, named by A2A_CONFORM_GO_IMAGE (golang:1.26-bookworm, or a
// local stand-in: docs/ci.md); without both it skips.
func TestDockerImage(t *testing.T) {
	goImage := os.Getenv("A2A_CONFORM_GO_IMAGE")
	podman, err := exec.LookPath("podman")
	if err != nil || goImage == "" {
		t.Skip("needs podman and A2A_CONFORM_GO_IMAGE (a Go 1.26 build image the machine can reach)")
	}
	// A2A_CONFORM_PODMAN_FLAGS: podman's own flags, for a machine whose
	// sandbox limits containers ("--runtime /usr/sbin/runc");
	// A2A_CONFORM_PODMAN_RUN_FLAGS: flags of podman build and podman run
	// ("--ulimit nofile=1024:1024 --ulimit nproc=1024:1024"). docs/ci.md
	// says when they are needed.
	global := strings.Fields(os.Getenv("A2A_CONFORM_PODMAN_FLAGS"))
	runFlags := strings.Fields(os.Getenv("A2A_CONFORM_PODMAN_RUN_FLAGS"))
	tag := "localhost/a2a-conform-test:latest"
	pod := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(podman, append(append([]string{}, global...), args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), exitCodeOf(t, err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build := append(append([]string{"build", "--network", "host"}, runFlags...), "--build-arg", "GO_IMAGE="+goImage,
		"--build-arg", "VERSION=v0.0.0-test", "--build-arg", "REVISION=feedface", "-t", tag, root)
	if out, code := pod(build...); code != 0 {
		t.Fatalf("podman build: exit %d\n%s", code, out)
	}
	if out, _ := pod("image", "inspect", "--format", "{{.Config.User}} {{.Config.Entrypoint}}", tag); strings.TrimSpace(out) != "65532:65532 [a2a-conform]" {
		t.Errorf("image user and entrypoint: %q", out)
	}
	out, code := pod(append(append([]string{"run", "--rm"}, runFlags...), tag, "version")...)
	if code != 0 || !strings.Contains(out, "a2a-conform v0.0.0-test") || !strings.Contains(out, "revision: feedface") {
		t.Errorf("version in the image: exit %d\n%s", code, out)
	}
	out, code = pod(append(append([]string{"run", "--rm"}, runFlags...), tag, "run", "--label-filter", "CARD-002 || PROBE-001")...)
	if code != 0 || !strings.Contains(out, "conformant: yes") {
		t.Errorf("run in the image: exit %d\n%s", code, out)
	}
	t.Logf("podman run %s run --label-filter 'CARD-002 || PROBE-001':\n%s", tag, out)
}
