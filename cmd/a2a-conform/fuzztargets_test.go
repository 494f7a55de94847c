package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fuzzFunc matches the declaration of a fuzz target.
var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(\w+ \*testing\.F\)`)

// TestMakefileFuzzTargets: `make fuzz` runs every fuzz target of the
// module, each from the package it lives in (a target left out, or named
// in a package it moved from, would never be fuzzed).
func TestMakefileFuzzTargets(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == "examples") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, m := range fuzzFunc.FindAllSubmatch(b, -1) {
			have = append(have, "./"+filepath.ToSlash(rel)+":"+string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	listed := makefileList(t, filepath.Join(root, "Makefile"), "FUZZ_TARGETS")
	slices.Sort(have)
	slices.Sort(listed)
	if !slices.Equal(have, listed) {
		t.Errorf("Makefile FUZZ_TARGETS:\n  %s\nthe module's fuzz targets:\n  %s", strings.Join(listed, "\n  "), strings.Join(have, "\n  "))
	}
}

// makefileList reads the words of a Makefile variable written as
// `NAME := \` followed by one word per continued line.
func makefileList(t *testing.T, path, name string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, name+" :=") {
			in = true
			line = strings.TrimPrefix(line, name+" :=")
		} else if !in {
			continue
		}
		more := strings.HasSuffix(strings.TrimSpace(line), `\`)
		out = append(out, strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), `\`))...)
		if !more {
			break
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no %s", path, name)
	}
	return out
}
