package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/checkout"
	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("gate", "run every stage for base vs head and write report.json (exit 0 pass, 1 fail, 2 could not run)", cmdGate)
}

func cmdGate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	options := gateFlags(fs)
	format := fs.String("format", "", "also print the report to stdout: "+formatNames)
	runURL := runURLFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "" {
		if err := checkFormat(*format); err != nil {
			return err
		}
	}
	o, err := options(ctx)
	if err != nil {
		return err
	}
	rctx := renderContext(*runURL)
	r, err := gate.Run(ctx, o)
	var markdown string
	if r != nil {
		// Written whatever stopped the run: the report renders.
		var merr error
		if markdown, merr = writeMarkdown(r, o.Out, rctx); err == nil {
			err = merr
		}
	}
	if err != nil {
		return err
	}
	if *format != "" {
		text := markdown // report.md's, rendered once
		if *format != "markdown" {
			if text, err = formats[*format](r, rctx); err != nil {
				return err
			}
		}
		fmt.Print(text)
	}
	fmt.Fprintf(os.Stderr, "wiregate: %s (%s); report: %s\n", r.Result, violations(r), filepath.Join(o.Out, "report.md"))
	return exitAs(r, "see the report's errors")
}

// exitAs is the process's exit for a decided report: the report's own
// exit_code, with its first error (or unusable, when it has none) or its
// violations as the one line main prints.
func exitAs(r *report.Report, unusable string) error {
	switch r.ExitCode {
	case exitcode.Unusable:
		return &exitcode.Error{Code: r.ExitCode, Err: fmt.Errorf("%s", firstOr(r.Errors, unusable))}
	case exitcode.Failed:
		return &exitcode.Error{Code: r.ExitCode, Err: fmt.Errorf("gate failed: %s", violations(r))}
	}
	return nil
}

// gateFlags defines the flags of a gate run on fs (every gate input, the
// base, the report's names, where things go) and returns what reads them
// into Options once fs is parsed: `wiregate gate` and `wiregate plan`
// take the same flags.
func gateFlags(fs *flag.FlagSet) func(context.Context) (gate.Options, error) {
	var o gate.Options
	const against = "what to compare with: a branch, tag or commit, checked out as a git worktree of the working directory's repository (default: the merge base of HEAD and the branch the change goes into: GITHUB_BASE_REF or CI_MERGE_REQUEST_TARGET_BRANCH_NAME in CI, else origin/HEAD)"
	fs.StringVar(&o.BaseRef, "against", "", against)
	fs.StringVar(&o.BaseRef, "base-ref", "", "the same as --against")
	fs.StringVar(&o.BaseDir, "base-dir", "", "an existing checkout of the base instead of --base-ref")
	fs.StringVar(&o.BaseLabel, "base-label", "", "the base's name in the report (default: --base-ref; for --base-dir, its git sha, or its path when it is not a git checkout)")
	fs.StringVar(&o.HeadLabel, "head-label", "", "the head's name in the report (default: its branch)")
	fs.StringVar(&o.HeadSha, "head-sha", "", "the head's sha in the report (default: git's, +dirty for a changed tree)")
	fs.BoolVar(&o.RecordHistory, "record-history", false, "append head's exact figures to the history branch (the action sets it on a push to the default branch) instead of reading it")
	labels := fs.String("labels", "", "the PR's label names: a JSON array, or comma separated")
	approvals := fs.String("approvals", "", "approvals.json: the PR's /wiregate comments and their authors, as the action gathers them")
	fs.StringVar(&o.Out, "out", ".wiregate", "directory for report.json, report.md, base.txt, head.txt, benchstat.txt")
	fs.StringVar(&o.HarnessDir, "harness-dir", "", "a wiregate checkout's harness/, for developing wiregate (default: $WIREGATE_HARNESS, else the source this binary carries; never looked for in the checkout judged)")
	fs.StringVar(&o.Buf, "buf", "", "buf binary (default: $WIREGATE_BUF, buf on PATH outside the checkout judged, or node_modules/.bin/buf beside --harness-dir)")
	fs.StringVar(&o.CacheDir, "cache-dir", "", "where prepared bench programs are kept (default $WIREGATE_CACHE or the user cache dir)")
	fs.StringVar(&o.TmpDir, "tmp-dir", "", "where the base worktree goes (default: the system's temp dir)")
	stages := fs.String("stages-before", "", "JSON array of {name, seconds, note} the caller ran before the gate, listed first in the report")
	fromEnv := fs.Bool("inputs-from-env", false, "read inputs not given as flags from INPUT_<NAME> variables, as the action runner sets them")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	given := map[string]*string{}
	for _, in := range inputs.Table {
		if in.Owner != inputs.Action {
			given[in.Name] = fs.String(in.Name, "", fmt.Sprintf("%s (default %q)", in.Doc, in.Default))
		}
	}
	return func(ctx context.Context) (gate.Options, error) {
		o.Inputs = func(name string) (string, string) {
			if v := given[name]; v != nil && *v != "" {
				return *v, "--" + name
			}
			if *fromEnv {
				return inputs.FromEnv(name)
			}
			return "", "--" + name
		}
		var err error
		if o.Labels, err = parseLabels(*labels); err != nil {
			return o, err
		}
		if *approvals != "" {
			if o.Approvals, err = readApprovals(*approvals); err != nil {
				return o, err
			}
		}
		if *stages != "" {
			if err := json.Unmarshal([]byte(*stages), &o.StagesBefore); err != nil {
				return o, exitcode.BadInput("--stages-before: not a JSON array of stages: %v", err)
			}
		}
		if o.BaseDir != "" {
			label, err := baseDirLabel(ctx, o.BaseDir)
			if err != nil {
				return o, err
			}
			if o.BaseLabel == "" {
				o.BaseLabel = label
			}
		}
		// The bench programs run elsewhere: every path they get is absolute.
		for _, p := range []*string{&o.BaseDir, &o.Out, &o.HarnessDir, &o.CacheDir, &o.TmpDir} {
			if *p != "" {
				if abs, err := filepath.Abs(*p); err == nil {
					*p = abs
				}
			}
		}
		if !*quiet {
			o.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
		}
		return o, nil
	}
}

// baseDirLabel checks --base-dir before any stage runs (a stage after
// another would report it late, among other failures) and names it for the
// report: its commit when git knows one, else the path as given.
func baseDirLabel(ctx context.Context, dir string) (string, error) {
	const fix = "pass an existing checkout of the base, or --against REF to check one out"
	if st, err := os.Stat(dir); err != nil {
		return "", exitcode.BadInput("--base-dir %s: no such directory; %s", dir, fix)
	} else if !st.IsDir() {
		return "", exitcode.BadInput("--base-dir %s: a file, not a directory; %s", dir, fix)
	}
	if sha, _, _, err := checkout.Head(ctx, dir); err == nil && sha != "" {
		return checkout.Short(sha), nil
	}
	return filepath.Clean(dir), nil
}

// parseLabels reads label names: a JSON array (names may hold commas), or
// a comma-separated list.
func parseLabels(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var names []string
		if err := json.Unmarshal([]byte(s), &names); err != nil {
			return nil, exitcode.BadInput("--labels %q: not a JSON array of strings: %v", s, err)
		}
		return names, nil
	}
	return benchprog.SplitList(s), nil
}

// violations is "1 violation" or "3 violations (1 allowed or approved)".
func violations(r *report.Report) string {
	n, allowed := len(r.Violations), 0
	for _, v := range r.Violations {
		if !v.Blocking() {
			allowed++
		}
	}
	s := fmt.Sprintf("%d violation", n)
	if n != 1 {
		s += "s"
	}
	if allowed > 0 {
		s += fmt.Sprintf(" (%d allowed or approved)", allowed)
	}
	return s
}
