// Package mergebase decides what a gate compares the working tree with when
// no base is given, as buf's and git's neighbours do: the merge base of
// HEAD and the branch the change goes into. In CI that branch is the CI's
// own word (GITHUB_BASE_REF on a GitHub pull request,
// CI_MERGE_REQUEST_TARGET_BRANCH_NAME in a GitLab merge request pipeline),
// fetched into a shallow, detached checkout as far as the merge base
// needs; elsewhere it is the default branch, origin/HEAD.
package mergebase

import (
	"context"
	"fmt"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/ci"
	"github.com/wiregate/wiregate/harness/parent/git"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Base is the commit a gate compares with, and how it was chosen.
type Base struct {
	// Branch is the branch the change goes into ("main"): the base's name
	// in the report.
	Branch string
	// Sha is the merge base of HEAD and that branch.
	Sha string
	// From says who named the branch: a CI variable, or origin/HEAD.
	From string
}

// What to pass when nothing names a base: the one line of exit code 2.
const nothingToGoOn = "no base to compare with: pass --against REF (a branch, tag or commit); wiregate takes the merge base with the branch GITHUB_BASE_REF or CI_MERGE_REQUEST_TARGET_BRANCH_NAME names in CI, else with origin/HEAD (git remote set-head origin --auto)"

// deepenings are how many more commits of history a shallow clone fetches,
// one step after another, before it fetches all of it.
var deepenings = []int{50, 500}

// Resolve is the base of the working tree in dir (a git checkout).
func Resolve(ctx context.Context, dir string, env ci.Env) (Base, error) {
	if _, err := git.Run(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return Base{}, exitcode.BadInput("%s is not a git checkout with a commit: run wiregate gate in one, or pass --base-dir DIR (a checkout of the base)", dir)
	}
	if run := ci.Of(env); run.Target != "" {
		return mergeBase(ctx, dir, run.Target, run.TargetVar)
	}
	head, err := git.Run(ctx, dir, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD")
	if err != nil || !strings.HasPrefix(head, "refs/remotes/origin/") {
		return Base{}, exitcode.BadInput("%s", nothingToGoOn)
	}
	branch := strings.TrimPrefix(head, "refs/remotes/origin/")
	sha, err := git.Run(ctx, dir, "merge-base", "HEAD", "refs/remotes/origin/"+branch)
	if err != nil || sha == "" {
		return Base{}, exitcode.BadInput("HEAD and origin/%s (origin/HEAD) have no commit in common: pass --against REF", branch)
	}
	return Base{Branch: branch, Sha: sha, From: "origin/HEAD"}, nil
}

// mergeBase is the merge base of HEAD and origin/branch, fetching the
// branch, and in a shallow clone as much history as that takes.
func mergeBase(ctx context.Context, dir, branch, from string) (Base, error) {
	remote := "refs/remotes/origin/" + branch
	refspec := "+refs/heads/" + branch + ":" + remote
	found := func() (Base, bool) {
		sha, err := git.Run(ctx, dir, "merge-base", "HEAD", remote)
		return Base{Branch: branch, Sha: sha, From: from}, err == nil && sha != ""
	}
	shallow := func() bool {
		out, _ := git.Run(ctx, dir, "rev-parse", "--is-shallow-repository")
		return out == "true"
	}
	if _, err := git.Run(ctx, dir, "rev-parse", "--verify", "--quiet", remote); err != nil {
		args := []string{"fetch", "--no-tags", "--quiet", "origin", refspec}
		if shallow() {
			args = append(args[:3], "--depth=1", "origin", refspec)
		}
		if _, err := git.Run(ctx, dir, args...); err != nil {
			return Base{}, exitcode.BadInput("%s names branch %s, which could not be fetched from origin (%v): pass --against REF", from, branch, err)
		}
	}
	if b, ok := found(); ok {
		return b, nil
	}
	for _, n := range deepenings {
		if !shallow() {
			break
		}
		if _, err := git.Run(ctx, dir, "fetch", "--no-tags", "--quiet", fmt.Sprintf("--deepen=%d", n), "origin", refspec); err != nil {
			return Base{}, exitcode.BadInput("fetching more history of %s from origin failed (%v): pass --against REF, or fetch with fetch-depth: 0", branch, err)
		}
		if b, ok := found(); ok {
			return b, nil
		}
	}
	if shallow() {
		if _, err := git.Run(ctx, dir, "fetch", "--no-tags", "--quiet", "--unshallow", "origin", refspec); err != nil {
			return Base{}, exitcode.BadInput("fetching the history of %s from origin failed (%v): pass --against REF, or fetch with fetch-depth: 0", branch, err)
		}
		if b, ok := found(); ok {
			return b, nil
		}
	}
	return Base{}, exitcode.BadInput("HEAD and %s (%s) have no commit in common: pass --against REF", branch, from)
}
