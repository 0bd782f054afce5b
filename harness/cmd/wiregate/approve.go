package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("approve", "decide a report.json again with the pull request's /wiregate comments (--approvals FILE), without measuring", cmdApprove)
}

// cmdApprove reads a report (a gate's or a merge's), puts the approvals
// into its rules and decides it again: the same verdict, the same exit
// code rules, nothing re-measured.
func cmdApprove(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("approve", flag.ContinueOnError)
	in := fs.String("report", "", "the report.json to decide again")
	file := fs.String("approvals", "", "approvals.json: {comments, labeled, authors, pr_author} as the action gathers them")
	out := fs.String("out", ".wiregate", "directory for the decided report.json and report.md")
	runURL := runURLFlag(fs)
	base := fs.String("base-config", "", "the pull request base's wiregate.yaml as fetched (an empty file: the base has none): the rules are then the base's over this run's threshold inputs, never the report's own")
	fromEnv := fs.Bool("inputs-from-env", false, "with --base-config: read alpha and the thresholds from INPUT_<NAME> variables, as the action runner sets them")
	labels := fs.String("labels", "", "the pull request's label names as GitHub lists them now (a JSON array, or comma separated), instead of the report's; an allow label counts only when approvals.json's labeled names someone who may approve as its applier")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *file == "" {
		return exitcode.BadInput("want --report report.json and --approvals approvals.json; run `wiregate approve -h`")
	}
	r, err := readReport(*in)
	if err != nil {
		return err
	}
	a, err := readApprovals(*file)
	if err != nil {
		return err
	}
	if r.Rules == nil {
		r.Rules = &report.Rules{}
	}
	r.Rules.Approvals = *a
	if *base != "" {
		if err := baseRules(r, *base, *fromEnv); err != nil {
			return err
		}
	}
	if *labels != "" {
		if r.Rules.Labels, err = parseLabels(*labels); err != nil {
			return err
		}
	}
	verdict.Decide(r)
	if err := writeReport(r, *out, *runURL); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wiregate approve: %s (%s); report: %s\n", r.Result, violations(r), filepath.Join(*out, "report.json"))
	return exitAs(r, "the report says wiregate could not run")
}

// readApprovals reads an approvals.json the action wrote; of its comments
// the rules keep those that hold a command.
func readApprovals(path string) (*report.Approvals, error) {
	a, err := readFacts(path)
	if err != nil {
		return nil, err
	}
	a.Comments = verdict.WithCommands(a.Comments)
	return a, nil
}

// readFacts reads an approvals.json as the action wrote it.
func readFacts(path string) (*report.Approvals, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.BadInput("--approvals %s: %v", path, err)
	}
	var a report.Approvals
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, exitcode.BadInput("--approvals %s: not approvals JSON ({comments, labeled, authors, pr_author}): %v", path, err)
	}
	return &a, nil
}

// baseRules puts the base's rules into r in place of the report's own: a
// report is written by the pull request's run, and a fork's run can write
// any rules into it. They are the base's wiregate.yaml over this run's
// alpha and threshold inputs; a setting in which the report's differ is
// named in a warning, and the base's decide.
func baseRules(r *report.Report, path string, fromEnv bool) error {
	cfg, err := baseConfig(path, fromEnv)
	if err != nil {
		return err
	}
	if d := config.Differences(r.Rules.Config, cfg); len(d) > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("The report's own rules are not the base's %s with this workflow's inputs (%s): the base's rules decided this verdict.",
			config.FileName, strings.Join(d, "; ")))
	}
	r.Rules.Config = cfg
	return nil
}

// baseConfig is the base's wiregate.yaml at path (an empty file: the base
// has none) over this run's alpha and threshold inputs.
func baseConfig(path string, fromEnv bool) (config.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return config.Config{}, exitcode.BadInput("--base-config %s: %v", path, err)
	}
	get := func(name string) (string, string) { return "", "--" + name }
	if fromEnv {
		get = inputs.FromEnv
	}
	s, err := inputs.Parse(get)
	if err != nil {
		return config.Config{}, err
	}
	cfg, err := config.Parse(data, "the base's "+config.FileName, s.Config())
	if err != nil {
		return config.Config{}, err
	}
	if len(data) > 0 {
		cfg.Source = "the base's " + config.FileName
	}
	return cfg, nil
}
