// Package git runs git for wiregate (the base checkout, the history
// branch, earlier versions of an Avro schema) so that no git call can wait
// for a person (a remote that asks for credentials fails at once, with
// git's own error as one line) or run a program the checkout names. Every
// call runs through package proc.
package git

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/program/proc"
)

// noPrompts are the -c options of every call: no credential helper (one
// such as Git Credential Manager may open a prompt or a browser) and a
// stalled HTTP transfer abandoned after a minute below 1 KB/s. Credentials
// a runner has still work: actions/checkout puts its token in an
// http.extraheader, and an ssh key needs no prompt.
var noPrompts = []string{
	"-c", "credential.helper=",
	"-c", "http.lowSpeedLimit=1000",
	"-c", "http.lowSpeedTime=60",
}

// noCheckoutCode are -c options of every call too: git runs no program a
// checkout names. An implicit bare repository is refused (a pull request
// can commit one, HEAD, objects/, refs/ and a config with a core.fsmonitor
// command, in the working directory a gate runs git in); no fsmonitor and
// no hooks run whatever the clone's configuration says.
var noCheckoutCode = []string{
	"-c", "safe.bareRepository=explicit",
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
}

// noPromptEnv is added to every call's environment: no terminal prompt, no
// askpass program (an empty GIT_ASKPASS also overrides core.askPass and
// SSH_ASKPASS), Git Credential Manager non-interactive.
var noPromptEnv = []string{
	"GIT_TERMINAL_PROMPT=0",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
	"SSH_ASKPASS_REQUIRE=never",
	"GCM_INTERACTIVE=never",
}

// sshBatch makes ssh fail rather than ask (a passphrase, an unknown host
// key); set only when the user has not chosen an ssh command of their own.
const sshBatch = "GIT_SSH_COMMAND=ssh -o BatchMode=yes"

// Command is `git args…` in dir, bounded by ctx like every child (package
// proc) and unable to prompt. Callers may add to its Env and set Stdin.
func Command(ctx context.Context, dir string, args ...string) *proc.Cmd {
	c := proc.Command(ctx, "git", slices.Concat(noPrompts, noCheckoutCode, args)...)
	c.Dir = dir
	c.Env = append(os.Environ(), noPromptEnv...)
	if os.Getenv("GIT_SSH_COMMAND") == "" && os.Getenv("GIT_SSH") == "" {
		c.Env = append(c.Env, sshBatch)
	}
	if len(args) > 0 {
		c.Name = "git " + args[0]
	}
	return c
}

// Run runs git and returns its trimmed stdout (Output's errors).
func Run(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Output(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

// Output runs git and returns its stdout as is. A failure is one line:
// "git <command>: " and git's error (its first fatal: or error: line).
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	c := Command(ctx, dir, args...)
	out, err := c.Output()
	return out, Explain(c, err)
}

// Call is one git call with what Run and Output do not give it: stdin,
// and more environment (a committer's identity).
type Call struct {
	Stdin []byte
	Env   []string
}

// Do runs git args… in dir as c says, and returns its stdout, its (bounded)
// stderr, and Output's error.
func (c Call) Do(ctx context.Context, dir string, args ...string) (stdout, stderr []byte, err error) {
	cmd := Command(ctx, dir, args...)
	cmd.Env = append(cmd.Env, c.Env...)
	if c.Stdin != nil {
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	out, err := cmd.Output()
	return out, []byte(cmd.Captured().String()), Explain(cmd, err)
}

// Text is Do's stdout, trimmed.
func (c Call) Text(ctx context.Context, dir string, args ...string) (string, error) {
	out, _, err := c.Do(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

// Explain makes err, from running c, name git's own error: git may print
// progress or hints before it, so the first "fatal:" or "error:" line is
// the line, else proc's (the first).
func Explain(c *proc.Cmd, err error) error {
	var pe *proc.Error
	if !errors.As(err, &pe) || pe.Line == "" {
		return err
	}
	for _, l := range strings.Split(c.Captured().String(), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "fatal:") || strings.HasPrefix(l, "error:") {
			pe.Line = l
			break
		}
	}
	return err
}
