package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/parent/merge"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

func init() {
	register("merge", "one report.json from a sharded gate's parts: DIR… each holding a shard's report.json (exit 0 pass, 1 fail, 2 could not run)", cmdMerge)
}

// cmdMerge reads each DIR's report.json (a DIR may also hold one
// subdirectory per part, as a download of several artifacts does), merges
// them, and writes report.json, report.md, base.txt and head.txt into --out. Parts it
// refuses still make a report.json: the error, which renders.
func cmdMerge(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	out := fs.String("out", ".wiregate", "directory for the merged report.json, report.md, base.txt and head.txt")
	runURL := runURLFlag(fs)
	dirs, err := parseWithOperands(fs, args)
	if err != nil {
		return err
	}
	if err := mergeDirs(dirs, *out, *runURL); err != nil {
		if exitcode.Code(err) == exitcode.Unusable {
			r := report.New()
			r.Stages = append(r.Stages, report.Stage{Name: "merge", Error: subcmd.OneLine(err.Error())})
			r.Errors = append(r.Errors, "merge: "+subcmd.OneLine(err.Error()))
			verdict.Decide(r)
			if werr := writeReport(r, *out, *runURL); werr != nil {
				return werr
			}
		}
		return err
	}
	return nil
}

// mergeDirs merges the parts in dirs into out.
func mergeDirs(dirs []string, out, runURL string) error {
	if len(dirs) == 0 {
		return exitcode.BadInput("no parts to merge: no shard's report.json was given (in the action: this run has no wiregate-part-* artifact; the merge job runs after the gate jobs, with needs: and if: ${{ !cancelled() }})")
	}
	var parts []merge.Part
	var texts [2][]byte
	for _, dir := range dirs {
		found, err := partDirs(dir)
		if err != nil {
			return err
		}
		for _, d := range found {
			r, err := readReport(filepath.Join(d, "report.json"))
			if err != nil {
				return err
			}
			parts = append(parts, merge.Part{From: d, Report: r})
			for i, name := range []string{"base.txt", "head.txt"} {
				if b, err := os.ReadFile(filepath.Join(d, name)); err == nil {
					texts[i] = append(texts[i], b...)
				}
			}
		}
	}
	r, err := merge.Parts(parts)
	if err != nil {
		return err
	}
	if err := writeReport(r, out, runURL); err != nil {
		return err
	}
	for i, name := range []string{"base.txt", "head.txt"} {
		if err := os.WriteFile(filepath.Join(out, name), texts[i], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "wiregate merge: %d of %d shards, %s (%s); report: %s\n", len(r.Merged.Parts), r.Merged.Count,
		r.Result, violations(r), filepath.Join(out, "report.json"))
	return exitAs(r, "a shard could not run: see the report's errors")
}

// partDirs are the directories under dir that hold a report.json: dir
// itself, or its immediate subdirectories.
func partDirs(dir string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, exitcode.BadInput("%s: %v; pass the directories the shards' parts were downloaded to", dir, err)
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "report.json")); e.IsDir() && err == nil {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, exitcode.BadInput("%s holds no report.json, nor do its subdirectories; pass the directories the shards' parts were downloaded to", dir)
	}
	return out, nil
}

func firstOr(xs []string, otherwise string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return otherwise
}
