package mergebase

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/gittest"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// run runs git in dir and returns its trimmed output.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gittest.Git(t, dir, nil, args...)
}

func commit(t *testing.T, dir, file, text string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", file)
	run(t, dir, "commit", "-qm", text)
	return run(t, dir, "rev-parse", "HEAD")
}

// upstream is a repository with main (c1…c5), a feature branch off c3,
// and the merge GitHub makes of a pull request (refs/pull/1/merge) as the
// branch pr-merge; forked is c3.
func upstream(t *testing.T) (dir, forked, mainTip string) {
	dir = filepath.Join(t.TempDir(), "upstream")
	run(t, filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	for _, c := range []string{"c1", "c2", "c3"} {
		forked = commit(t, dir, "f", c)
	}
	run(t, dir, "checkout", "-qb", "feature")
	commit(t, dir, "g", "f1")
	run(t, dir, "checkout", "-q", "main")
	commit(t, dir, "f", "c4")
	mainTip = commit(t, dir, "f", "c5")
	run(t, dir, "checkout", "-qb", "pr-merge")
	run(t, dir, "merge", "-q", "--no-ff", "feature", "-m", "merge")
	run(t, dir, "checkout", "-q", "main")
	return dir, forked, mainTip
}

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

// A developer's clone: the merge base with the default branch, origin/HEAD.
func TestTheBaseIsTheMergeBaseWithTheDefaultBranch(t *testing.T) {
	up, forked, _ := upstream(t)
	clone := filepath.Join(t.TempDir(), "clone")
	run(t, filepath.Dir(clone), "clone", "-q", up, clone)
	run(t, clone, "checkout", "-q", "feature")
	commit(t, clone, "h", "f2")
	wantBase(t, clone, nil, Base{Branch: "main", Sha: forked, From: "origin/HEAD"})
}

// shallowCI is a CI's clone of branch: one commit deep, detached.
func shallowCI(t *testing.T, up, branch string) string {
	ci := filepath.Join(t.TempDir(), "ci")
	run(t, filepath.Dir(ci), "clone", "-q", "--depth=1", "--branch", branch, "file://"+up, ci)
	run(t, ci, "checkout", "-q", "--detach")
	if run(t, ci, "rev-parse", "--is-shallow-repository") != "true" {
		t.Fatal("the clone is not shallow")
	}
	return ci
}

func wantBase(t *testing.T, dir string, vars map[string]string, want Base) {
	t.Helper()
	b, err := Resolve(context.Background(), dir, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	if b != want {
		t.Errorf("%+v, want %s at %s", b, want.Branch, want.Sha[:7])
	}
}

// GitHub checks a pull request out as its merge commit, one commit deep
// and detached; GITHUB_BASE_REF names the base branch, which the clone
// does not have: it is fetched, and as much history as the merge base
// needs.
func TestAShallowDetachedGitHubCheckoutFindsItsBase(t *testing.T) {
	up, _, mainTip := upstream(t)
	wantBase(t, shallowCI(t, up, "pr-merge"), map[string]string{"GITHUB_BASE_REF": "main"}, Base{Branch: "main", Sha: mainTip, From: "GITHUB_BASE_REF"})
}

// GitLab checks a merge request's head out detached and shallow;
// CI_MERGE_REQUEST_TARGET_BRANCH_NAME names the branch it goes into.
func TestAShallowGitLabCheckoutFindsItsBase(t *testing.T) {
	up, forked, _ := upstream(t)
	wantBase(t, shallowCI(t, up, "feature"), map[string]string{"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"},
		Base{Branch: "main", Sha: forked, From: "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"})
}

// With nothing to go on — no CI variable, no origin/HEAD — one line says
// what to pass; a branch the CI names that origin lacks is one line too.
func TestNothingToGoOnIsOneLineSayingWhatToPass(t *testing.T) {
	lone := filepath.Join(t.TempDir(), "lone")
	run(t, filepath.Dir(lone), "init", "-q", lone)
	commit(t, lone, "f", "c1")
	for _, c := range []struct {
		dir  string
		env  map[string]string
		want string
	}{
		{lone, nil, "no base to compare with: pass --against REF"},
		{t.TempDir(), nil, "is not a git checkout with a commit: run wiregate gate in one, or pass --base-dir DIR"},
		{lone, map[string]string{"GITHUB_BASE_REF": "main"}, "GITHUB_BASE_REF names branch main, which could not be fetched from origin"},
	} {
		_, err := Resolve(context.Background(), c.dir, env(c.env))
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v", c.env, err)
		}
	}
}
