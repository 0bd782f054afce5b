// Package proc is the one way wiregate runs a child process (a bench
// program under taskset, go build with its compilers, buf with its plugins
// or its node launcher, Valgrind and its tool, git, the embedded broker):
// each child leads its own process group, and the end of the context that
// started it stops the whole group, SIGTERM first so the child can clean up
// (delete a topic it was filling), SIGKILL KillAfter later. Its stderr is
// kept in a bounded Capture, and a failure is an *Error of one line.
package proc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// KillAfter is how long a cancelled group gets between SIGTERM and SIGKILL.
// wiregate's programs stop in milliseconds on SIGTERM; the margin is for a
// topic deletion on a slow broker.
const KillAfter = 3 * time.Second

// waitDelay bounds Wait after the cancel: a grandchild holding the
// stdout pipe open cannot keep the parent waiting.
const waitDelay = KillAfter + time.Second

// Cmd is one child process. Its exec.Cmd is exposed for what a caller
// sets (Dir, Env, Stdin, Stdout, pipes); Run, Output and Wait return *Error.
type Cmd struct {
	*exec.Cmd
	// Name is what errors call the child: the program's base name and, when
	// it is a subcommand, its first argument ("git fetch", "buf breaking",
	// "valgrind").
	Name   string
	ctx    context.Context
	stderr *Capture
}

// Command is exec.CommandContext(ctx, name, args...) whose child leads its
// own process group, which ctx's end stops as a whole: SIGTERM, then
// SIGKILL KillAfter later. The child also gets SIGKILL if this process dies
// first (Linux). Its stderr goes to a Capture (Captured) unless the caller
// sets Stderr.
func Command(ctx context.Context, name string, args ...string) *Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.Cancel = func() error { return stopGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	c := &Cmd{Cmd: cmd, Name: filepath.Base(name), ctx: ctx, stderr: &Capture{}}
	if len(args) > 0 && args[0] != "" && !strings.HasPrefix(args[0], "-") {
		c.Name += " " + args[0]
	}
	cmd.Stderr = c.stderr
	return c
}

// Captured is what the child wrote to stderr (bounded; see Capture).
func (c *Cmd) Captured() *Capture { return c.stderr }

// Run starts the child and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Start starts the child; an error is an *Error ("did not start").
func (c *Cmd) Start() error { return c.fail(c.Cmd.Start()) }

// Wait waits for the child to end and its output to be copied.
func (c *Cmd) Wait() error { return c.fail(c.Cmd.Wait()) }

// Output runs the child and returns its stdout, also when it failed (a
// tool that reports findings with an exit code still printed them).
func (c *Cmd) Output() ([]byte, error) {
	var out bytes.Buffer
	c.Stdout = &out
	err := c.Run()
	return out.Bytes(), err
}

// NothingToUndo makes ctx's end kill the child's whole group at once
// (SIGKILL), without SIGTERM's grace: for a child that leaves nothing to
// clean up, which the grace would only let run on (Valgrind reaches the
// counted program's signal handler a second or so after SIGTERM). Call it
// before Start.
func (c *Cmd) NothingToUndo() {
	c.Cmd.Cancel = func() error { return killGroup(c.Process.Pid) }
}

// Kill ends the child's whole group at once (SIGKILL), as a crash would.
func (c *Cmd) Kill() error {
	if c.Process == nil {
		return errors.New(c.Name + ": not started")
	}
	return killGroup(c.Process.Pid)
}

// fail turns exec's error into an *Error.
func (c *Cmd) fail(err error) error {
	if err == nil {
		return nil
	}
	e := &Error{Name: c.Name, Err: err}
	var ee *exec.ExitError
	switch {
	case c.ctx.Err() != nil:
		e.Err = context.Cause(c.ctx) // what the child made of its SIGTERM is beside the point
	case errors.As(err, &ee):
		e.Line = c.stderr.FirstLine()
	}
	return e
}

// Error is a child that did not start, failed, or was stopped by its
// context, in one line: "git fetch: fatal: …".
type Error struct {
	Name string
	// Line is the child's first non-empty stderr line ("" when it wrote
	// none, did not start, or was stopped).
	Line string
	// Err is the *exec.ExitError, the start failure, or the context's cause.
	Err error
}

func (e *Error) Error() string {
	if e.Line != "" {
		return e.Name + ": " + e.Line
	}
	return e.Name + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ExitCode is the child's exit code, or -1 when it did not exit on its own
// (not started, killed by a signal, stopped by its context).
func (e *Error) ExitCode() int {
	var ee *exec.ExitError
	if errors.As(e.Err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
