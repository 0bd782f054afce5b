// Package gittest gives git tests a git that commits as the test's own
// committer, a remote that asks for credentials and a user environment in
// which any prompt for them waits for minutes: a git call that consults a
// prompt hangs, one that cannot prompt fails at once.
package gittest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// AuthRemote serves HTTP on 127.0.0.1 and answers every request 401 with a
// Basic challenge, as a private repository's remote answers a client
// without credentials. asked counts the requests.
func AuthRemote(t *testing.T) (url string, asked *atomic.Int64) {
	t.Helper()
	asked = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("WWW-Authenticate", `Basic realm="wiregate-test"`)
		http.Error(w, "credentials required", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/private.git", asked
}

// HangingPrompts sets up every way git could ask for credentials to wait
// for minutes instead: an askpass program (GIT_ASKPASS, SSH_ASKPASS and
// repoDir's core.askPass), a credential helper in repoDir's config, and
// terminal prompts allowed. prompted says how many prompts were started;
// the test's end kills them.
func HangingPrompts(t *testing.T, repoDir string) (prompted func() int) {
	t.Helper()
	dir := t.TempDir()
	wait, pids := filepath.Join(dir, "wait-for-a-person"), filepath.Join(dir, "pids")
	if err := os.WriteFile(wait, []byte("#!/bin/sh\necho $$ >> "+pids+"\nexec sleep 300\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	started := func() []int {
		b, _ := os.ReadFile(pids)
		var out []int
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
		return out
	}
	// Killed until no new prompt shows up: one git started last may write
	// its pid after a first sweep, and a file written while the test's
	// temporary directory is being removed fails the test.
	t.Cleanup(func() {
		seen := -1
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
			pids := started()
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			if len(pids) == seen {
				return
			}
			seen = len(pids)
			time.Sleep(200 * time.Millisecond)
		}
	})
	t.Setenv("GIT_ASKPASS", wait)
	t.Setenv("SSH_ASKPASS", wait)
	t.Setenv("GIT_TERMINAL_PROMPT", "1")
	for _, kv := range [][2]string{{"core.askPass", wait}, {"credential.helper", "!" + wait}} {
		if out, err := exec.Command("git", "-C", repoDir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config %s: %v %s", kv[0], err, out)
		}
	}
	return func() int { return len(started()) }
}

// identity is who a test's commits are by: git refuses to commit without
// one, and a test machine need not have any.
var identity = []string{"GIT_AUTHOR_NAME=w", "GIT_AUTHOR_EMAIL=w@example.test", "GIT_COMMITTER_NAME=w", "GIT_COMMITTER_EMAIL=w@example.test"}

// Git runs git args in dir, in env (nil: this process's environment) with
// a committer of the test's own, and returns what git printed, trimmed; a
// git that fails fails the test.
func Git(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), env...), identity...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}
