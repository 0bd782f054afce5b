package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

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
	file := fs.String("approvals", "", "approvals.json: {comments, authors, pr_author} as the action gathers them")
	out := fs.String("out", ".wiregate", "directory for the decided report.json")
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
	verdict.Decide(r)
	if err := writeReport(r, *out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wiregate approve: %s (%s); report: %s\n", r.Result, violations(r), filepath.Join(*out, "report.json"))
	return exitAs(r, "the report says wiregate could not run")
}

// readApprovals reads an approvals.json the action wrote.
func readApprovals(path string) (*report.Approvals, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.BadInput("--approvals %s: %v", path, err)
	}
	var a report.Approvals
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, exitcode.BadInput("--approvals %s: not approvals JSON ({comments, authors, pr_author}): %v", path, err)
	}
	return &a, nil
}
