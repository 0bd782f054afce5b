package checkout

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/gittest"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	run("config", "user.email", "t@wiregate.test")
	run("config", "user.name", "t")
	os.MkdirAll(filepath.Join(dir, "api"), 0o755)
	os.WriteFile(filepath.Join(dir, "api", "a.txt"), []byte("v1\n"), 0o644)
	run("add", ".")
	run("commit", "-qm", "v1")
	run("tag", "v1")
	os.WriteFile(filepath.Join(dir, "api", "a.txt"), []byte("v2\n"), 0o644)
	run("commit", "-qam", "v2")
	return dir
}

func TestAddChecksOutTheRefAndRemoveCleansUp(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	w, err := Add(ctx, filepath.Join(dir, "api"), "v1", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(w.Dir, "a.txt"))
	if err != nil || string(b) != "v1\n" || filepath.Base(w.Dir) != "api" {
		t.Fatalf("%s: %q %v", w.Dir, b, err)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Root); !os.IsNotExist(err) {
		t.Fatalf("worktree left behind: %v", err)
	}
	out, _ := exec.Command("git", "-C", dir, "worktree", "list").Output()
	if n := strings.Count(strings.TrimSpace(string(out)), "\n"); n != 0 {
		t.Fatalf("worktrees left registered:\n%s", out)
	}
}

func TestUnknownRefIsBadInput(t *testing.T) {
	_, err := Add(context.Background(), repo(t), "no-such-ref", t.TempDir())
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "fetch-depth: 0") || !errors.Is(err, ErrUnknownRef) {
		t.Fatalf("%v", err)
	}
	_, err = Add(context.Background(), t.TempDir(), "HEAD", t.TempDir())
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "not inside a git repository") {
		t.Fatalf("%v", err)
	}
}

func TestHeadSeesDirtyTree(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	sha, ref, dirty, err := Head(ctx, dir)
	if err != nil || len(sha) != 40 || ref != "main" || dirty {
		t.Fatalf("%s %s %v %v", sha, ref, dirty, err)
	}
	os.WriteFile(filepath.Join(dir, "api", "a.txt"), []byte("v3\n"), 0o644)
	if _, _, dirty, _ := Head(ctx, dir); !dirty {
		t.Fatal("an edited file is not dirty")
	}
	if p, _ := Prefix(ctx, filepath.Join(dir, "api")); p != "api/" {
		t.Fatalf("prefix %q", p)
	}
}

// Newest by version order, not date: v10 after v9 although v9 was tagged
// ten years later; a release after its pre-release; a glob that matches
// nothing is "".
func TestLatestTagIsNewestByVersion(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	for _, tag := range []struct{ name, date string }{{"v10", "2020-01-01T00:00:00Z"}, {"v9", "2030-01-01T00:00:00Z"},
		{"v2.0.0", "2021-01-01T00:00:00Z"}, {"v2.0.0-rc1", "2025-01-01T00:00:00Z"}, {"other-v99", "2031-01-01T00:00:00Z"}} {
		cmd := exec.Command("git", "-C", dir, "tag", "-a", "-m", tag.name, tag.name, "v1")
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+tag.date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	if out, _ := exec.Command("git", "-C", dir, "tag", "--sort=-creatordate").Output(); !strings.HasPrefix(string(out), "other-v99\nv9\n") {
		t.Fatalf("the tag dates did not take: %s", out)
	}
	for glob, want := range map[string]string{"v*": "v10", "v2.*": "v2.0.0", "v2.0.0*": "v2.0.0", "release-*": ""} {
		got, err := LatestTag(ctx, dir, glob)
		if err != nil || got != want {
			t.Errorf("LatestTag(%q) = %q, %v; want %q", glob, got, err, want)
		}
	}
}

// The base commit is not in the clone and origin asks for credentials (a
// private repository without a token): Add fails within seconds, naming
// git's error, instead of waiting for a prompt no one will answer.
func TestFetchFromACredentialRemoteFailsInSeconds(t *testing.T) {
	dir := repo(t)
	url, asked := gittest.AuthRemote(t)
	if out, err := exec.Command("git", "-C", dir, "remote", "add", "origin", url).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	prompted := gittest.HangingPrompts(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err := Add(ctx, dir, "feature-branch", t.TempDir())
	took := time.Since(start)
	if took > 5*time.Second || prompted() > 0 || asked.Load() == 0 {
		t.Fatalf("took %s, %d prompts started, remote asked %d times; want a failure within seconds, no prompt", took, prompted(), asked.Load())
	}
	if err == nil || strings.Contains(err.Error(), "\n") || !errors.Is(err, ErrUnknownRef) || exitcode.Code(err) != exitcode.Unusable {
		t.Fatalf("err %v, want one line, ErrUnknownRef, exit 2", err)
	}
	for _, want := range []string{"feature-branch", "git fetch: fatal: could not read Username", "terminal prompts disabled", "fetch-depth: 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}
