package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("commands", "say which comments of an approvals.json hold /wiregate commands, and whether their authors may give them", cmdCommands)
}

// cmdCommands writes what each comment of an approvals.json holds for
// wiregate (verdict.HeldCommands) as JSON: approve mode asks it whether a
// triggering comment, as it reads now or read before its edit or
// deletion, can change a verdict before it asks GitHub for more.
func cmdCommands(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("commands", flag.ContinueOnError)
	file := fs.String("approvals", "", "approvals.json: {comments, authors, pr_author} as the action gathers them")
	out := fs.String("out", "", "where to write {comments: [{id, author, commands, refused}], approver_teams}: approver_teams are the org/team approvers, whose membership the authors' facts may lack")
	base := fs.String("base-config", "", "the pull request base's wiregate.yaml as fetched (an empty file: the base has none); without it, authors are judged by the default rules")
	fromEnv := fs.Bool("inputs-from-env", false, "with --base-config: read the inputs from INPUT_<NAME> variables, as the action runner sets them")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *file == "" || *out == "" {
		return exitcode.BadInput("want --approvals approvals.json and --out held.json; run `wiregate commands -h`")
	}
	a, err := readFacts(*file)
	if err != nil {
		return err
	}
	if *base == "" {
		*base = os.DevNull
	}
	cfg, err := baseConfig(*base, *fromEnv)
	if err != nil {
		return err
	}
	var teams []string
	for _, ap := range cfg.Approvers {
		if strings.Contains(ap, "/") {
			teams = append(teams, ap)
		}
	}
	b, err := json.Marshal(map[string]any{"comments": verdict.HeldCommands(*a, cfg), "approver_teams": teams})
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return exitcode.BadInput("--out %s: %v", *out, err)
	}
	return nil
}
