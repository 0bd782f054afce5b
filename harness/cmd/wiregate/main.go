// Command wiregate is the measuring engine behind the wiregate action: it
// prepares bench binaries from buf schemas, measures sizes, encode/decode cost
// and pipeline throughput, checks Avro compatibility and compares runs with
// benchstat's statistics. Each subcommand lives in its own file and registers
// itself in commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/wiregate/wiregate/harness/exitcode"
)

// command is one subcommand: run gets the arguments after the subcommand name.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string) error) {
	commands[name] = command{summary: summary, run: run}
}

func usage() string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: wiregate <command> [flags]\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-12s %s\n", n, commands[n].summary)
	}
	return b.String()
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		fmt.Fprint(os.Stderr, usage())
		os.Exit(exitcode.Unusable)
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "wiregate: unknown command %q; run `wiregate help` for the list\n", os.Args[1])
		os.Exit(exitcode.Unusable)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cmd.run(ctx, os.Args[2:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "wiregate %s: %s\n", os.Args[1], oneLine(err.Error()))
	}
	os.Exit(exitcode.Code(err))
}

// oneLine keeps an error to the single line the contract promises; multi-line
// detail (a diff, buf's output) is joined with "; ".
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}
