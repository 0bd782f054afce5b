// Command wiregate is the measuring engine behind the wiregate action: it
// prepares bench programs from buf schemas, measures sizes, encode/decode
// cost and pipeline throughput, checks Avro compatibility, compares runs
// with benchstat's statistics, and runs the whole gate. Each subcommand
// lives in its own file and registers itself; dispatch, usage, signals and
// exit codes are package subcmd's, shared with the bench programs.
package main

import (
	"context"
	"flag"
	"time"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// grace is how long a command may take to stop after SIGINT or SIGTERM
// before wiregate exits anyway (code 2): an interrupted gate stops its
// children, deletes its topics, closes its broker and writes report.json in
// well under it, and a cancelled CI job must not wait on wiregate past 10 s.
const grace = 9 * time.Second

var commands = subcmd.New("wiregate")

func register(name, summary string, run func(ctx context.Context, args []string) error) {
	commands.Add(subcmd.Command{Name: name, Summary: summary, Run: run})
}

func main() { commands.Main(grace) }

// parseFlags parses a command's flags the way every wiregate command does
// (-h prints them and exits 0; a bad flag is exit code 2 with one line).
func parseFlags(fs *flag.FlagSet, args []string) error { return subcmd.Parse("wiregate", fs, args) }

// splitList splits a comma or newline separated input.
func splitList(s string) []string { return benchprog.SplitList(s) }
