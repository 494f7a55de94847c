package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/htmlreport"
)

// reportFormats are the reports run and report merge can write: one flag
// and one writer each.
var reportFormats = []struct {
	flag, name, usage string
	write             suite.Writer
}{
	{"json-report", "JSON", "write the JSON report to this `file`", suite.WriteJSON},
	{"junit-report", "JUnit", "write a JUnit XML report (one test case per check) to this `file`", suite.WriteJUnit},
	{"html-report", "HTML", "write a self-contained HTML report (scorecard, checks, sequence diagrams) to this `file`", htmlreport.WriteHTML},
}

// reportFiles are the report outputs a command writes: paths[i] is the
// file of reportFormats[i] ("" for none).
type reportFiles struct {
	paths []string
}

func (o *reportFiles) flags(fs *flag.FlagSet) {
	o.paths = make([]string, len(reportFormats))
	for i, f := range reportFormats {
		fs.StringVar(&o.paths[i], f.flag, "", f.usage)
	}
}

// check fails when a requested report cannot be written: its directory is
// missing or not writable, or the path is a directory. It writes and
// removes a temporary file next to each report, and leaves existing
// reports alone, so that a run does not end with nowhere to write.
func (o *reportFiles) check() error {
	for i, rf := range reportFormats {
		f := struct{ flag, path string }{"--" + rf.flag, o.paths[i]}
		if f.path == "" {
			continue
		}
		if st, err := os.Stat(f.path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a directory", f.flag, f.path)
		}
		tmp, err := os.CreateTemp(filepath.Dir(f.path), ".a2a-conform-check-*")
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fmt.Errorf("%s %s: cannot write in %s: %v", f.flag, f.path, filepath.Dir(f.path), err)
		}
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return nil
}

// write writes every requested report; it tries all of them and returns the
// errors joined.
func (o *reportFiles) write(r *suite.Report) error {
	var errs []error
	for i, rf := range reportFormats {
		if o.paths[i] == "" {
			continue
		}
		if err := suite.WriteFile(o.paths[i], r, rf.write); err != nil {
			errs = append(errs, fmt.Errorf("writing the %s report: %w", rf.name, err))
		}
	}
	return errors.Join(errs...)
}

const reportUsage = `usage:
  a2a-conform report merge A.json B.json ... [--json-report F] [--junit-report F] [--html-report F]
                                             [--baseline F] [--profile P]
      merge the JSON reports of the shards of one run (run --shard K/N) into one,
      scored as one run; with a single report, convert it to JUnit or HTML
`

// reportCmd dispatches the report subcommands.
func reportCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"report takes a subcommand: merge\n" + reportUsage}
	}
	switch args[0] {
	case "merge":
		return mergeCmd(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, reportUsage)
		return nil
	}
	return &usageError{fmt.Sprintf("unknown report subcommand %q", args[0])}
}

// mergeCmd merges shard reports, writes the merged reports, prints the
// scorecard and exits as run would have for one run over every shard.
func mergeCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var out reportFiles
	out.flags(fs)
	baselineFile := fs.String("baseline", "", "judge the merged checks with this baseline instead of the shards' own")
	var profiles profileFlag
	fs.Var(&profiles, "profile", "profile to judge conformance by (repeatable; default: all)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(files) == 0 {
		return &usageError{"report merge takes one or more JSON reports"}
	}
	if err := out.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	var opt suite.MergeOptions
	if *baselineFile != "" {
		if opt.Baseline, err = suite.LoadBaseline(*baselineFile); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	var reports []*suite.Report
	for _, f := range files {
		r, err := suite.ReadReport(f)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		reports = append(reports, r)
		opt.Names = append(opt.Names, f)
	}
	merged, err := suite.Merge(reports, opt)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	werr := out.write(merged)
	suite.WriteScorecard(stdout, merged)
	writeFailures(stdout, merged)
	if werr != nil {
		return &exitError{code: 2, err: werr}
	}
	return verdictExit(merged, profiles)
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments ("merge a.json --json-report m.json b.json").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// toolVersion is the harness version for reports and `a2a-conform version`:
// the -ldflags "-X main.version=..." value, else the module version the
// binary was built from (go install ...@v1.2.3, go run ...@v1.2.3), else
// "dev".
func toolVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// buildFacts is what `a2a-conform version` prints below the version.
type buildFacts struct {
	// Module is the main module's path and version ("(devel)" for a build
	// in a checkout).
	Module string
	// Revision is the VCS revision: the -ldflags "-X main.revision=..."
	// value, else the build info's vcs.revision, else "".
	Revision string
	// Modified is true when the build info says the work tree had changes.
	Modified bool
	// Time is the revision's commit time from the build info ("" if none).
	Time string
	// Go is the toolchain that built the binary.
	Go string
}

// readBuildFacts reads bi (nil: no build info) and stamp (main.revision).
// Go records vcs.revision only when it builds in a checkout with VCS
// stamping on, and never in a linked git worktree, whose .git is a file
// (golang/go#58218; one nested in another checkout even gets that
// checkout's revision). With -buildvcs=false (as GOFLAGS sets on some
// machines), a build from a source archive, or a container build without
// .git, only the -X stamp says which revision it is; so a stamp, which
// someone set on purpose, wins over the build info's VCS settings.
func readBuildFacts(bi *debug.BuildInfo, stamp string) buildFacts {
	f := buildFacts{Revision: stamp, Go: runtime.Version()}
	if bi == nil {
		return f
	}
	f.Module = strings.TrimSpace(bi.Main.Path + " " + bi.Main.Version)
	f.Go = bi.GoVersion
	if stamp != "" {
		return f
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			f.Revision = s.Value
		case "vcs.modified":
			f.Modified = s.Value == "true"
		case "vcs.time":
			f.Time = s.Value
		}
	}
	return f
}

// versionCmd prints the version, then the module, the revision and the Go
// toolchain, one per line.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("version takes no arguments, got %q", fs.Args())}
	}
	bi, _ := debug.ReadBuildInfo()
	f := readBuildFacts(bi, revision)
	fmt.Fprintln(stdout, "a2a-conform", toolVersion())
	if f.Module != "" {
		fmt.Fprintln(stdout, "  module:  ", f.Module)
	}
	rev := f.Revision
	switch {
	case rev == "":
		rev = "unknown (no VCS stamp: build in a git checkout, or add -ldflags \"-X main.revision=$(git rev-parse HEAD)\")"
	case f.Modified:
		rev += " (modified work tree)"
	}
	if f.Time != "" {
		rev += ", committed " + f.Time
	}
	fmt.Fprintln(stdout, "  revision:", rev)
	fmt.Fprintln(stdout, "  go:      ", f.Go)
	return nil
}
