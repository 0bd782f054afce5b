package git_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/gittest"
	"github.com/wiregate/wiregate/harness/parent/git"
)

// repo is a fresh repository whose origin asks for credentials, in a
// user environment where any prompt for them hangs.
func repo(t *testing.T) (dir, url string, prompted func() int) {
	t.Helper()
	dir = t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	url, asked := gittest.AuthRemote(t)
	t.Cleanup(func() {
		if asked.Load() == 0 {
			t.Error("git never asked the remote")
		}
	})
	if out, err := exec.Command("git", "-C", dir, "remote", "add", "origin", url).CombinedOutput(); err != nil {
		t.Fatalf("git remote add: %v %s", err, out)
	}
	return dir, url, gittest.HangingPrompts(t, dir)
}

// The set-up is a real hang: plain git, asked to fetch, waits for the
// askpass program.
func TestPlainGitWaitsForAPrompt(t *testing.T) {
	dir, _, prompted := repo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "fetch", "origin", "main")
	cmd.Dir = dir
	cmd.WaitDelay = time.Second // the prompt outlives git and holds its pipes
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if ctx.Err() == nil {
		t.Fatalf("plain git did not wait for the prompt (%s, %v): %s", time.Since(start), err, out)
	}
	if prompted() == 0 {
		t.Fatal("plain git started no prompt")
	}
}

// Git that can hang: a fetch from a remote that asks
// for credentials fails within seconds, with git's fatal line as the one
// line of the error, and no prompt was started.
func TestFetchFromARemoteAskingForCredentialsFailsAtOnce(t *testing.T) {
	dir, url, prompted := repo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, args := range [][]string{{"fetch", "origin", "main"}, {"clone", url, "x"}} {
		start := time.Now()
		_, err := git.Run(ctx, dir, args...)
		took := time.Since(start)
		if err == nil {
			t.Fatalf("git %s succeeded", args[0])
		}
		msg := err.Error()
		t.Logf("%s in %s", msg, took.Round(time.Millisecond))
		if took > 5*time.Second {
			t.Errorf("git %s took %s, want a failure within seconds", args[0], took)
		}
		// clone prints "Cloning into 'x'..." first: the line is git's fatal one.
		want := "git " + args[0] + ": fatal: could not read Username for '" + strings.TrimSuffix(url, "/private.git") + "': terminal prompts disabled"
		if msg != want {
			t.Errorf("error %q, want %q", msg, want)
		}
	}
	if n := prompted(); n > 0 {
		t.Errorf("%d prompts were started", n)
	}
}
