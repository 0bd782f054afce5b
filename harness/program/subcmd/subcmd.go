// Package subcmd is the one subcommand registry of wiregate's two kinds of
// program: the CLI (cmd/wiregate) and every generated bench program
// (package runner). It dispatches the arguments, prints usage, turns a
// command's error into one line and an exit code (package exitcode), and
// gives every command a context that the first SIGINT or SIGTERM cancels,
// with the signal as the cause.
package subcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Command is one subcommand. Run gets the arguments after its name.
type Command struct {
	Name string
	// Summary is the line usage prints; empty hides an internal command
	// (one that only other wiregate processes call) from usage.
	Summary string
	Run     func(ctx context.Context, args []string) error
	// NoCleanup: the command has nothing to undo when stopped (a benchmark
	// inside testing.Benchmark cannot even watch its context), so the first
	// signal exits the program at once, with code 2.
	NoCleanup bool
}

// Registry is a program's subcommands.
type Registry struct {
	program  string
	commands map[string]Command
}

// New is an empty registry for the program named in usage and error lines.
func New(program string) *Registry {
	return &Registry{program: program, commands: map[string]Command{}}
}

// Add registers c; a second command of the same name is a programming error.
func (r *Registry) Add(c Command) {
	if _, dup := r.commands[c.Name]; dup {
		panic("subcmd: command " + c.Name + " registered twice")
	}
	r.commands[c.Name] = c
}

// Usage lists the visible commands with their summaries.
func (r *Registry) Usage() string {
	var names []string
	for n, c := range r.commands {
		if c.Summary != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s <command> [flags]\n\ncommands:\n", r.program)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-14s %s\n", n, r.commands[n].Summary)
	}
	fmt.Fprintf(&b, "\n`%s <command> -h` lists a command's flags.\n", r.program)
	return b.String()
}

// Run dispatches args (without the program name) and returns the exit code.
// Help (no command, help, -h, --help, or -h after a command) goes to stdout
// and is exit code 0; every failure is one line on stderr,
// "<program> <command>: <error>". When ctx was cancelled (a signal), the
// line names the cause instead of whatever the command made of it.
func (r *Registry) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprint(stdout, r.Usage())
		return exitcode.OK
	}
	c, ok := r.commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q; run `%s help` for the list\n", r.program, args[0], r.program)
		return exitcode.Unusable
	}
	err := c.Run(ctx, args[1:])
	var h *help
	switch {
	case err == nil:
		return exitcode.OK
	case errors.As(err, &h):
		fmt.Fprint(stdout, h.text)
		return exitcode.OK
	case ctx.Err() != nil && context.Cause(ctx) != nil:
		err = context.Cause(ctx)
	}
	fmt.Fprintf(stderr, "%s %s: %s\n", r.program, c.Name, OneLine(err.Error()))
	return exitcode.Code(err)
}

// Main runs the command os.Args names and exits with its code. The first
// SIGINT or SIGTERM cancels the command's context (cause: Interrupted); a
// command still running grace later is cut short with exit code 2, so a
// cancelled CI job never waits on wiregate.
func (r *Registry) Main(grace time.Duration) {
	if len(os.Args) > 1 && r.commands[os.Args[1]].NoCleanup {
		grace = 0
	}
	ctx, stop := notifyContext(context.Background(), r.program, grace)
	code := r.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// OneLine keeps an error to the single line wiregate's contract promises:
// multi-line detail (a diff, buf's output) is joined with "; ", blank lines
// are dropped, and runs of spaces and tabs become one space.
func OneLine(s string) string {
	var parts []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, "; ")
}
